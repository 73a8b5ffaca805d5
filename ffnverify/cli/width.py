"""`ffnverify width --d D`: Meta's Llama FFN width, one integer."""

import argparse
import re
import sys

from derivations.widths import exact, llama_width


def _positive_int(text):
    if not re.fullmatch(r"\+?\d{1,30}", text.strip()):
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return value


# A decimal (1.3) or a fraction (13/10) of bounded length: never an exponent like 1e100000000.
_NUMBER = re.compile(r"\d{1,15}(\.\d{1,15})?|\d{1,15}/\d{1,15}")


def _rational(text):
    if not _NUMBER.fullmatch(text):
        raise argparse.ArgumentTypeError(f"not a decimal or fraction such as 1.3 or 13/10: {text!r}")
    try:
        value = exact(text)
    except ZeroDivisionError as e:
        raise argparse.ArgumentTypeError("division by zero") from e
    if value <= 0:
        raise argparse.ArgumentTypeError("must be positive")
    return value


def add_arguments(p):
    p.add_argument("--d", type=_positive_int, required=True, help="model width d_model")
    p.add_argument("--multiple-of", type=_positive_int, default=256,
                   help="round the width up to a multiple of this (default 256)")
    p.add_argument("--multiplier", type=_rational, default=None,
                   help="ffn_dim_multiplier, read exactly (1.3 = 13/10)")


def run(args) -> int:
    if isinstance(args.multiplier, list):  # argparse passes `--multiplier=--` through unconverted
        print("ffnverify width: error: argument --multiplier: expected a number", file=sys.stderr)
        return 2
    print(llama_width(args.d, args.multiple_of, args.multiplier))
    return 0
