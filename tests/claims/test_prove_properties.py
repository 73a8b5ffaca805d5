"""Properties of the prover's sign arguments (ffnverify.claims.prove), each against an
oracle that does not use the prover:

- soundness: a proof of e > 0 (or e >= 0) is checked by exact evaluation (SymPy
  rationals, or mpmath at 120 digits for closed irrational parts) at many allowed points;
  a formula that is false at some allowed point (found by the same exact evaluation) must
  never be proved;
- completeness on the documented arguments: a sign read from the coefficients of the
  shifted polynomial (where SymPy's assumptions cannot see it), a rounding bounded by
  its interval (u - 1 < floor(u) <= u, u <= ceiling(u) < u + 1) with a coefficient
  proved >= 0 or <= 0, the strict side of that interval, a closed irrational replaced by
  its certified sign (or by 0 when exactly zero), residue classes within one budget;
- the coefficient rule of _poly_sign against the coefficients the test built the
  polynomial from, and the symbol _split_symbol picks against its documented choice.

What a real bug would break: a TRUE that is not a theorem (a residue split of a real
symbol, a sign read from coefficients of mixed sign), a documented proof lost (a
relaxation that forgets its strict side or its coefficient's sign), a budget that
nested splits do not share.
"""

import itertools
import random

import mpmath
import pytest
import sympy as sp

from ffnverify.claims import prove
from ffnverify.claims.build import Rel

d = sp.Symbol("d", positive=True, integer=True)
n = sp.Symbol("n", positive=True, integer=True)
z = sp.Symbol("z", real=True)
a = sp.Symbol("a", real=True)
R = sp.Rational
ZERO = sp.log(4) - 2 * sp.log(2)  # exactly 0, but no interval of it excludes 0

DIMS = [1, 2, 3, 4, 7]
REALS = [R(v, 4) for v in (-9, -5, -4, -1, 0, 2, 3, 4, 6, 10)]


def sign_at(e, point):
    """The oracle: the sign of e at an exact point (rationals exactly, closed irrational
    values by mpmath at 120 digits, far past any cancellation in these formulas)."""
    v = sp.expand(e.xreplace(point))
    if v.is_Rational:
        return int(sp.sign(v))
    with mpmath.workdps(120):
        x = mpmath.mpf(sp.N(v, 130))
        return 0 if abs(x) < mpmath.mpf(10) ** -100 else int(mpmath.sign(x))


def points(lower):
    for dv, nv, zv in itertools.product(DIMS, DIMS[:3], REALS):
        p = {d: sp.Integer(dv + lower.get(d, 1) - 1), n: sp.Integer(nv + lower.get(n, 1) - 1),
             z: zv}
        if z in lower and zv < lower[z]:
            continue
        yield p


def holds(e, want, lower):
    """e OP 0 at every grid point allowed by the lower bounds."""
    ok = (lambda s: s > 0) if want == ">" else (lambda s: s >= 0)
    return all(ok(sign_at(e, p)) for p in points(lower))


def shift_of(lower):
    return prove.shifted([d, n, z], lower)


