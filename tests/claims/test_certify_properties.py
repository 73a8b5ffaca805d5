"""Properties of the decider's certified arithmetic (certify), its prover (prove) and its
counterexample search (refute), each against an oracle that does not use them:

- enclosures: mpmath at 300 significant digits (mp.dps), far from the interval's ends:
  the enclosure must contain the value and be narrow (a band from the working precision:
  at 64 bits an enclosure wider than 2**-40 relative is useless, one that misses the
  value is a lie);
- signs: values whose sign is known by construction (near-misses of pi by its rational
  convergents, exact zeros written two ways), and the extended-real order of +-oo;
- truth: Kleene's three-valued tables for unknown parts;
- proofs: a TRUE is checked by exact evaluation at many integer / rational points
  (soundness), and a false relation must never be proved;
- the search: the points it tries are the documented ones (small first, shifted to the
  lower bounds, cut at the upper bounds), and a counterexample is a real one.

What a real bug would break: a TRUE that is not a theorem, an interval that misses the
value, a sign flipped at +-oo or near zero, a message that does not name the problem.
"""

from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from mpmath import iv

from ffnverify.claims import certify, prove, refute
from ffnverify.claims.build import Cond, Const, Logic, Rel
from ffnverify.claims.errors import ClaimError
from ffnverify.claims.nonsmooth import PIECEWISE as NONSMOOTH

d = sp.Symbol("d", positive=True, integer=True)
n = sp.Symbol("n", positive=True, integer=True)
z = sp.Symbol("z", real=True)
R = sp.Rational
H = sp.Heaviside
ZERO = sp.log(4) - 2 * sp.log(2)  # exactly 0, but no interval of it excludes 0
UNBOUNDED = sp.exp(sp.Integer(2) ** 30)  # past MAX_EXP_ARG: never enclosed

@pytest.fixture(autouse=True)
def _oracle_precision():
    """400 digits for every test here, whatever another module in this process set."""
    with mpmath.workdps(400):
        yield


def exact(e):
    """mpmath value of e at 300 digits (the oracle)."""
    return mpmath.mpf(sp.N(e, 420))


def enclose(e, prec=64):
    with certify.workprec(prec):
        return certify.enclose(e, prec)


def lo_hi(x):
    return certify._lo(x), certify._hi(x)


def contains(x, v):
    lo, hi = lo_hi(x)
    return lo <= v <= hi


def assert_tight(e, x, prec=64):
    v = exact(e)
    lo, hi = lo_hi(x)
    assert lo <= v <= hi, (e, lo, hi, v)
    assert hi - lo <= mpmath.ldexp(1, -(prec - 24)) * max(1, abs(v)), (e, lo, hi)


# closed expressions of every kind `enclose` handles (value away from 0 and from kinks)
VALUES = [
    R(7, 3), R(-5), sp.Integer(0), sp.pi, sp.E, sp.pi + R(1, 3),
    sp.pi * sp.E, -sp.pi, sp.pi ** 3, sp.pi ** -2, (sp.pi - 4) ** 3, (sp.pi - 4) ** -3,
    sp.sqrt(2), sp.Integer(2) ** R(1, 3), sp.Integer(5) ** R(-3, 2), sp.Integer(7) ** R(2, 5),
    sp.Integer(2) ** sp.pi, sp.pi ** sp.sqrt(2), sp.exp(R(3, 2)), sp.exp(-sp.pi),
    sp.log(sp.pi), sp.log(R(1, 3)), sp.tanh(R(1, 2)), sp.tanh(-sp.pi), sp.tanh(R(1, 1000)),
    sp.tanh(sp.Integer(30)), sp.erf(R(1, 3)), sp.erf(-sp.sqrt(3)), sp.erf(R(5, 2)),
    sp.erf(sp.Integer(-4)), sp.erf(sp.Integer(9)), sp.erf(sp.pi), sp.Abs(sp.pi - 4),
    sp.Abs(sp.E - 2), sp.floor(sp.pi * 10), sp.floor(-sp.pi), sp.ceiling(sp.E * 3),
    sp.ceiling(-sp.E), sp.Max(sp.pi, sp.E, 3), sp.Max(-sp.pi, -sp.E), sp.Min(sp.pi, sp.E, 3),
    sp.Min(-sp.pi, sp.sqrt(2)), sp.sign(sp.pi - 3), sp.sign(3 - sp.pi), H(sp.pi - 3),
    H(3 - sp.pi), H(sp.E - 2, R(1, 2)), sp.sqrt(sp.pi - 1) * sp.exp(-sp.E) + sp.log(3),
    sp.Float("0.1", 30), sp.Float(2.5) * sp.pi, sp.pi - sp.Float("3.14159265358979323846", 40),
    # erf (the one function that reads the working precision) inside every composite
    sp.erf(R(1, 3)) + sp.erf(R(5, 2)), sp.erf(R(1, 3)) * sp.erf(R(5, 2)),
    sp.erf(R(1, 3)) ** 3, sp.erf(R(1, 3)) ** R(1, 3), sp.Integer(3) ** sp.erf(R(1, 3)),
    sp.exp(sp.erf(R(1, 3))), sp.log(sp.erf(R(1, 3))), sp.tanh(sp.erf(R(1, 3))),
]


def unevaluated(f, *args):
    """f(*args) as SymPy leaves it when it cannot decide the sign (built with
    evaluate=False, so enclose's own branch for f is what computes the value)."""
    return f(*args, evaluate=False)


# each piecewise function on each side of its kink, with the kink's value at 0 for steps
PIECEWISE = [
    unevaluated(sp.Abs, 3 - sp.pi), unevaluated(sp.Abs, sp.pi - 3), unevaluated(sp.Abs, -sp.E),
    unevaluated(sp.floor, sp.pi), unevaluated(sp.floor, -sp.pi), unevaluated(sp.floor, R(7, 2)),
    unevaluated(sp.ceiling, sp.E), unevaluated(sp.ceiling, -sp.E), unevaluated(sp.ceiling, R(-7, 2)),
    unevaluated(sp.Max, sp.pi, sp.E, 3), unevaluated(sp.Max, -sp.pi, -sp.E),
    unevaluated(sp.Max, sp.E, sp.pi), unevaluated(sp.Min, sp.pi, sp.E, 3),
    unevaluated(sp.Min, -sp.pi, sp.sqrt(2)), unevaluated(sp.Min, sp.E, -sp.pi),
    unevaluated(sp.sign, sp.pi - 3), unevaluated(sp.sign, 3 - sp.pi),
    unevaluated(H, sp.pi - 3, R(1, 2)), unevaluated(H, 3 - sp.pi, R(1, 2)),
    unevaluated(H, sp.pi - 3, sp.nan), unevaluated(H, 3 - sp.pi, sp.nan),
    unevaluated(sp.tanh, sp.Integer(0)), unevaluated(sp.erf, sp.Integer(0)),
    unevaluated(sp.tanh, -sp.pi), unevaluated(sp.erf, -sp.E),
    unevaluated(sp.Abs, sp.erf(R(-1, 3))), unevaluated(sp.floor, 10 * sp.erf(R(1, 3))),
    unevaluated(sp.ceiling, 10 * sp.erf(R(1, 3))), unevaluated(sp.sign, sp.erf(R(-1, 3))),
    unevaluated(sp.Max, sp.erf(R(1, 3)), sp.erf(R(1, 4))),
    unevaluated(sp.Min, sp.erf(R(1, 3)), sp.erf(R(1, 4))),
    unevaluated(H, sp.erf(R(1, 3)) - R(1, 3), R(1, 2)),
    unevaluated(H, sp.erf(R(1, 3)) - R(1, 2), R(1, 2)),
]


