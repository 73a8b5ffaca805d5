"""Counter conformance: property-test anyone's parameter or FLOP formula against the derivations.

`check_counter(fn, quantity, variant, args=..., fixed=...)` calls the user's counting
function on shapes drawn by Hypothesis (d, h, n and, where the function takes it, the bias
flag), converts each result exactly (a float becomes the rational it stores) and compares it
exactly with `derivations.params.params` / `derivations.flops.flops` / `macs` under the
SPEC §3 conventions. On a disagreement the result carries the first (shrunk)
counterexample, the user's formula recovered in closed form next to ours
(`closed_form.recover`), and the named explanations that fit (`explain.explain`).
"""

from __future__ import annotations

import inspect
import random
from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp

from derivations import variants
from derivations.flops import COUNTS, PASSES
from derivations.symbols import d as D
from derivations.symbols import h as H
from derivations.symbols import n as N
from ffnverify.testing.closed_form import (
    DEFAULT_DEGREE,
    ClosedForm,
    NotANumber,
    is_float,
    pretty,
    recover,
    to_fraction,
)
from ffnverify.testing.explain import FLOAT_OPS, QUANTITIES, Fit, Target, close, explain

SYMBOLS = ("d", "h", "n", "bias", "gated", "variant")
MAX_DIM = 2**20
EVIDENCE_POINTS = 40  # extra shapes evaluated after a failure, to test the explanations
# Fixed probes run after Hypothesis: tiny shapes, real model shapes, and large odd ones where
# a float product no longer holds every integer.
_PROBES = [(1, 1, 1), (2, 3, 5), (3, 8, 1), (4096, 11008, 2048), (5120, 13824, 1),
           (8191, 21_845, 4095), (999_983, 1_000_003, 524_287)]


class _Mismatch(Exception):
    def __init__(self, point):
        super().__init__(point)
        self.point = point


class _UserError(Exception):
    def __init__(self, point, error):
        super().__init__(f"{type(error).__name__}: {error}")
        self.point, self.error = point, error


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
            "counterexample": None if c is None else {
                k: (_num(v) if not isinstance(v, bool) else v) for k, v in c.items()},
            "yours": None if self.yours is None or self.yours.expr is None
            else pretty(self.yours.expr),
            "yours_note": None if self.yours is None else self.yours.note,
            "derived": None if self.derived is None else pretty(self.derived),
            "explanations": [{"key": f.key, "text": f.title} for f in self.explanations],
        }

    def report(self) -> str:
        verdict = "ERROR" if self.error else ("agrees" if self.ok else "DISAGREES")
        lines = [f"check-counter: {self.target.describe()}: {verdict}",
                 f"  your function: {self.call}"]
        if self.error:
            lines.append(f"  error: {self.error}")
        if self.counterexample:
            c = self.counterexample
            yours = (f"{c['raw']} (a float, exactly {_num(c['yours'])})" if c.get("raw")
                     else _num(c["yours"]))
            lines.append(f"  counterexample: {_fmt_point(c)}: yours = {yours}, "
                         f"derived = {_num(c['derived'])}")
        if self.yours is not None:
            lines.append(f"  yours   = {self.yours}   [{self.yours.method}: {self.yours.note}]"
                         if self.yours.expr is not None else f"  yours   = unknown: {self.yours.note}")
            if self.yours.floating:
                lines.append("            (your function computes in floating point)")
        if self.derived is not None:
            lines.append(f"  derived = {pretty(self.derived)}")
        if self.explanations:
            lines.append(f"  likely explanation: {self.explanations[0]}")
            lines.extend(f"  also fits: {f}" for f in self.explanations[1:])
        elif not self.ok and not self.error:
            lines.append("  likely explanation: none of the named explanations fits "
                         "(see docs/counters.md for the list)")
        lines.append(f"  checked {self.checked} points ({self.how})")
        return "\n".join(lines)


