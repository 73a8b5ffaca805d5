"""Counterexample search for formulas with free symbols.

Soundness contract: `search` returns a point only if, at that point, every assumption is
certified true, every domain condition of the claim (build.Cond) is certified to hold,
and the formula is certified false (certify.truth, interval arithmetic or exact
rationals; never a float). Points where the claim is undefined, or where some sign
cannot be certified, are skipped, never reported. The points tried, at most MAX_POINTS
on the grid and MAX_CROSSINGS more per claim:

- small dimension values (1, 2, 3, ... 4096, shifted to assumed lower bounds) and small
  exact rationals for real symbols;
- large magnitudes (10^4 ... 10^15 and powers of two; ±10^3 ... ±10^9 and ±10^-6 for
  reals), where no exponent holds a symbol (so no value explodes): a claim that fails
  only for large values is refuted;
- the points where the two sides cross: for each relation, along each symbol (the others
  at their first value), the real roots of lhs - rhs (± the tolerance of ≈) when that is
  a rational function, isolated exactly (SymPy's Poly.intervals), and the integers or
  rationals on both sides of each root, with numerator and denominator up to 10^30.
  Every point is still certified as above.
"""

import itertools

import sympy as sp

from ffnverify.claims.build import is_dimension
from ffnverify.claims.certify import truth
from ffnverify.claims.errors import ClaimError

MAX_POINTS = 120
MAX_CROSSINGS = 24
MAX_ROOT_DEGREE = 24
MAX_CROSSING_VALUE = 10**30

DIM_VALUES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 24, 32, 48, 64, 96, 128, 256, 1000,
              4096]
REAL_VALUES = [sp.Integer(v) for v in (0, 1, -1)] + [sp.Rational(1, 2), sp.Rational(-1, 2)] + [
    sp.Integer(v) for v in (2, -2, 3, -3)] + [sp.Rational(1, 10), sp.Rational(-1, 10)] + [
    sp.Integer(v) for v in (10, -10, 5, -5)]
LARGE_DIMS = [10**4, 2**14, 10**5, 2**17, 10**6, 2**20, 10**7, 10**9, 2**32, 10**12, 2**40,
              10**15]
LARGE_REALS = [sp.Integer(v) for v in (100, -100, 1000, -1000, 10**6, -10**6, 10**9, -10**9)] + [
    sp.Rational(1, 1000), sp.Rational(-1, 1000), sp.Rational(1, 10**6), sp.Rational(-1, 10**6)]


def points(symbols, lower, upper, limit=MAX_POINTS, large=False):
    """Candidate values, small first, at most `limit` of them; with `large`, each axis
    goes on to large magnitudes."""
    per = max(2, int(MAX_POINTS ** (1 / max(len(symbols), 1))))
    axes = []
    for s in symbols:
        if is_dimension(s):
            lo = int(lower.get(s, 1))
            vals = [sp.Integer(lo + v - 1) for v in DIM_VALUES + (LARGE_DIMS if large else [])]
        else:
            vals = list(REAL_VALUES) + (LARGE_REALS if large else [])
            if s in lower:
                lo = lower[s]
                vals = list(dict.fromkeys(lo + abs(v) for v in vals))
        if s in upper:
            vals = [v for v in vals if v <= upper[s]] or vals[:1]
        axes.append(vals[:per])
    combos = sorted(itertools.product(*[range(len(a)) for a in axes]),
                    key=lambda idx: (sum(idx), idx))
    for idx in combos[:limit]:
        yield {s: axes[k][i] for k, (s, i) in enumerate(zip(symbols, idx))}


def defined_at(conds, point) -> bool:
    """Every domain condition certified to hold at the point."""
    for c in conds:
        try:
            if truth(c.subs(point).as_rel()) is not True:
                return False
        except ClaimError:
            return False
    return True


class Search:
    """The outcome of a search: the counterexample (or None), points tried, points where
    the claim was defined (and the assumptions held), and one such point."""

    def __init__(self):
        self.point, self.tried, self.defined, self.witness = None, 0, 0, None


def _relations(f):
    kind = type(f).__name__
    if kind == "Rel":
        yield f
    elif kind == "Logic":
        for p in f.parts:
            yield from _relations(p)