def piecewise_value(e):
    """The oracle for PIECEWISE: each function's definition applied to the 400-digit
    value of its arguments (far from every kink)."""
    vals = [exact(a) for a in e.args if a is not sp.nan]
    f = type(e)
    if f is H:
        return mpmath.mpf(1 if vals[0] > 0 else 0)
    table = {sp.Abs: lambda v: abs(v[0]), sp.floor: lambda v: mpmath.floor(v[0]),
             sp.ceiling: lambda v: mpmath.ceil(v[0]), sp.Max: max, sp.Min: min,
             sp.sign: lambda v: mpmath.sign(v[0]), sp.tanh: lambda v: mpmath.tanh(v[0]),
             sp.erf: lambda v: mpmath.erf(v[0])}
    return table[f](vals)


def test_enclosures_contain_the_value_and_are_tight():
    for e in VALUES:
        assert_tight(e, enclose(e))
    for e in PIECEWISE:
        v = piecewise_value(e)
        lo, hi = lo_hi(enclose(e))
        assert lo <= v <= hi and hi - lo <= mpmath.ldexp(1, -40) * max(1, abs(v)), (e, lo, hi)


def test_enclosures_tighten_with_precision():
    for e in (sp.pi ** sp.sqrt(2), sp.erf(R(1, 3)), sp.tanh(R(1, 2)), sp.log(sp.pi),
              sp.Integer(7) ** R(2, 5), sp.erf(sp.Integer(-30))):
        assert_tight(e, enclose(e, 1024), 1024)
        assert_tight(e, enclose(e, 256), 256)


def test_piecewise_enclosures_straddling_zero():
    # the argument's interval contains 0: the enclosure covers every value it may take
    x = enclose(sp.Abs(ZERO))
    lo, hi = lo_hi(x)
    assert lo == 0 and 0 < hi < 1e-15
    assert lo_hi(enclose(sp.sign(ZERO))) == (-1, 1)
    # interval abs: it covers |t| for every t the argument's interval holds
    for u in (2**62 * ZERO - R(1, 4), 2**62 * ZERO + R(1, 4)):
        ulo, uhi = lo_hi(enclose(u))
        assert ulo < 0 < uhi  # straddles 0 (the test's premise)
        lo, hi = lo_hi(enclose(unevaluated(sp.Abs, u)))
        assert lo == 0 and hi == max(-ulo, uhi)
    for at_zero in (R(1, 2), sp.Integer(0), sp.Integer(1), sp.Integer(2), sp.Integer(-1)):
        lo, hi = lo_hi(enclose(H(ZERO, at_zero)))
        want = [0, 1, int(at_zero) if at_zero.is_Integer else 0.5]
        assert lo == min(want) and hi == max(want), (at_zero, lo, hi)
    with pytest.raises(certify._Unbounded):
        enclose(H(ZERO, sp.nan))  # undefined where the argument is 0, which it may be
    assert lo_hi(enclose(H(sp.pi - 3, sp.pi))) == (1, 1)
    assert lo_hi(enclose(H(3 - sp.pi))) == (0, 0)


def test_what_cannot_be_enclosed_is_refused():
    for e in (UNBOUNDED, sp.Integer(2) ** (sp.Integer(2) ** 25 * sp.pi), sp.pi ** (10**7),
              ZERO ** -1, ZERO ** R(1, 3), ZERO ** R(-1, 2),
              sp.log(ZERO), sp.gamma(sp.pi), sp.pi ** R(2**21 + 1, 2), sp.pi ** R(2**21 + 1, 3),
              sp.sqrt(ZERO) ** -1):
        with pytest.raises(certify._Unbounded):
            enclose(e)
    for e in ((1 - sp.pi) ** R(1, 3), (2 - sp.pi) ** R(3, 2)):
        with pytest.raises(certify._NotReal):
            enclose(e)
    # just inside the limits: enclosed
    assert_tight(sp.exp(sp.Integer(2) ** 10), enclose(sp.exp(sp.Integer(2) ** 10)))
    assert certify.sign(sp.exp(sp.Integer(2) ** 20) - 1) == 1  # the limit itself: enclosed
    # log of a value certainly <= 0 (here: -|0|, whose interval ends at 0): not real
    with pytest.raises(certify._NotReal):
        enclose(sp.log(-unevaluated(sp.Abs, ZERO)))
    with pytest.raises(ClaimError, match="not a real number"):
        certify.sign(sp.log(-unevaluated(sp.Abs, ZERO)))
    assert_tight(sp.sqrt(ZERO + 1), enclose(sp.sqrt(ZERO + 1)))


# (expression, its sign): by construction (convergents of pi, exact zeros)
SIGNS = [
    (sp.pi - R(355, 113), -1), (sp.pi - R(103993, 33102), 1),
    (sp.pi - R(3141592653589793238462643383279, 10**30), 1),  # needs more than 64 bits
    (R(3141592653589793238462643383280, 10**30) - sp.pi, 1),
    (sp.E - sp.Float("2.718281828459045", 30), 1), (sp.E - R(2718281828459045, 10**15), 1), (-sp.exp(-sp.Integer(1000)), -1),
    (sp.Integer(0), 0), (R(-1, 3), -1), (sp.oo, 1), (-sp.oo, -1), (7, 1), (-2, -1),
    (0.5, 1), (sp.Max(sp.pi, 3) - sp.pi, 0), (sp.Min(sp.pi, 3) - 3, 0),
    (sp.Abs(3 - sp.pi) - sp.pi + 3, 0), (H(sp.pi - 3) - 1, 0), (sp.sign(3 - sp.pi) + 1, 0),
    (sp.floor(sp.pi) - 3, 0), (sp.tanh(R(-1, 10**20)), -1),
    (sp.erf(R(1, 10**20)), 1), (sp.Abs(ZERO - 1) - R(1, 2), 1),
]


def test_signs_near_zero_and_at_infinity():
    for e, s in SIGNS:
        assert certify.sign(e) == s, e
    assert certify.sign(ZERO) == 0  # exact algebra
    assert certify.sign(ZERO, try_zero=False) is None  # fast mode: no algebra
    assert certify.sign(sp.exp(ZERO) - 1) == 0
    # a max / min of a tie SymPy cannot order stays unresolved: its enclosure decides
    tie = sp.Max(sp.pi, sp.pi + ZERO)
    assert isinstance(tie, sp.Max) and certify.resolve(tie) == tie
    assert certify.sign(tie - 3) == 1 and certify.sign(tie - 4) == -1
    assert certify.sign(sp.Min(sp.pi, sp.pi + ZERO) - 3) == 1
    assert certify.sign(sp.Min(sp.pi, sp.pi + ZERO) - 4) == -1
    # a step / floor that resolves to an exact rational: the rational's sign
    assert certify.sign(unevaluated(sp.floor, sp.pi) - 2) == 1
    assert certify.sign(unevaluated(H, 3 - sp.pi, R(1, 2)) - 1) == -1
    assert certify.sign(unevaluated(sp.ceiling, sp.pi) - 4) == 0
    assert certify.sign(UNBOUNDED) is None
    assert certify.sign(UNBOUNDED - 1) is None
    assert certify.sign(z + 1) is None
    assert certify.sign(sp.gamma(sp.pi) - ZERO) is None


