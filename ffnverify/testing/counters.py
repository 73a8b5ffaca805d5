"""Counter conformance: property-test anyone's parameter or FLOP formula against the derivations.

`check_counter(fn, quantity, variant, args=..., fixed=...)` calls the user's counting
function on shapes drawn by Hypothesis (d, h, n and, where the function takes it, the bias
flag), converts each result exactly (a float becomes the rational it stores) and compares it
exactly with `derivations.params.params` / `derivations.flops.flops` / `macs` under the
docs/architecture.md §3 conventions. On a disagreement the result carries the first (shrunk)
counterexample, the user's formula recovered in closed form next to ours
(`closed_form.recover`), and the named explanations that fit (`explain.explain`),
confirmed on extra points where they differ.

A counter that runs real tensors is bounded: every call, recovery included, stays inside
max_dim; each call may have a timeout; an exception, a MemoryError, a timeout or a
non-number is an `error` verdict naming the call; and max_examples also bounds the calls
made after a failure.
"""

from __future__ import annotations

import signal
import threading
import time
from dataclasses import dataclass, field

import sympy as sp

from derivations import variants
from derivations.symbols import d as D
from derivations.symbols import h as H
from derivations.symbols import n as N
from ffnverify.claims.printable import visible
from ffnverify.testing.closed_form import (
    DEFAULT_DEGREE,
    ClosedForm,
    NotANumber,
    is_float,
    to_fraction,
)
from ffnverify.testing.counter_args import (  # noqa: F401 (re-exported)
    MAX_DIGITS_SHOWN,
    SYMBOLS,
    TOO_LONG,
    _arg,
    _convention,
    _describe_call,
    _exception_text,
    _fmt_point,
    _int_text,
    _mapping,
    _num,
    _pretty,
    _ratio,
    _text,
    _too_long,
    parse_mapping,
)
from ffnverify.testing.counter_points import (  # noqa: F401 (re-exported)
    LATTICE_FIRST_MAX,
    _Budget,
    _key,
    _lattice_text,
    _lattice_values,
    _leaves,
    _Mismatch,
    _recover,
    _recovery_calls,
    _search,
    _search_without_hypothesis,
    _smallest_first,
    _spread,
    _UserError,
)
from ffnverify.testing.explain import (
    FLOAT_OPS,
    QUANTITIES,
    Fit,
    Target,
    close,
    discriminating,
    explain,
)

MAX_DIM = 2**20
EVIDENCE_POINTS = 40  # extra shapes evaluated after a failure, to test the explanations
CONFIRM_ROUNDS = 3  # rounds of points chosen where the fitting explanations differ
# Fixed probes run after Hypothesis: tiny shapes, real model shapes, and large odd ones where
# a float product no longer holds every integer. (d, h, tokens, seq): seq is used only where
# the tokens are a batch x seq split (tokens is then the batch).
_PROBES = [(1, 1, 1, 1), (2, 3, 5, 3), (3, 8, 1, 4), (4096, 11008, 2048, 1), (5120, 13824, 1, 7),
           (8191, 21_845, 4095, 2), (999_983, 1_000_003, 524_287, 5)]


class CallTimeout(Exception):
    """A call of the user's function ran past the per-call timeout."""


