"""`ffnverify check-counter`: check your parameter or FLOP formula against the derivations.

    ffnverify check-counter package.module:function --quantity flops --variant swiglu \\
        --pass train --args "d=hidden_size,h=ffn_hidden_size,n=tokens" --fixed "swiglu=true"

Progress goes to stderr once a run takes longer than 1.5 s (--no-progress to silence it).
Exit 0: the formula agrees with the derivation on every drawn shape; 1: it disagrees (the
report shows a counterexample, both closed forms and the explanations that fit); 2: an error
(the target cannot be imported, bad usage, or the function raised, returned no number,
ran out of memory or past --timeout).
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
    p.add_argument("--quantity", required=True, choices=QUANTITIES,
                   help="what your function counts: params, flops (2 per multiply-add) or macs")
    p.add_argument("--variant", required=True, choices=list(VARIANTS), metavar="VARIANT",
                   help=f"one of {', '.join(VARIANTS)}")
    p.add_argument("--pass", dest="pass_", choices=PASSES, default="forward",
                   help="the pass your function counts (default forward; train = forward + backward)")
    p.add_argument("--count", choices=COUNTS, default="matmul",
                   help="matmul: weight matmuls only (default); all: also bias adds, activation, gating")
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
    p.add_argument("--max-examples", type=int, default=200,
                   help="shapes drawn (default 200); also the most calls made after a "
                        "failure (shrinking, recovery, testing the explanations)")
    p.add_argument("--max-dim", type=int, default=MAX_DIM,
                   help=f"largest d, h and token count of any call, recovery included "
                        f"(default {MAX_DIM}); keep it small for a counter that runs tensors")
    p.add_argument("--degree", type=int, default=None,
                   help="degree bound for recovering your closed form by interpolation "
                        "(default: the derivation's degree in your variables, at least 3)")
    p.add_argument("--seed", type=int, default=None,
                   help="random seed (default: derandomized, the same draws every run)")
    p.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS",
                   help="time allowed per call of your function (default 60; 0: no limit); "
                        "a call past it is an error")
    p.add_argument("--tokens-multiple-of", type=int, default=None, metavar="K",
                   help="draw only token counts n that are multiples of K (e.g. 2)")
    p.add_argument("--no-progress", action="store_true",
                   help="never print progress (by default it goes to stderr once a run "
                        "takes longer than 1.5 s)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="report format (default text)")


def run(args) -> int:
    try:
        fn = load(args.target)
        fixed = {k: literal(v) for k, v in parse_mapping(args.fixed).items()}
        mapping = parse_mapping(args.mapping) if args.mapping is not None else None
        result = check_counter(
            fn, args.quantity, args.variant, args=mapping, fixed=fixed,
            pass_=args.pass_, count=args.count, input_grad=args.input_grad == "true",
            bias=args.bias == "true", h_per_d=args.h_per_d, max_examples=args.max_examples,
            max_dim=args.max_dim, degree=args.degree, seed=args.seed,
            timeout=args.timeout or None, tokens_multiple_of=args.tokens_multiple_of,
            progress=None if args.no_progress else Progress(sys.stderr))
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


class Progress:
    """Progress on stderr for a run that takes longer than `after` seconds: one line
    rewritten in place on a terminal, a plain line every `every_plain` seconds elsewhere."""

    PHASES = {"search": "searching", "probes": "fixed probes", "recovering": "recovering your "
              "closed form", "evidence": "testing the explanations",
              "confirming": "confirming the explanations"}

    def __init__(self, stream, after=1.5, every=0.5, every_plain=10.0):
        self.stream, self.after = stream, after
        self.tty = hasattr(stream, "isatty") and stream.isatty()
        self.every = every if self.tty else every_plain
        self.last = None
        self.shown = False

    def __call__(self, phase, calls, seconds):
        if phase == "done":
            if self.shown and self.tty:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
            return
        if seconds < self.after or (self.last is not None and seconds - self.last < self.every):
            return
        self.last, self.shown = seconds, True
        text = (f"check-counter: {self.PHASES.get(phase, phase)}: {calls} "
                f"call{'s' if calls != 1 else ''}, {seconds:.1f} s")
        self.stream.write(f"\r\x1b[K{text}" if self.tty else text + "\n")
        self.stream.flush()


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