def test_undefined_and_non_real_values_are_errors_that_say_so():
    for e, word in ((sp.nan, "undefined"), (sp.zoo, "undefined"), (1 + sp.I, "not a real"),
                    (sp.log(1 - sp.pi), "not a real"), (sp.sqrt(2 - sp.pi), "not a real")):
        with pytest.raises(ClaimError, match=word):
            certify.sign(e)
    assert certify.undefined(H(z, sp.nan)) is False  # the kink's value: only where z = 0
    assert certify.undefined(H(z, sp.nan) + sp.nan) is True
    assert certify.undefined(sp.zoo * z) is True
    assert certify.undefined(3) is False
    with pytest.raises(ClaimError, match=r"undefined \(.*w7"):  # names the expression
        certify.check_real(sp.zoo * sp.Symbol("w7"))
    long = sp.I * sp.Add(*[sp.Symbol(f"w{k}") for k in range(100)])
    with pytest.raises(ClaimError) as err:
        certify.check_real(long)
    msg = str(err.value)
    assert "not a real number (I*(w0" in msg and msg.endswith("…)")
    assert len(msg) < 260
    short = sp.I * sp.Symbol("w0")
    with pytest.raises(ClaimError) as err:
        certify.check_real(short)
    assert str(err.value) == "the value is not a real number (I*w0)"
    # at most 200 characters of the expression, then an ellipsis
    for size in (199, 200, 201, 202):
        e = sp.I * sp.Symbol("w" * (size - 2))
        text = str(e)
        assert len(text) == size
        with pytest.raises(ClaimError) as err:
            certify.check_real(e)
        shown = str(err.value).removeprefix("the value is not a real number (")[:-1]
        assert shown == (text if size <= 200 else text[:200] + "…"), size
    huge = sp.I * sp.Integer(10) ** 5000  # str() of it raises: the message still comes
    with pytest.raises(ClaimError, match=r"not a real number \(an expression with very large"):
        certify.check_real(huge)


def rel(op, lhs, rhs, tol=None):
    return Rel(op, sp.sympify(lhs), sp.sympify(rhs), 1, None if tol is None else sp.sympify(tol))


OPS = {"==": lambda s: s == 0, "!=": lambda s: s != 0, "<": lambda s: s < 0,
       "<=": lambda s: s <= 0, ">": lambda s: s > 0, ">=": lambda s: s >= 0}


def test_truth_of_relations_by_oracle_signs():
    pairs = [(sp.pi, R(22, 7)), (R(22, 7), sp.pi), (sp.sqrt(2), sp.sqrt(2)),
             (sp.E, sp.E + ZERO), (sp.Integer(3), sp.Integer(3)), (sp.log(3), 1)]
    for a, b in pairs:
        s = mpmath.sign(exact(a) - exact(b))
        for op, holds in OPS.items():
            assert certify.truth(rel(op, a, b)) is holds(s), (op, a, b)
    # fast mode: an exact tie is unknown, a strict difference is still decided
    assert certify.truth(rel("==", sp.E, sp.E + ZERO), try_zero=False) is None
    assert certify.truth(rel("<", sp.pi, R(22, 7)), try_zero=False) is True


def test_truth_of_approx_is_distance_within_tolerance():
    for a, b, tol in ((sp.pi, R(22, 7), R(1, 100)), (sp.pi, R(22, 7), R(1, 1000)),
                      (R(22, 7), sp.pi, R(1, 100)), (R(22, 7), sp.pi, R(1, 1000)),
                      (sp.E, R(2718, 1000), R(1, 1000)), (R(2718, 1000), sp.E, R(1, 10**4)),
                      (sp.Integer(2), sp.Integer(2), sp.Integer(0)),
                      (sp.Integer(1), sp.Integer(2), sp.Integer(1)),
                      (sp.Integer(2), sp.Integer(1), sp.Integer(1)),
                      (sp.Integer(1), sp.Integer(3), sp.Integer(1)),
                      (sp.Integer(3), sp.Integer(1), sp.Integer(1))):
        want = abs(exact(a) - exact(b)) <= exact(tol)
        assert certify.truth(rel("≈", a, b, tol)) is want, (a, b, tol)
    assert certify.truth(rel("≈", UNBOUNDED, 1, R(1))) is None
    assert certify.truth(rel("≈", sp.pi, 3, UNBOUNDED)) is None
    assert certify.truth(rel("≈", sp.pi, ZERO + sp.pi, R(1)), try_zero=False) is None
    assert certify.truth(rel("≈", sp.pi, ZERO + sp.pi, R(1))) is True  # diff == 0 exactly
    assert certify.truth(rel("≈", sp.pi, ZERO + sp.pi, R(0))) is True
    assert certify.truth(rel("≈", sp.pi, 3, ZERO + sp.pi - 3), try_zero=False) is None
    assert certify.truth(rel("≈", sp.pi, 3, ZERO + sp.pi - 3)) is True  # |diff| == tol
    assert certify.truth(rel("≈", 3, sp.pi, ZERO + sp.pi - 3)) is True
    assert certify.truth(rel("≈", sp.pi, 3, ZERO + R(1, 8))) is False
    assert certify.truth(rel("≈", sp.pi, 3 + ZERO, R(1, 7))) is True


def test_truth_at_infinity_is_the_extended_real_order():
    rank = {sp.oo: 1, -sp.oo: -1}
    sides = [sp.oo, -sp.oo, sp.pi, sp.Integer(-5)]
    for a in sides:
        for b in sides:
            if a not in rank and b not in rank:
                continue
            s = mpmath.sign(rank.get(a, 0) - rank.get(b, 0))
            for op, holds in OPS.items():
                assert certify.truth(rel(op, a, b)) is holds(s), (a, op, b)
            assert certify.truth(rel("≈", a, b, R(1))) is (s == 0), (a, b)
    with pytest.raises(ClaimError, match="not a real"):
        certify.truth(rel("<", sp.I, sp.oo))
    with pytest.raises(ClaimError, match="undefined"):
        certify.truth(rel(">", -sp.oo, sp.nan))
    for a, b in ((sp.I, 1), (1, sp.I), (sp.nan, 1), (1, sp.nan)):
        with pytest.raises(ClaimError):
            certify.truth(rel("<", a, b))


T, F, U = rel("<", 1, 2), rel(">", 1, 2), rel("<", UNBOUNDED, 1)  # true, false, unknown


def kleene(op, vals):
    if op == "not":
        return None if vals[0] is None else not vals[0]
    if op == "and":
        return False if False in vals else (None if None in vals else True)
    return True if True in vals else (None if None in vals else False)


def test_truth_of_logic_is_kleene():
    value = {id(T): True, id(F): False, id(U): None}
    for p in (T, F, U):
        assert certify.truth(Logic("not", [p], 1)) is kleene("not", [value[id(p)]])
        for q in (T, F, U):
            for op in ("and", "or"):
                for parts in ([p, q], [p, q, T], [F, p, q], [p, U, q]):
                    got = certify.truth(Logic(op, parts, 1))
                    assert got is kleene(op, [value[id(x)] for x in parts]), (op, parts)
    assert certify.truth(Const(True, 1)) is True
    assert certify.truth(Const(False, 1)) is False
    assert certify.truth(Const(None, 1)) is None
    # try_zero reaches the parts
    tie = rel("==", sp.E, sp.E + ZERO)
    assert certify.truth(Logic("and", [T, tie], 1)) is True
    assert certify.truth(Logic("and", [T, tie], 1), try_zero=False) is None


