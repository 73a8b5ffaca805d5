"""Width rules: Meta's Llama rule, the popular float one-liner, and parameter matching.

The float one-liner `int(((8/3)*d + m - 1)//m*m)` skips Meta's inner int(): in exact
arithmetic that is harmless, because for non-integer x = k + f (0 < f < 1) the `//` form
gives floor((k + f + m − 1)/m) = floor((k + m − 1)/m) (no integer lies in (k+m−1, k+m−1+f]),
i.e. m·ceil(floor(x)/m), which is Meta's rule. The floats are what can differ. With
x = 8d/3 and k = floor(x) (Python evaluates ((x̂ + m) − 1) // m, x̂ = fl(fl(8/3)·d)):

    Theorem A. For all d, m >= 1 with 8d/3 + m − 1 < 2^52, the one-liner equals
    llama_width(d, m).
    Theorem B. If m is a power of two (m <= 2^20), the same holds up to 8d/3 + m − 1 < 2^53.
    Beyond: for m = 1 the first disagreement is d = 3·2^50 (8d/3 = 2^53: Theorem B is tight);
    for m = 256 it is also d = 3·2^50. Between 2^52 and 2^53 other multiples already fail:
    d = 1688849860263934, m = 71 gives k + 71 instead of k.

Why: fl(8/3) = 8/3 − 1/(3·2^51), so fl(8/3)·d = x − x·2^-54 before rounding. Below 2^52
that error (< 1/4) keeps x̂ in [k, k + 1/2] on its grid (x̂ = k when 3 | d), and adding
m − 1 below 2^52 (grid spacing <= 1/2) cannot reach k + m, so `//` (exact on these values)
gives ceil(k/m). In [2^52, 2^53) the grid spacing is 1: x̂ = k + 1/2 from below 2^52 can make
x̂ + m a tie that rounds up to k + m + 1 — a disagreement exactly when k ≡ 0 (mod m), which
needs a multiple of m in [2^52 − m + 1, 2^52 − 1]: none for a power of two. At or above 2^53
the spacing is 2 and the `+ m`, `− 1` round. The tests check both theorems exhaustively over
ranges and windows at the 2^52 and 2^53 boundaries, by Hypothesis over their whole ranges,
the stated counterexamples, and a bound on the discrepancy beyond.
"""

from fractions import Fraction

import pytest
import strategies as S
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from derivations.params import params
from derivations.widths import exact, llama_width, match_width, ratio_width, round_up

D = sp.Symbol("d", positive=True, integer=True)
TWO52, TWO53 = 2**52, 2**53
FIRST_BAD_D = 3 * 2**50  # 8d/3 = 2^53