def check_counter(fn, quantity, variant, args=None, fixed=None, convention=None, *,
                  pass_=None, count=None, input_grad=None, bias=False, h_per_d=None,
                  max_examples=200, max_dim=MAX_DIM, degree=DEFAULT_DEGREE, seed=None,
                  float_ops=FLOAT_OPS) -> CounterResult:
    """Check the user's counting function `fn` against the derivation.

    quantity: "params", "flops" or "macs". variant: an SPEC §2 name.
    args: {our symbol: your parameter name} for d, h, n, bias, gated (receives the variant's
      gatedness) and variant (receives its name); a "d=NAME,h=NAME" string works too. By
      default every one of our symbols that is also a parameter name of `fn` is mapped.
    fixed: {your parameter name: value} for the function's other arguments.
    convention: {"pass": ..., "count": ..., "input_grad": ...} (SPEC §3), or give pass_,
      count, input_grad directly. bias: the bias flag when `fn` takes none.
    h_per_d: when `fn` takes no hidden width or must be given a rational one, h = h_per_d·d
      exactly (e.g. "8/3"); the function receives a Fraction where h is not an integer.
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
    gated = variants.get(variant).gated

    def call(values):
        """Call the user's function at {d, h, n, bias} (numbers or SymPy symbols)."""
        kwargs = dict(fixed)
        for sym, name in mapping.items():
            if sym == "gated":
                kwargs[name] = gated
            elif sym == "variant":
                kwargs[name] = variant
            else:
                kwargs[name] = _arg(values[sym])
        return fn(**kwargs)

    def complete(d, h, n, b):
        if ratio is not None:
            h = ratio * d
        return {"d": d, "h": h, "n": n if "n" in mapping else 1, "bias": b}

    seen = []

    def evaluate(point, strict=True):
        try:
            raw = call(point)
            yours = to_fraction(raw)
        except Exception as e:  # noqa: BLE001 - report whatever the user's code raised
            raise _UserError(point, e) from e
        rec = dict(point, yours=yours, float=is_float(raw), derived=target.value(point))
        if rec["float"]:
            rec["raw"] = repr(float(raw))
        seen.append(rec)
        if strict and not close(yours, rec["derived"], False):
            raise _Mismatch(rec)
        return rec

    bias_drawn = "bias" in mapping
    failure, how = _search(evaluate, complete, bias_drawn, bool(bias), max_examples, max_dim,
                           seed)
    if failure is None:
        for dv, hv, nv in _PROBES:
            for b in ((False, True) if bias_drawn else (bool(bias),)):
                try:
                    evaluate(complete(min(dv, max_dim), min(hv, max_dim), min(nv, max_dim), b))
                except (_Mismatch, _UserError) as e:
                    failure = failure or e
        how += f"; then {len(_PROBES) * (2 if bias_drawn else 1)} fixed probes"

    call_text = _describe_call(fn, mapping, fixed, ratio)
    result = CounterResult(ok=failure is None, target=target, call=call_text, checked=len(seen),
                           how=how)
    flags_bias = bool(bias)
    if isinstance(failure, _UserError):
        result.error = (f"your function raised {failure} at {_fmt_point(failure.point)}")
        return result
    if isinstance(failure, _Mismatch):
        result.counterexample = failure.point
        flags_bias = failure.point["bias"]
        # more evidence for the explanations than the few points before the first failure
        for b in ((False, True) if bias_drawn else (bool(bias),)):
            for dv, hv, nv in _PROBES + _spread(EVIDENCE_POINTS, max_dim, seed):
                try:
                    evaluate(complete(min(dv, max_dim), min(hv, max_dim), min(nv, max_dim), b),
                             strict=False)
                except _UserError:
                    pass
        result.how += f"; then {len(seen) - result.checked} more points for the explanations"
    names = ["d"] + (["h"] if ratio is None else []) + (["n"] if "n" in mapping else [])

    def call_closed(values):
        return call(complete(values["d"], values.get("h"), values.get("n", 1), flags_bias))

    def tolerance(exact):
        return float_ops * Fraction(1, 2**53) * abs(exact)

    try:
        result.yours = recover(call_closed, names, degree=degree, tolerance=tolerance)
    except (NotANumber, ZeroDivisionError, ArithmeticError) as e:
        result.yours = ClosedForm(None, "none", f"could not recover it: {e}")
    except Exception as e:  # noqa: BLE001 - the user's code raised on a lattice point
        result.yours = ClosedForm(None, "none", f"your function raised {type(e).__name__}: {e}")
    derived = target.expr(flags_bias)
    if ratio is not None:
        derived = sp.expand(derived.subs(H, sp.Rational(ratio.numerator, ratio.denominator) * D))
    if "n" not in mapping:
        derived = derived.subs(N, 1)
    result.derived = derived
    if not result.ok:
        result.explanations = explain(target, seen[-2000:], float_ops)
    result.checked = len(seen)
    return result


