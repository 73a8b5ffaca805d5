"""`ffnverify bench TARGET --variant V`: time an FFN against the GEMM limit of its pass.

TARGET is `package.module:factory` with `factory(d, h, bias) -> torch.nn.Module` (built and
checked through the conformance kit's layouts, as `ffnverify check` does), or a built-in
backend: `numpy` (ffnverify's NumPy backend, float32, CPU) or `torch` (its PyTorch module).
Exit 0 measured, 2 error (bad target, layout, shape, dtype or device; torch missing).
"""

import json
import sys

from ffnverify.bench import measure
from ffnverify.cli.target import (
    LAYOUT_HELP,
    TARGET_HELP,
    add_device,
    add_layout,
    add_target,
    add_variant,
    read_layout,
)


def add_arguments(p):
    add_target(p, help=f"{TARGET_HELP}, or numpy / torch (the built-in backends)")
    add_variant(p)
    add_layout(p, help=f"{LAYOUT_HELP}; the built-in targets numpy and torch have their own")
    p.add_argument("--shape", nargs="+", default=["2048,1024,2816"], metavar="n,d,h",
                   help="tokens, model width, hidden width (default 2048,1024,2816)")
    p.add_argument("--dtype", choices=measure.DTYPES, default="float32",
                   help="dtype of the module and its input (default float32)")
    add_device(p)
    p.add_argument("--pass", dest="pass_", choices=measure.PASSES, default=None,
                   help="forward or train (forward+backward); default both")
    p.add_argument("--bias", action="store_true", help="build the module with biases")
    p.add_argument("--rounds", type=int, default=measure.DEFAULT_ROUNDS,
                   help=f"timed rounds (default {measure.DEFAULT_ROUNDS})")
    p.add_argument("--warmup", type=int, default=measure.DEFAULT_WARMUP,
                   help=f"untimed warm-up rounds (default {measure.DEFAULT_WARMUP})")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="report format (default text)")


def _error(msg):
    print(f"ffnverify bench: error: {msg}", file=sys.stderr)
    return 2


def parse_shape(text):
    """(n, d, h) from 'n,d,h' (ValueError otherwise)."""
    parts = text.split(",")
    if len(parts) != 3 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(f"shape {text!r}: expected n,d,h (three positive integers)")
    n, d, h = (int(p) for p in parts)
    if min(n, d, h) < 1:
        raise ValueError(f"shape {text!r}: every size must be >= 1")
    return n, d, h


def run(args) -> int:
    if args.target != "numpy":
        try:
            import torch  # noqa: F401
        except ImportError:
            return _error("torch is required: pip install torch")
    try:
        shapes = [parse_shape(s) for s in args.shape]
    except ValueError as exc:
        return _error(str(exc))
    if args.rounds < 1 or args.warmup < 0:
        return _error("--rounds must be >= 1 and --warmup >= 0")
    passes = (args.pass_,) if args.pass_ else measure.PASSES
    try:
        if args.target not in ("numpy", "torch"):  # the built-in targets have their own
            read_layout(args.layout)  # a mistyped name: the closest one, before any import
        results = measure.bench(args.target, args.variant, shapes, args.layout, args.dtype,
                                args.device, passes, args.bias, args.rounds, args.warmup)
    except measure.BenchError as exc:
        return _error(str(exc))
    except ValueError as exc:  # unknown layout
        return _error(str(exc))
    if args.format == "json":
        print(json.dumps([r.as_dict() for r in results], indent=2))
    else:
        print(measure.format_text(results))
    return 0
