"""Fitted explanations: a mistake with one constant, solved for at one point.

Each entry of FITTED is (key, fit): fit(t, V, c) is a transformed derivation affine in the
constant c (the width the function silently assumes, the FLOPs it charges per bias
parameter, a constant factor). `_solve_constant` finds c at the first disagreeing point
where it matters, exactly (Fractions); `explain` then checks the fit at every other point
like the named mistakes, and `_VALID` rejects the constants that name no mistake.
"""

from __future__ import annotations

from fractions import Fraction

from ffnverify.testing.count_target import _bias_params, _with


def _fit_width(t, V, c):
    note = " (the GPT default 4·d)" if c == 4 else ""
    return (lambda q: V(t, _with(q, h=c * Fraction(q["d"])))), (
        f"the hidden width is ignored: your value is ours at h = {c}·d{note} whatever h is "
        "passed")


def _fit_bias_term(t, V, c):
    tokens = 1 if t.quantity == "params" else None

    def expected(q):
        if not q.get("bias"):
            return V(t, q)
        return V(t, q) + c * _bias_params(t.variant, q) * (tokens or Fraction(q["n"]))

    per = "per bias parameter" + ("" if t.quantity == "params" else " per token")
    return expected, (f"a different bias term: yours = ours {'+' if c > 0 else '-'} {abs(c)} "
                      f"{per} (e.g. a 6N rule whose N includes the biases, or a bias add "
                      "counted as a multiply-accumulate)")


def _fit_bias_per_call(t, V, c):
    if t.quantity == "params":
        return None  # the same as a bias term there

    def expected(q):
        if not q.get("bias"):
            return V(t, q)
        return V(t, q) + c * _bias_params(t.variant, q)

    return expected, (f"a bias term once per call, not per token: yours = ours "
                      f"{'+' if c > 0 else '-'} {abs(c)} per bias parameter, whatever the "
                      "token count (as pthflops adds a linear's out_features once)")


def _fit_factor(t, V, c):
    return (lambda q: c * V(t, q)), f"off by a constant factor: derived / yours = {1 / c}"


FITTED = [("width_ignored", _fit_width), ("bias_term", _fit_bias_term),
          ("bias_per_call", _fit_bias_per_call), ("constant_factor", _fit_factor)]
_VALID = {"width_ignored": lambda c: c > 0, "bias_term": lambda c: c != 0,
          "bias_per_call": lambda c: c != 0, "constant_factor": lambda c: c not in (0, 1)}


def _solve_constant(build, points):
    """c such that build(c)(p) == p['yours'] at the first of `points` where c matters
    (build(c) is affine in c); or None."""
    f0, f1 = build(Fraction(0)), build(Fraction(1))
    for p in points:
        try:
            e0, e1 = f0(p), f1(p)
        except (ZeroDivisionError, ValueError, KeyError):
            return None
        if e1 != e0:
            return (p["yours"] - e0) / (e1 - e0)
    return None
