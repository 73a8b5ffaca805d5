"""Named explanations for a counter that disagrees with the derivation.

Each explanation is a *transformed derivation*: the count our derivation gives after one
specific, common mistake (MACs reported as FLOPs, a gated unit counted as ungated, the bias
dropped, the hidden width ignored, ...). An explanation fits when the user's values equal
the transformed derivation exactly at every point we evaluated, and the transformation
actually changes the count somewhere (so a harmless transformation, like swapping d and h
in a formula symmetric in them, never "explains" anything).

A few explanations carry one constant fitted at the first disagreeing point (the width the
function silently assumes, the FLOPs it charges per bias parameter); they are then checked
at every other point like the rest.

Where the user's function computed in floating point, "equal" means within k units of
roundoff (u = 2⁻⁵³, k = FLOAT_OPS roundings, each at most u relative, adding to first
order): the bound of a formula of up to k floating-point operations.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

import sympy as sp

from derivations import variants
from derivations.flops import flops, macs
from derivations.params import params
from derivations.symbols import d as D
from derivations.symbols import h as H
from derivations.symbols import n as N
from ffnverify.testing.closed_form import evaluator, pretty

QUANTITIES = ("params", "flops", "macs")
UNIT_ROUNDOFF = Fraction(1, 2**53)
FLOAT_OPS = 16
EXACT_FLOAT_LIMIT = 2**53  # every integer up to here is a float; beyond, floats skip integers

# ungated <-> gated with the same activation (SPEC §2 names)
_GATED_OF = {"relu": "reglu", "gelu": "geglu", "gelu_tanh": "geglu_tanh", "silu": "swiglu"}
_UNGATED_OF = {g: u for u, g in _GATED_OF.items()}


@dataclass(frozen=True)
class Target:
    """What the user's function is supposed to count (SPEC §3 conventions)."""

    quantity: str
    variant: str
    pass_: str = "forward"
    count: str = "matmul"
    input_grad: bool = True

    def expr(self, bias: bool) -> sp.Expr:
        return _derived(self.quantity, self.variant, self.pass_, self.count, self.input_grad,
                        bool(bias))[0]

    def value(self, point) -> Fraction:
        """The exact count at point {d, h, n, bias}."""
        f = _derived(self.quantity, self.variant, self.pass_, self.count, self.input_grad,
                     bool(point.get("bias", False)))[1]
        return f(point)

    def describe(self) -> str:
        if self.quantity == "params":
            return f"{self.variant} params"
        return (f"{self.variant} {self.quantity} (pass={self.pass_}, count={self.count}, "
                f"input_grad={str(self.input_grad).lower()})")


@lru_cache(maxsize=512)
def _derived(quantity, variant, pass_, count, input_grad, bias):
    if quantity == "params":
        expr = params(variant, D, H, bias)
    elif quantity in ("flops", "macs"):
        fn = flops if quantity == "flops" else macs
        expr = fn(variant, D, H, N, pass_=pass_, count=count, input_grad=input_grad, bias=bias)
    else:
        raise ValueError(f"unknown quantity {quantity!r}; expected one of {', '.join(QUANTITIES)}")
    return expr, evaluator(expr, ("d", "h", "n"))


@dataclass
class Fit:
    """An explanation that fits every evaluated point."""

    key: str
    title: str

    def __str__(self):
        return self.title


def close(yours: Fraction, expected: Fraction, floating: bool, float_ops=FLOAT_OPS) -> bool:
    """Exact equality, or (for a float result) agreement within float_ops units of roundoff."""
    if yours == expected:
        return True
    return floating and abs(yours - expected) <= float_ops * UNIT_ROUNDOFF * abs(expected)


def _with(point, **changes):
    p = dict(point)
    p.update(changes)
    return p


def _ratio(a, b):
    """a / b as a constant, or None."""
    try:
        r = sp.simplify(a / b)
    except ZeroDivisionError:
        return None
    return r if r.is_number else None


# --- the explanations: (key, applies(target) -> bool, expected(target, point) -> Fraction,
#     title(target) -> str) ---------------------------------------------------------------


def _macs_flops(t):
    if t.quantity == "flops":
        return (lambda p: t.value(p) / 2,
                "factor 2 (MACs vs FLOPs): your function counts multiply-accumulates, ours "
                "counts 2 FLOPs per multiply-add (as FlopCounterMode does); derived / yours = 2 "
                "(fvcore, thop and torchinfo report MACs under the name FLOPs)")
    if t.quantity == "macs":
        return (lambda p: t.value(p) * 2,
                "factor 2 (FLOPs vs MACs): your function counts FLOPs (2 per multiply-add) "
                "where multiply-accumulates were asked; yours / derived = 2")
    return None


def _counterpart(t, to):
    v = variants.get(t.variant)
    structural = t.quantity == "params" or t.count == "matmul"
    if to == "ungated":
        if not v.gated:
            return None
        other = _UNGATED_OF.get(t.variant) or ("relu" if structural else None)
    else:
        if v.gated:
            return None
        other = _GATED_OF.get(t.variant)
    return replace(t, variant=other) if other else None


