"""Recover a user's counting formula as an exact closed form.

Two ways, tried in order:

1. **Symbolic call.** Call the function with SymPy symbols for d, h and n. A counter that is
   plain arithmetic returns its own formula. The result is trusted only after it agrees
   exactly with ordinary numeric calls on a few points (a function may branch on its inputs).
   This calls the user's own Python function, which the user asked us to run; it never
   parses text.
2. **Interpolation.** Evaluate the function on the principal lattice of a simplex (all integer
   points 1 + a with a₁ + … + a_m ≤ k), which determines a polynomial of total degree ≤ k
   uniquely, solve for its coefficients in exact rational arithmetic, and confirm the
   interpolant on further points. If they disagree the answer is "not a polynomial of total
   degree ≤ k", never a guess.

Numbers coming back from the user's function are converted exactly (`to_fraction`): a float
becomes the rational it stores, so round-off stays visible.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from itertools import product

import sympy as sp
from sympy.core.sympify import _sympify

DEFAULT_DEGREE = 3

# Points beyond the interpolation lattice on which every recovered form is confirmed: small,
# odd, coprime-ish and large values, so that a floor, a branch or a missed term shows.
_CHECK_VALUES = (7, 13, 101, 1000, 4096, 11008, 65_537, 999_983)


class NotANumber(TypeError):
    """The user's function returned something that is not a number."""


def to_fraction(x) -> Fraction:
    """x as an exact Fraction: ints, Fractions, Decimals, SymPy rationals, NumPy scalars and
    floats (a float becomes the binary rational it stores, e.g. 0.1 -> 3602879701896397/2**55)."""
    if isinstance(x, bool):
        raise NotANumber(f"got the boolean {x!r}, not a count")
    if isinstance(x, (int, Fraction)):
        return Fraction(x)
    if isinstance(x, float):
        if not math.isfinite(x):
            raise NotANumber(f"got the non-finite float {x!r}")
        return Fraction(x)
    if isinstance(x, Decimal):
        return Fraction(x)
    if isinstance(x, sp.Basic):
        if x.is_Rational:
            return Fraction(int(x.p), int(x.q))
        if x.is_Float:
            return Fraction(float(x))
        raise NotANumber(f"got the non-numeric expression {x}")
    if hasattr(x, "item") and callable(x.item):  # NumPy / torch scalars
        return to_fraction(x.item())
    if hasattr(x, "__index__"):
        return Fraction(x.__index__())
    raise NotANumber(f"got {type(x).__name__} {x!r}, not a number")


def is_float(x) -> bool:
    """Whether the raw value was computed in binary floating point."""
    if hasattr(x, "item") and callable(x.item) and not isinstance(x, sp.Basic):
        x = x.item()
    return isinstance(x, float) or (isinstance(x, sp.Basic) and x.is_Float is True)


def evaluator(expr, names):
    """A fast exact evaluator of a polynomial `expr` in the symbols named `names`:
    f(values: dict name -> int|Fraction) -> Fraction. Falls back to substitution for
    non-polynomials (floor, piecewise ...)."""
    syms = [sp.Symbol(s, positive=True, integer=True) for s in names]
    expr = _sympify(expr)  # strict: numbers and SymPy objects only, never a string to parse
    try:
        poly = sp.Poly(expr, *syms) if syms else None
    except sp.PolynomialError:
        poly = None
    if poly is not None and (poly.domain.is_ZZ or poly.domain.is_QQ):
        terms = [(Fraction(int(sp.Rational(c).p), int(sp.Rational(c).q)), m)
                 for m, c in poly.terms()]

        def f(values):
            xs = [Fraction(values[s]) for s in names]
            total = Fraction(0)
            for coeff, powers in terms:
                term = coeff
                for x, p in zip(xs, powers):
                    if p:
                        term *= x**p
                total += term
            return total

        return f
    if not syms:
        constant = to_fraction(expr) if expr.is_number else None

        def f_const(values):
            if constant is None:
                raise NotANumber(f"{expr} is not a number")
            return constant

        return f_const

    def f_subs(values):
        fr = {s: Fraction(values[s.name]) for s in syms}
        return to_fraction(expr.xreplace({s: sp.Rational(v.numerator, v.denominator)
                                          for s, v in fr.items()}))

    return f_subs