@dataclass
class CounterResult:
    """The verdict of `check_counter`. Truthy when the counter agrees."""

    ok: bool
    target: Target
    call: str  # how the user's function was called
    checked: int = 0  # points compared
    counterexample: dict | None = None  # {d, h, n, bias, yours, derived}
    yours: ClosedForm | None = None
    derived: sp.Expr | None = None
    explanations: list[Fit] = field(default_factory=list)
    error: str | None = None
    how: str = ""  # how the points were drawn
    calls: int = 0  # calls of the user's function, all phases
    seconds: float = 0.0
    explanations_tried: bool = True  # False: the values were too long to format

    def __bool__(self):
        return self.ok

    @property
    def explanation(self) -> Fit | None:
        """The likely explanation (the first that fits), if any."""
        return self.explanations[0] if self.explanations else None

    def to_dict(self) -> dict:
        """A JSON-ready summary (numbers as exact strings)."""
        c = self.counterexample
        return {
            "ok": self.ok, "error": self.error, "target": self.target.describe(),
            "function": self.call, "checked": self.checked, "how": self.how,
            "calls": self.calls,
            "counterexample": None if c is None else {
                k: (_num(v) if not isinstance(v, bool) else v) for k, v in c.items()},
            "yours": None if self.yours is None or self.yours.expr is None
            else _pretty(self.yours.expr),
            "yours_note": None if self.yours is None else self.yours.note,
            "derived": None if self.derived is None else _pretty(self.derived),
            "explanations": [{"key": f.key, "text": f.title} for f in self.explanations],
        }

    def report(self) -> str:
        verdict = "ERROR" if self.error else ("agrees" if self.ok else "DISAGREES")
        lines = [f"check-counter: {self.target.describe()}: {verdict}",
                 f"  your function: {self.call}"]
        if self.error:
            lines.append(f"  error: {visible(self.error)}")  # the user's text, escaped
        if self.counterexample:
            c = self.counterexample
            yours = (f"{c['raw']} (a float, exactly {_num(c['yours'])})" if c.get("raw")
                     else _num(c["yours"]))
            lines.append(f"  counterexample: {_fmt_point(c)}: yours = {yours}, "
                         f"derived = {_num(c['derived'])}")
        if self.yours is not None:
            lines.append(f"  yours   = {_pretty(self.yours.expr)}   "
                         f"[{self.yours.method}: {self.yours.note}]"
                         if self.yours.expr is not None else f"  yours   = unknown: {self.yours.note}")
            if self.yours.floating:
                lines.append("            (your function computes in floating point)")
        if self.derived is not None:
            lines.append(f"  derived = {_pretty(self.derived)}")
        if self.explanations:
            lines.append(f"  likely explanation: {self.explanations[0]}")
            lines.extend(f"  also fits: {f}" for f in self.explanations[1:])
        elif not self.ok and not self.error and self.explanations_tried:
            lines.append("  likely explanation: none of the named explanations fits "
                         "(see docs/counters.md for the list)")
        lines.append(f"  checked {self.checked} points ({self.how})")
        return "\n".join(lines)


def check_counter(fn, quantity, variant, args=None, fixed=None, convention=None, *,
                  pass_=None, count=None, input_grad=None, bias=False, h_per_d=None,
                  max_examples=200, max_dim=MAX_DIM, degree=None, seed=None,
                  float_ops=FLOAT_OPS, timeout=None, tokens_multiple_of=None,
                  progress=None) -> CounterResult:
    """Check the user's counting function `fn` against the derivation.

    quantity: "params", "flops" or "macs". variant: one of the FFN variant names.
    args: {our symbol: your parameter name} for d, h, n, bias, gated (receives the variant's
      gatedness), variant (receives its name), and batch and seq where the function takes
      the tokens as a batch x seq split (n = batch·seq); a "d=NAME,h=NAME" string works too.
      By default every one of our symbols that is also a parameter name of `fn` is mapped.
    fixed: {your parameter name: value} for the function's other arguments.
    convention: {"pass": ..., "count": ..., "input_grad": ...}, or give pass_, count,
      input_grad directly. bias: the bias flag when `fn` takes none.
    h_per_d: when `fn` takes no hidden width or must be given a rational one, h = h_per_d·d
      exactly (e.g. "8/3"); the function receives a Fraction where h is not an integer.
    max_examples: Hypothesis examples, and also the most calls made after a failure
      (shrinking, closed-form recovery and the points that test the explanations).
    max_dim: the largest d, h and token count (n, or batch·seq) of any call, recovery included.
    timeout: seconds allowed per call (None: no limit); a call past it is an error verdict.
    degree: the total degree bound for recovering your closed form by interpolation; None
      (the default): the derivation's own degree in your variables, at least 3.
    tokens_multiple_of: draw only token counts that are multiples of this (e.g. 2).
    progress: called as progress(phase, calls, seconds) after each call.

    Four steps: the set-up (`_Session`), the search for a disagreement (`_search_phase`),
    the recovery of your closed form (`_recover_phase`) and the named explanations that
    fit (`_explain_phase`).
    """
    s = _Session(fn, quantity, variant, args, fixed,
                 _convention(convention, pass_, count, input_grad), bias, h_per_d,
                 max_examples, max_dim, degree, timeout, tokens_multiple_of, progress)
    failure, how = _search_phase(s, seed)
    result = CounterResult(ok=failure is None, target=s.target, call=s.call_text,
                           checked=len(s.seen), how=how)
    flags_bias = bool(bias)
    if isinstance(failure, _UserError):
        result.ok = False
        result.error = _error_text(failure)
        return s.finish(result)
    if isinstance(failure, _Mismatch):
        result.counterexample = failure.point
        flags_bias = failure.point["bias"]
        s.state["budget"] = max(s.state["budget"], 0)
    if failure is not None:
        _recover_phase(s, result, flags_bias, float_ops)
        if s.state["error"] is None:
            _explain_phase(s, result, seed, float_ops)
        if s.state["error"] is not None:
            result.ok, result.error = False, _error_text(s.state["error"])
            return s.finish(result)
        result.how += (f"; then {len(s.seen) - result.checked} more points for the closed "
                       "form and the explanations")
    result.derived = _derived_form(s, flags_bias)
    return s.finish(result)


