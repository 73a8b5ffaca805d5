"""The domain of a limit: where `limit(expr, z, p, dir=...)` is defined at all.

A limit at p is defined only when its expression is defined and real on a punctured
neighbourhood of p (on the side that `dir` names; near ±oo, for every large enough |z|):
`limit(sqrt(z)**2, z, -1)` and `limit(abs(log(z)), z, -1, dir="+")` are not limits of
real functions, whatever SymPy's complex-valued limit says. `near_conditions` turns each
domain condition of the expression (build.Cond: u > 0, u >= 0, u != 0) into what must
hold for it near the point, or raises ClaimError when it fails there or cannot be shown.

Why an answer can be trusted: for a side s and t > 0, g(t) = u(p + s*t) (u(±1/t) at ±oo).

- If g -> L as t -> 0+ with L certified > 0 (or +oo), then g > 0 for every small enough t:
  that is what the limit means (no continuity is needed). L < 0 likewise.
- If L = 0, the leading term c*t**k of g decides when g / (c*t**k) -> 1, since then g
  has the sign of c (certified) for small t.
- If L holds other free symbols (limit(sqrt(y + z), z, 0)), the strict condition L > 0
  (L != 0 for a divisor) is returned: a condition on those symbols, which the decider
  states like any other; where it holds, the first case applies.
Anything else (a sign that cannot be certified, a limit SymPy cannot find) is an error.
"""

import dataclasses
from collections.abc import Callable

import sympy as sp

from ffnverify.claims.errors import ClaimError
from ffnverify.claims.functions import plain

_SIDE = {"+": "from above", "-": "from below"}


def _sides(point, dir):
    if point is sp.oo:
        return [("+oo", lambda t: 1 / t)]
    if point is sp.S.NegativeInfinity:
        return [("-oo", lambda t: -1 / t)]
    sides = ["-", "+"] if dir is None else [dir]
    return [(_SIDE[s], _towards(point, s)) for s in sides]


def _towards(point, side: str) -> Callable[[sp.Expr], sp.Expr]:
    """t -> the point approached from `side` ('+' above, '-' below) at distance t."""
    if side == "+":
        return lambda t: point + t
    return lambda t: point - t


def _sign_near(g, t):
    """+1 / -1 / 0: the sign of g(t) for all small t > 0 (0: g is identically 0 there),
    None when it cannot be shown; or an expression L (g -> L, L holding other symbols)."""
    from ffnverify.claims.certify import sign

    try:
        L = sp.limit(g, t, 0, "+")
    except (ValueError, NotImplementedError, TypeError, ZeroDivisionError):
        return None
    if L.has(sp.Limit, sp.AccumBounds, sp.nan, sp.zoo) or L.has(sp.I):
        return None
    if L.free_symbols:
        return L
    s = 1 if L is sp.oo else -1 if L is sp.S.NegativeInfinity else _certified(sign, L)
    if s != 0:
        return s
    if g == 0:
        return 0
    try:
        lead = g.as_leading_term(t)
        if lead == 0 or sp.limit(g / lead, t, 0, "+") != 1:
            return None
        coeff, _ = lead.as_coeff_exponent(t)  # lead = coeff * t**k, t > 0
    except (ValueError, NotImplementedError, TypeError, ZeroDivisionError):
        return None
    if coeff.has(t) or coeff.free_symbols:
        return None
    s = _certified(sign, coeff)  # never SymPy's is_positive of a number (evalf)
    return s if s in (1, -1) else None


def _certified(sign, value):
    try:
        return sign(value)
    except ClaimError:
        return None


def near_conditions(conds, var, point, dir):
    """The conditions on the other symbols under which every one of `conds` (each in
    `var`) holds on a punctured neighbourhood of `point` (one side for dir="+" / "-");
    ClaimError when one fails there or cannot be shown."""
    out = []
    t = sp.Dummy("t", positive=True)
    where = "+oo" if point is sp.oo else "-oo" if point is sp.S.NegativeInfinity else \
        f"{var} = {point}"
    for c in conds:
        for side, at in _sides(point, dir):
            s = _sign_near(plain(c.expr).subs(var, at(t)), t)
            shown = f"{c.show()} near {where}" + ("" if side.endswith("oo") else f" {side}")
            if isinstance(s, sp.Expr):
                # the same condition class as c (build.Cond), without importing build: no cycle
                strict = dataclasses.replace(c, op="!=" if c.op == "!=" else ">", expr=s)
                if strict not in out:
                    out.append(strict)
            elif s is None:
                raise ClaimError(f"limit(): could not show that {shown}, where the "
                                 "expression must be defined and real")
            elif not (s > 0 or (s < 0 and c.op == "!=") or (s == 0 and c.op == ">=")):
                raise ClaimError(f"limit(): the expression is not defined and real near "
                                 f"the point ({shown} fails)")
    return out