# --- drawing --------------------------------------------------------------------------------


def _search(evaluate, complete, bias_drawn, bias, max_examples, max_dim, seed):
    """Run Hypothesis over the shapes; return (first failure or None, description)."""
    try:
        import hypothesis
        from hypothesis import HealthCheck, Verbosity, given, settings
        from hypothesis import seed as hyp_seed
        from hypothesis import strategies as st
    except ImportError:
        return _search_without_hypothesis(evaluate, complete, bias_drawn, bias, max_examples,
                                          max_dim, seed, "Hypothesis not installed")
    if hypothesis.currently_in_test_context():  # inside the user's own @given: no nesting
        return _search_without_hypothesis(evaluate, complete, bias_drawn, bias, max_examples,
                                          max_dim, seed, "inside a Hypothesis test")

    dims = st.integers(1, max_dim)

    @settings(max_examples=max_examples, deadline=None, database=None,
              derandomize=seed is None, verbosity=Verbosity.quiet, print_blob=False,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def run(data):
        d = data.draw(dims, label="d")
        h = data.draw(dims, label="h")
        n = data.draw(dims, label="n")
        b = data.draw(st.booleans(), label="bias") if bias_drawn else bias
        evaluate(complete(d, h, n, b))

    if seed is not None:
        run = hyp_seed(seed)(run)
    how = (f"Hypothesis, {max_examples} examples{' (derandomized)' if seed is None else ''}, "
           f"d, h, n in 1..{max_dim}{', bias drawn' if bias_drawn else ''}")
    try:
        run()
    except (_Mismatch, _UserError) as e:
        return e, how
    except BaseExceptionGroup as group:  # several distinct failures: report a mismatch first
        found = [e for e in _leaves(group) if isinstance(e, (_Mismatch, _UserError))]
        if not found:
            raise
        return sorted(found, key=lambda e: isinstance(e, _UserError))[0], how
    return None, how


def _spread(count, max_dim, seed):
    """`count` seeded pseudo-random shapes, mixing small, model-sized and large values."""
    rng = random.Random(seed or 0)
    tops = (16, 4096, max_dim)
    return [tuple(rng.randint(1, min(rng.choice(tops), max_dim)) for _ in range(3))
            for _ in range(count)]


def _search_without_hypothesis(evaluate, complete, bias_drawn, bias, max_examples, max_dim,
                               seed, why):
    """Seeded pseudo-random shapes (no shrinking) where Hypothesis cannot run."""
    rng = random.Random(seed or 0)
    how = f"{why}: {max_examples} seeded random draws, d, h, n in 1..{max_dim}"
    for d, h, n in _spread(max_examples, max_dim, seed):
        b = rng.random() < 0.5 if bias_drawn else bias
        try:
            evaluate(complete(d, h, n, b))
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
    keys = ["d", "h", "n", "bias"]
    return ", ".join(f"{k}={_num(p[k])}" for k in keys if k in p)


def _num(v):
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, Fraction) and v.denominator == 1:
        return str(v.numerator)
    return str(v)