def _gated_as_ungated(t):
    other = _counterpart(t, "ungated")
    if other is None:
        return None
    r = _ratio(t.expr(False), other.expr(False))
    ratio = f"; derived / yours = {r}" if r is not None else ""
    return (other.value,
            f"{t.variant} counted as ungated: your function counts two projections where "
            f"{t.variant} has three (gate, up, down){ratio}")


def _ungated_as_gated(t):
    other = _counterpart(t, "gated")
    if other is None:
        return None
    r = _ratio(other.expr(False), t.expr(False))
    ratio = f"; yours / derived = {r}" if r is not None else ""
    return (other.value,
            f"{t.variant} counted as gated: your function counts three projections where "
            f"{t.variant} has two{ratio}")


def _missing_bias(t):
    return (lambda p: t.value(_with(p, bias=False)),
            "a missing bias term: where bias=true your value is ours without the biases")


def _extra_bias(t):
    return (lambda p: t.value(_with(p, bias=True)),
            "an extra bias term: where bias=false your value still counts biases")


def _input_grad(t):
    if t.quantity == "params" or t.pass_ == "forward":
        return None
    other = replace(t, input_grad=not t.input_grad)
    if t.input_grad:
        return (other.value, "a missing input-gradient term: your backward pass leaves out the "
                "matmul that gives dL/dx (what FlopCounterMode measures when x does not "
                "require grad)")
    return (other.value, "an extra input-gradient term: your backward pass counts dL/dx, "
            "which input_grad=false leaves out")


def _other_pass(q):
    def make(t):
        if t.quantity == "params" or t.pass_ == q:
            return None
        return (replace(t, pass_=q).value,
                f"a different pass: your function counts the {q} pass, not the {t.pass_} pass")

    return make


def _other_count(t):
    if t.quantity == "params":
        return None
    if t.count == "all":
        return (replace(t, count="matmul").value,
                "matmuls only: your function leaves out the elementwise work (bias adds, "
                "activation, gating product) that count=all includes")
    return (replace(t, count="all").value,
            "elementwise work counted: your function adds bias adds, the activation and the "
            "gating product, which count=matmul leaves out")


def _recompute(t):
    if t.quantity == "params" or t.pass_ != "train":
        return None
    fwd = replace(t, pass_="forward")
    return (lambda p: t.value(p) + fwd.value(p),
            "activation recomputation counted: yours = ours + one more forward pass "
            "(Megatron's 4x and the cookbook's checkpoint-activations default)")


def _shift(name, delta):
    def make(t):
        return (lambda p: t.value(_with(p, **{name: p[name] + delta})),
                f"an off-by-one width: your value is ours at {name}{delta:+d} "
                f"(the {'hidden' if name == 'h' else 'model'} width is off by one)")

    return make


def _swapped(t):
    return (lambda p: t.value(_with(p, d=p["h"], h=p["d"])),
            "swapped d and h: your value is ours with the model width d and the hidden width "
            "h exchanged")


def _truncated_width(rounding, how):
    def make(t):
        return (lambda p: t.value(_with(p, h=Fraction(rounding(Fraction(p["h"]))))),
                f"integer truncation of the width: the derivation's hidden width h is "
                f"rational (e.g. 8/3·d) and your function uses {how}(h) (e.g. int(8*d/3))")

    return make


def _truncated_result(rounding, how):
    def make(t):
        return (lambda p: Fraction(rounding(t.value(p))),
                f"integer truncation of the result: the exact count is rational here and your "
                f"function returns {how} of it (e.g. // where / is needed)")

    return make


def _int64_overflow(t):
    def wrap(p):
        v = t.value(p)
        if v.denominator != 1:
            return v
        return Fraction((v.numerator + 2**63) % 2**64 - 2**63)

    return (wrap, "int64 overflow: your value is the exact count wrapped modulo 2^64, as "
            "NumPy or torch int64 arithmetic wraps past 2^63 - 1")


NAMED = [
    ("macs_vs_flops", _macs_flops),
    ("gated_as_ungated", _gated_as_ungated),
    ("ungated_as_gated", _ungated_as_gated),
    ("missing_bias", _missing_bias),
    ("extra_bias", _extra_bias),
    ("input_grad", _input_grad),
    ("pass_forward", _other_pass("forward")),
    ("pass_backward", _other_pass("backward")),
    ("pass_train", _other_pass("train")),
    ("recompute", _recompute),
    ("count", _other_count),
    ("off_by_one_h-1", _shift("h", -1)),
    ("off_by_one_h+1", _shift("h", +1)),
    ("off_by_one_d-1", _shift("d", -1)),
    ("off_by_one_d+1", _shift("d", +1)),
    ("swapped_d_h", _swapped),
    ("truncated_width_floor", _truncated_width(math.floor, "floor")),
    ("truncated_width_ceil", _truncated_width(math.ceil, "ceil")),
    ("truncated_width_round", _truncated_width(round, "round")),
    ("truncated_result_floor", _truncated_result(math.floor, "floor")),
    ("truncated_result_round", _truncated_result(round, "round")),
    ("int64_overflow", _int64_overflow),
]


