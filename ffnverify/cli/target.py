"""The TARGET argument that check, bench and identify share: the positional argument,
the options that say how to build and call the module, and loading the factory with the
one error wording all three print (exit 2)."""

from ffnverify.targets import (  # noqa: F401 (TargetError, load_factory: the commands')
    TargetError,
    h_rule,
    load_factory,
    load_target,
)

TARGET_HELP = "package.module:factory"


def add_target(p, help=TARGET_HELP):
    """The positional TARGET."""
    p.add_argument("target", metavar="TARGET", help=help)


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