class _Session:
    """Step 1, the set-up: the arguments checked, and the user's function as called at a
    point, with the points seen, their cache, the post-failure budget and the first error."""

    def __init__(self, fn, quantity, variant, args, fixed, conv, bias, h_per_d, max_examples,
                 max_dim, degree, timeout, tokens_multiple_of, progress):
        if quantity not in QUANTITIES:
            raise ValueError(f"unknown quantity {quantity!r}; expected one of "
                             f"{', '.join(QUANTITIES)}")
        variants.get(variant)
        self.fn, self.variant, self.timeout = fn, variant, timeout
        self.target = Target(quantity, variant, **conv)
        self.mapping = mapping = _mapping(fn, args)
        self.fixed = dict(fixed or {})
        self.ratio = ratio = _ratio(h_per_d)
        if "d" not in mapping:
            raise ValueError("args must map d (the model width) to one of your parameters")
        if "h" not in mapping and ratio is None:
            raise ValueError("your function takes no hidden width: map h in args, or give "
                             "h_per_d (the width it assumes, e.g. 4 or '8/3')")
        self.split = split = "batch" in mapping or "seq" in mapping
        self.step = step = int(tokens_multiple_of or 1)
        if step < 1:
            raise ValueError("tokens_multiple_of must be a positive integer")
        if split and step != 1:
            raise ValueError("give either a batch x seq split or tokens_multiple_of, not both")
        if max_dim < 4:
            raise ValueError("max_dim must be at least 4")
        if max_examples < 1:
            raise ValueError("max_examples must be at least 1")
        self.max_dim, self.max_examples = max_dim, max_examples
        self.tokens_drawn = "n" in mapping or split
        self.gated = variants.get(variant).gated
        self.call_text = _describe_call(fn, mapping, self.fixed, ratio)
        self.clock = _Clock(progress)
        self.seen, self.cache = [], {}
        self.state = {"error": None, "failed": False, "budget": max_examples}
        self.bias, self.bias_drawn = bool(bias), "bias" in mapping
        self.biases = (False, True) if self.bias_drawn else (bool(bias),)
        self.names = (["d"] + (["h"] if ratio is None else [])
                      + ([s for s in ("batch", "seq") if s in mapping] if split
                         else (["n"] if "n" in mapping else [])))
        self.degree = (recovery_degree(self.target, self.names, ratio) if degree is None
                       else degree)
        self.lattice_done = {}

    def kwargs_of(self, values):
        kwargs = dict(self.fixed)
        for sym, name in self.mapping.items():
            if sym == "gated":
                kwargs[name] = self.gated
            elif sym == "variant":
                kwargs[name] = self.variant
            else:
                kwargs[name] = _arg(values[sym])
        return kwargs

    def call(self, values):
        """Call the user's function at {d, h, n, bias, ...} (numbers or SymPy symbols)."""
        kwargs = self.kwargs_of(values)
        self.clock.calls += 1
        try:
            return _timed(self.fn, kwargs, self.timeout)
        finally:
            self.clock.tick()

    def complete(self, d, h, t1, t2, b):
        """A point from drawn values: t1 (tokens, or the batch), t2 (the sequence length)."""
        max_dim = self.max_dim
        d, h = min(d, max_dim), min(h, max_dim)
        if self.ratio is not None:
            h = self.ratio * d
        if self.split:
            batch = min(t1, max_dim) if "batch" in self.mapping else 1
            seq = min(t2, max(1, max_dim // batch)) if "seq" in self.mapping else 1
            return {"d": d, "h": h, "n": batch * seq, "bias": b, "batch": batch, "seq": seq}
        n = min(t1, max(1, max_dim // self.step)) * self.step if self.tokens_drawn else 1
        return {"d": d, "h": h, "n": n, "bias": b}

    def evaluate(self, point, strict=True, phase="search"):
        key, state, cache = _key(point), self.state, self.cache
        self.clock.phase = phase
        if state["error"] is not None:  # one error is enough: never call again
            raise state["error"]
        if key not in cache:
            if state["failed"]:
                # the post-failure budget; shrinking may spend half of it
                if state["budget"] <= (self.max_examples // 2 if phase == "search" else 0):
                    return None  # over the budget: not evaluated
                state["budget"] -= 1
            try:
                raw = self.call(point)
                if raw is None:
                    raise NotANumber("returned None, not a count")
                yours = to_fraction(raw)
            except BaseException as e:  # whatever the user's code raised,
                # sys.exit() and KeyboardInterrupt included: an error naming the call
                err = _UserError(point, e, _call_repr(self.fn, self.kwargs_of(point)))
                state["error"] = err
                raise err from None
            rec = dict(point, yours=yours, float=is_float(raw),
                       derived=self.target.value(point))
            if rec["float"]:
                rec["raw"] = repr(float(raw))
            cache[key] = rec
            self.seen.append(rec)
        rec = cache[key]
        if strict and not close(rec["yours"], rec["derived"], False):
            state["failed"] = True
            raise _Mismatch(rec)
        return rec

    def finish(self, result):
        result.checked, result.calls = len(self.seen), self.clock.calls
        result.seconds = self.clock.elapsed()
        self.clock.done()
        return result


def _search_phase(s, seed):
    """Step 2: (failure or None, how it searched): the shapes that determine the closed form
    first (the smallest; recovery reuses them), then Hypothesis, then the fixed probes."""
    failure, how = _smallest_first(s.evaluate, s.complete, s.names, s.degree, s.biases,
                                   s.max_dim, s.step, s.split, s.lattice_done)
    if failure is not None:
        s.state["failed"] = True
    else:
        failure, how = _search(s.evaluate, s.complete, s.bias_drawn, s.bias, s.max_examples,
                               s.max_dim, seed, s.split, s.state)
        first_text = _lattice_text(s.names, s.degree, s.lattice_done)
        how = f"{first_text}; then {how}" if first_text else how
    if failure is None:
        s.clock.phase = "probes"
        for dv, hv, nv, sv in _PROBES:
            for b in s.biases:
                try:
                    s.evaluate(s.complete(dv, hv, nv, sv, b), phase="probes")
                except (_Mismatch, _UserError) as e:
                    failure = failure or e
                if isinstance(failure, _UserError):
                    break
        how += f"; then {len(_PROBES) * len(s.biases)} fixed probes"
    return failure, how + _constraints_text(s.split, s.mapping, s.step)


def _recover_phase(s, result, flags_bias, float_ops):
    """Step 3: the user's closed form (result.yours), when the calls it needs fit in the
    budget left after the failure."""
    lattice = (_recovery_calls(len(s.names), s.degree)
               - len(s.lattice_done.get(flags_bias, ())))
    if lattice > s.state["budget"]:
        result.yours = ClosedForm(None, "none", f"not recovered: that takes {lattice} calls "
                                  f"of your function, more than the {s.state['budget']} "
                                  "left of --max-examples after the failure")
        return
    try:
        result.yours = _recover(s.evaluate, s.call, s.complete, s.names, flags_bias, s.degree,
                                float_ops, s.max_dim, s.step, s.split, s.ratio)
    except ValueError as e:
        if not _too_long(e):
            raise
        result.yours = ClosedForm(None, "none", f"not recovered: {TOO_LONG}")


def _explain_phase(s, result, seed, float_ops):
    """Step 4: more points (probes mixed with spread shapes, both bias flags alternating, a
    third of the budget kept for the confirming points), then the named explanations that
    fit them (result.explanations)."""
    shapes = [q for pair in zip(_PROBES, _spread(len(_PROBES), s.max_dim, seed)) for q in pair]
    shapes += _spread(EVIDENCE_POINTS, s.max_dim, (seed or 0) + 1)
    biases = s.biases
    evidence = [s.complete(*q, biases[i % len(biases)]) for i, q in enumerate(shapes)]
    evidence += [s.complete(*q, biases[(i + 1) % len(biases)]) for i, q in enumerate(shapes)]
    keep = s.state["budget"] // 3
    for q in evidence:
        if s.state["budget"] <= keep:
            break
        try:
            s.evaluate(q, strict=False, phase="evidence")
        except _UserError:
            break
    if s.state["error"] is not None:
        return
    try:
        result.explanations = _confirmed(s.target, s.seen, s.evaluate, s.complete, biases,
                                         s.max_dim, seed, float_ops)
    except ValueError as e:
        if not _too_long(e):
            raise
        result.explanations_tried = False
        result.how += f"; the explanations were not tried: {TOO_LONG}"


def _derived_form(s, flags_bias):
    """The derivation's closed form in the user's variables (h = ratio·d, n = batch·seq)."""
    derived = s.target.expr(flags_bias)
    if s.ratio is not None:
        r = s.ratio
        derived = sp.expand(derived.subs(H, sp.Rational(r.numerator, r.denominator) * D))
    if s.split:
        derived = sp.expand(derived.subs(N, BATCH * SEQ))
        if "seq" not in s.mapping:
            derived = derived.subs(SEQ, 1)
        if "batch" not in s.mapping:
            derived = derived.subs(BATCH, 1)
    elif "n" not in s.mapping:
        derived = derived.subs(N, 1)
    return derived


BATCH = sp.Symbol("batch", positive=True, integer=True)
SEQ = sp.Symbol("seq", positive=True, integer=True)


def _confirmed(target, seen, evaluate, complete, biases, max_dim, seed, float_ops):
    """The explanations that fit, confirmed on extra points chosen where they differ."""
    fits = explain(target, seen[-2000:], float_ops)
    keys = {_key(p) for p in seen}
    for round_ in range(CONFIRM_ROUNDS):
        pool = [complete(*q, b) for b in biases
                for q in _spread(60, max_dim, (seed or 0) + 101 + round_)]
        extra = discriminating(fits, target, pool, keys)
        if not extra:
            break
        evaluated = 0
        for q in extra:
            if evaluate(q, strict=False, phase="confirming") is not None:
                evaluated += 1
        if not evaluated:
            break
        fits = explain(target, seen[-2000:], float_ops)
    return fits


def recovery_degree(target, names, ratio=None) -> int:
    """The degree that recovery in `names` needs: the derivation's total degree in them
    (n·d·h is 3 in d, h, n and 4 in d, h, batch, seq, where n = batch·seq; d² where the width
    is h = ratio·d), and never below DEFAULT_DEGREE."""
    syms = {s: sp.Symbol(s) for s in names}
    tokens = [syms[s] for s in ("n", "batch", "seq") if s in syms]
    expr = target.expr(True).subs({H: D if ratio is not None else syms.get("h", 1),
                                   N: sp.Mul(*tokens)})
    expr = expr.subs(D, syms["d"])
    return max(DEFAULT_DEGREE, sp.Poly(expr, *syms.values()).total_degree())


class _Clock:
    """Counts calls and reports progress."""

    def __init__(self, progress):
        self.progress, self.calls, self.phase = progress, 0, "search"
        self.start = time.monotonic()

    def elapsed(self):
        return time.monotonic() - self.start

    def tick(self):
        if self.progress is not None:
            self.progress(self.phase, self.calls, self.elapsed())

    def done(self):
        if self.progress is not None:
            self.progress("done", self.calls, self.elapsed())


def _timed(fn, kwargs, timeout):
    """fn(**kwargs), raising CallTimeout past `timeout` seconds."""
    if not timeout:
        return fn(**kwargs)
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        def alarm(signum, frame):
            raise CallTimeout(f"the call ran past the {timeout:g} s timeout")

        old = signal.signal(signal.SIGALRM, alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            return fn(**kwargs)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
    box = {}

    def work():
        try:
            box["value"] = fn(**kwargs)
        except BaseException as e:  # handed back to the caller
            box["error"] = e

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise CallTimeout(f"the call ran past the {timeout:g} s timeout (left running in a "
                          "background thread)")
    if "error" in box:
        raise box["error"]
    return box["value"]


def _error_text(e):
    return f"your function raised {e} in the call {e.call_text}"


def _call_repr(fn, kwargs):
    name = getattr(fn, "__name__", None) or repr(fn)
    return f"{name}({', '.join(f'{k}={_num(v)}' for k, v in kwargs.items())})"


def _constraints_text(split, mapping, step):
    if split:
        parts = [s for s in ("batch", "seq") if s in mapping]
        return f"; tokens n = {' x '.join(parts)}"
    if step != 1:
        return f"; token counts multiples of {step}"
    return ""


