"""Properties of the decider's edges (ffnverify/claims/build.py, certify.py, evaluate.py)
that the other claim tests leave open, each against an oracle that does not use the code
under test: exact integers for digit counts and floors, mpmath at high precision for
erf and for floor / ceiling of closed values, the documented rules of the claim language
(build.py: sizes are checked before a power is computed, and a value that is not real is
an error; certify.py: a sign or a selection is certified by intervals that enclose the
exact value; evaluate.py: a TRUE verdict is a proof at points where the claim is
defined, whichever prover found it), and, for every error, the whole message a user sees
and its column.

Fast by design: the mutation run executes this file once per mutant. A mutant that
turns a loop into an endless one is failed by a time limit (`within`), not left to hang.
"""

import signal
from contextlib import contextmanager
from fractions import Fraction
from unittest import mock

import mpmath
import sympy as sp

from ffnverify.claims import certify
from ffnverify.claims import evaluate as E
from ffnverify.claims import parser as P
from ffnverify.claims.build import MAX_BITS, stated_tolerance
from ffnverify.claims.evaluate import evaluate_claim

LIMIT = f"(limit {int(MAX_BITS * 0.30103):,})"  # MAX_BITS in decimal digits


@contextmanager
def within(seconds):
    """Fail (not hang) when the block runs longer than `seconds`."""

    def expired(*_):
        raise TimeoutError(f"still running after {seconds} s: an endless loop")

    old = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def error(claim):
    r = evaluate_claim(claim)
    assert r["verdict"] == "error", f"{claim!r} must be an error, got {r}"
    return r


# ---- build: the refusals of a power, and a value that is not real ----------------------


def test_an_exponent_that_cannot_be_bounded_is_refused_at_its_operator():
    # e**(e**100) is far past any enclosure (exp's argument is capped at 2**20): the power
    # is refused before it is computed, at the ** of the claim
    for claim, shown in [("2**exp(exp(100)) == 1", "exp(exp(100))"),
                         ("1 + 3**exp(2**30) > 1", "exp(1073741824)")]:
        r = error(claim)
        assert r["detail"] == f"exponent {shown} cannot be bounded", r
        assert r["col"] == claim.index("**") + 1, r


def test_the_digit_count_of_a_refused_power_is_exact_below_2_to_99():
    # 10**n has exactly n + 1 digits (an exact integer); a count of 2**99 or more is shown
    # as a power of ten: 10**(10**30) has 10**30 + 1 digits (100 bits), 10**(5*10**29)
    # has 5*10**29 + 1 (99 bits), 10**(10**29) has 10**29 + 1 (97 bits)
    for n in (10**30, 5 * 10**29, 6 * 10**29, 10**29, 10**31):
        digits = n + 1
        shown = f"about {digits:,}" if digits < 2**99 else f"about 10**{len(str(digits)) - 1}"
        claim = f"10**({n}) == 1"
        r = error(claim)
        assert r["detail"] == f"power too large: 10**{n} would have {shown} digits {LIMIT}", r
        assert r["col"] == claim.index("**") + 1, r


def test_a_value_that_is_not_real_is_refused_with_the_value_shown():
    # the principal roots: (-2)**(1/2) = i*sqrt(2), (-8)**(1/3) = 1 + i*sqrt(3) (mpmath)
    for claim, want in [("(-2)**(1/2) == 1", mpmath.mpc(0, mpmath.sqrt(2))),
                        ("z + (-8)**(1/3) == 1", mpmath.mpc(1, mpmath.sqrt(3)))]:
        r = error(claim)
        head, tail = "the value is not a real number (", ")"
        assert r["detail"].startswith(head) and r["detail"].endswith(tail), r
        shown = sp.sympify(r["detail"][len(head):-len(tail)])
        assert abs(complex(shown.evalf(30)) - complex(want)) < 1e-20, (r, want)
        assert r["col"] == claim.index("**") + 1, r


def test_the_stated_tolerance_terminates_and_propagates_the_literals_half_units():
    # each literal's half-unit through the arithmetic, by Fraction arithmetic on the text:
    # 1.25 (±0.005) + 3.5 (±0.05) * 2 (exact) - 0.125 (±0.0005)
    with within(2):
        for text, tol in [("1.25 + 3.5*2 - 0.125", Fraction(5, 1000) + 2 * Fraction(5, 100) +
                           Fraction(5, 10000)), ("-(2.5)", Fraction(1, 20)),
                          ("7", Fraction(1, 2)), ("7/2", Fraction(1, 4))]:
            assert stated_tolerance(P.parse(text)) == tol, text


# ---- certify: enclosures and selections against mpmath at high precision --------------


def contains(x, value):
    return certify._lo(x) <= value <= certify._hi(x)


