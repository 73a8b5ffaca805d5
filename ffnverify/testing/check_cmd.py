"""`ffnverify check TARGET --variant V [--layout L]`: the conformance kit from the command line.

TARGET is `package.module:factory` with `factory(d, h, bias) -> torch.nn.Module`. Without
--d/--h/--n the kit draws shapes and values with Hypothesis (--max-examples per bias
setting); with them it runs the one case a failure report's reproducer names.
Exit 0 conformant, 1 not conformant (the failure report is printed), 2 error: the target
cannot be imported, bad usage, or torch/hypothesis are missing.
"""

import importlib
import os
import re
import sys

DTYPE_CHOICES = ("float64", "float32", "bfloat16", "float16")


def add_arguments(p):
    p.add_argument("target", metavar="TARGET", help="package.module:factory")
    p.add_argument("--variant", required=True, help="FFN variant, e.g. swiglu, geglu_tanh, relu")
    p.add_argument("--layout", default="auto",
                   help="auto (default: found from the module's parameter names and shapes, "
                        "chunk order numerically; the report says which), a built-in layout "
                        "(hf, torchtune, phi3, gpt2, neox, t5, ...: see the docs), or a JSON "
                        "mapping {name: [attribute path, transform]}")
    p.add_argument("--bias", choices=("both", "true", "false"), default="both",
                   help="bias settings to check (default both; false for modules without bias)")
    p.add_argument("--dtypes", nargs="+", default=None, metavar="DTYPE",
                   help=f"dtypes, in order (default: {' '.join(DTYPE_CHOICES)}; "
                        "on cuda: float32 bfloat16 float16)")
    p.add_argument("--device", default="cpu", help="cpu or cuda (default cpu)")
    p.add_argument("--max-examples", type=int, default=None,
                   help="Hypothesis examples per bias setting (default 100)")
    p.add_argument("--act-eval", choices=("auto", "fused", "op-by-op"), default="auto",
                   help="how the module evaluates its activation in bfloat16/float16: fused "
                        "(in float32, rounded once, as F.gelu), op-by-op (each tensor "
                        "operation rounded, as gelu_new or x*sigmoid(x)), or auto (default: "
                        "the fused bound, else the op-by-op one; the report says which)")
    p.add_argument("--seed", type=int, default=None,
                   help="Hypothesis seed; with --d/--h/--n: the seed of the drawn values")
    p.add_argument("--d", type=int, help="model width of a single case (reproducer)")
    p.add_argument("--h", type=int, help="hidden width of a single case (reproducer)")
    p.add_argument("--n", type=int, help="tokens of a single case (reproducer)")
    p.add_argument("--no-shrink", action="store_true", help="report the first failing draw")
    add_module_options(p)


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


def _error(msg):
    print(f"ffnverify check: error: {msg}", file=sys.stderr)
    return 2


def load_target(target):
    """The object named by 'package.module:attr' (ImportError/AttributeError/ValueError)."""
    mod_name, sep, attr = target.partition(":")
    if not sep or not mod_name or not attr:
        raise ValueError(f"TARGET must look like package.module:factory, got {target!r}")
    if os.getcwd() not in sys.path:  # like `python -m`: modules in the current directory
        sys.path.insert(0, os.getcwd())
    obj = importlib.import_module(mod_name)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def _layout(text):
    from ffnverify.testing import layouts

    return layouts.parse(text)


_H_RULE = re.compile(r"\s*(\d+)\s*\*\s*d\s*(?:/\s*(\d+)\s*)?")


def h_rule(text):
    """h_of(d) from --h-of: 'K*d', 'K*d/M' (floor division) or an importable function;
    the function carries `cli_text` (reproducers print it back). ValueError otherwise."""
    m = _H_RULE.fullmatch(text)
    if m:
        k, div = int(m.group(1)), int(m.group(2) or 1)
        if k < 1 or div < 1:
            raise ValueError(f"--h-of {text!r}: K and M must be positive")

        def h_of(d):
            return k * d // div
    elif ":" in text:
        fn = load_target(text)
        if not callable(fn):
            raise ValueError(f"--h-of {text!r} is not callable")

        def h_of(d):
            return int(fn(d))
    else:
        raise ValueError(f"--h-of {text!r}: expected K*d, K*d/M or MODULE:FUNCTION")
    h_of.cli_text = text
    return h_of


def module_options(args):
    """{call, extra_params, d_multiple_of, h_of} from the parsed options (ValueError,
    ImportError, AttributeError on a bad one)."""
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