# (e, want, lower bounds): each holds for every allowed value, and the prover has an
# argument for it (the comment names the one that only that argument gives)
PROVED = [
    (sp.floor(z) + 1 - z, ">", {}),  # u - 1 < floor(u), strict: bound 0 suffices
    (z + 1 - sp.ceiling(z), ">", {}),  # ceiling(u) < u + 1, strict
    (sp.floor(z / 2) + 1 - z / 2, ">", {z: 0}),
    (d * sp.floor(z) - d * z + d, ">=", {}),  # coefficient d >= 0, by sign: not strict
    ((d ** 3 - 3 * d + 2) * (sp.floor(z) - z + 1), ">=", {}),  # coefficient >= 0 by its
    ((d ** 3 - 3 * d + 2) * (z - sp.ceiling(z) + 1), ">=", {}),  # shifted coefficients
    (-(d ** 3 - 3 * d + 2) * (sp.floor(z) - z), ">=", {}),  # coefficient <= 0
    (-(d ** 3 - 3 * d + 2) * (sp.ceiling(z) - z - 1), ">=", {}),
    (d ** 3 - 3 * d + 2 + sp.ceiling(z) - z, ">=", {}),  # the bound >= 0 by coefficients
    (d ** 3 - 3 * d + 3 + sp.floor(z) - z, ">", {}),  # strict: the bound >= 0 suffices
    (d ** 3 - 3 * d + 3, ">", {}),  # d0**3 + 3*d0**2 + 1: only the coefficients see it
    (d ** 3 - 3 * d + 2, ">=", {}),
    ((d ** 3 - 3 * d + 3) / (d + 1), ">", {}),
    ((d ** 3 - 3 * d + 2) / (d + 1), ">=", {}),
    ((d ** 3 - 3 * d + 3) / (2 * d ** 2 + 1), ">", {}),
    (-d / (2 - sp.E), ">", {}),  # 1/(2 - e) is certified negative
    (d * (sp.sqrt(2) - 1), ">", {}), (sp.exp(z) * (sp.pi - 3), ">", {}),  # positive
    (d - d / (sp.E - 3), ">", {}),
    (sp.exp(z) + z * ZERO, ">", {}),  # the exact zero is replaced by 0
    (z ** 2 + z * ZERO, ">=", {}),
]
# false at some allowed point (the oracle finds it on the grid): never proved
REFUTED = [
    (2 * sp.floor(z / 2) - z + 1, ">=", {z: 0}),  # true for integers, -1/2 at z = 3/2
    (sp.floor(z / 2) * 2 - z, ">=", {z: 0}),
    (sp.ceiling(z / 3) * 3 - z - 2, ">=", {z: 0}),
    (sp.floor(z) - z + R(1, 2), ">=", {}),
    (sp.ceiling(z) - z, ">", {}), (z - sp.floor(z), ">", {}),  # the bound 0 is not strict
    (d ** 3 - 3 * d + 2, ">", {}),  # 0 at d = 1
    ((d ** 3 - 3 * d + 2) / (d + 1), ">", {}),
    (1 - d, ">=", {}), ((1 - d) / (d + 1), ">=", {}), (-(d - 1) ** 2 - 1, ">=", {}),
    (d - 2, ">=", {}), ((d - 2) / (d + 3), ">=", {}), (d / (1 - 2 * d), ">=", {}),
    ((d - 2) * sp.floor(z) - (d - 2) * z, ">=", {}),  # coefficient of either sign
    (d / (2 - sp.E), ">", {}), (sp.exp(z) - 1 + z * ZERO, ">", {}),
    (d * (3 - sp.pi), ">=", {}), (sp.exp(z) * (1 - sp.sqrt(2)), ">=", {}),
    # residue cases of d mod 2 whose polynomials in k are >= 0 but not > 0, or of
    # mixed sign: 0 at d = 1, -1 at d = 1
    (sp.floor(d / 2), ">", {}), (sp.floor(d / 2) - 1, ">=", {}),
    (sp.floor(d / 2) * (d - 3) + 1, ">", {}),  # 0 at d = 2
]


@pytest.mark.parametrize("e, want, lower", REFUTED, ids=[str(c[0]) for c in REFUTED])
def test_prove_sign_never_proves_what_is_false_somewhere(e, want, lower):
    assert not holds(e, want, lower), (e, want)  # the oracle sees a counterexample
    assert not prove.prove_sign(e, shift_of(lower), want), (e, want)


@pytest.mark.parametrize("e, want, lower", PROVED, ids=[str(c[0]) for c in PROVED])
def test_prove_sign_proves_the_documented_arguments_and_they_are_true(e, want, lower):
    assert prove.prove_sign(e, shift_of(lower), want), (e, want)
    assert holds(e, want, lower), (e, want)