def test_erf_encloses_its_value_and_terminates():
    # mpmath's erf at 60 digits, inside the interval; both branches of the series' end
    # (a small a, where the ratio is below 1/2 at once, and a larger one)
    with within(5), mpmath.workdps(200):
        for a in (sp.Rational(1, 2), sp.Rational(1, 8), sp.Integer(1), sp.Integer(2),
                  sp.Rational(7, 2)):
            with certify.workprec(64):
                x = certify.enclose(sp.erf(a), 64)
            want = mpmath.erf(mpmath.mpf(int(a.p)) / int(a.q))
            assert contains(x, want), (a, x, want)
            # about as accurate as the precision: the series is cut at 2**-(prec+10)
            assert certify._hi(x) - certify._lo(x) < mpmath.mpf(2)**-55, (a, x)
            # the series' remainder is positive: the interval holds erf(a) even when the
            # arithmetic is finer than the series' cut (64 bits), so rounding cannot hide it
            with certify.workprec(512):
                x = certify.enclose(sp.erf(a), 64)
            assert contains(x, want), ("a cut at 64 bits in 512-bit arithmetic", a, x, want)


def test_a_power_of_an_interval_that_ends_at_zero_is_bounded():
    # max(0, pi - 4) is exactly 0 (SymPy's evaluation is held off, so the interval [0, 0]
    # is what is raised to the power): 0**n + 1 = 1 > 0, and 0**3 - 1 = -1 < 0
    zero = sp.Max(0, sp.pi - 4, evaluate=False)
    half = sp.Max(sp.Rational(1, 2), sp.pi - 4, evaluate=False)
    certify._sign_cached.cache_clear()
    assert certify.sign(zero**2 + 1, False) == 1
    assert certify.sign(zero**3 - 1, False) == -1
    assert certify.sign(half**3 - sp.Rational(1, 9), False) == 1  # 1/8 > 1/9
    with certify.workprec(64):
        assert contains(certify.enclose(zero**2, 64), 0)
        assert contains(certify.enclose(half**-2, 64), 4)


def test_a_step_at_its_kink_is_bounded_by_its_stated_value():
    # Heaviside(u, h) with u exactly 0 (log(4) - 2*log(2)) but no interval excluding 0:
    # the value is h, so the enclosure is the hull of 0, 1 and h, and a comparison that
    # the hull decides is certified (relu'(0) = 0 in the claim language)
    zero = sp.log(4) - 2 * sp.log(2)
    certify._sign_cached.cache_clear()
    for h in (sp.Integer(0), sp.Rational(1, 2), sp.Integer(1)):
        step = sp.Heaviside(zero, h)
        assert step.has(sp.Heaviside), step  # SymPy did not evaluate it
        with certify.workprec(64):
            x = certify.enclose(step, 64)
        assert contains(x, float(h)) and certify._lo(x) == 0 and certify._hi(x) == 1, (h, x)
        assert certify.sign(step - 2, False) == -1 and certify.sign(step + 1, False) == 1
    # Heaviside(u, nan), undefined only at u = 0: with u = ±exp(-2000) (no sign SymPy
    # sees), the value is 1 or 0 and the undefined kink value is never needed
    tiny = sp.exp(-2000)
    for u, want in ((zero + tiny, 1), (zero - tiny, 0)):
        step = sp.Heaviside(u, sp.nan)
        assert step.has(sp.Heaviside), step
        with certify.workprec(4096):  # exp(-2000) is about 2**-2885
            x = certify.enclose(step, 4096)
        assert certify._lo(x) == certify._hi(x) == want, (u, x)
        assert certify.sign(step - sp.Rational(1, 2), False) == (1 if want else -1)
    for claim in ("subs(diff(relu(z), z), z, log(4) - 2*log(2)) < 2",
                  "subs(diff(relu(z), z), z, log(4) - 2*log(2)) > -1"):
        assert evaluate_claim(claim)["verdict"] == "true", claim


def test_floor_and_ceiling_of_a_large_value_are_exact():
    # floor / ceil of 2**100*pi, 2**200*e are integers of 100+ bits: mpmath at 200 digits
    # is the oracle (a floor rounded to 53 bits would be a wrong "exact" value)
    certify._sign_cached.cache_clear()
    for k, c, sgn, mc in [(100, sp.pi, 1, mpmath.pi), (200, sp.E, 1, mpmath.e),
                          (70, -sp.pi, -1, mpmath.pi)]:
        with mpmath.workdps(200):
            lo = int(mpmath.floor(sgn * mpmath.mpf(2)**k * +mc))
        for f, want in ((sp.floor, lo), (sp.ceiling, lo + 1)):
            e = f(2**k * c, evaluate=False)
            got = certify.resolve(e)
            assert got == want, (e, got, want)
            with certify.workprec(64):
                x = certify.enclose(e, 64)
            assert contains(x, want), (e, x, want)


