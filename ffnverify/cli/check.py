"""`ffnverify check TARGET --variant V [--layout L]`: the conformance kit from the command line.

TARGET is `package.module:factory` with `factory(d, h, bias) -> torch.nn.Module`. Without
--d/--h/--n the kit draws shapes and values with Hypothesis (--max-examples per bias
setting); with them it runs the one case a failure report's reproducer names.
Exit 0 conformant, 1 not conformant (the failure report is printed), 2 error: the target
cannot be imported, bad usage, or torch/hypothesis are missing.
"""

import sys

from ffnverify.cli.target import (
    TargetError,
    add_device,
    add_layout,
    add_module_options,
    add_target,
    add_variant,
    load_factory,
    module_options,
    read_layout,
)

DTYPE_CHOICES = ("float64", "float32", "bfloat16", "float16")


def add_arguments(p):
    add_target(p)
    add_variant(p)
    add_layout(p)
    p.add_argument("--bias", choices=("both", "true", "false"), default="both",
                   help="bias settings to check (default both; false for modules without bias)")
    p.add_argument("--dtypes", nargs="+", default=None, metavar="DTYPE",
                   help=f"dtypes, in order (default: {' '.join(DTYPE_CHOICES)}; "
                        "on cuda: float32 bfloat16 float16)")
    add_device(p)
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


def _error(msg):
    print(f"ffnverify check: error: {msg}", file=sys.stderr)
    return 2


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
        layout = read_layout(args.layout)
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
        factory = load_factory(args.target)
    except TargetError as exc:
        return _error(str(exc))
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