def test_an_equality_with_roundings_is_both_inequalities():
    # a = floor((d+1)/2), b = floor(d/2): a + b = d and a - b = d mod 2, so
    # a**2 - b**2 = d*(a - b); neither side is linear in the roundings (no relaxation),
    # the residue cases of d mod 2 are polynomials in k that vanish only once expanded
    fa, fb = sp.floor((d + 1) / 2), sp.floor(d / 2)
    shift = shift_of({})
    true = Rel("==", fa ** 2 - fb ** 2, d * (fa - fb), 1)
    assert prove.prove_rel(true, shift)
    assert all(sign_at(true.lhs - true.rhs, {d: v}) == 0 for v in range(1, 30))
    for lhs, rhs in ((fa ** 2 - fb ** 2, d * (fa - fb) + 1), (fa ** 2, fb ** 2 + d),
                     (fa ** 2 - fb ** 2, d * fa - d * fb - fa + fb)):
        assert not prove.prove_rel(Rel("==", lhs, rhs, 1), shift), (lhs, rhs)
        assert any(sign_at(lhs - rhs, {d: v}) for v in range(1, 30))


def _documented_bound(c, atom, positive):
    """The side of the interval that bounds c*atom from below, c of the given sign."""
    u = atom.args[0]
    if isinstance(atom, sp.floor):
        return c * (u - 1) if positive else c * u
    return c * u if positive else c * (u + 1)


def test_relax_rounding_with_coefficients_only_their_coefficients_sign():
    # d**3 - 3*d + 2 = d0**3 + 3*d0**2 >= 0 (0 at d = 1): SymPy's assumptions cannot see
    # it, the coefficients of the shifted polynomial can; it may be 0, so never strict
    shift = shift_of({})
    p = d ** 3 - 3 * d + 2
    for c, positive in ((p, True), (-p, False), (p * n, True), (-p * n, False)):
        for atom in (sp.floor(n / 2), sp.ceiling(n / 3), sp.floor(z)):
            e = c * atom + d
            bound, strict = prove.relax_rounding(e, shift)
            assert bound is not None, e
            assert sp.expand(bound - d - _documented_bound(c, atom, positive)) == 0, (e, bound)
            assert strict is False, e
            for pt in itertools.islice(points({}), 0, None, 13):
                assert sign_at(e - bound, pt) >= 0, (e, pt)


def _poly(coeffs, gens):
    return sum((c * sp.Mul(*(g ** k for g, k in zip(gens, m))) for m, c in coeffs.items()),
               sp.Integer(0))


def _rule(coeffs):
    """_poly_sign's documented answer from the coefficients the polynomial was built from."""
    cs = [c for c in coeffs.values() if c != 0] or [sp.Integer(0)]
    const = coeffs.get((0,) * 2, 0)
    if all(c >= 0 for c in cs):
        return 1 if const > 0 else 2
    if all(c <= 0 for c in cs):
        return -1 if const < 0 else -2
    return None


@pytest.mark.parametrize("seed", range(6))
def test_poly_sign_is_the_coefficient_rule_and_sound(seed):
    rnd = random.Random(seed)
    g = [sp.Symbol("d_0", nonnegative=True, integer=True), sp.Symbol("z_0", nonnegative=True)]
    choices = [R(v, q) for v in (-3, -1, 0, 1, 2) for q in (1, 2, 3)]
    for _ in range(20):
        monomials = [(0, 0)] + rnd.sample([(1, 0), (0, 1), (2, 0), (1, 1), (0, 2), (3, 1)], 3)
        coeffs = {m: rnd.choice(choices) for m in monomials}
        if rnd.random() < 0.4:  # one sign throughout, a constant or not
            s = rnd.choice([1, -1])
            coeffs = {m: s * abs(c) for m, c in coeffs.items()}
        p = _poly(coeffs, g)
        got = prove._poly_sign(p, g)
        assert got == _rule(coeffs), (p, got)
        if got is not None:  # and it is true: the sign at points with gens >= 0
            for pt in itertools.product([0, R(1, 3), 1, 2, 5], repeat=2):
                v = p.subs(dict(zip(g, pt)))
                assert {1: v > 0, 2: v >= 0, -1: v < 0, -2: v <= 0}[got], (p, pt, v)
    assert prove._poly_sign(g[0] * z + 1, g) is None  # a coefficient with a symbol
    assert prove._poly_sign(sp.sqrt(2) * g[0] + 1, g) is None  # not rational
    assert prove._poly_sign(sp.exp(g[0]), g) is None  # not a polynomial
    assert prove._poly_sign(sp.Integer(3), []) is None  # no generators: no argument