@dataclass
class ClosedForm:
    """What we know about the user's formula."""

    expr: sp.Expr | None  # exact closed form in the independent symbols, or None
    method: str  # "symbolic", "interpolation" or "none"
    note: str  # how it was obtained and checked, or why it could not be
    floating: bool = False  # the function computes in floating point

    def __str__(self):
        return pretty(self.expr) if self.expr is not None else f"(unknown: {self.note})"


def pretty(expr) -> str:
    """A closed form the way people write it: 18·d·h·n, d^2."""
    return sp.sstr(sp.expand(expr)).replace("**", "^").replace("*", "·")


def _lattice(m, k):
    """The integer points 1 + a, a ∈ ℕ^m, |a| ≤ k: unisolvent for total degree ≤ k."""
    return [tuple(1 + a for a in exps) for exps in product(range(k + 1), repeat=m)
            if sum(exps) <= k]


def _monomials(m, k):
    return [exps for exps in product(range(k + 1), repeat=m) if sum(exps) <= k]


def _solve(rows, rhs):
    """Exact Gauss-Jordan elimination over the rationals (square, non-singular)."""
    size = len(rows)
    a = [list(map(Fraction, r)) + [Fraction(b)] for r, b in zip(rows, rhs)]
    for col in range(size):
        pivot = next(r for r in range(col, size) if a[r][col] != 0)
        a[col], a[pivot] = a[pivot], a[col]
        inv = 1 / a[col][col]
        a[col] = [x * inv for x in a[col]]
        for r in range(size):
            if r != col and a[r][col] != 0:
                factor = a[r][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col])]
    return [row[-1] for row in a]


def _check_points(names, max_value=None, allowed=None):
    """Deterministic points off the lattice: every name gets a different value, all at most
    max_value, and (where `allowed` is given) only points it accepts."""
    m = len(names)
    vals = _CHECK_VALUES
    points = [tuple(vals[(i + j * 3) % len(vals)] for j in range(m)) for i in range(len(vals))]
    if max_value is None and allowed is None:
        return points
    top = max_value or max(vals)
    ok = [p for p in points if max(p) <= top and (allowed is None or allowed(dict(zip(names, p))))]
    rng = random.Random(len(names) * 1009 + top)
    tries = 0
    while len(ok) < len(vals) and tries < 10_000:  # fill up with seeded points in range
        tries += 1
        p = tuple(rng.randint(1, top) for _ in range(m))
        if p in ok or (allowed is not None and not allowed(dict(zip(names, p)))):
            continue
        ok.append(p)
    return ok


