"""FLOPs: the derivation == torch.utils.flop_counter.FlopCounterMode, and MACs = FLOPs / 2.

FlopCounterMode counts 2 FLOPs per multiply-add of every matmul it sees (mm, addmm, bmm)
and nothing for elementwise work, which is the `count="matmul"` convention. Forward+backward
is measured with the input requiring grad (the input-gradient matmuls run) and without
(they do not: `input_grad=False`). Inputs are 2-D (n, d) and 3-D (batch, seq, d): n is
the number of tokens. The `count="all"` extra is checked against hand arithmetic.
"""

import math

import pytest
import strategies as S
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations.flops import PASSES, elementwise_flops, flops, macs
from derivations.variants import VARIANTS

torch_marks = pytest.mark.torch


def measure_flops(variant, d, h, token_shape, bias, input_grad, module_factory=None):
    """(forward, forward+backward) FLOPs counted by FlopCounterMode on the torch FFN."""
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    from ffnverify.backends.torch_ffn import FFN

    factory = module_factory or (lambda v, d, h, b: FFN(v, d, h, bias=b, dtype=torch.float32))
    module = factory(variant, d, h, bias)
    x = torch.randn(*token_shape, d, requires_grad=input_grad)
    with FlopCounterMode(display=False) as fwd:
        module(x)
    with FlopCounterMode(display=False) as both:
        y = module(x)
        y.backward(torch.ones_like(y))
    return fwd.get_total_flops(), both.get_total_flops()


def check_flops_agree(measure, variant, d, h, token_shape, bias, input_grad, formula=flops):
    """The closed forms for forward, backward and train equal what `measure` counts."""
    n = math.prod(token_shape)
    fwd, both = measure(variant, d, h, token_shape, bias, input_grad)
    expected = {p: formula(variant, d, h, n, pass_=p, input_grad=input_grad, bias=bias)
                for p in PASSES}
    counted = {"forward": fwd, "backward": both - fwd, "train": both}
    for p in PASSES:
        assert expected[p] == counted[p], (
            f"{variant} d={d} h={h} tokens={token_shape} bias={bias} input_grad={input_grad} "
            f"{p}: derivation {expected[p]} != counted {counted[p]}"
        )


@torch_marks
@settings(max_examples=25)
@given(st.data())
def test_flops_match_flop_counter_mode(data):
    v, b = S.variant(data), S.bias(data)
    d, h = S.dim(data, "d", 1, 12), S.dim(data, "h", 1, 16)
    shape = S.token_shape(data, n_hi=5)
    input_grad = data.draw(st.booleans(), label="input_grad")
    check_flops_agree(measure_flops, v, d, h, shape, b, input_grad)


@torch_marks
@pytest.mark.parametrize("name", list(VARIANTS))
def test_flops_every_variant_both_ways(name):
    """Every row of the table, 3-D input, with and without bias and input grad."""
    for bias in (False, True):
        for input_grad in (True, False):
            check_flops_agree(measure_flops, name, 3, 5, (2, 3), bias, input_grad)


def check_macs_half_flops(variant, d, h, n, pass_, count, input_grad, bias, mac_fn=macs):
    f = flops(variant, d, h, n, pass_, count, input_grad, bias)
    m = mac_fn(variant, d, h, n, pass_, count, input_grad, bias)
    assert 2 * m == f, f"{variant} {pass_} {count}: MACs {m} is not FLOPs {f} / 2"


@given(st.data())
def test_macs_are_half_the_flops(data):
    d, h, n = S.sizes(data, 4096, 16384, 4096)
    check_macs_half_flops(S.variant(data), d, h, n,
                          data.draw(st.sampled_from(PASSES), label="pass"),
                          data.draw(st.sampled_from(["matmul", "all"]), label="count"),
                          data.draw(st.booleans(), label="input_grad"), S.bias(data))


@given(st.data())
def test_matmul_flops_from_first_principles(data):
    """2·n·d·h per projection forward; backward doubles it, less dX of the first layer."""
    v, b = S.variant(data), S.bias(data)
    d, h, n = S.sizes(data, 4096, 16384, 4096)
    k = len(VARIANTS[v].projections)
    per = 2 * n * d * h
    assert flops(v, d, h, n, bias=b) == k * per
    assert flops(v, d, h, n, "backward") == 2 * k * per
    assert flops(v, d, h, n, "backward", input_grad=False) == 2 * k * per - (k - 1) * per
    assert flops(v, d, h, n, "train") == 3 * k * per


@given(st.data())
def test_all_count_adds_nonnegative_elementwise_work(data):
    v, b = S.variant(data), S.bias(data)
    d, h, n = S.sizes(data, 512, 2048, 512)
    for p in PASSES:
        extra = elementwise_flops(v, d, h, n, p, b)
        assert extra >= 0
        assert flops(v, d, h, n, p, "all", bias=b) == flops(v, d, h, n, p) + extra
        assert flops(v, d, h, n, p, "all", bias=b) >= flops(v, d, h, n, p)
    if VARIANTS[v].activation != "identity" or b:
        assert elementwise_flops(v, d, h, n, "forward", b) > 0


# (variant, d, h, n, pass, bias, expected), each total worked out by hand:
HAND = [
    # matmuls 2·1·2·3 (up) + 2·1·3·2 (down) = 24; relu 1×3; bias adds 3 + 2 -> 32
    ("relu", 2, 3, 1, "forward", True, 24 + 3 + 5),
    # matmuls 3 × 2·2·4·6 = 288; silu 5 per element ×12 = 60; gate multiply 1×12 -> 360
    ("swiglu", 4, 6, 2, "forward", False, 288 + 60 + 12),
    # backward matmuls 2×288 = 576; silu' 9×12 = 108; gate multiply (da, du) 2×12 -> 708
    ("swiglu", 4, 6, 2, "backward", False, 576 + 108 + 24),
    # d=h=n=1: fwd matmuls 2+2, bwd 4+4; tanh-GELU 9 fwd, 15 bwd; bias 2 fwd, 2 bwd -> 40
    ("gelu_tanh", 1, 1, 1, "train", True, 4 + 8 + 9 + 15 + 2 + 2),
    # identity gate costs nothing; multiply 1×n·h = 8; matmuls 3 × 2·2·3·4 = 144 -> 152
    ("bilinear", 3, 4, 2, "forward", False, 144 + 8),
]


@pytest.mark.parametrize(("variant", "d", "h", "n", "pass_", "bias", "expected"), HAND)
def test_all_count_hand_values(variant, d, h, n, pass_, bias, expected):
    assert flops(variant, d, h, n, pass_, "all", bias=bias) == expected


def test_flops_are_exact_at_rational_width():
    d = sp.Symbol("d", positive=True, integer=True)
    total = flops("swiglu", d, sp.Rational(8, 3) * d, 1)
    assert total == 16 * d**2 and not total.atoms(sp.Float)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"pass_": "sideways"}, "unknown pass"), ({"count": "some"}, "unknown count")])
def test_bad_arguments_are_rejected(kwargs, message):
    with pytest.raises(ValueError, match=message):
        flops("relu", 2, 3, 1, **kwargs)