def test_split_symbol_picks_an_integer_symbol_with_a_fractional_coefficient():
    shift = shift_of({})
    shift_z = shift_of({z: 0})
    cases = [
        (sp.floor(n / 2), (n, 2)), (sp.ceiling(2 * n / 3 + d), (n, 3)),
        (sp.floor(d + n / 2, evaluate=False), (n, 2)),  # d's coefficient 1: no split
        (sp.ceiling(n / 3 + 2 * d, evaluate=False), (n, 3)),
        (sp.floor(a + n / 2), (n, 2)),  # a real symbol first (by name): skipped
        (sp.floor(d / 2 + n / 3), (d, 2)), (sp.floor(n / 3 + d / 2), (d, 2)),  # by name
        (sp.floor(sp.floor(n / 3) / 2 + d / 5), (n, 3)),  # innermost first
        (sp.floor(d), None), (sp.floor(2 * d + 1), None),
        (sp.floor(d ** 2 / 3 + d / 2), None),  # not linear in d: a split is not exact
        (sp.floor(d ** 2 / 2), None), (sp.floor(sp.sqrt(2) * d), None),
        (sp.floor(z / 2), None),  # a real symbol: its residues do not cover its values
    ]
    for e, want in cases:
        assert prove._split_symbol(e, shift) == want, e
    assert prove._split_symbol(sp.floor(z / 2), shift_z) is None  # z in the shift: still real
    assert prove._split_symbol(sp.floor(n / 2), {d: shift[d]}) is None  # n not shifted


def test_nested_residue_cases_share_one_budget():
    # two independent roundings: each residue case of the first split still holds the
    # second, which needs its own split; every case tried counts against one budget
    e = (sp.floor(d / 2) - d / 2 + R(1, 2)) + (sp.floor(n / 3) - n / 3 + R(2, 3))
    assert holds(e, ">=", {})
    shift = shift_of({})
    budget = [100]
    assert prove.prove_by_residues(e, shift, ">=", budget)
    need = 100 - budget[0]
    assert need >= 2 + 3  # the outer split and at least one inner split
    budget = [need]
    assert prove.prove_by_residues(e, shift, ">=", budget) and budget == [0]
    assert not prove.prove_by_residues(e, shift, ">=", [need - 1])
    assert not prove.prove_by_residues(e, shift, ">=", [5 if need > 5 else 4])


def test_prove_hard_treats_both_sides_alike():
    # an identity is symmetric, and a side holding an infinity is never an identity for
    # simplify (oo - oo is no number): Min(z, oo) unevaluated is z, but holds oo
    m = sp.Min(z, sp.oo, evaluate=False)
    t = sp.tanh(z)
    u = (sp.exp(2 * z) - 1) / (sp.exp(2 * z) + 1)
    for lhs, rhs, want in ((t, u, True), (m, z, False), (m + t, u + z, False),
                           (m, m, False), (t, z, False)):
        assert prove.prove_hard(Rel("==", lhs, rhs, 1)) is want, (lhs, rhs)
        assert prove.prove_hard(Rel("==", rhs, lhs, 1)) is want, (rhs, lhs)


def test_a_failing_cancellation_still_reads_the_signs(monkeypatch):
    # if SymPy's rational-function algebra fails, the expression itself is the numerator
    # (over 1): a polynomial's sign is still read from its coefficients, never a crash
    def fails(*args, **kwargs):
        raise sp.PolynomialError("cancel gave up")

    monkeypatch.setattr(sp, "cancel", fails)
    shift = shift_of({})
    assert prove.prove_sign(d ** 3 - 3 * d + 3, shift, ">")
    assert prove.prove_sign(d ** 3 - 3 * d + 2, shift, ">=")
    assert not prove.prove_sign(d ** 3 - 3 * d + 2, shift, ">")
    assert not prove.prove_sign(1 - d, shift, ">=")
