"""`ffnverify check-counter`: check your parameter or FLOP formula against the derivations.

    ffnverify check-counter package.module:function --quantity flops --variant swiglu \\
        --pass train --args "d=hidden_size,h=ffn_hidden_size,n=tokens" --fixed "swiglu=true"

Exit 0: the formula agrees with the derivation on every drawn shape; 1: it disagrees (the
report shows a counterexample, both closed forms and the explanations that fit); 2: an error
(the target cannot be imported, bad usage, or the function raised).
"""

import importlib
import json
import os
import sys
from fractions import Fraction

from derivations.flops import COUNTS, PASSES
from derivations.variants import VARIANTS
from ffnverify.testing.counters import MAX_DIM, check_counter, parse_mapping
from ffnverify.testing.explain import QUANTITIES


def add_arguments(p):
    p.add_argument("target", metavar="package.module:function",
                   help="your counting function")
    p.add_argument("--quantity", required=True, choices=QUANTITIES)
    p.add_argument("--variant", required=True, choices=list(VARIANTS), metavar="VARIANT",
                   help=f"one of {', '.join(VARIANTS)}")
    p.add_argument("--pass", dest="pass_", choices=PASSES, default="forward")
    p.add_argument("--count", choices=COUNTS, default="matmul")
    p.add_argument("--input-grad", choices=("true", "false"), default="true",
                   help="whether the backward pass includes dL/dx (default true)")
    p.add_argument("--args", dest="mapping", default=None, metavar="d=NAME,h=NAME,n=NAME",
                   help="our symbols (d, h, n, bias, gated, variant) -> your parameter names; "
                        "default: the ones your function's parameters are named after")
    p.add_argument("--fixed", default="", metavar="NAME=VALUE,...",
                   help="your function's other arguments: integers, 8/3, 1.5, true, false, "
                        "none or text")
    p.add_argument("--bias", choices=("true", "false"), default="false",
                   help="the bias flag when your function takes none (default false)")
    p.add_argument("--h-per-d", default=None, metavar="RATIO",
                   help="hidden width as a multiple of d (e.g. 4 or 8/3) when your function "
                        "takes none, or must get that rational width")
    p.add_argument("--max-examples", type=int, default=200)
    p.add_argument("--max-dim", type=int, default=MAX_DIM)
    p.add_argument("--degree", type=int, default=3,
                   help="degree bound for recovering your closed form by interpolation")
    p.add_argument("--seed", type=int, default=None,
                   help="random seed (default: derandomized, the same draws every run)")
    p.add_argument("--format", choices=("text", "json"), default="text")


def run(args) -> int:
    try:
        fn = load(args.target)
        fixed = {k: literal(v) for k, v in parse_mapping(args.fixed).items()}
        mapping = parse_mapping(args.mapping) if args.mapping is not None else None
        result = check_counter(
            fn, args.quantity, args.variant, args=mapping, fixed=fixed,
            pass_=args.pass_, count=args.count, input_grad=args.input_grad == "true",
            bias=args.bias == "true", h_per_d=args.h_per_d, max_examples=args.max_examples,
            max_dim=args.max_dim, degree=args.degree, seed=args.seed)
    except (ImportError, AttributeError, ValueError, KeyError, TypeError) as e:
        print(f"ffnverify check-counter: error: {e}", file=sys.stderr)
        return 2
    if args.format == "json":
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(result.report())
    if result.error:
        return 2
    return 0 if result.ok else 1


def load(target: str):
    """Import `package.module:function` (the current directory is importable, as with
    `python -m`)."""
    module_name, sep, attr = target.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"target must look like package.module:function, got {target!r}")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        obj = importlib.import_module(module_name)
    except ImportError as e:
        raise ImportError(f"cannot import {module_name!r}: {e}") from e
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise AttributeError(f"{module_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise TypeError(f"{target} is not callable")
    return obj


def literal(text: str):
    """A --fixed value: true/false/none, an integer, a fraction like 8/3, a decimal (as a
    float, which is what your function would get from Python source) or else the text.
    Nothing is evaluated."""
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    if low == "none":
        return None
    for convert in (int, Fraction, float):
        try:
            value = convert(text.strip())
        except (ValueError, ZeroDivisionError):
            continue
        if isinstance(value, Fraction) and "/" not in text:
            continue  # "1.5" is a float, "8/3" a Fraction
        return value
    return text.strip().strip("'\"")