class Progress:
    """Examples run so far, on stderr, once a run takes longer than DELAY seconds (at most
    one line a second; on a terminal, one line rewritten)."""

    DELAY = 1.5

    def __init__(self, stream=None):
        import time

        self.stream = stream or sys.stderr
        self.clock = time.monotonic
        self.start = self.last = self.clock()
        self.shown = False
        self.tty = getattr(self.stream, "isatty", lambda: False)()

    def __call__(self, bias, run, total):
        now = self.clock()
        if now - self.start < self.DELAY or now - self.last < 1.0:
            return
        self.last, self.shown = now, True
        line = f"ffnverify check: bias={bias}: {run}/{total} examples ({now - self.start:.0f} s)"
        self.stream.write(("\r" + line) if self.tty else line + "\n")
        self.stream.flush()

    def shrinking(self, case, seconds):
        """A smaller failing case, found `seconds` into the (time-bounded) shrink."""
        now = self.clock()
        if now - self.last < 1.0 and self.shown:
            return
        self.last, self.shown = now, True
        line = (f"ffnverify check: shrinking: fails at d={case.d} h={case.h} n={case.n} "
                f"({seconds:.0f} s)")
        self.stream.write(("\r" + line) if self.tty else line + "\n")
        self.stream.flush()

    def done(self):
        if self.shown and self.tty:
            self.stream.write("\n")
            self.stream.flush()
        self.shown = False


def run(args) -> int:
    try:
        import hypothesis  # noqa: F401
        import torch
    except ImportError as exc:
        return _error(f"{exc.name} is required: pip install torch hypothesis")
    from ffnverify.backends.variants import lookup
    from ffnverify.testing import conformance, layouts

    single = (args.d, args.h, args.n)
    if any(v is not None for v in single) and None in single:
        return _error("--d, --h and --n go together (one case), or none of them")
    try:
        lookup(args.variant)
        layout = _layout(args.layout)
        if layout != "auto":
            layouts.mapping(lookup(args.variant)[1], layout)
    except (KeyError, ValueError) as exc:
        return _error(str(exc).strip("'\""))
    if args.device.startswith("cuda") and not torch.cuda.is_available():
        return _error("--device cuda but torch sees no CUDA device")
    default_dtypes = conformance.DTYPES
    if args.device.startswith("cuda"):
        default_dtypes = ("float32", "bfloat16", "float16")
    dtypes = tuple(args.dtypes or default_dtypes)
    bad = [dt for dt in dtypes if dt not in DTYPE_CHOICES]
    if bad:
        return _error(f"unknown dtype(s) {bad}; choose from {', '.join(DTYPE_CHOICES)}")
    try:
        factory = load_target(args.target)
    except Exception as exc:  # any import-time error of user code is "cannot import"
        return _error(f"cannot import {args.target}: {type(exc).__name__}: {exc}")
    if not callable(factory):
        return _error(f"{args.target} is not callable")
    try:
        opts = module_options(args)
    except Exception as exc:
        return _error(f"{type(exc).__name__}: {exc}" if not isinstance(exc, ValueError)
                      else str(exc))
    biases = {"both": (False, True), "true": (True,), "false": (False,)}[args.bias]
    try:
        if args.d is not None:
            skipped = set()
            for b in biases:
                skipped |= set(conformance.check_example(
                    factory, args.variant, layout, b, args.seed or 0, args.d, args.h, args.n,
                    args.device, dtypes, target=args.target, act_eval=args.act_eval,
                    **opts))
            note = f" (vacuous, not judged: {', '.join(sorted(skipped))})" if skipped else ""
            print(f"conformant: one case d={args.d} h={args.h} n={args.n} seed={args.seed or 0}"
                  f" bias={'/'.join(str(b) for b in biases)}; dtypes {', '.join(dtypes)}{note}")
            return 0
        progress = Progress()
        report = conformance.check_ffn(
            factory, args.variant, layout, biases, args.device, dtypes,
            args.max_examples or conformance.DEFAULT_MAX_EXAMPLES, args.seed,
            shrink=not args.no_shrink, target=args.target, act_eval=args.act_eval,
            progress=progress, **opts)
        progress.done()
    except conformance.ConformanceFailure as failure:
        if args.d is None:
            progress.done()
        print(failure.report())
        return 1
    except conformance.Vacuous as exc:
        return _error(f"this case cannot discriminate (anti-vacuity): {exc}")
    print(report.summary())
    return 0
