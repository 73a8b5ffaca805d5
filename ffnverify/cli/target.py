"""The TARGET argument that check, bench and identify share: the positional argument,
the options that name what TARGET computes (--variant, --layout, --device: each defined
here once), the options that say how to build and call the module, and loading the factory
with the one error wording all three print (exit 2)."""

from ffnverify.targets import (  # noqa: F401 (TargetError, load_factory: the commands')
    TargetError,
    h_rule,
    load_factory,
    load_target,
)

TARGET_HELP = "package.module:factory"
VARIANT_HELP = "FFN variant, e.g. swiglu, geglu_tanh, relu"
LAYOUT_HELP = ("auto (default: found from the module's parameter names and shapes, chunk "
               "order numerically; the report says which), a built-in layout (hf, torchtune, "
               "phi3, gpt2, neox, t5, ...: see the docs), or a JSON mapping {name: "
               "[attribute path, transform]}")
DEVICE_HELP = "cpu or cuda (default cpu)"


def add_target(p, help=TARGET_HELP):
    """The positional TARGET."""
    p.add_argument("target", metavar="TARGET", help=help)


def add_variant(p):
    """--variant, required (check, bench): a name of backends.variants' table, checked by
    each command with `lookup` (its error says the nearest name)."""
    p.add_argument("--variant", required=True, help=VARIANT_HELP)


def add_layout(p, default="auto", help=LAYOUT_HELP):
    """--layout: where the module keeps its weights, read by `read_layout`. check and bench
    detect it by default ("auto"); identify passes default=None and its own help (without
    it, identify judges every built-in layout)."""
    p.add_argument("--layout", default=default, help=help)


def add_device(p):
    """--device (check, bench)."""
    p.add_argument("--device", default="cpu", help=DEVICE_HELP)


def read_layout(text):
    """--layout's value: "auto" or a built-in name as given, a JSON mapping as a dict
    (ValueError says what is wrong with it: a name that is no built-in layout with the
    closest one, as a mistyped command or variant)."""
    from ffnverify.cli import did_you_mean
    from ffnverify.testing import layouts

    layout = layouts.parse(text)
    if isinstance(layout, str) and layout != "auto" and layout not in layouts.LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}{did_you_mean(layout, layouts.LAYOUTS)}; "
                         f"built-in layouts: {', '.join(layouts.LAYOUTS)}")
    return layout


def add_module_options(p):
    """The options that say how to build and call the module (check and identify)."""
    p.add_argument("--call", metavar="MODULE:FUNCTION",
                   help="call(module, x) -> y for forwards that take more arguments or "
                        "return a tuple (e.g. ffnverify.testing:megatron_call)")
    p.add_argument("--extra-params", nargs="+", default=(), metavar="PATTERN",
                   help="fnmatch patterns of parameters outside the FFN (a router, a norm): "
                        "not counted, not filled; the matmul FLOPs of the submodules that "
                        "hold them are counted apart")
    p.add_argument("--d-multiple-of", type=int, default=None, metavar="K",
                   help="draw only model widths d that are multiples of K (a config that "
                        "needs heads | d, an even head_dim)")
    p.add_argument("--experts", type=int, default=None, metavar="I",
                   help="an experts module (MoE): check expert I, every token routed to it "
                        "(layouts mixtral-experts, dbrx-experts, litgpt-moe)")
    p.add_argument("--h-of", default=None, metavar="RULE",
                   help="the hidden width as a function of d: K*d, K*d/M (integer division) "
                        "or MODULE:FUNCTION")


def module_options(args):
    """{call, extra_params, d_multiple_of, experts, h_of} from the parsed options
    (ValueError, ImportError, AttributeError on a bad one)."""
    call = None
    if args.call:
        call = load_target(args.call)
        if not callable(call):
            raise ValueError(f"--call {args.call} is not callable")
    if args.d_multiple_of is not None and args.d_multiple_of < 1:
        raise ValueError("--d-multiple-of must be at least 1")
    if args.experts is not None and args.experts < 0:
        raise ValueError("--experts must be at least 0")
    return {"call": call, "extra_params": tuple(args.extra_params or ()),
            "d_multiple_of": args.d_multiple_of, "experts": args.experts,
            "h_of": h_rule(args.h_of) if args.h_of else None}
