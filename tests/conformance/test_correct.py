"""Correct FFNs in every layout and variant are accepted: no false alarms."""

import os

import pytest

torch = pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from ffnverify.testing import check_ffn  # noqa: E402

from .zoo import CORRECT, correct  # noqa: E402

pytestmark = pytest.mark.torch

CASES = [(name, cls, layout, v, bias) for name, cls, layout, variants, bias in CORRECT
         for v in variants]
IDS = [f"{c[0]}-{c[3]}" for c in CASES]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_correct_implementation_is_accepted(case):
    _name, cls, layout, variant, bias = case
    report = check_ffn(correct(cls, variant), variant, layout, bias=bias, max_examples=3)
    assert set(report.examples) == set(bias)
    assert all(k >= 3 for k in report.examples.values()), report.summary()


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("FFNVERIFY_SLOW") != "1",
                    reason="long run: set FFNVERIFY_SLOW=1 (about 1,000 examples)")
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_correct_implementation_many_draws(case):
    """10 examples per bias setting and case: about 1,000 examples in all."""
    _name, cls, layout, variant, bias = case
    report = check_ffn(correct(cls, variant), variant, layout, bias=bias, max_examples=10,
                       seed=20261130)
    assert all(k >= 10 for k in report.examples.values()), report.summary()