def float_one_liner(d, m):
    return int(((8 / 3) * d + m - 1) // m * m)


def exact_rule(d, m):
    """m·ceil(floor(8d/3)/m) in Python integers (Meta's rule without a multiplier)."""
    return -(-(8 * d // 3) // m) * m


def meta_reference(d, multiple_of=256, ffn_dim_multiplier=None):
    """Meta's llama/model.py FeedForward width, line for line, in Python floats."""
    hidden_dim = 4 * d
    hidden_dim = int(2 * hidden_dim / 3)
    if ffn_dim_multiplier is not None:
        hidden_dim = int(ffn_dim_multiplier * hidden_dim)
    return multiple_of * ((hidden_dim + multiple_of - 1) // multiple_of)


def is_power_of_two(m):
    return m & (m - 1) == 0


def theorem_limit(m):
    """2^53 for powers of two (Theorem B), 2^52 otherwise (Theorem A)."""
    return TWO53 if is_power_of_two(m) and m <= 2**20 else TWO52


def theorem_applies(d, m):
    return Fraction(8 * d, 3) + m - 1 < theorem_limit(m)


def largest_d_in_theorem(m, limit=None):
    """The largest d with 8d/3 + m − 1 < limit (default: the theorem's limit for m)."""
    limit = theorem_limit(m) if limit is None else limit
    return (3 * (limit - m + 1) - 1) // 8


@pytest.mark.parametrize(("d", "multiple_of", "multiplier", "width"), [
    (4096, 256, None, 11008),  # Llama 1/2 7B
    (8192, 4096, 1.3, 28672),  # Llama 2 70B
    (4096, 1024, 1.3, 14336),  # Llama 3 8B
    (16384, 4096, 1.2, 53248),  # Llama 3.1 405B
    (5120, 256, None, 13824),  # Llama 2 13B
])
def test_published_llama_widths(d, multiple_of, multiplier, width):
    assert llama_width(d, multiple_of, multiplier) == width
    assert meta_reference(d, multiple_of, multiplier) == width


def check_width_rule(rule, d, m):
    """`rule(d, m)` is the least multiple of m that is >= floor(8d/3)."""
    got, k = rule(d, m), 8 * d // 3
    assert got % m == 0 and got >= k and got - m < k, (
        f"width(d={d}, m={m}) = {got}: not the least multiple of {m} >= floor(8d/3) = {k}")


@given(st.data())
def test_llama_width_is_least_multiple_above(data):
    d, m = S.dim(data, "d", 1, 2**40), data.draw(st.integers(1, 2**14), label="multiple_of")
    check_width_rule(lambda d, m: int(llama_width(d, m)), d, m)
    assert llama_width(d, m) == exact_rule(d, m) == meta_reference(d, m)


def test_llama_width_exhaustive_small():
    for m in (1, 2, 3, 7, 256):
        for d in range(1, 1500):
            assert llama_width(d, m) == exact_rule(d, m), (d, m)


def test_float_one_liner_exhaustive_range():
    """Both theorems, exhaustively on every d <= 30000 for a spread of multiples."""
    for m in (1, 2, 3, 5, 7, 8, 64, 71, 100, 128, 256, 1000, 1024, 4096):
        bad = [d for d in range(1, 30001) if float_one_liner(d, m) != exact_rule(d, m)]
        assert not bad, f"m={m}: the float one-liner differs at d={bad[:5]}"


WINDOW_MULTIPLES = [1, 2, 3, 4, 7, 8, 31, 64, 71, 100, 255, 256, 257, 355, 1024, 4096]


@pytest.mark.parametrize("m", WINDOW_MULTIPLES)
def test_float_one_liner_at_the_theorem_boundaries(m):
    """Every d in windows just below 2^52 (Theorem A; where non-powers of two first fail)
    and, for powers of two, just below 2^53 (Theorem B) agrees."""
    limits = [TWO52] + ([TWO53] if is_power_of_two(m) else [])
    for limit in limits:
        top = largest_d_in_theorem(m, limit)
        assert Fraction(8 * top, 3) + m - 1 < limit <= Fraction(8 * top + 8, 3) + m - 1
        window = range(max(1, top - 3000), top + 1)
        bad = [d for d in window if float_one_liner(d, m) != exact_rule(d, m)]
        assert not bad, f"m={m}: differs below 2^{limit.bit_length() - 1} at d={bad[:3]}"


def test_stated_disagreements():
    # m = 1: Theorem B is tight: the very next d disagrees.
    assert largest_d_in_theorem(1) + 1 == FIRST_BAD_D
    assert float_one_liner(FIRST_BAD_D, 1) == TWO53 - 1 and exact_rule(FIRST_BAD_D, 1) == TWO53
    # m = 256: nothing between Theorem B's bound and 3·2^50 disagrees; 3·2^50 does.
    gap = range(largest_d_in_theorem(256) + 1, FIRST_BAD_D)
    assert len(gap) < 200
    assert all(float_one_liner(d, 256) == exact_rule(d, 256) for d in gap)
    assert float_one_liner(FIRST_BAD_D, 256) == TWO53 + 256 != exact_rule(FIRST_BAD_D, 256)
    assert llama_width(FIRST_BAD_D, 256) == TWO53
    # not a power of two, between 2^52 and 2^53: x̂ = k + 1/2, x̂ + 71 ties up to k + 72
    d, m = 1688849860263934, 71
    k = 8 * d // 3
    assert TWO52 <= Fraction(8 * d, 3) + m - 1 < TWO53 and k % m == 0
    assert (8 / 3) * d == k + 0.5 and (8 / 3) * d + m == k + m + 1
    assert float_one_liner(d, m) == k + m and llama_width(d, m) == k == exact_rule(d, m)


@given(st.data())
def test_float_one_liner_for_every_drawn_d(data):
    """Inside the theorems: equal. Beyond: off by at most one multiple plus the float error
    of 8d/3 (|fl(x) − x| <= 2^-51·x over the three roundings), never more."""
    m = data.draw(st.one_of(st.sampled_from([1, 64, 71, 128, 256, 1024, 4096]),
                            st.integers(1, 2**16)), label="multiple_of")
    d = data.draw(st.one_of(st.integers(1, largest_d_in_theorem(m)),
                            st.integers(1, 2**62)), label="d")
    got, want = float_one_liner(d, m), int(llama_width(d, m))
    if theorem_applies(d, m):
        assert got == want, f"d={d}, m={m}: {got} != {want} inside the theorem"
    else:
        assert abs(got - want) <= m + Fraction(8 * d, 3) / 2**51 + 2, (d, m, got, want)


# Meta multiplies by ffn_dim_multiplier as a float; the derivation reads its decimal
# exactly. They agree whenever the double of the multiplier is within relative 2^-54 of
# the decimal (fl(μ)·H then rounds back onto the integer μ·H): 1.3, 1.2, 1.5, 1.0, 2.0.
# 1.4 is 6.3e-17 relative below its double, and int(1.4·45) = 62 in floats, 63 exactly.


@given(st.data())
def test_multipliers_meta_ships_agree_with_its_float_code(data):
    mult = data.draw(st.sampled_from([1.3, 1.2, 1.5, 1.0, 2.0, 1.25]), label="multiplier")
    d = S.dim(data, "d", 1, 2**40)
    m = data.draw(st.sampled_from([1, 256, 1024, 4096]), label="multiple_of")
    assert llama_width(d, m, mult) == meta_reference(d, m, mult)


def test_multiplier_where_float_and_exact_truncation_differ():
    assert abs((exact(1.4) - Fraction(1.4)) / exact(1.4)) > Fraction(1, 2**54)
    assert meta_reference(17, 1, 1.4) == 62 and llama_width(17, 1, 1.4) == 63 == 14 * 45 // 10
    for mult in (1.3, 1.2):
        assert all(llama_width(d, 1, mult) == meta_reference(d, 1, mult) for d in range(1, 2000))


def test_multiplier_spellings_are_exact():
    assert exact(1.3) == exact("1.3") == sp.Rational(13, 10)
    assert llama_width(4096, 1024, 1.3) == llama_width(4096, 1024, sp.Rational(13, 10))


@given(st.data())
def test_round_up(data):
    m = S.dim(data, "m", 1, 10**4)
    x = data.draw(st.fractions(min_value=0, max_value=10**9, max_denominator=1000), label="x")
    r = round_up(sp.Rational(x.numerator, x.denominator), m)
    assert r % m == 0 and r >= x and r - m < x


def test_round_up_rejects_nonpositive_multiple():
    with pytest.raises(ValueError):
        round_up(10, 0)


def check_matched_width(width_fn, d, from_variant="relu", from_ratio=4, to_variant="swiglu"):
    """`width_fn(d)` gives `to_variant` exactly the parameters of `from_variant` at
    from_ratio·d, and no float entered the count on the way."""
    h = sp.sympify(width_fn(d))
    count, target = params(to_variant, d, h), params(from_variant, d, from_ratio * d)
    floats = h.atoms(sp.Float) | sp.sympify(count).atoms(sp.Float)
    assert not floats, f"width {h}: the float(s) {floats} entered an exact count"
    assert sp.simplify(count - target) == 0, (
        f"{to_variant} at h={h} has {count} parameters, {from_variant} at {from_ratio}d "
        f"has {target}")


@pytest.mark.parametrize("d", [D, 1, 3, 4096, 5120])
def test_matched_width_check_accepts_exact_widths(d):
    check_matched_width(lambda d: match_width("relu", 4 * d, "swiglu", d), d)
    check_matched_width(lambda d: sp.Rational(8, 3) * d, d)
    check_matched_width(lambda d: ratio_width(d, "8/3"), d)


def test_swiglu_matching_relu_is_eight_thirds():
    assert match_width("relu", 4 * D, "swiglu", D) == sp.Rational(8, 3) * D
    assert ratio_width(D, "8/3") == sp.Rational(8, 3) * D


def test_matching_with_bias_is_a_rational_function():
    # relu: 2dh + h + d at h = 4d is 8d² + 5d; swiglu: 3dh + 2h + d = 8d² + 5d
    h = match_width("relu", 4 * D, "swiglu", D, bias=True)
    assert sp.simplify(h - 4 * D * (2 * D + 1) / (3 * D + 2)) == 0
    assert not h.is_polynomial(D)
    assert sp.simplify(params("swiglu", D, h, True) - params("relu", D, 4 * D, True)) == 0


@given(st.data())
def test_matching_is_exact_for_drawn_d(data):
    d, b = S.dim(data, "d", 1, 10**6), S.bias(data)
    frm, to = S.variant(data, "from_variant"), S.variant(data, "to_variant")
    h_from = S.dim(data, "from_h", 1, 10**6)
    h = match_width(frm, h_from, to, d, b)
    assert isinstance(h, sp.Rational)
    assert params(to, d, h, b) == params(frm, d, h_from, b)


def test_thirty_three_percent_fewer_is_false():
    saving = 1 - params("swiglu", D, sp.Rational(8, 3) * D) / params("relu", D, 4 * D)
    assert sp.simplify(saving) == 0
