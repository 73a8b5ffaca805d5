"""`ffnverify check-counter`: check your parameter or FLOP formula against the derivations.

    ffnverify check-counter package.module:function --quantity flops --variant swiglu \\
        --pass train --args "d=hidden_size,h=ffn_hidden_size,n=tokens" --fixed "swiglu=true"

Progress goes to stderr once a run takes longer than 1.5 s (--no-progress to silence it).
Exit 0: the formula agrees with the derivation on every drawn shape; 1: it disagrees (the
report shows a counterexample, both closed forms and the explanations that fit); 2: an error
(the target cannot be imported, bad usage, or the function raised, returned no number,
ran out of memory or past --timeout, or ended its process: sys.exit, os._exit, a crash;
the check runs in a child process, so the report says so, naming the call); 130: interrupted.
Everything from the user's code (messages, values) is printed escaped (`printable`).
"""

import argparse
import functools
import importlib
import multiprocessing
import os
import signal
import sys
from fractions import Fraction
from typing import ClassVar

from derivations.flops import COUNTS, PASSES
from derivations.variants import VARIANTS
from ffnverify.claims.printable import json_text, visible
from ffnverify.testing.counters import MAX_DIM, _call_repr, check_counter, parse_mapping
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
    """Run the check in a child process, so that nothing the counter does to its process
    (sys.exit, os._exit, a crash in native code, a signal) goes unreported: the child
    sends back the report, the progress and the call it is making; if it ends before the
    report, that is an error naming the last call (exit 2)."""
    ctx = multiprocessing.get_context("spawn")  # a fresh interpreter: no fork of our threads
    inbox, outbox = ctx.Pipe(duplex=False)
    options = {k: v for k, v in vars(args).items()
               if v is None or isinstance(v, (str, int, float, bool))}  # the options alone
    tty = hasattr(sys.stderr, "isatty") and sys.stderr.isatty()
    child = ctx.Process(target=_child, args=(outbox, options, tty), daemon=True)
    child.start()
    outbox.close()
    last_call, outcome = None, None
    try:
        while outcome is None:
            try:
                message = inbox.recv()
            except EOFError:
                break
            if message[0] == "stderr":
                sys.stderr.write(message[1])
                sys.stderr.flush()
            elif message[0] == "call":
                last_call = message[1]
            else:
                outcome = message
    except KeyboardInterrupt:
        child.kill()
        child.join(5)
        print("ffnverify check-counter: interrupted", file=sys.stderr)
        return 130
    finally:
        inbox.close()
    child.join(5)
    if child.is_alive():  # the report is in; a thread of the counter keeps it alive
        child.kill()
        child.join(5)
    if outcome is None:
        print(f"ffnverify check-counter: error: {_ended(child.exitcode, last_call)}",
              file=sys.stderr)
        return 2
    return _show(outcome, args.format)


def _ended(code, last_call) -> str:
    """Why there is no report: how the child process ended, and in which call."""
    if code is not None and code < 0:
        try:
            how = f"was killed by signal {signal.Signals(-code).name}"
        except ValueError:
            how = f"was killed by signal {-code}"
    else:
        how = f"exited with status {code} (os._exit, or a crash in native code)"
    where = f" in the call {visible(last_call)}" if last_call else " before calling it"
    return (f"the process running your function {how}{where}; no verdict (a counter must "
            "return its count)")


def _show(outcome, fmt) -> int:
    kind, *rest = outcome
    if kind == "usage":
        print(f"ffnverify check-counter: error: {visible(rest[0])}", file=sys.stderr)
        return 2
    if kind == "interrupted":
        print("ffnverify check-counter: interrupted", file=sys.stderr)
        return 130
    report, data, error, ok = rest
    if fmt == "json":
        print(json_text(data))
    else:
        print("\n".join(visible(line) for line in report.split("\n")))
    if error:
        return 2
    return 0 if ok else 1


class _ToParent:
    """A text stream (for Progress) whose writes go to the parent's stderr."""

    def __init__(self, conn, tty):
        self.conn, self.tty = conn, tty

    def write(self, text):
        self.conn.send(("stderr", text))

    def flush(self):
        pass

    def isatty(self):
        return self.tty


def _child(conn, options, tty):
    """The check, in the child process: every outcome is one message on `conn`."""
    try:
        conn.send(_check(argparse.Namespace(**options), conn, tty))
    except KeyboardInterrupt:
        conn.send(("interrupted",))


def _check(args, conn, tty):
    try:
        fn = _traced(load(args.target), conn)
        fixed = {k: literal(v) for k, v in parse_mapping(args.fixed).items()}
        mapping = parse_mapping(args.mapping) if args.mapping is not None else None
        result = check_counter(
            fn, args.quantity, args.variant, args=mapping, fixed=fixed,
            pass_=args.pass_, count=args.count, input_grad=args.input_grad == "true",
            bias=args.bias == "true", h_per_d=args.h_per_d, max_examples=args.max_examples,
            max_dim=args.max_dim, degree=args.degree, seed=args.seed,
            timeout=args.timeout or None, tokens_multiple_of=args.tokens_multiple_of,
            progress=None if args.no_progress else Progress(_ToParent(conn, tty)))
    except (ImportError, AttributeError, ValueError, KeyError, TypeError) as e:
        return ("usage", str(e))
    return ("result", result.report(), result.to_dict(), result.error, result.ok)


def _traced(fn, conn):
    """`fn`, telling the parent which call it is making before each one."""
    @functools.wraps(fn)
    def traced(*a, **kwargs):
        conn.send(("call", _call_repr(fn, kwargs)))
        return fn(*a, **kwargs)

    return traced


class Progress:
    """Progress on stderr for a run that takes longer than `after` seconds: one line
    rewritten in place on a terminal, a plain line every `every_plain` seconds elsewhere."""

    PHASES: ClassVar[dict[str, str]] = {
        "search": "searching", "probes": "fixed probes",
        "recovering": "recovering your closed form", "evidence": "testing the explanations",
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
