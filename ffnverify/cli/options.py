"""Argument types that more than one command takes: --timeout and --jobs (audit, scan)."""

import argparse

from ffnverify.claims.budget import UNIT, check_timeout
from ffnverify.claims.printable import visible


def timeout_arg(text: str) -> float:
    """--timeout's value: a finite number of CPU seconds above 0 (nan, inf and 1e309
    are refused as usage errors, exit 2)."""
    try:
        return check_timeout(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{visible(text)!s} is not a finite number of {UNIT} above 0") from None


def workers_arg(text: str) -> int:
    """--jobs's value: a whole number above 0."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of processes above 0")
    return value