def test_resolve_selects_the_certified_branch():
    assert certify.resolve(sp.Max(sp.pi, 3)) == sp.pi
    assert certify.resolve(sp.Min(sp.pi, 3, sp.E)) == sp.E
    assert certify.resolve(sp.Max(sp.pi, 3, sp.E)) == sp.pi
    assert certify.resolve(sp.Abs(3 - sp.pi)) == sp.pi - 3
    assert certify.resolve(sp.Abs(sp.pi - 3)) == sp.pi - 3
    assert certify.resolve(sp.floor(sp.pi * 100)) == 314
    assert certify.resolve(sp.ceiling(-sp.E)) == -2
    assert certify.resolve(H(sp.pi - 3)) == 1
    assert certify.resolve(H(3 - sp.pi)) == 0
    assert certify.resolve(sp.sign(3 - sp.pi)) == -1
    assert certify.resolve(sp.sign(sp.pi - 3)) == 1
    assert certify.resolve(sp.Max(sp.pi, 3) + sp.Min(z, 1)) == sp.pi + sp.Min(z, 1)
    assert certify.resolve(sp.exp(sp.Max(sp.pi, 3))) == sp.exp(sp.pi)
    # undecidable: left as it is
    for e in (sp.Max(z, 1), sp.pi + 1, sp.floor(z) + sp.pi):
        assert certify.resolve(e) == e


TINY = sp.exp(-2000)  # about 2**-2885: below SymPy's own evaluation, within certify's


def test_resolve_selects_what_sympy_leaves_unevaluated():
    # SymPy evaluates max(pi, 3) itself; these it leaves as they are (ZERO ± TINY has no
    # sign SymPy can see), so resolve's certified signs are what selects
    up, down = ZERO + TINY, 2 * (ZERO - TINY)  # exactly TINY and -2*TINY
    cases = [
        (sp.Max(sp.pi, sp.pi + down), sp.pi),
        (sp.Min(sp.pi, sp.pi + up), sp.pi),
        (sp.Min(sp.pi + up, sp.pi, sp.pi + 2 * up), sp.pi),
        (sp.Abs(up), up),
        (sp.Abs(down), -down),
        (H(up), 1), (H(down), 0), (sp.sign(up), 1), (sp.sign(down), -1),
        # within 2**-4328 of an integer: only the ladder's last precision (16384 bits)
        (unevaluated(sp.floor, 2 - sp.exp(-3000)), 1),
        (unevaluated(sp.ceiling, 1 + sp.exp(-3000)), 2),
        # every factor resolved: the product is rebuilt from the resolved factors
        (sp.Abs(up) * sp.Abs(down), up * -down),
        (sp.Abs(up) + sp.Max(sp.pi, sp.pi + down), up + sp.pi),
    ]
    for e, want in cases:
        assert e.has(*NONSMOOTH), e  # SymPy did not select on its own
        got = certify.resolve(e)
        assert not got.has(*NONSMOOTH) and sp.expand(got - want) == 0, (e, got)


def test_exact_zero_is_proof_and_tries_the_cheap_algebra_first(monkeypatch):
    pi = sp.pi
    expands = (pi + 1) ** 2 - pi**2 - 2 * pi - 1  # 0 by expansion
    cancels = (pi**2 - 1) / (pi - 1) - pi - 1  # 0 by cancellation, not by expansion
    needs_simplify = sp.tanh(pi) - (sp.exp(2 * pi) - 1) / (sp.exp(2 * pi) + 1)
    assert certify.exact_zero(needs_simplify)
    # exact non-zeros whose expansion, or cancellation, is a non-zero constant
    for nonzero in (expands + 1, cancels + 1, expands - pi, sp.pi - 3):
        assert not certify.exact_zero(nonzero), nonzero

    def fails(*args, **kwargs):
        raise NotImplementedError("simplify gave up")

    monkeypatch.setattr(sp, "simplify", fails)
    assert certify.exact_zero(expands) and certify.exact_zero(cancels)  # no simplify needed
    # algebra that fails proves nothing
    for e in (needs_simplify, sp.pi - 3, needs_simplify + TINY):
        assert not certify.exact_zero(e), e


def test_resolve_uses_no_exact_algebra(monkeypatch):
    # resolve is the fast mode: a sign the intervals cannot certify leaves the selection
    # as it is, and never costs exact algebra (simplify)
    def no_algebra(e):
        raise AssertionError(f"exact algebra on {e}")

    monkeypatch.setattr(certify, "exact_zero", no_algebra)
    certify._sign_cached.cache_clear()
    zero = sp.log(36) - 2 * sp.log(6)  # exactly 0, so no interval certifies its sign
    for e in (sp.Abs(zero), H(zero), sp.sign(zero), sp.Max(sp.pi, sp.pi + zero)):
        assert certify.resolve(e) == e
    certify._sign_cached.cache_clear()


# ---- prove: soundness against exact evaluation, completeness on documented arguments ---


def holds_at(f, point):
    """The oracle: f at an exact point, by exact rationals / mpmath at 300 digits."""
    g = f.subs(point)
    if isinstance(g, Logic):
        vals = [holds_at(p, {}) for p in g.parts]
        return kleene(g.op, vals)
    if isinstance(g, Const):
        return g.value
    a, b = (sp.nsimplify(x) if isinstance(x, sp.Float) else x for x in (g.lhs, g.rhs))
    if a in (sp.oo, -sp.oo) or b in (sp.oo, -sp.oo):
        return OPS[g.op](mpmath.sign((1 if a == sp.oo else -1 if a == -sp.oo else 0)
                                     - (1 if b == sp.oo else -1 if b == -sp.oo else 0)))
    diff = sp.expand(a - b)
    if diff.is_Rational and (g.tol is None or g.tol.is_Rational):  # exact rationals
        return bool(abs(diff) <= g.tol) if g.op == "≈" else bool(OPS[g.op](int(sp.sign(diff))))
    diff = exact(diff)
    if g.op == "≈":
        return abs(diff) <= exact(g.tol)
    return OPS[g.op](0 if abs(diff) < mpmath.mpf(10) ** -250 else mpmath.sign(diff))


GRID = [{d: sp.Integer(v), n: sp.Integer(w), z: R(u, 4)} for v in (1, 2, 3, 4, 7)
        for w in (1, 2, 5) for u in (-9, -1, 0, 4, 10)]


def shift_of(lower):
    return prove.shifted([d, n, z], lower)


