"""Correct counters pass: hand-written first-principles counts agree for every variant,
quantity, pass and input-gradient setting, over many drawn shapes."""

import ffnverify_counter_gallery as g
import pytest
from hypothesis import settings

from derivations.variants import VARIANTS
from ffnverify.testing.counters import check_counter

EXAMPLES = 2 * settings().max_examples
PASS_GRID = [("forward", True), ("backward", True), ("backward", False), ("train", True),
             ("train", False)]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_reference_params_agree_with_bias_drawn(variant):
    result = check_counter(g.reference_params, "params", variant, max_examples=EXAMPLES)
    assert result.ok, result.report()
    assert result.checked >= EXAMPLES // 2


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("quantity, fn", [("flops", g.reference_flops), ("macs", g.reference_macs)])
def test_reference_flops_agree_for_every_pass(variant, quantity, fn):
    for pass_, input_grad in PASS_GRID:
        result = check_counter(fn, quantity, variant, args="d=d,h=h,n=n,gated=gated",
                               fixed={"pass_": pass_, "input_grad": input_grad}, pass_=pass_,
                               input_grad=input_grad, max_examples=EXAMPLES // 2)
        assert result.ok, result.report()
        assert result.explanations == []


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["swiglu", "gelu"])
def test_many_examples_zero_false_alarms(variant):
    params = check_counter(g.reference_params, "params", variant, max_examples=2000)
    assert params.ok and params.checked >= 1000, params.report()
    train = check_counter(g.reference_flops, "flops", variant, args="d=d,h=h,n=n,gated=gated",
                          fixed={"pass_": "train"}, pass_="train", max_examples=2000)
    assert train.ok and train.checked >= 1000, train.report()


def test_rational_width_passes_when_the_function_keeps_it_exact():
    result = check_counter(lambda d, h: 3 * d * h, "params", "swiglu", h_per_d="8/3",
                           max_examples=EXAMPLES)
    assert result.ok, result.report()
    assert "8·d^2" in result.report()


def test_an_exact_float_counter_passes_below_2_53():
    result = check_counter(lambda d, h, n: 6.0 * n * d * h, "flops", "swiglu", max_dim=2**15,
                           max_examples=EXAMPLES)
    assert result.ok, result.report()