def _no_symbolic_exponent(f) -> bool:
    """No power with a symbol in its exponent (2**d, d**d): large values stay small."""
    for r in _relations(f):
        for e in (r.lhs, r.rhs, r.tol):
            if isinstance(e, sp.Basic) and any(p.exp.free_symbols for p in e.atoms(sp.Pow)):
                return False
            if isinstance(e, sp.Basic) and any(a.args[0].free_symbols for a in e.atoms(sp.exp)):
                return False
    return True


def _near_root(s, a, b, lower, upper):
    """Values of s on both sides of a real root isolated in [a, b] (rationals)."""
    if is_dimension(s):
        lo = int(lower.get(s, 1))
        near = {sp.floor(a) - 1, sp.floor(a), sp.ceiling(b), sp.ceiling(b) + 1}
        vals = [sp.Integer(v) for v in sorted(near) if v >= lo]
    else:
        width = max(b - a, sp.Rational(1, 10**6))
        vals = [a - width, a, (a + b) / 2, b, b + width]
        if s in lower:
            vals = [v for v in vals if v >= lower[s]]
    if s in upper:
        vals = [v for v in vals if v <= upper[s]]
    return vals


def _real_roots(poly):
    """Isolating intervals [a, b] of the real roots: a rational root exactly (a == b, from
    a linear factor), the others to within 10^-6."""
    out = []
    for factor, _ in poly.factor_list()[1]:
        if factor.degree() == 1:
            c1, c0 = factor.all_coeffs()
            out.append((-c0 / c1, -c0 / c1))
        elif factor.degree() > 1:
            out.extend(iv for iv, _ in factor.intervals(eps=sp.Rational(1, 10**6)))
    return out


def crossings(f, symbols, lower, upper, limit=MAX_CROSSINGS):
    """Points where a relation's two sides cross, along each symbol (module docstring)."""
    base = {s: next(points([s], lower, upper, 1))[s] for s in symbols}
    seen = 0
    for r in _relations(f):
        diff = r.lhs - r.rhs
        gaps = [diff] if r.tol is None else [diff - r.tol, diff + r.tol]
        for gap in gaps:
            for s in symbols:
                g = gap.xreplace({t: v for t, v in base.items() if t is not s})
                try:
                    num, _ = sp.fraction(sp.cancel(sp.together(g)))
                    if num.free_symbols != {s} or not num.is_polynomial(s):
                        continue
                    poly = sp.Poly(num, s)
                    if poly.degree() > MAX_ROOT_DEGREE:
                        continue
                    roots = _real_roots(poly)
                except (sp.PolynomialError, TypeError, ValueError, NotImplementedError):
                    continue
                for a, b in roots:
                    for v in _near_root(s, sp.Rational(a), sp.Rational(b), lower, upper):
                        if max(abs(v.p), v.q) > MAX_CROSSING_VALUE:
                            continue  # beyond any size a claim is about (or a report shows)
                        yield {**base, s: v}
                        seen += 1
                        if seen >= limit:
                            return


def search(f, conds, assumption, symbols, lower, upper, limit=MAX_POINTS) -> Search:
    out = Search()
    candidates = points(symbols, lower, upper, limit, large=_no_symbolic_exponent(f))
    if limit > 1:
        candidates = itertools.chain(candidates, crossings(f, symbols, lower, upper))
    for point in candidates:
        try:
            if assumption is not None and truth(assumption.subs(point)) is not True:
                continue
            out.tried += 1
            if not defined_at(conds, point):
                continue
            out.defined += 1
            out.witness = out.witness or point
            if truth(f.subs(point), try_zero=False) is False:
                out.point = point
                return out
        except ClaimError:
            continue  # undefined at this point (e.g. log(0)): not a counterexample
    return out


def failing(f):
    """The relation that makes a closed formula false (for the value field)."""
    kind = type(f).__name__
    if kind == "Rel":
        return f
    if kind == "Logic":
        for p in f.parts:
            try:
                if f.op == "not" or truth(p) is False:
                    return failing(p)
            except ClaimError:
                continue
    return None