# (formula, lower bounds): each true for all d, n >= 1 (>= the bound), real z (>= bound)
PROVABLE = [
    (rel("<", d, d + 1), {}), (rel("<=", d, d ** 2), {}), (rel(">", d ** 2 + 1, d), {}),
    (rel(">=", d * n, n), {}), (rel("==", (d + 1) ** 2, d ** 2 + 2 * d + 1), {}),
    (rel("!=", d, 0), {}), (rel("!=", 0, d + n), {}), (rel("!=", -d, 1), {}),
    (rel("==", d / (d + 1) + 1 / (d + 1), 1), {}), (rel(">", d, 2), {d: 3}),
    (rel("<", 4, d * n), {d: 3, n: 2}), (rel(">=", z, 1), {z: 1}), (rel(">", z ** 2 + 1, 0), {}),
    (rel(">=", z ** 2, 0), {}), (rel(">", sp.exp(z), 0), {}),
    (rel("<", d, sp.oo), {}), (rel(">", sp.oo, d), {}), (rel("!=", d, -sp.oo), {}),
    (rel(">", d, -sp.oo), {}), (rel("<", -sp.oo, z), {}), (rel("<=", z, sp.oo), {}),
    (rel(">=", d, -sp.oo), {}), (rel("<=", -sp.oo, d), {}),
    (rel("≈", d + R(1, 3), d, R(1, 2)), {}), (rel("≈", d, d, R(0)), {}),
    (rel("≈", d, d + 1, 1), {}), (rel("≈", d + 1, d, 1), {}),
    (rel("==", sp.floor(2 * d / 2), d), {}), (rel("==", sp.ceiling(d + R(1, 2)), d + 1), {}),
    (rel("<=", sp.floor(d / 2), d), {}), (rel(">=", sp.ceiling(d / 3) * 3, d), {}),
    (rel(">", sp.floor(d / 2) + 1, d / 2), {}), (rel("<", sp.ceiling(d / 2), d / 2 + 1), {}),
    (rel("==", sp.floor((d + 1) / 2) + sp.floor(d / 2), d), {}),
    (rel("==", sp.ceiling(d / 2) + sp.floor(d / 2), d), {}),
    (rel(">=", 2 * sp.floor(d / 2), d - 1), {}), (rel("<=", 3 * sp.ceiling(d / 3), d + 2), {}),
    (rel(">=", d * sp.floor(n / 2), 0), {}), (rel(">=", -d * sp.floor(n / 2) + d * n, 0), {}),
    (rel(">", d * (sp.E - 2), 0), {}),
    (rel("<", (d + 1) / d, 3), {}), (rel(">", d / (d + 1), 0), {}),
    (rel(">=", sp.floor(d / 2) * d, 0), {}),
    # non-negative only by the coefficients of the expanded, shifted polynomial
    # ((d0 + 1)**3 - 3*d0 - 1 = d0**3 + 3*d0**2; SymPy's sign assumptions cannot see it)
    (rel("≈", 2, 3 * d, d ** 3), {}), (rel("≈", 3 * d, 2, d ** 3), {}),
    (rel("≈", d, d, d ** 3 - 3 * d + 2), {}), (rel("<=", 3 * d - 2, d ** 3), {}),
    (rel(">=", d ** 3, 3 * d - 2), {}),
    (rel("==", sp.ceiling(d / 2) + sp.ceiling((d - 1) / 2), d), {}),  # ceilings only
    (rel("==", sp.ceiling(d / 3) + sp.ceiling((d - 1) / 3) + sp.ceiling((d - 2) / 3), d), {}), (rel("==", d ** 3 - 3 * d + 2, (d - 1) ** 2 * (d + 2)), {}),
]
# false somewhere in the allowed range (or not a theorem): never proved
UNPROVABLE = [
    (rel("<", d, 3), {}), (rel(">", d, 1), {}), (rel("<", d, d), {}), (rel(">=", d, d + 1), {}),
    (rel("==", d ** 2, d), {}), (rel("!=", d, 1), {}), (rel("!=", d ** 2, d), {}),
    (rel("<=", z, 0), {}), (rel(">", z ** 2, 0), {}), (rel(">", d, 3), {d: 3}),
    (rel(">", sp.oo, sp.oo), {}), (rel("<", d, -sp.oo), {}), (rel(">", d, sp.oo), {}),
    (rel("==", d, sp.oo), {}), (rel(">=", -sp.oo, z), {}), (rel("<", sp.oo, d), {}),
    (rel("<", d + sp.oo, sp.oo), {}),
    (rel("≈", d, d + 1, R(1, 2)), {}), (rel("≈", d, d, -1), {}), (rel("≈", d, 1, 1), {}),
    (rel("==", sp.floor(d / 2), d / 2), {}), (rel("<", sp.floor(d / 2), d / 2), {}),
    (rel(">", sp.ceiling(d / 2), d / 2), {}), (rel("==", sp.ceiling(d / 3) * 3, d), {}),
    (rel(">", sp.floor(d / 2) * 2, d - 1), {}), (rel(">=", 2 * sp.floor(d / 2), d), {}),
    (rel("<", sp.ceiling(d / 2) + sp.floor(d / 2), d), {}),
    (rel("<", sp.pi * d, 3 * d), {}), (rel(">", d * (2 - sp.E), 0), {}),
    (rel(">", sp.floor(d / 2) - 1, d / 2), {}), (rel("!=", sp.floor(d / 2), 0), {}),
    (rel(">", sp.floor(n / 2) * d, 0), {}), (rel(">", d / (d + 1), 1), {}),
    (rel("!=", 1, d), {}), (rel("!=", d, d ** 2), {}), (rel("<", 1, d), {}),
    (rel(">", d ** 3, 3 * d - 2), {}), (rel("<", 3 * d - 2, d ** 3), {}),
    (rel("!=", d ** 3, 3 * d - 2), {}), (rel("≈", 1, 3 * d, d ** 3), {}),
    (rel("==", sp.ceiling(d / 2) + sp.ceiling((d - 1) / 2), d + 1), {}),
    (rel("<", z * sp.oo, sp.oo), {}), (rel(">", z * sp.oo, -sp.oo), {}),
    (rel(">", sp.oo, z * sp.oo), {}), (rel("!=", z * sp.oo, sp.oo), {}),
]


def test_prove_rel_is_sound_and_proves_the_documented_cases():
    # a proof of a false relation fails at once (UNPROVABLE first); every proof is then
    # checked by exact evaluation on the grid
    for f, lower in UNPROVABLE:
        assert not prove.prove_rel(f, shift_of(lower)), f.show()
    for f, lower in PROVABLE:
        assert prove.prove_rel(f, shift_of(lower)), f.show()
        for point in GRID:
            if all(point[s] >= lo for s, lo in lower.items()):
                assert holds_at(f, point) is True, (f.show(), point)


def test_prove_logic_and_negation():
    t, f_ = rel("<", d, d + 1), rel("<", d, 3)
    cases = [
        (Logic("and", [t, t], 1), True), (Logic("and", [t, f_], 1), False),
        (Logic("or", [f_, t], 1), True), (Logic("or", [f_, f_], 1), False),
        (Logic("not", [rel(">=", d, d + 1)], 1), True), (Logic("not", [t], 1), False),
        (Logic("not", [rel("==", d, 0)], 1), True), (Logic("not", [rel("!=", d, d)], 1), True),
        (Logic("not", [rel(">", d, d)], 1), True), (Logic("not", [rel("<", d + 1, d)], 1), True),
        (Logic("not", [rel("<=", d + 1, d)], 1), True),
        (Logic("not", [rel(">", d, 0)], 1), False),
        (Logic("not", [rel("≈", d, d + 2, 1)], 1), False),
        (Logic("not", [Logic("and", [t, rel(">", d, d)], 1)], 1), True),
        (Logic("not", [Logic("and", [t, t], 1)], 1), False),
        (Logic("not", [Logic("or", [rel(">", d, d), rel("<", d, 0)], 1)], 1), True),
        (Logic("not", [Logic("or", [rel(">", d, d), t], 1)], 1), False),
        (Logic("not", [Logic("not", [t], 1)], 1), True),
        (Logic("not", [Logic("not", [f_], 1)], 1), False),
        (Logic("not", [Const(False, 1)], 1), False),
        (Const(True, 1), True), (Const(False, 1), False), (Const(None, 1), False),
    ]
    for f, want in cases:
        got = prove.prove(f, shift_of({}))
        assert got is want, (f, want)
        if got:
            assert all(holds_at(f, p) is True for p in GRID[:20])