def test_a_floor_of_erf_is_resolved_at_the_last_precision():
    # erf is bounded by a series cut at the working precision: 2**4200*erf(2**-20) has
    # about 4180 bits, so its floor is certain only at the ladder's last precision
    # (16384 bits); mpmath at 1300 digits is the oracle
    a = sp.Rational(1, 2**20)
    e = sp.floor(2**4200 * sp.erf(a), evaluate=False)
    certify._sign_cached.cache_clear()
    with mpmath.workdps(1300):
        want = int(mpmath.floor(mpmath.mpf(2)**4200 * mpmath.erf(mpmath.mpf(2)**-20)))
    assert certify.resolve(e) == want


# ---- evaluate: a proof is TRUE only where the claim is defined, whichever prover ------


def never(f, shift):
    return False


def test_the_slow_prover_gives_the_verdict_of_the_fast_one():
    # prove() off: prove_hard (simplify) proves the same identities, and the verdict must
    # be the documented one: TRUE where some point (within the assumption) is defined,
    # UNKNOWN, never TRUE, when no such point satisfies the claim's conditions
    # (log(-1 - z**2) is defined nowhere; log(z) nowhere below -1; sqrt(z - 2) nowhere
    # at or below 1)
    nowhere = "(elsewhere the claim is undefined), but no point was found where the " \
        "claim is defined"
    cases = [
        ("log(-1 - z**2) == log(-1 - z**2)", (), "unknown",
         f"proved for all real z where -z**2 - 1 > 0 {nowhere}", "log(-z**2 - 1) vs log(-z**2 - 1)"),
        ("sqrt(-1 - z**2) == sqrt(-1 - z**2)", (), "unknown",
         f"proved for all real z where -z**2 - 1 ≥ 0 {nowhere}", "sqrt(-z**2 - 1) vs sqrt(-z**2 - 1)"),
        ("log(z) == log(z)", ("z < -1",), "unknown",
         f"proved for all real z with z < -1 where z > 0 {nowhere}", "log(z) vs log(z)"),
        # an assumption that no bound states: -1 < z < 0, where log(z) is nowhere defined
        ("log(z) == log(z)", ("z*(z + 1) < 0",), "unknown",
         f"proved for all real z with z*(z + 1) < 0 where z > 0 {nowhere}", "log(z) vs log(z)"),
        ("sqrt(z - 2) == sqrt(z - 2)", ("z <= 1",), "unknown",
         f"proved for all real z with z <= 1 where z - 2 ≥ 0 {nowhere}", "sqrt(z - 2) vs sqrt(z - 2)"),
        ("log(d - 3) == log(d - 3)", ("d <= 2",), "unknown",
         f"proved for all positive integers d with d <= 2 where d - 3 > 0 {nowhere}",
         "log(d - 3) vs log(d - 3)"),
        ("sqrt(z - 2) == sqrt(z - 2)", ("z >= 1",), "true",
         "proved for all real z with z >= 1 where z - 2 ≥ 0 (elsewhere the claim is undefined)",
         "sqrt(z - 2) vs sqrt(z - 2)"),
        ("sqrt(2 - z) == sqrt(2 - z)", ("z <= 3",), "true",
         "proved for all real z with z <= 3 where 2 - z ≥ 0 (elsewhere the claim is undefined)",
         "sqrt(2 - z) vs sqrt(2 - z)"),
    ]
    for claim, assume, verdict, detail, value in cases:
        fast = evaluate_claim(claim, assume)
        with mock.patch.object(E, "prove", never):
            slow = evaluate_claim(claim, assume)
        want = {"verdict": verdict, "value": value, "detail": detail, "col": None}
        assert fast == want and slow == want, (claim, assume, fast, slow)


def test_a_claim_proved_by_simplify_only_is_true_with_its_domain():
    claim = "sqrt(z)*tanh(z) == sqrt(z)*(exp(2*z) - 1)/(exp(2*z) + 1)"
    with mock.patch.object(E, "prove", never):
        r = evaluate_claim(claim)
    assert r == {"verdict": "true",
                 "value": "sqrt(z)*tanh(z) vs sqrt(z)*(exp(2*z) - 1)/(exp(2*z) + 1)",
                 "detail": "proved for all real z where z ≥ 0 (elsewhere the claim is "
                           "undefined)", "col": None}, r


def test_a_claim_on_the_floor_of_a_large_value_is_decided_by_its_exact_integer():
    # SymPy leaves floor(2**100*pi + exp(-3000)) as it is; its value is floor(2**100*pi)
    # (mpmath at 100 digits), and the integer nearest it in 53 bits is not
    with mpmath.workdps(100):
        exact = int(mpmath.floor(mpmath.mpf(2)**100 * mpmath.pi))
        rounded = int(mpmath.mpf(float(exact)))
    assert rounded != exact
    for c in ("2**100*pi + exp(-3000)", "2**100*pi + log(4) - 2*log(2)"):
        assert evaluate_claim(f"floor({c}) == {exact}")["verdict"] == "true", c
        assert evaluate_claim(f"floor({c}) == {rounded}")["verdict"] == "false", c
        assert evaluate_claim(f"ceil({c}) == {exact + 1}")["verdict"] == "true", c
