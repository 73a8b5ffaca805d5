"""Counterexample search for formulas with free symbols.

Soundness contract: `search` returns a point only if, at that point, every assumption is
certified true, every domain condition of the claim (build.Cond) is certified to hold,
and the formula is certified false (certify.truth, interval arithmetic or exact
rationals; never a float). Points where the claim is undefined, or where some sign
cannot be certified, are skipped, never reported. The points tried are small dimension
values (1, 2, 3, ... 4096, shifted to assumed lower bounds) and small exact rationals
for real symbols, at most MAX_POINTS per claim.
"""

import itertools

import sympy as sp

from ffnverify.claims.build import is_dimension
from ffnverify.claims.certify import truth
from ffnverify.claims.functions import ClaimError

MAX_POINTS = 120

DIM_VALUES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 24, 32, 48, 64, 96, 128, 256, 1000,
              4096]
REAL_VALUES = [sp.Integer(v) for v in (0, 1, -1)] + [sp.Rational(1, 2), sp.Rational(-1, 2)] + [
    sp.Integer(v) for v in (2, -2, 3, -3)] + [sp.Rational(1, 10), sp.Rational(-1, 10)] + [
    sp.Integer(v) for v in (10, -10, 5, -5)]


def points(symbols, lower, upper, limit=MAX_POINTS):
    """Candidate values, small first, at most `limit` of them."""
    per = max(2, int(MAX_POINTS ** (1 / max(len(symbols), 1))))
    axes = []
    for s in symbols:
        if is_dimension(s):
            lo = int(lower.get(s, 1))
            vals = [sp.Integer(lo + v - 1) for v in DIM_VALUES]
        else:
            vals = list(REAL_VALUES)
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


def search(f, conds, assumption, symbols, lower, upper, limit=MAX_POINTS) -> Search:
    out = Search()
    for point in points(symbols, lower, upper, limit):
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