def test_prove_sign_modes():
    shift = shift_of({})
    assert prove.prove_sign(d - 1, shift, ">=")
    assert not prove.prove_sign(d - 1, shift, ">")
    assert prove.prove_sign(d, shift, ">")
    assert not prove.prove_sign(-d, shift, ">=")
    assert prove.prove_sign(z ** 2, shift, ">=")
    assert not prove.prove_sign(z ** 2, shift, ">")
    assert prove.prove_sign(d * (sp.sqrt(2) - 1), shift, ">")
    assert not prove.prove_sign(sp.sqrt(2) * d - 2, shift, ">")
    assert prove.prove_sign(sp.floor(d / 2) + sp.ceiling(d / 2) - d, shift, ">=")
    assert not prove.prove_sign(sp.floor(d / 2) + sp.ceiling(d / 2) - d, shift, ">")
    assert prove.prove_sign((d - 1) / (d + 1), shift, ">=")
    assert not prove.prove_sign((d - 1) / (d + 1), shift, ">")
    assert prove.prove_sign((d + 1) / d, shift, ">")
    assert not prove.prove_sign(1 / (d - 2), shift, ">=")
    assert not prove.prove_sign(sp.gamma(sp.pi) * d, shift, ">")
    assert not prove.prove_sign(d * sp.log(1 - sp.pi), shift, ">")  # not real: no proof


def test_residue_cases_cover_every_value_within_the_budget():
    shift = shift_of({})
    e = sp.floor((d - 1) / 2)  # >= 0 for d >= 1 (floor(-1/2) = -1 at d = 0: not allowed)
    budget = [5]
    assert prove.prove_by_residues(e, shift, ">=", budget)
    assert budget == [3]  # two residue classes of d mod 2 were spent
    assert prove.prove_by_residues(e, shift, ">=", [2])  # exactly enough
    assert not prove.prove_by_residues(e, shift, ">=", [1])  # not enough: no proof
    assert not prove.prove_by_residues(e, shift, ">", [8])  # 0 at d = 1
    odd = sp.floor(d / 2) - d / 2  # -1/2 at odd d
    for budget in ([1], [2], [128]):
        assert not prove.prove_by_residues(odd, shift, ">=", budget)
    e3 = sp.floor((d + 2) / 3) - 1  # >= 0 for d >= 1, three classes
    budget = [4]
    assert prove.prove_by_residues(e3, shift, ">=", budget) and budget == [1]
    assert not prove.prove_by_residues(sp.floor((d + 1) / 3) - 1, shift, ">=", [9])  # d = 1


def test_prove_hard_is_identities_only():
    t = rel("==", sp.tanh(z), (sp.exp(z) - sp.exp(-z)) / (sp.exp(z) + sp.exp(-z)))
    assert prove.prove_hard(t)
    assert prove.prove_hard(Logic("and", [t, rel("==", sp.exp(2 * z), sp.exp(z) ** 2)], 1))
    for f in (rel("==", sp.tanh(z), z), rel("<=", sp.tanh(z), sp.tanh(z)),
              rel("==", sp.oo, sp.oo), rel("==", z, sp.oo), rel("==", -sp.oo, z),
              Logic("and", [t, rel("==", sp.tanh(z), z)], 1), Logic("or", [t, t], 1),
              Logic("not", [rel("==", sp.tanh(z), z)], 1), Const(True, 1)):
        assert not prove.prove_hard(f)


def test_identity_hard_is_simplify_and_a_failure_proves_nothing(monkeypatch):
    # 0 only after simplify: the exp forms do not cancel term by term
    hard = sp.tanh(z) - (sp.exp(2 * z) - 1) / (sp.exp(2 * z) + 1)
    assert sp.expand(hard.rewrite(sp.exp)) != 0 and prove.identity_hard(hard)
    assert not prove.identity_hard(hard + sp.exp(-z**2))

    def fails(*args, **kwargs):
        raise NotImplementedError("simplify gave up")

    monkeypatch.setattr(sp, "simplify", fails)
    assert not prove.identity_hard(hard)
    assert prove.identity_hard(sp.exp(2 * z) - sp.exp(z) ** 2)  # 0 before simplify


def test_bounds_and_shift():
    a = Logic("and", [rel(">=", d, 3), rel(">", n, R(5, 2)), rel("<=", z, 7),
                      rel("<", 2, z), rel(">", d, 1), rel(">=", R(1, 2), z)], 1)
    lower, upper = prove.bounds(a, {d, n, z})
    assert lower == {d: 3, n: 3, z: 2} and upper == {z: R(1, 2)}
    lower, upper = prove.bounds(rel(">", d, 4), {d})
    assert lower == {d: 5} and upper == {}
    lower, upper = prove.bounds(rel(">=", d, 0), {d})
    assert lower == {} and upper == {}  # d >= 0 says nothing new
    assert prove.bounds(rel(">", d, 0), {d}) == ({d: 1}, {})
    assert prove.bounds(rel(">", d, R(-1, 2)), {d}) == ({}, {})
    lower, upper = prove.bounds(rel(">=", d, R(1, 2)), {d})
    assert lower == {d: 1}
    lower, upper = prove.bounds(rel(">=", d, 7), {n})
    assert lower == {} and upper == {}  # not one of the symbols
    lower, upper = prove.bounds(rel(">=", d, sp.pi), {d})
    assert lower == {}  # not rational
    lower, upper = prove.bounds(Logic("or", [rel(">=", d, 3), rel(">=", d, 3)], 1), {d})
    assert lower == {}  # only conjunctions give bounds
    lower, upper = prove.bounds(rel(">=", d + 1, 3), {d})
    assert lower == {}
    lower, upper = prove.bounds(Logic("and", [rel(">", z, R(-1, 2)), rel(">", z, -1)], 1), {z})
    assert lower == {z: R(-1, 2)}
    lower, upper = prove.bounds(Logic("and", [rel("<", z, 3), rel("<=", z, 5)], 1), {z})
    assert upper == {z: 3}
    assert prove.bounds(None, {d}) == ({}, {})
    s = prove.shifted([d, z, n], {d: 3, z: R(1, 2)})
    assert s[d] - 3 == sp.Symbol("d_0", nonnegative=True, integer=True)
    assert s[z] - R(1, 2) == sp.Symbol("z_0", nonnegative=True)
    assert s[n] - 1 == sp.Symbol("n_0", nonnegative=True, integer=True)
    assert prove.shifted([z], {}) == {}


@pytest.mark.parametrize("op, mirrored", [(">", "<"), (">=", "<="), ("<", ">"), ("<=", ">=")])
def test_a_bound_reads_the_same_with_the_number_on_either_side(op, mirrored):
    # `c OP s` states what `s MIRRORED c` does: 3 > z is z < 3, 7 < d is d > 7 (so d >= 8)
    for sym, c in ((z, R(3)), (z, R(-5, 2)), (d, R(7))):
        if op in (">", ">="):  # s < c, s <= c: an upper bound
            want = ({}, {sym: c})
        elif sym is z:
            want = ({z: c}, {})
        else:  # a dimension's lower bound is its least allowed integer
            want = ({d: c + 1 if op == "<" else c}, {})
        assert prove.bounds(rel(op, c, sym), {sym}) == want, (op, c, sym)
        assert prove.bounds(rel(mirrored, sym, c), {sym}) == want, (mirrored, sym, c)


# ---- refute: the points tried, and counterexamples that are real ----------------------


