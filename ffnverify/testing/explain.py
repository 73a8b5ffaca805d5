"""Named explanations for a counter that disagrees with the derivation.

Each explanation is a *transformed derivation*: the count our derivation gives after one
specific, common mistake (MACs reported as FLOPs, a gated unit counted as ungated, the bias
dropped, the hidden width ignored, ...). An explanation fits when the user's values equal
the transformed derivation exactly at every point we evaluated, and the transformation
actually changes the count somewhere (so a harmless transformation, like swapping d and h
in a formula symmetric in them, never "explains" anything).

A few explanations carry one constant fitted at the first disagreeing point where it
matters (the width the function silently assumes, the FLOPs it charges per bias
parameter); they are then checked at every other point like the rest.

Each explanation transforms a count function, so two compose: where no single one fits,
every pair is tried (MACs and a bias term, the sequence dimension dropped and a bias term,
backward as 2x forward over a repriced forward), simplest first; where no pair fits, every
pair over the count in the other unit (MACs for FLOPs: pthflops' three mistakes).
`discriminating` picks the extra points where the fitting explanations (and the
derivation) predict different values; the caller evaluates the function there and
explains again, so an explanation that fitted only by a numeric coincidence at the drawn
shapes drops out. Fits that still give the same numbers as the first at every point and at
TIE_SHAPES more of ours (`_mark_ties`) are all kept and say that the numbers cannot tell
them apart (torchprofile's gating product at 1 per element and an activation at 1 per
element, on a gated unit).

Where the user's function computed in floating point, "equal" means within k units of
roundoff (u = 2⁻⁵³, k = FLOAT_OPS roundings, each at most u relative, adding to first
order): the bound of a formula of up to k floating-point operations.

The pieces: `count_target` (Target, Fit, close), `mistakes` (the named explanations),
`fitted` (those with one constant); this module searches them (singles, pairs, pairs in
the other unit), marks ties and picks discriminating points. Its public names are
re-exported here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from ffnverify.testing.closed_form import pretty
from ffnverify.testing.count_target import (
    EXACT_FLOAT_LIMIT,
    FLOAT_OPS,
    QUANTITIES,
    UNIT_ROUNDOFF,
    Fit,
    Target,
    close,
)
from ffnverify.testing.fitted import _VALID, FITTED, _fit_factor, _solve_constant
from ffnverify.testing.mistakes import COMBINABLE, NAMED, _base, _macs_flops


def _compose(inner_make, V):
    """V transformed by `inner_make` wherever it applies (a cache per target)."""
    cache = {}

    def W(t, p):
        if t not in cache:
            cache[t] = inner_make(t, V)
        made = cache[t]
        return made[0](p) if made is not None else V(t, p)

    return W


@dataclass
class _Candidate:
    key: str
    expected: object
    title: str
    rank: int  # lower is simpler


def _candidates(target, first, singles_only, base=_base):  # first: the first disagreeing points
    """Every explanation (and, unless singles_only, every pair) as a candidate, each
    transforming `base` (the derivation, or the derivation in another unit)."""
    out = []

    def fitted(key, fit, V, prefix_key="", prefix_title="", rank=0, wrap=None):
        def build(c):
            made = fit(target, V, c) if wrap is None else None
            if wrap is not None:
                inner = _compose(lambda t, W: fit(t, W, c), base)
                made = wrap(target, inner)
            return made[0] if made is not None else (lambda p: V(target, p))
        c = _solve_constant(build, first) if first else None
        if c is None or not _VALID[key.split("+")[0]](c):
            return
        if wrap is None:
            made = fit(target, V, c)
        else:
            made = wrap(target, _compose(lambda t, W: fit(t, W, c), base))
            inner_title = fit(target, _base, c)
            if made is None or inner_title is None:
                return
            made = (made[0], f"{made[1]}; and {inner_title[1]}")
        if made is not None:
            out.append(_Candidate(prefix_key + key, made[0], prefix_title + made[1], rank))

    for i, (key, make) in enumerate(NAMED):
        made = make(target, base)
        if made is not None:
            out.append(_Candidate(key, made[0], made[1], i))
    for j, (key, fit) in enumerate(FITTED[:-1]):
        fitted(key, fit, base, rank=1000 + j)
    if singles_only:
        return out
    for i, (outer, outer_make) in enumerate(COMBINABLE):
        for j, (inner, inner_make) in enumerate(COMBINABLE):
            if outer == inner:
                continue
            inner_alone = inner_make(target, _base)
            V = _compose(inner_make, base)
            made = outer_make(target, V)
            if made is None:
                continue
            inner_text = inner_alone[1] if inner_alone is not None else _applied_title(
                inner_make, target)
            if inner_text is None:
                continue
            out.append(_Candidate(f"{outer}+{inner}", made[0], f"{made[1]}; and {inner_text}",
                                  2000 + i + j))
        for j, (key, fit) in enumerate(FITTED[:-1]):
            # fitted outside, so the constant is in your unit: e.g. MACs vs FLOPs, then a
            # bias term on top
            inner_V = _compose(outer_make, base)
            alone = outer_make(target, _base)
            if alone is not None:
                fitted(f"{key}+{outer}", fit, inner_V, rank=3000 + i + j,
                       prefix_title=f"{alone[1]}; and ")
            # fitted inside: e.g. a bias term, then the sequence dimension dropped
            fitted(key, fit, base, prefix_key=f"{outer}+", rank=3000 + i + j,
                   wrap=outer_make)
    return out


def _applied_title(make, target):
    """The title of an explanation that applies only to a related target (e.g. the forward
    count inside a training count, or the training count inside a forward one)."""
    for t in (replace(target, pass_="forward", input_grad=True),
              replace(target, count="all"), replace(target, pass_="forward", count="all",
                                                     input_grad=True),
              replace(target, pass_="train")):
        made = make(t, _base)
        if made is not None:
            return made[1]
    return None


def explain(target: Target, points, float_ops=FLOAT_OPS) -> list[Fit]:
    """The explanations that fit every point in `points`, simplest first.

    Each point is {d, h, n, bias, yours (Fraction), float (bool)} and, where the tokens are a
    batch x seq split, batch and seq. Single explanations come first; only where none fits
    are pairs of explanations tried, ranked by how simply they fit. A constant factor is
    offered only where nothing more specific fits. Returns [] when the points all agree with
    the derivation or nothing fits.
    """
    derived = [target.value(p) for p in points]
    mismatched = [p for p, v in zip(points, derived)
                  if not close(p["yours"], v, p.get("float", False), float_ops)]
    exact_mismatch = [p for p, v in zip(points, derived) if p["yours"] != v]
    if not exact_mismatch:
        return []
    if not mismatched:  # every difference is within float round-off
        return [_round_off(target, exact_mismatch)]

    def fits_all(expected):
        """None if it does not fit; else whether float round-off was needed for the fit."""
        changes = rounded = False
        for p, v in zip(points, derived):
            try:
                e = expected(p)
            except (ZeroDivisionError, ValueError, KeyError):
                return None
            if not close(p["yours"], e, p.get("float", False), float_ops):
                return None
            changes = changes or e != v
            rounded = rounded or p["yours"] != e
        return rounded if changes else None

    first = mismatched[0]
    fits = []
    some = mismatched  # the constant is solved at the first one where it matters
    for singles_only, unit in _ROUNDS:
        base, prefix = (_base, None) if not unit else _in_other_unit(target)
        if base is None:
            continue
        for cand in sorted(_candidates(target, some, singles_only, base), key=lambda c: c.rank):
            if not singles_only and cand.rank < 2000:
                continue  # the singles did not fit in the first round
            if prefix is not None:
                cand = _Candidate(f"{prefix[0]}+{cand.key}", cand.expected,
                                  f"{prefix[1]}; and {cand.title}", cand.rank)
            if any(_parts(f.key) == _parts(cand.key) for f in fits):
                continue  # the same mistakes composed in another order
            if (rounded := fits_all(cand.expected)) is not None:
                fits.append(Fit(cand.key, cand.title + (" (up to float round-off)"
                                                        if rounded else ""), cand.expected))
        if fits:
            break
    _mark_ties(fits, points)
    c = first["yours"] / target.value(first) if target.value(first) else Fraction(0)
    if not fits and _VALID["constant_factor"](c):
        fit = _fit_factor(target, _base, c)
        if (rounded := fits_all(fit[0])) is not None:
            fits.append(Fit("constant_factor", fit[1] + (" (up to float round-off)"
                                                         if rounded else ""), fit[0]))
    return fits


def _parts(key):
    return frozenset(key.split("+"))


# (singles only, in the other unit): singles, then pairs, then pairs over the count in the
# other unit (MACs for FLOPs, FLOPs for MACs): three mistakes, one of them the unit
_ROUNDS = ((True, False), (False, False), (False, True))


def _in_other_unit(target):
    """(the derivation in the other unit, (key, title)), or (None, None) for params."""
    made = _macs_flops(target, _base)
    if made is None:
        return None, None
    return _compose(_macs_flops, _base), ("macs_vs_flops", made[1])


TIE_SHAPES = 48  # shapes of ours (no call of your function) on which two fits are compared


def _mark_ties(fits, points):
    """Say so where fits give the same numbers at every point: the user's, and TIE_SHAPES
    more of ours in the same form. Those the numbers cannot tell apart (e.g. the gating
    product at 1 per element and the activation at 1 per element, where both act on the
    n·h elements of a gated unit); the first is kept first, and every one is listed."""
    if len(fits) < 2:
        return
    shapes = list(points) + _tie_shapes(points)

    def same(f, g):
        for q in shapes:
            try:
                if f.expected(q) != g.expected(q):
                    return False
            except (ZeroDivisionError, ValueError, KeyError):
                return False
        return True

    lead = fits[0]
    tied = [f for f in fits[1:] if same(lead, f)]
    if not tied:
        return
    count = f"{len(shapes)} shapes ({len(points)} of yours, {len(shapes) - len(points)} more)"
    lead.title += (f"; {len(tied)} other explanation{'s' if len(tied) > 1 else ''} below "
                   f"give{'s' if len(tied) == 1 else ''} the same numbers at all {count}: the "
                   "numbers cannot tell them apart")
    for f in tied:
        f.title += " (the same numbers as the first at every shape: the numbers cannot tell " \
                   "them apart)"
        f.ties = True
    lead.ties = True


def _tie_shapes(points):
    """TIE_SHAPES seeded shapes in the form of `points` (a batch x seq split where they have
    one; each bias flag they use)."""
    import random

    rng = random.Random(20240)
    split = all(p.get("batch") is not None and p.get("seq") is not None for p in points)
    biases = sorted({bool(p.get("bias", False)) for p in points})
    out = []
    for i in range(TIE_SHAPES):
        d, h, t1, t2 = (rng.randint(1, rng.choice((7, 97, 4099))) for _ in range(4))
        q = {"d": d, "h": h, "bias": biases[i % len(biases)]}
        if split:
            q.update(batch=t1, seq=t2, n=t1 * t2)
        else:
            q["n"] = t1
        out.append(q)
    return out


def _round_off(target, exact_mismatch):
    def rel(p):
        return abs(p["yours"] - target.value(p)) / abs(target.value(p))

    ulps = max(rel(p) for p in exact_mismatch) / UNIT_ROUNDOFF
    smallest = min(exact_mismatch, key=lambda p: abs(target.value(p)))
    exact = target.value(smallest)
    where = (", above 2^53, beyond which floats skip integers"
             if abs(exact) > EXACT_FLOAT_LIMIT else "")
    return Fit("float_round_off",
               "float round-off: your function computes in floating point and differs "
               f"from the exact count by rounding only (relative error at most "
               f"{float(ulps):.3g}·u, u = 2^-53); the smallest count that differs is "
               f"{exact} at {_fmt(smallest)}{where}")


def discriminating(fits, target, candidates, seen, limit=8):
    """Points among `candidates` (dicts without 'yours') where two of `fits`, or a fit and
    the derivation, predict different values: evaluating the function there tells a real
    explanation from one that fits only by coincidence at the points drawn so far."""
    predictors = [f.expected for f in fits if f.expected is not None] + [target.value]
    table = []
    for q in candidates:
        if _point_key(q) in seen:
            continue
        row = []
        for e in predictors:
            try:
                row.append(e(q))
            except (ZeroDivisionError, ValueError, KeyError):
                row.append(None)
        table.append((q, row))
    out = []
    for i in range(len(predictors)):
        for j in range(i + 1, len(predictors)):
            for q, row in table:
                if row[i] != row[j]:
                    if _point_key(q) not in seen:
                        seen.add(_point_key(q))
                        out.append(q)
                    break
            if len(out) >= limit:
                return out
    return out


def _point_key(p):
    return tuple(p.get(k) for k in ("d", "h", "n", "bias", "batch", "seq"))


def _fmt(p):
    keys = [k for k in ("d", "h", "n") if k in p] + (["bias"] if "bias" in p else [])
    return ", ".join(f"{k}={_num(p[k])}" for k in keys)


def _num(v):
    if isinstance(v, bool):
        return str(v).lower()
    return str(v)


__all__ = ["EXACT_FLOAT_LIMIT", "FITTED", "FLOAT_OPS", "NAMED", "QUANTITIES", "UNIT_ROUNDOFF",
           "Fit", "Target", "close", "discriminating", "explain", "pretty"]