def recover(call, names, degree=DEFAULT_DEGREE, tolerance=None, max_value=None,
            allowed=None) -> ClosedForm:
    """Recover `call`'s closed form in the variables `names` (e.g. ("d", "h", "n")).

    `call(values)` takes {name: int | Fraction | sympy.Symbol} and returns the user's raw
    result. `tolerance(exact_value) -> Fraction` is the allowed absolute difference when the
    function computes in floating point (None: exact only). No numeric call has a value above
    `max_value` (where given), nor a point that `allowed(values)` rejects.
    """
    names = tuple(names)
    if max_value is not None and 1 + degree > max_value:
        return ClosedForm(None, "none", f"not recovered: interpolating degree {degree} needs "
                          f"values up to {1 + degree}, above the limit {max_value}")
    checks = [dict(zip(names, p)) for p in _check_points(names, max_value, allowed)]
    numeric = {}

    def value(point):
        key = tuple(point[s] for s in names)
        if key not in numeric:
            raw = call(point)
            numeric[key] = (to_fraction(raw), is_float(raw))
        return numeric[key]

    def agrees(f, points):
        for p in points:
            got, floating = value(p)
            want = f(p)
            if got != want and not (floating and tolerance and abs(got - want) <= tolerance(want)):
                return p
        return None

    floating_any = False
    # 1. symbolic call
    symbolic_failure = None
    syms = {s: sp.Symbol(s, positive=True, integer=True) for s in names}
    try:
        raw = call(dict(syms))
        expr, floating_any = _as_expr(raw)
    except Exception as e:  # the user's code may raise anything on symbols
        symbolic_failure = f"{type(e).__name__}: {e}"
        expr = None
    if expr is not None:
        f = evaluator(expr, names)
        small = [dict(zip(names, p)) for p in _lattice(len(names), 1)]
        try:
            bad = agrees(f, small + checks)
        except NotANumber as e:
            bad, symbolic_failure = {}, str(e)
        if bad is None:
            return ClosedForm(expr, "symbolic",
                              f"called with SymPy symbols; confirmed on {len(small + checks)} "
                              "numeric calls", floating_any)
        if bad:
            symbolic_failure = f"the symbolic result disagrees with a numeric call at {_fmt(bad)}"
    # 2. interpolation on the simplex lattice
    lattice = _lattice(len(names), degree)
    monos = _monomials(len(names), degree)
    rows = [[math.prod(x**e for x, e in zip(p, mono)) for mono in monos] for p in lattice]
    values = []
    for p in lattice:
        got, floating = value(dict(zip(names, p)))
        floating_any = floating_any or floating
        values.append(got)
    coeffs = _solve(rows, values)
    sym_list = [syms[s] for s in names]
    expr = sp.Add(*[sp.Rational(c.numerator, c.denominator)
                    * sp.Mul(*[s**e for s, e in zip(sym_list, mono)])
                    for c, mono in zip(coeffs, monos) if c])
    bad = agrees(evaluator(expr, names), checks)
    bound = f"total degree ≤ {degree} in {', '.join(names)}"
    why = f" (symbolic call failed: {symbolic_failure})" if symbolic_failure else ""
    if bad is None:
        return ClosedForm(expr, "interpolation",
                          f"interpolated on {len(lattice)} lattice points assuming {bound}; "
                          f"confirmed on {len(checks)} further points{why}", floating_any)
    return ClosedForm(None, "none",
                      f"not a polynomial of {bound}: the interpolant through {len(lattice)} "
                      f"lattice points misses the value at {_fmt(bad)}{why}", floating_any)


def _as_expr(raw):
    """The user's symbolic result as (exact SymPy expression, computed-in-floats?)."""
    if isinstance(raw, sp.Basic):
        expr = raw
    elif isinstance(raw, (int, Fraction, float)) and not isinstance(raw, bool):
        expr = sp.Rational(to_fraction(raw).numerator, to_fraction(raw).denominator)
        return expr, isinstance(raw, float)
    else:
        raise NotANumber(f"returned {type(raw).__name__}, not an expression")
    floats = expr.atoms(sp.Float)
    floating = bool(floats)
    if floats:
        expr = expr.xreplace({f: _float_as_rational(float(f)) for f in floats})
    if not expr.free_symbols <= {s for s in expr.free_symbols if s.is_integer}:
        raise NotANumber(f"returned an expression in unknown symbols: {expr}")
    return sp.expand(expr), floating


def _float_as_rational(x: float) -> sp.Rational:
    """The simple fraction a float coefficient stands for (0.666… -> 2/3, 6.0 -> 6), when
    one with a small denominator rounds to it; otherwise its exact binary value."""
    simple = Fraction(x).limit_denominator(10**6)
    if float(simple) == x:
        return sp.Rational(simple.numerator, simple.denominator)
    exact = Fraction(x)
    return sp.Rational(exact.numerator, exact.denominator)


def _fmt(point) -> str:
    return ", ".join(f"{k}={v}" for k, v in point.items())