def test_points_are_the_documented_small_values():
    pts = list(refute.points([d], {}, {}))
    assert [p[d] for p in pts] == refute.DIM_VALUES
    pts = list(refute.points([d], {d: 5}, {d: 20}))
    assert [p[d] for p in pts] == [v + 4 for v in refute.DIM_VALUES if v + 4 <= 20]
    pts = list(refute.points([z], {}, {}))
    assert [p[z] for p in pts] == refute.REAL_VALUES
    pts = list(refute.points([z], {z: R(1, 2)}, {}))
    want = list(dict.fromkeys(R(1, 2) + abs(v) for v in refute.REAL_VALUES))
    assert [p[z] for p in pts] == want and min(want) == R(1, 2)
    pts = list(refute.points([z], {}, {z: -100}))
    assert [p[z] for p in pts] == [0]  # nothing below the bound: the first value only
    pts = list(refute.points([d, z], {}, {}))
    per = int(refute.MAX_POINTS ** 0.5)
    assert len(pts) == per * per <= refute.MAX_POINTS
    assert pts[0] == {d: 1, z: 0} and pts[1] == {d: 1, z: 1} and pts[2] == {d: 2, z: 0}
    sums = [refute.DIM_VALUES.index(p[d]) + refute.REAL_VALUES.index(p[z]) for p in pts]
    assert sums == sorted(sums)  # small first
    assert {p[d] for p in pts} == set(refute.DIM_VALUES[:per])
    pts = list(refute.points([d, n, z], {}, {}, limit=7))
    assert len(pts) == 7 and pts[0] == {d: 1, n: 1, z: 0}
    assert len(list(refute.points([d, n, z, sp.Symbol("m", integer=True, positive=True),
                                   sp.Symbol("k", integer=True, positive=True),
                                   sp.Symbol("j", integer=True, positive=True),
                                   sp.Symbol("i", integer=True, positive=True)], {}, {}))) == 120
    assert list(refute.points([], {}, {})) == [{}]


def test_search_finds_real_counterexamples_only():
    shift_free = []
    r = refute.search(rel("<", d, 5), [], None, [d], {}, {})
    assert r.point == {d: 5} and r.tried == 5 and r.defined == 5 and r.witness == {d: 1}
    r = refute.search(rel("<", d, 5), [], rel(">=", d, 7), [d], {}, {})
    assert r.point == {d: 7} and r.tried == 1 and r.defined == 1
    r = refute.search(rel(">", d * z, -3), [], None, [d, z], {}, {})
    assert r.point is not None and holds_at(rel(">", d * z, -3), r.point) is False
    r = refute.search(rel("<", d, 10**6), [], None, [d], {}, {})  # a large magnitude
    assert r.point == {d: 10**6}
    r = refute.search(rel("<", d, 10**15 + 17), [], None, [d], {}, {})  # where they cross
    assert r.point == {d: 10**15 + 17}
    r = refute.search(rel(">", d, 0), [], None, [d], {}, {})
    assert r.point is None and r.tried >= len(refute.DIM_VALUES) + len(refute.LARGE_DIMS)
    assert r.tried == r.defined
    # undefined points are skipped, not counterexamples
    f = rel(">", 1 / (d - 2), 0)
    r = refute.search(f, [Cond("!=", d - 2, "division")], None, [d], {}, {})
    assert r.point == {d: 1} and r.defined == 1
    r = refute.search(rel(">", 1 / (d - 1), 0), [Cond("!=", d - 1, "division")], None,
                      [d], {}, {})
    assert r.point is None and r.tried == len(refute.DIM_VALUES) + len(refute.LARGE_DIMS)
    assert r.defined == r.tried - 1
    assert r.witness == {d: 2}
    r = refute.search(rel(">", sp.log(z), -100), [Cond(">", z, "log")], None, [z], {}, {})
    assert r.point is None and r.defined == sum(bool(v > 0) for v in refute.REAL_VALUES +
                                                refute.LARGE_REALS)
    assert r.witness == {z: 1}
    # a claim that raises at a point (log of a negative) is skipped there
    r = refute.search(rel(">", sp.log(z), -100), [], None, [z], {}, {})
    assert r.point is None
    # the assumption is certified true, or the point is not tried
    r = refute.search(rel("<", d, 3), [], rel("<", d, UNBOUNDED), [d], {}, {})
    assert r.point is None and r.tried == 0
    # an uncertifiable claim is never a counterexample
    r = refute.search(rel("==", ZERO * d, 0), [], None, [d], {}, {}, limit=3)
    assert r.point is None and r.tried == 3 and r.defined == 3
    r = refute.search(Const(True, 1), [Cond(">", d - 3, "root")], None, [d], {}, {})
    assert r.point is None and r.witness == {d: 4}
    assert shift_free == []


def test_defined_at_needs_every_condition_certified():
    conds = [Cond("!=", d - 2, "division"), Cond(">=", d - 1, "root")]
    assert refute.defined_at(conds, {d: 3})
    assert not refute.defined_at(conds, {d: 2})
    assert not refute.defined_at([Cond(">", ZERO * d, "log")], {d: 2})
    assert not refute.defined_at([Cond(">", sp.log(1 - sp.pi) * d, "log")], {d: 1})
    assert not refute.defined_at([Cond(">", UNBOUNDED - d, "log")], {d: 1})
    assert refute.defined_at([], {d: 1})


def test_failing_names_the_false_relation():
    a, b, c = rel("<", 1, 2), rel(">", 1, 2), rel("==", 3, 4)
    assert refute.failing(b) is b
    assert refute.failing(Logic("and", [a, b], 1)) is b
    assert refute.failing(Logic("and", [a, Logic("or", [c, b], 1)], 1)) is c
    assert refute.failing(Logic("not", [a], 1)) is a
    assert refute.failing(Logic("and", [rel("<", sp.I, 1), b], 1)) is b
    assert refute.failing(Logic("and", [a, a], 1)) is None
    assert refute.failing(Const(False, 1)) is None


def test_fractions_oracle_agrees_with_exact_sign():
    # exact rationals: the sign is the rational's own, at any size
    for num, den in ((1, 3), (-7, 2), (10**400 + 1, 10**400), (-(10**400), 10**400 + 1)):
        x = Fraction(num, den) - 1
        want = (x > 0) - (x < 0)
        assert certify.sign(R(num, den) - 1) == want
        assert certify.sign(R(num, den) - 1 + sp.pi - sp.pi) == want


def test_tanh_and_erf_at_interval_arguments():
    # an interval argument: the enclosure covers f at both ends (monotone functions)
    for f, mf in ((sp.tanh, mpmath.tanh), (sp.erf, mpmath.erf)):
        for u in (sp.Abs(ZERO) + R(1, 3), -sp.Abs(ZERO) - R(1, 3), sp.Abs(ZERO) * 0 + sp.pi):
            x = enclose(f(u))
            c = exact(u)
            assert contains(x, mf(c)), (f, u)
            assert certify._hi(x) - certify._lo(x) < 1e-12
    x = enclose(sp.tanh(sp.sign(ZERO)))  # argument in [-1, 1]
    assert lo_hi(x)[0] <= mpmath.tanh(-1) and lo_hi(x)[1] >= mpmath.tanh(1)
    assert lo_hi(x)[1] - lo_hi(x)[0] < 2 * mpmath.tanh(1) + 1e-15
    x = enclose(sp.erf(sp.sign(ZERO)))
    assert lo_hi(x)[0] <= mpmath.erf(-1) and lo_hi(x)[1] >= mpmath.erf(1)
    assert lo_hi(x)[1] - lo_hi(x)[0] < 2 * mpmath.erf(1) + 1e-15
    assert lo_hi(enclose(sp.erf(sp.Integer(0)) + sp.erf(ZERO * 0))) == (0, 0)
    assert iv.prec == 53 or iv.prec > 0


