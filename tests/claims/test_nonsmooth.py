"""The one set of non-smooth classes (claims/nonsmooth.py) and what each user does with it."""

import pytest

from ffnverify.claims import certify, functions
from ffnverify.claims.evaluate import evaluate_claim
from ffnverify.claims.nonsmooth import DISCONTINUOUS, JUMPS, KINKS, PIECEWISE


def test_the_sets_partition_as_documented():
    assert not set(KINKS) & set(DISCONTINUOUS)
    assert set(PIECEWISE) == set(KINKS) | set(JUMPS) and set(JUMPS) <= set(DISCONTINUOUS)
    assert certify.PIECEWISE is PIECEWISE
    assert functions.DISCONTINUOUS is DISCONTINUOUS and functions.KINKS is KINKS


@pytest.mark.parametrize("expr", ["floor(z)", "ceil(z)", "z % 2", "trunc(z)"])
def test_diff_refuses_every_jump_the_claim_language_writes(expr):
    got = evaluate_claim(f"subs(diff({expr}, z), z, 2) == 1")
    assert got["verdict"] == "error" and "cannot differentiate" in got["detail"], got


def test_diff_of_a_kink_is_still_decided_away_from_it():
    assert evaluate_claim("subs(diff(abs(z), z), z, 3) == 1")["verdict"] == "true"
