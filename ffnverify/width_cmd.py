"""`ffnverify width --d D`: Meta's Llama FFN width, one integer."""

import argparse

from derivations.widths import exact, llama_width


def _positive_int(text):
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("must be a positive integer")
    return value


def _rational(text):
    try:
        value = exact(text)
    except (TypeError, ValueError) as e:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from e
    if value <= 0:
        raise argparse.ArgumentTypeError("must be positive")
    return value


def add_arguments(p):
    p.add_argument("--d", type=_positive_int, required=True, help="model width")
    p.add_argument("--multiple-of", type=_positive_int, default=256)
    p.add_argument("--multiplier", type=_rational, default=None,
                   help="ffn_dim_multiplier, read exactly (1.3 = 13/10)")


def run(args) -> int:
    print(llama_width(args.d, args.multiple_of, args.multiplier))
    return 0