# erf at a point: both of _point_erf's branches (the series while a*a <= prec, the erfc
# bounds past it), near the switch, at tiny and large a, and at negative a (erf is odd)
ERF_POINTS = [mpmath.ldexp(1, -30), mpmath.mpf(5) / 1024] + [
    mpmath.mpf(k) / 8 for k in (1, 3, 8, 20, 40, 63, 64, 65, 70, 100, 127, 128, 129, 200)]


@pytest.mark.parametrize("prec", [64, 256])
def test_erf_at_a_point_is_enclosed_tightly(prec):
    for a in ERF_POINTS:
        for s in (1, -1):
            with certify.workprec(prec):
                got = certify._erf_at(s * a, prec)
            lo, hi = certify._lo(got), certify._hi(got)
            true = s * mpmath.erf(a)  # mp.dps = 400
            assert lo <= true <= hi, (prec, s * a, got)
            # width: the series has about 2a^2 + 8 terms before the ratio is <= 1/2 and the
            # term below 2**-(prec + 10) of the total, each rounded outward a few times, so
            # 16 (a^2 + 8) units of 2**-prec of |erf|; observed 2**4 at tiny a to 2**11.7 at
            # a = 25. A series cut 2**10 short of the precision is wider than that.
            ulp = mpmath.ldexp(max(abs(true), mpmath.ldexp(1, -prec)), -prec)
            assert hi - lo <= 16 * (a * a + 8) * ulp, (prec, s * a, (hi - lo) / ulp)


@pytest.mark.parametrize("claim", [
    # resolve() replaces a closed abs / min / max / floor / ceil by the value it selects,
    # by certified signs, so exact algebra can cancel what no interval can: each side
    # below differs from the other by exactly 0, and the selection needs more precision
    # than SymPy's own evaluation has (exp(-2000) is about 2**-2885)
    "abs(log(4) - 2*log(2) + exp(-2000)) == exp(-2000)",
    "abs(log(4) - 2*log(2) - exp(-2000)) == exp(-2000)",
    "min(pi, pi + log(4) - 2*log(2) + exp(-2000)) == pi",
    "max(pi, pi + log(4) - 2*log(2) - exp(-2000)) == pi",
    # both factors resolved: the product is rebuilt from the resolved parts
    "abs(log(4) - 2*log(2) + exp(-2000)) * abs(log(9) - 2*log(3) - exp(-2000)) == exp(-4000)",
    # floor / ceil of a value within exp(-3000) (about 2**-4328) of an integer: only the
    # last precision of the ladder (16384 bits) tells which integer
    "floor(2 - exp(-3000)) * pi == pi",
    "ceil(1 + exp(-3000)) * pi == 2 * pi",
    "floor(2 - exp(-3000)*(1 + gelu(1))) * pi == pi",
])
def test_closed_selections_are_resolved_to_the_exact_value(claim):
    from ffnverify.claims.evaluate import evaluate_claim

    r = evaluate_claim(claim)
    assert r["verdict"] == "true", r


def _relaxed(c, atom):
    """The documented relaxation of c*atom (atom = floor(u) or ceiling(u), c rational) and
    whether it is strict: u - 1 < floor(u) <= u, u <= ceiling(u) < u + 1, the side that
    bounds c*atom from below."""
    u = atom.args[0]
    if isinstance(atom, sp.floor):
        return (c * (u - 1), True) if c > 0 else (c * u, False)
    return (c * u, False) if c > 0 else (c * (u + 1), True)


@pytest.mark.parametrize("case", range(24))
def test_relax_rounding_is_the_documented_lower_bound(case):
    # e = r*d + k + sum of c_i * floor/ceiling(a_i*d + b_i): drawn from a fixed table of
    # coefficients (rational, either sign), so the oracle's bound is exact
    import random

    rnd = random.Random(case)
    terms, expected, strict = [], 0, False
    for _ in range(rnd.randint(1, 3)):
        c = R(rnd.choice([-3, -2, -1, 1, 2, 5]), rnd.choice([1, 2, 3]))
        u = R(rnd.randint(1, 7), rnd.randint(1, 5)) * d + R(rnd.randint(-4, 4), rnd.randint(1, 3))
        atom = (sp.floor if rnd.random() < 0.5 else sp.ceiling)(u, evaluate=False)
        if any(atom == a for _, a in terms):
            continue
        terms.append((c, atom))
        low, s = _relaxed(c, atom)
        expected, strict = expected + low, strict or s
    rest = R(rnd.randint(-5, 5), rnd.randint(1, 4)) * d + R(rnd.randint(-9, 9), 2)
    e = rest + sum(c * a for c, a in terms)
    bound, got_strict = prove.relax_rounding(e)
    assert bound is not None, e
    assert sp.expand(bound - (rest + expected)) == 0, (e, bound, rest + expected)
    assert got_strict == strict, (e, got_strict, strict)
    # and it is a bound: e >= bound at every point, e > bound where strict (exact values)
    for k in range(1, 40):
        ek, bk = e.subs(d, k), bound.subs(d, k)
        assert ek >= bk and (ek > bk or not strict), (e, k, ek, bk)


def test_relax_rounding_refuses_what_it_cannot_bound():
    # a nonlinear use of a rounding, or a coefficient of unknown sign, gives no bound
    assert prove.relax_rounding(sp.floor(d / 2) ** 2) == (None, False)
    assert prove.relax_rounding(sp.floor(d / 2) * sp.ceiling(d / 3)) == (None, False)
    assert prove.relax_rounding((d - 5) * sp.floor(d / 2)) == (None, False)
    # nested: the outer one first, then the inner one, each by its own side
    bound, strict = prove.relax_rounding(sp.floor(sp.ceiling(d / 2) / 3))
    assert sp.expand(bound - (d / 6 - 1)) == 0 and strict is True


def test_relax_rounding_with_coefficients_proved_by_sign():
    # a coefficient that is no rational but proved >= 0 (or <= 0) for every allowed value
    # (d >= 1) bounds its rounding by the same side, but never strictly (it may be 0)
    shift = prove.shifted({d, n}, {})
    for e, want in [
        (d * sp.floor(n / 2), d * (n / 2 - 1)),
        ((d - 1) * sp.floor(n / 2), (d - 1) * (n / 2 - 1)),  # 0 at d = 1: >= 0, not > 0
        (-(d - 1) * sp.ceiling(n / 3), -(d - 1) * (n / 3 + 1)),
        ((d - 1) * sp.ceiling(n / 3) + 2, (d - 1) * n / 3 + 2),
    ]:
        bound, strict = prove.relax_rounding(e, shift)
        assert bound is not None and sp.expand(bound - want) == 0, (e, bound)
        assert strict is False, e
    # a coefficient holding a rounding itself, or a rounding not linear, is refused
    for e in (sp.floor(d / 2) * sp.floor(n / 3), sp.ceiling(d / 2) * sp.ceiling(n / 3),
              sp.floor(d / 2) * sp.ceiling(n / 3), sp.floor(d / 2) + sp.floor(d / 2) ** 2,
              (d - 5) * sp.floor(n / 2)):
        assert prove.relax_rounding(e, shift) == (None, False), e
    # with rational coefficients only, a ceiling with a positive one is not strict
    assert prove.relax_rounding(2 * sp.ceiling(d / 3) + 1) == (2 * d / 3 + 1, False)
