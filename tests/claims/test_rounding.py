"""Symbolic rounding: width(llama, d), round_up, floor, ceil, round_nearest and trunc with
symbols, proved by bounding each rounding by its interval, else by a case split on
residues (d mod 3, d mod multiple_of), else unknown. Each TRUE is re-checked at many
values of d in exact integer arithmetic, each FALSE at its counterexample."""

import random
import re
from fractions import Fraction
from math import ceil, floor

import pytest
from helpers import verdict
from hypothesis import given, settings
from hypothesis import strategies as st

from ffnverify.claims.evaluate import evaluate_claim


def llama_width(d, multiple_of=256):
    hidden = 8 * d // 3
    return multiple_of * ((hidden + multiple_of - 1) // multiple_of)


@pytest.mark.parametrize("claim, expected", [
    ("width(llama, d) >= 8/3*d", "true"),
    ("width(llama, d) - 8/3*d < 256", "true"),
    ("params(swiglu, d, floor(8*d/3)) <= 8*d**2", "true"),
    ("width(llama, d) >= floor(8*d/3)", "true"),
    ("width(llama, d) > 8/3*d", "false"),  # d = 96: width 256 = 8/3*96
    ("width(llama, d) - 8/3*d < 254", "true"),  # the largest gap is 256 - 8/3 (d = 1)
    ("width(llama, d) - 8/3*d < 253", "false"),
    ("width(llama, d, multiple_of=7) >= 8/3*d", "false"),  # d = 8: 21 < 64/3
    ("width(llama, d, multiple_of=64) >= 8/3*d", "true"),
    ("params(swiglu, d, floor(8*d/3)) < 8*d**2", "false"),  # equal when 3 divides d
    ("params(swiglu, d, ceil(8*d/3)) <= 8*d**2", "false"),
    ("round_nearest(8*d/3) - 8*d/3 <= 1/2", "true"),
    ("round_nearest(8*d/3) - 8*d/3 > -1/2", "true"),
    ("round_nearest(8*d/3, 8) >= 8*d/3 - 4", "true"),
    ("trunc(8*d/3) == floor(8*d/3)", "true"),
    ("trunc(-8*d/3) == -floor(8*d/3)", "true"),
    ("ceil(8*d/3) - floor(8*d/3) <= 1", "true"),
    ("ceil(8*d/3) - floor(8*d/3) == 1", "false"),  # d = 3
])
def test_symbolic_rounding(claim, expected):
    assert verdict(claim) == expected


def test_the_issue_claims_are_proved():
    for claim in ("width(llama, d) >= 8/3*d", "width(llama, d) - 8/3*d < 256",
                  "params(swiglu, d, floor(8*d/3)) <= 8*d**2"):
        r = evaluate_claim(claim)
        assert (r["verdict"], r["detail"]) == ("true", "proved for all positive integers d")


def _check(claim, exact, rng):
    """TRUE must hold at random d; FALSE must fail at its counterexample (exact ints)."""
    r = evaluate_claim(claim)
    if r["verdict"] == "true":
        for d in [rng.randint(1, 50) for _ in range(20)] + [rng.randint(1, 10**7) for _ in range(20)]:
            assert exact(d), (claim, d, r)
    elif r["verdict"] == "false":
        m = re.search(r"counterexample d=(\d+)", r["detail"])
        d = int(m.group(1)) if m else rng.randint(1, 1000)  # d cancelled: any d
        assert not exact(d), (claim, r)
    return r["verdict"]


@settings(max_examples=25, deadline=None)
@given(m=st.sampled_from([1, 2, 3, 7, 8, 16, 32, 64, 100, 128, 256, 1024]),
       gap=st.integers(-2, 3))
def test_width_bounds_agree_with_exact_integers(m, gap):
    rng = random.Random(m * 10 + gap)
    _check(f"width(llama, d, multiple_of={m}) >= 8/3*d + {gap}",
           lambda d: llama_width(d, m) >= Fraction(8 * d, 3) + gap, rng)
    _check(f"width(llama, d, multiple_of={m}) - 8/3*d < {m + gap}",
           lambda d: llama_width(d, m) - Fraction(8 * d, 3) < m + gap, rng)


@settings(max_examples=25, deadline=None)
@given(p=st.integers(1, 12), q=st.integers(1, 7), m=st.sampled_from([1, 2, 4, 5, 8, 16]),
       c=st.fractions(min_value=-2, max_value=2, max_denominator=4))
def test_rounding_bounds_agree_with_exact_integers(p, q, m, c):
    rng = random.Random(p * 1000 + q * 10 + m)
    r = Fraction(p, q)
    cq = f"({c.numerator}/{c.denominator})"
    _check(f"round_up({p}/{q}*d, {m}) - {p}/{q}*d >= {cq}",
           lambda d: m * ceil(r * d / m) - r * d >= c, rng)
    _check(f"floor({p}*d/{q}) - {p}*d/{q} > {cq} - 1",
           lambda d: floor(r * d) - r * d > c - 1, rng)
    _check(f"round_nearest({p}*d/{q}, {m}) - {p}*d/{q} <= {cq}",
           lambda d: floor(r * d / m + Fraction(1, 2)) * m - r * d <= c, rng)