# --- fitted explanations: one constant from the first disagreeing point -----------------


def _fit_width(t, p):
    """The h that makes our (linear-in-h) count equal yours at p, as a multiple of d."""
    v0 = t.value(_with(p, h=0))
    slope = t.value(_with(p, h=1)) - v0
    if slope == 0:
        return None
    c = (p["yours"] - v0) / slope / Fraction(p["d"])
    if c <= 0:
        return None

    def title(c=c):
        note = " (the GPT default 4·d)" if c == 4 else ""
        return (f"the hidden width is ignored: your value is ours at h = {c}·d{note} "
                "whatever h is passed")

    return (lambda q: t.value(_with(q, h=c * Fraction(q["d"])))), title()


def _bias_params(variant, p):
    """Bias parameters of `variant` at p (the sum of its projections' output widths)."""
    on = _derived("params", variant, "forward", "matmul", True, True)[1]
    off = _derived("params", variant, "forward", "matmul", True, False)[1]
    return on(p) - off(p)


def _fit_bias_term(t, p):
    if not p.get("bias"):
        return None
    with_b, without_b = t.value(p), t.value(_with(p, bias=False))
    scale = _bias_params(t.variant, p) * (1 if t.quantity == "params" else Fraction(p["n"]))
    c = (p["yours"] - with_b) / scale
    if p["yours"] == without_b or c == 0:
        return None

    def expected(q):
        if not q.get("bias"):
            return t.value(q)
        return t.value(q) + c * _bias_params(t.variant, q) * (1 if t.quantity == "params" else Fraction(q["n"]))

    per = "per bias parameter" + ("" if t.quantity == "params" else " per token")
    return expected, (f"a different bias term: yours = ours {'+' if c > 0 else '-'} {abs(c)} "
                      f"{per} (e.g. a 6N rule whose N includes the biases, which are adds, "
                      "not matmul FLOPs)")


def _fit_factor(t, p):
    derived = t.value(p)
    if derived == 0 or p["yours"] == 0:
        return None
    c = p["yours"] / derived
    return (lambda q: c * t.value(q)), f"off by a constant factor: derived / yours = {1 / c}"


FITTED = [("width_ignored", _fit_width), ("bias_term", _fit_bias_term),
          ("constant_factor", _fit_factor)]


def explain(target: Target, points, float_ops=FLOAT_OPS) -> list[Fit]:
    """The explanations that fit every point in `points`.

    Each point is {d, h, n, bias, yours (Fraction), float (bool)}. Returns [] when the
    points all agree with the derivation or nothing fits.
    """
    derived = [target.value(p) for p in points]
    mismatched = [p for p, v in zip(points, derived)
                  if not close(p["yours"], v, p.get("float", False), float_ops)]
    exact_mismatch = [p for p, v in zip(points, derived) if p["yours"] != v]
    if not exact_mismatch:
        return []
    fits = []

    def fits_all(expected):
        """None if it does not fit; else whether float round-off was needed for the fit."""
        changes = rounded = False
        for p, v in zip(points, derived):
            try:
                e = expected(p)
            except (ZeroDivisionError, ValueError):
                return None
            if not close(p["yours"], e, p.get("float", False), float_ops):
                return None
            changes = changes or e != v
            rounded = rounded or p["yours"] != e
        return rounded if changes else None

    def add(key, title, rounded):
        fits.append(Fit(key, title + (" (up to float round-off)" if rounded else "")))

    for key, make in NAMED if mismatched else ():
        made = make(target)
        if made is not None and (rounded := fits_all(made[0])) is not None:
            add(key, made[1], rounded)
    if mismatched:
        first = mismatched[0]
        for key, fit in FITTED:
            if key == "bias_term" and any(f.key == "missing_bias" for f in fits):
                continue
            if key == "constant_factor" and fits:
                continue
            made = fit(target, first)
            if made is not None and (rounded := fits_all(made[0])) is not None:
                add(key, made[1], rounded)
    else:  # every difference is within float round-off
        def rel(p):
            return abs(p["yours"] - target.value(p)) / abs(target.value(p))

        ulps = max(rel(p) for p in exact_mismatch) / UNIT_ROUNDOFF
        smallest = min(exact_mismatch, key=lambda p: abs(target.value(p)))
        exact = target.value(smallest)
        where = (", above 2^53, beyond which floats skip integers"
                 if abs(exact) > EXACT_FLOAT_LIMIT else "")
        fits.append(Fit("float_round_off",
                        "float round-off: your function computes in floating point and differs "
                        f"from the exact count by rounding only (relative error at most "
                        f"{float(ulps):.3g}·u, u = 2^-53); the smallest count that differs is "
                        f"{exact} at {_fmt(smallest)}{where}"))
    return fits


def _fmt(p):
    keys = [k for k in ("d", "h", "n") if k in p] + (["bias"] if "bias" in p else [])
    return ", ".join(f"{k}={_num(p[k])}" for k in keys)


def _num(v):
    if isinstance(v, bool):
        return str(v).lower()
    return str(v)


__all__ = ["Target", "Fit", "explain", "close", "NAMED", "FITTED", "pretty"]
