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

import inspect
import math
import random
import signal
import threading
import time
from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp

from derivations import variants
from derivations.flops import COUNTS, PASSES
from derivations.symbols import d as D
from derivations.symbols import h as H
from derivations.symbols import n as N
from ffnverify.claims.printable import visible
from ffnverify.testing.closed_form import (
    DEFAULT_DEGREE,
    ClosedForm,
    NotANumber,
    _lattice,
    is_float,
    pretty,
    recover,
    to_fraction,
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

SYMBOLS = ("d", "h", "n", "bias", "gated", "variant", "batch", "seq")
MAX_DIM = 2**20
EVIDENCE_POINTS = 40  # extra shapes evaluated after a failure, to test the explanations
CONFIRM_ROUNDS = 3  # rounds of points chosen where the fitting explanations differ
# Fixed probes run after Hypothesis: tiny shapes, real model shapes, and large odd ones where
# a float product no longer holds every integer. (d, h, tokens, seq): seq is used only where
# the tokens are a batch x seq split (tokens is then the batch).
_PROBES = [(1, 1, 1, 1), (2, 3, 5, 3), (3, 8, 1, 4), (4096, 11008, 2048, 1), (5120, 13824, 1, 7),
           (8191, 21_845, 4095, 2), (999_983, 1_000_003, 524_287, 5)]


class _Mismatch(Exception):
    def __init__(self, point):
        super().__init__(point)
        self.point = point


class _UserError(Exception):
    def __init__(self, point, error, call_text=""):
        super().__init__(error if isinstance(error, str) else _exception_text(error))
        self.point, self.error, self.call_text = point, error, call_text


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
    """
    conv = _convention(convention, pass_, count, input_grad)
    if quantity not in QUANTITIES:
        raise ValueError(f"unknown quantity {quantity!r}; expected one of {', '.join(QUANTITIES)}")
    variants.get(variant)
    target = Target(quantity, variant, **conv)
    mapping = _mapping(fn, args)
    fixed = dict(fixed or {})
    ratio = _ratio(h_per_d)
    if "d" not in mapping:
        raise ValueError("args must map d (the model width) to one of your parameters")
    if "h" not in mapping and ratio is None:
        raise ValueError("your function takes no hidden width: map h in args, or give "
                         "h_per_d (the width it assumes, e.g. 4 or '8/3')")
    split = "batch" in mapping or "seq" in mapping
    step = int(tokens_multiple_of or 1)
    if step < 1:
        raise ValueError("tokens_multiple_of must be a positive integer")
    if split and step != 1:
        raise ValueError("give either a batch x seq split or tokens_multiple_of, not both")
    if max_dim < 4:
        raise ValueError("max_dim must be at least 4")
    if max_examples < 1:
        raise ValueError("max_examples must be at least 1")
    tokens_drawn = "n" in mapping or split
    gated = variants.get(variant).gated
    call_text = _describe_call(fn, mapping, fixed, ratio)
    clock = _Clock(progress)

    def kwargs_of(values):
        kwargs = dict(fixed)
        for sym, name in mapping.items():
            if sym == "gated":
                kwargs[name] = gated
            elif sym == "variant":
                kwargs[name] = variant
            else:
                kwargs[name] = _arg(values[sym])
        return kwargs

    def call(values):
        """Call the user's function at {d, h, n, bias, ...} (numbers or SymPy symbols)."""
        kwargs = kwargs_of(values)
        clock.calls += 1
        try:
            return _timed(fn, kwargs, timeout)
        finally:
            clock.tick()

    def complete(d, h, t1, t2, b):
        """A point from drawn values: t1 (tokens, or the batch), t2 (the sequence length)."""
        d, h = min(d, max_dim), min(h, max_dim)
        if ratio is not None:
            h = ratio * d
        if split:
            batch = min(t1, max_dim) if "batch" in mapping else 1
            seq = min(t2, max(1, max_dim // batch)) if "seq" in mapping else 1
            return {"d": d, "h": h, "n": batch * seq, "bias": b, "batch": batch, "seq": seq}
        n = min(t1, max(1, max_dim // step)) * step if tokens_drawn else 1
        return {"d": d, "h": h, "n": n, "bias": b}

    seen = []
    cache = {}
    state = {"error": None, "failed": False, "budget": max_examples}

    def evaluate(point, strict=True, phase="search"):
        key = _key(point)
        clock.phase = phase
        if state["error"] is not None:  # one error is enough: never call again
            raise state["error"]
        if key not in cache:
            if state["failed"]:
                # the post-failure budget; shrinking may spend half of it
                if state["budget"] <= (max_examples // 2 if phase == "search" else 0):
                    return None  # over the budget: not evaluated
                state["budget"] -= 1
            try:
                raw = call(point)
                if raw is None:
                    raise NotANumber("returned None, not a count")
                yours = to_fraction(raw)
            except BaseException as e:  # noqa: BLE001 - whatever the user's code raised,
                # sys.exit() and KeyboardInterrupt included: an error naming the call
                err = _UserError(point, e, _call_repr(fn, kwargs_of(point)))
                state["error"] = err
                raise err from None
            rec = dict(point, yours=yours, float=is_float(raw), derived=target.value(point))
            if rec["float"]:
                rec["raw"] = repr(float(raw))
            cache[key] = rec
            seen.append(rec)
        rec = cache[key]
        if strict and not close(rec["yours"], rec["derived"], False):
            state["failed"] = True
            raise _Mismatch(rec)
        return rec

    bias_drawn = "bias" in mapping
    biases = (False, True) if bias_drawn else (bool(bias),)
    names = (["d"] + (["h"] if ratio is None else [])
             + ([s for s in ("batch", "seq") if s in mapping] if split
                else (["n"] if "n" in mapping else [])))
    degree = recovery_degree(target, names, ratio) if degree is None else degree
    # the shapes that determine the closed form first: the smallest, and recovery reuses them
    lattice_done = {}
    failure, how = _smallest_first(evaluate, complete, names, degree, biases, max_dim, step,
                                   split, lattice_done)
    if failure is not None:
        state["failed"] = True
    else:
        failure, how = _search(evaluate, complete, bias_drawn, bool(bias), max_examples,
                               max_dim, seed, split, state)
        first_text = _lattice_text(names, degree, lattice_done)
        how = f"{first_text}; then {how}" if first_text else how
    if failure is None:
        clock.phase = "probes"
        for dv, hv, nv, sv in _PROBES:
            for b in biases:
                try:
                    evaluate(complete(dv, hv, nv, sv, b), phase="probes")
                except (_Mismatch, _UserError) as e:
                    failure = failure or e
                if isinstance(failure, _UserError):
                    break
        how += f"; then {len(_PROBES) * len(biases)} fixed probes"
    how += _constraints_text(split, mapping, step)

    result = CounterResult(ok=failure is None, target=target, call=call_text, checked=len(seen),
                           how=how)
    flags_bias = bool(bias)

    def finish():
        result.checked, result.calls, result.seconds = len(seen), clock.calls, clock.elapsed()
        clock.done()
        return result

    if isinstance(failure, _UserError):
        result.ok = False
        result.error = _error_text(failure)
        return finish()
    if isinstance(failure, _Mismatch):
        result.counterexample = failure.point
        flags_bias = failure.point["bias"]
        state["budget"] = max(state["budget"], 0)

    if failure is not None:
        # the user's closed form first (it needs a fixed number of calls), then more points
        lattice = _recovery_calls(len(names), degree) - len(lattice_done.get(flags_bias, ()))
        if lattice <= state["budget"]:
            try:
                result.yours = _recover(evaluate, call, complete, names, flags_bias, degree,
                                        float_ops, max_dim, step, split, ratio)
            except ValueError as e:
                if not _too_long(e):
                    raise
                result.yours = ClosedForm(None, "none", f"not recovered: {TOO_LONG}")
        else:
            result.yours = ClosedForm(None, "none", f"not recovered: that takes {lattice} calls "
                                      f"of your function, more than the {state['budget']} "
                                      "left of --max-examples after the failure")
        if state["error"] is not None:
            result.ok, result.error = False, _error_text(state["error"])
            return finish()
        # alternate the bias flags and mix probes with spread shapes, so that a small budget
        # still sees both; keep a third of what is left for the confirming points
        shapes = [q for pair in zip(_PROBES, _spread(len(_PROBES), max_dim, seed)) for q in pair]
        shapes += _spread(EVIDENCE_POINTS, max_dim, (seed or 0) + 1)
        evidence = [complete(*q, biases[i % len(biases)]) for i, q in enumerate(shapes)]
        evidence += [complete(*q, biases[(i + 1) % len(biases)]) for i, q in enumerate(shapes)]
        keep = state["budget"] // 3
        for q in evidence:
            if state["budget"] <= keep:
                break
            try:
                evaluate(q, strict=False, phase="evidence")
            except _UserError:
                break
        if state["error"] is None:
            try:
                result.explanations = _confirmed(target, seen, evaluate, complete, biases,
                                                 max_dim, seed, float_ops)
            except ValueError as e:
                if not _too_long(e):
                    raise
                result.explanations_tried = False
                result.how += f"; the explanations were not tried: {TOO_LONG}"
        if state["error"] is not None:
            result.ok, result.error = False, _error_text(state["error"])
            return finish()
        result.how += (f"; then {len(seen) - result.checked} more points for the closed form "
                       "and the explanations")
    derived = target.expr(flags_bias)
    if ratio is not None:
        derived = sp.expand(derived.subs(H, sp.Rational(ratio.numerator, ratio.denominator) * D))
    if split:
        derived = sp.expand(derived.subs(N, BATCH * SEQ))
        if "seq" not in mapping:
            derived = derived.subs(SEQ, 1)
        if "batch" not in mapping:
            derived = derived.subs(BATCH, 1)
    elif "n" not in mapping:
        derived = derived.subs(N, 1)
    result.derived = derived
    return finish()


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


LATTICE_FIRST_MAX = 126  # the most shapes evaluated first (4 variables at degree 5)


def _lattice_values(names, degree, max_dim, step):
    """The recovery lattice (closed_form's), smallest shapes first; [] where recovery would
    not use it (a value past max_dim) or it is larger than LATTICE_FIRST_MAX."""
    top = max_dim if step == 1 else max(4, max_dim // step)
    if 1 + degree > top or math.comb(len(names) + degree, degree) > LATTICE_FIRST_MAX:
        return []
    return [dict(zip(names, p)) for p in sorted(_lattice(len(names), degree),
                                                key=lambda p: (sum(p), p))]


def _smallest_first(evaluate, complete, names, degree, biases, max_dim, step, split, done):
    """Evaluate the recovery lattice (every coordinate at most degree + 1) before anything
    is drawn, once per bias flag until one disagrees: (the first mismatch in it, smallest
    first, or a user error, or None; how), and done[bias] = the keys evaluated. The
    closed form then needs no more calls than its confirming points, and the
    counterexample is already among the smallest shapes."""
    lattice = _lattice_values(names, degree, max_dim, step)
    for b in biases:
        first = None
        for values in lattice:
            d, h = values["d"], values.get("h", 1)
            point = (complete(d, h, values.get("batch", 1), values.get("seq", 1), b) if split
                     else complete(d, h, values.get("n", 1), 1, b))
            try:
                rec = evaluate(point, strict=False, phase="smallest")
            except _UserError as e:
                return e, _lattice_text(names, degree, done)
            done.setdefault(b, set()).add(_key(point))
            if first is None and not close(rec["yours"], rec["derived"], False):
                first = rec
        if first is not None:
            return _Mismatch(first), (f"{_lattice_text(names, degree, done)}, the first that "
                                      "disagrees reported")
    return None, _lattice_text(names, degree, done)


def _lattice_text(names, degree, done):
    count = sum(len(v) for v in done.values())
    if not count:
        return ""
    return (f"first the {count} smallest shapes, the degree-{degree} recovery lattice in "
            f"{', '.join(names)}")


def _recovery_calls(m, k):
    """Numeric calls of one recovery: the lattice plus the confirming points."""
    return math.comb(m + k, k) + 8


def _recover(evaluate, call, complete, names, flags_bias, degree, float_ops, max_dim, step,
             split, ratio):
    """The user's closed form, with every numeric call inside max_dim and the token
    constraints, and each one counted against the post-failure budget."""

    def call_closed(values):
        d, h = values["d"], values.get("h", 1)
        if any(isinstance(v, sp.Basic) for v in values.values()):  # the symbolic call
            batch, seq = values.get("batch", 1), values.get("seq", 1)
            n = batch * seq if split else step * values.get("n", 1)
            p = {"d": d, "h": ratio * d if ratio is not None else h, "n": n, "bias": flags_bias,
                 "batch": batch, "seq": seq}
            return call(p)
        if split:
            p = complete(d, h, values.get("batch", 1), values.get("seq", 1), flags_bias)
        else:
            p = complete(d, h, values.get("n", 1), 1, flags_bias)
        rec = evaluate(p, strict=False, phase="recovering")
        if rec is None:
            raise _Budget()
        return float(rec["yours"]) if rec["float"] else rec["yours"]

    def tolerance(exact):
        return float_ops * Fraction(1, 2**53) * abs(exact)

    def allowed(values):
        return values.get("batch", 1) * values.get("seq", 1) <= max_dim

    try:
        form = recover(call_closed, names, degree=degree, tolerance=tolerance,
                       max_value=max_dim if step == 1 else max(4, max_dim // step),
                       allowed=allowed if split else None)
    except _Budget:
        return ClosedForm(None, "none", "not recovered: the --max-examples calls are used up")
    except _UserError:
        return ClosedForm(None, "none", "not recovered: your function raised")
    except (NotANumber, ZeroDivisionError, ArithmeticError) as e:
        return ClosedForm(None, "none", f"could not recover it: {e}")
    if step != 1 and form.expr is not None:
        form.expr = sp.expand(form.expr.subs(N, N / step))
    return form


class _Budget(Exception):
    pass


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
        except BaseException as e:  # noqa: BLE001 - handed back to the caller
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


def _key(p):
    return tuple(p.get(k) for k in ("d", "h", "n", "bias", "batch", "seq"))


# --- drawing --------------------------------------------------------------------------------


def _search(evaluate, complete, bias_drawn, bias, max_examples, max_dim, seed, split, state):
    """Run Hypothesis over the shapes; return (first failure or None, description)."""
    try:
        import hypothesis
        from hypothesis import HealthCheck, Phase, Verbosity, given, settings
        from hypothesis import seed as hyp_seed
        from hypothesis import strategies as st
    except ImportError:
        return _search_without_hypothesis(evaluate, complete, bias_drawn, bias, max_examples,
                                          max_dim, seed, "Hypothesis not installed")
    if hypothesis.currently_in_test_context():  # inside the user's own @given: no nesting
        return _search_without_hypothesis(evaluate, complete, bias_drawn, bias, max_examples,
                                          max_dim, seed, "inside a Hypothesis test")

    dims = st.integers(1, max_dim)
    first = {}

    @settings(max_examples=max_examples, deadline=None, database=None,
              derandomize=seed is None, verbosity=Verbosity.quiet, print_blob=False,
              suppress_health_check=list(HealthCheck),
              phases=[Phase.explicit, Phase.generate, Phase.shrink])
    @given(st.data())
    def run(data):
        d = data.draw(dims, label="d")
        h = data.draw(dims, label="h")
        n = data.draw(dims, label="batch" if split else "n")
        s = data.draw(dims, label="seq") if split else 1
        b = data.draw(st.booleans(), label="bias") if bias_drawn else bias
        try:
            evaluate(complete(d, h, n, s, b))
        except _Mismatch as e:
            first.setdefault("mismatch", e)
            raise

    if seed is not None:
        run = hyp_seed(seed)(run)
    how = (f"Hypothesis, {max_examples} examples{' (derandomized)' if seed is None else ''}, "
           f"d, h, {'batch, seq' if split else 'n'} in 1..{max_dim}"
           f"{', bias drawn' if bias_drawn else ''}")
    try:
        run()
    except (_Mismatch, _UserError) as e:
        return (state["error"] or e), how
    except BaseExceptionGroup as group:  # several distinct failures: report a mismatch first
        found = [e for e in _leaves(group) if isinstance(e, (_Mismatch, _UserError))]
        if state["error"] is not None:
            return state["error"], how
        if not found:
            if "mismatch" in first:
                return first["mismatch"], how
            raise
        return sorted(found, key=lambda e: isinstance(e, _UserError))[0], how
    except Exception:  # a Hypothesis error (e.g. flaky): the user's failure is what we saw
        if state["error"] is not None:
            return state["error"], how
        if "mismatch" in first:
            return first["mismatch"], how
        raise
    if state["error"] is not None:
        return state["error"], how
    return None, how


def _spread(count, max_dim, seed):
    """`count` seeded pseudo-random shapes (d, h, tokens, seq), small, model-sized and large."""
    rng = random.Random(seed or 0)
    tops = (16, 4096, max_dim)
    return [tuple(rng.randint(1, min(rng.choice(tops), max_dim)) for _ in range(4))
            for _ in range(count)]


def _search_without_hypothesis(evaluate, complete, bias_drawn, bias, max_examples, max_dim,
                               seed, why):
    """Seeded pseudo-random shapes (no shrinking) where Hypothesis cannot run."""
    rng = random.Random(seed or 0)
    how = (f"{why}: {max_examples} seeded random draw{'' if max_examples == 1 else 's'}, "
           f"d, h, n in 1..{max_dim}")
    for d, h, n, s in _spread(max_examples, max_dim, seed):
        b = rng.random() < 0.5 if bias_drawn else bias
        try:
            evaluate(complete(d, h, n, s, b))
        except (_Mismatch, _UserError) as e:
            return e, how
    return None, how


def _leaves(group):
    for e in group.exceptions:
        if isinstance(e, BaseExceptionGroup):
            yield from _leaves(e)
        else:
            yield e


# --- arguments ------------------------------------------------------------------------------


def _convention(convention, pass_, count, input_grad):
    conv = {"pass_": "forward", "count": "matmul", "input_grad": True}
    given_conv = {}
    for key, value in (convention or {}).items():
        key = {"pass": "pass_"}.get(key, key)
        if key not in conv:
            raise ValueError(f"unknown convention {key!r}; expected pass, count or input_grad")
        given_conv[key] = value
    for key, value in (("pass_", pass_), ("count", count), ("input_grad", input_grad)):
        if value is not None:
            if key in given_conv and given_conv[key] != value:
                raise ValueError(f"{key} given twice with different values")
            given_conv[key] = value
    conv.update(given_conv)
    if conv["pass_"] not in PASSES:
        raise ValueError(f"unknown pass {conv['pass_']!r}; expected one of {', '.join(PASSES)}")
    if conv["count"] not in COUNTS:
        raise ValueError(f"unknown count {conv['count']!r}; expected one of {', '.join(COUNTS)}")
    conv["input_grad"] = bool(conv["input_grad"])
    return conv


def parse_mapping(text: str) -> dict:
    """'d=hidden,h=ffn' -> {'d': 'hidden', 'h': 'ffn'} (names only; nothing is evaluated)."""
    out = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise ValueError(f"expected NAME=VALUE, got {item!r}")
        out[key.strip()] = value.strip()
    return out


def _mapping(fn, args):
    if isinstance(args, str):
        args = parse_mapping(args)
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        sig = None
    if args is None:
        if sig is None:
            raise ValueError("cannot read your function's signature: pass args explicitly")
        args = {s: s for s in SYMBOLS if s in sig.parameters}
    args = dict(args)
    unknown = set(args) - set(SYMBOLS)
    if unknown:
        raise ValueError(f"args maps unknown symbols {sorted(unknown)}; ours are "
                         f"{', '.join(SYMBOLS)}")
    if sig is not None and not any(p.kind == p.VAR_KEYWORD for p in sig.parameters.values()):
        missing = [name for name in args.values() if name not in sig.parameters]
        if missing:
            raise ValueError(f"your function has no parameter(s) {missing}; it takes "
                             f"{', '.join(sig.parameters)}")
    return args


def _ratio(h_per_d):
    if h_per_d is None:
        return None
    if isinstance(h_per_d, float):
        h_per_d = repr(h_per_d)  # the decimal the author wrote, as in derivations.widths.exact
    if isinstance(h_per_d, sp.Basic):
        h_per_d = str(sp.Rational(h_per_d))
    r = Fraction(h_per_d)
    if r <= 0:
        raise ValueError("h_per_d must be positive")
    return r


def _arg(v):
    """Numbers go to the user's function as ints where integral, else as Fractions."""
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v)
    return v


def _describe_call(fn, mapping, fixed, ratio):
    name = getattr(fn, "__qualname__", repr(fn))
    parts = [f"{param}={sym}" for sym, param in mapping.items()]
    parts += [f"{k}={v!r}" for k, v in fixed.items()]
    text = f"{getattr(fn, '__module__', '?')}.{name}({', '.join(parts)})"
    if ratio is not None:
        text += f" with h = {ratio}·d"
    return text


def _fmt_point(p):
    keys = ["d", "h", "n", "batch", "seq", "bias"]
    return ", ".join(f"{k}={_num(p[k])}" for k in keys if k in p)


TOO_LONG = "your values are integers of more than 4,300 digits (Python's int-to-str limit)"


def _too_long(e: ValueError) -> bool:
    """Whether `e` is Python's int-to-str limit (a huge count formatted somewhere)."""
    return "digits" in str(e) and "limit" in str(e)


MAX_DIGITS_SHOWN = 120  # a longer integer is shown by its size and leading digits


def _int_text(v: int) -> str:
    """An integer as text; one too long to print (a counter that returned 10**5000) by
    its magnitude, computed from its top bits (never a str() of all its digits)."""
    bits = abs(v).bit_length()
    if bits <= MAX_DIGITS_SHOWN * 3:  # at most ~108 digits: exact
        return str(v)
    shift = bits - 64
    log10 = math.log10(abs(v) >> shift) + shift * math.log10(2)
    exponent = math.floor(log10)
    if abs(log10 - round(log10)) < 1e-9 and bits < 10**7:  # near a power of ten: exactly
        exponent = round(log10) - (abs(v) < 10 ** round(log10))
    mantissa = min(max(10 ** (log10 - exponent), 1.0), 9.999999)
    return (f"{'-' if v < 0 else ''}{mantissa:.6f}e+{exponent} "
            f"(an integer of {exponent + 1:,} digits)")


def _num(v):
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, int):
        return _int_text(v)
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return _int_text(v.numerator)
        return f"{_int_text(v.numerator)}/{_int_text(v.denominator)}"
    return _text(v)


def _text(obj) -> str:
    """str(obj) for a report, or what it is when str() itself fails (a huge SymPy number
    past Python's int-to-str limit, an object whose __str__ raises)."""
    try:
        return str(obj)
    except Exception as e:  # noqa: BLE001 - the user's object, or a number too long
        if "digits" in str(e):
            return f"(a {type(obj).__name__} with numbers of more than 4,300 digits)"
        return f"(a {type(obj).__name__} that cannot be shown: {type(e).__name__})"


def _pretty(expr) -> str:
    try:
        return pretty(expr)
    except ValueError as e:  # Python's int-to-str limit inside SymPy's printer
        if not _too_long(e):
            raise
        return "(a closed form with integers of more than 4,300 digits: too long to print)"


def _exception_text(error: BaseException) -> str:
    name = type(error).__name__
    if isinstance(error, SystemExit):
        return f"SystemExit({_text(error.code)}) (sys.exit; a counter returns its count)"
    if isinstance(error, KeyboardInterrupt):
        return "KeyboardInterrupt (the call was interrupted)"
    text = _text(error)
    return f"{name}: {text}" if text else name
