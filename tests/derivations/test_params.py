"""Parameter counts: the derivation == the NumPy weights' element count == torch's numel.

`check_params_agree` and `check_shapes_agree` are the reusable checks; the positive tests
run them on the real backends and tests/derivations/test_mutants_core.py runs them on wrong counters
and formulas that they must reject.
"""

from fractions import Fraction

import numpy as np
import pytest
import strategies as S
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from derivations.params import params, weight_shapes
from derivations.variants import VARIANTS
from ffnverify.backends import numpy_ffn


def numpy_count(variant, d, h, bias):
    return numpy_ffn.param_count(numpy_ffn.init_weights(variant, d, h, bias, rng=0))


def torch_count(variant, d, h, bias):
    from ffnverify.backends.torch_ffn import FFN

    module = FFN(variant, d, h, bias=bias, device="meta")
    return sum(p.numel() for p in module.parameters())


def numpy_shapes(variant, d, h, bias):
    return {k: v.shape for k, v in numpy_ffn.init_weights(variant, d, h, bias, rng=0).items()}


def torch_shapes(variant, d, h, bias):
    """Torch's parameter shapes renamed to the derivations' convention (x @ W: in×out)."""
    from ffnverify.backends.torch_ffn import FFN

    out = {}
    for name, p in FFN(variant, d, h, bias=bias, device="meta").named_parameters():
        proj, kind = name.split(".")  # gate_proj.weight
        key = f"{'W' if kind == 'weight' else 'b'}_{proj.removesuffix('_proj')}"
        out[key] = tuple(reversed(p.shape)) if kind == "weight" else tuple(p.shape)
    return out


def check_params_agree(counter, variant, d, h, bias, formula=params):
    """The closed form at (d, h) equals what `counter` counts on a real implementation."""
    derived = formula(variant, d, h, bias)
    counted = counter(variant, d, h, bias)
    assert derived == counted, (
        f"params({variant}, d={d}, h={h}, bias={bias}): derivation {derived} != "
        f"{getattr(counter, '__name__', counter)} {counted}"
    )


def check_shapes_agree(shapes_of, variant, d, h, bias, formula=weight_shapes):
    derived = {k: tuple(int(s) for s in v) for k, v in formula(variant, d, h, bias).items()}
    actual = {k: tuple(v) for k, v in shapes_of(variant, d, h, bias).items()}
    assert derived == actual, f"{variant} d={d} h={h} bias={bias}: {derived} != {actual}"


@given(st.data())
def test_params_derivation_equals_numpy_count(data):
    v, b = S.variant(data), S.bias(data)
    check_params_agree(numpy_count, v, S.dim(data, "d", 1, 96), S.dim(data, "h", 1, 160), b)


@pytest.mark.torch
@given(st.data())
def test_params_derivation_equals_torch_numel(data):
    v, b = S.variant(data), S.bias(data)
    check_params_agree(torch_count, v, S.dim(data, "d", 1, 4096), S.dim(data, "h", 1, 16384), b)


@given(st.data())
def test_weight_shapes_match_numpy_arrays(data):
    check_shapes_agree(numpy_shapes, S.variant(data), S.dim(data, "d", 1, 32),
                       S.dim(data, "h", 1, 48), S.bias(data))


@pytest.mark.torch
@given(st.data())
def test_weight_shapes_match_torch_parameters(data):
    check_shapes_agree(torch_shapes, S.variant(data), S.dim(data, "d", 1, 512),
                       S.dim(data, "h", 1, 2048), S.bias(data))


def independent_params(variant, d, h, bias):
    """First principles with Fractions: each projection d×h (down h×d), biases of its output."""
    k = len(VARIANTS[variant].projections)
    return k * d * h + ((k - 1) * h + d if bias else 0)


@given(st.data())
def test_rational_width_is_exact(data):
    """h = 8/3·d need not be an integer: the count is then an exact rational, never a float."""
    v, b, d = S.variant(data), S.bias(data), S.dim(data, "d", 1, 10**6)
    count = params(v, d, sp.Rational(8, 3) * d, b)
    assert isinstance(count, sp.Rational), f"{count!r} is not an exact rational"
    expected = independent_params(v, Fraction(d), Fraction(8, 3) * d, b)
    assert Fraction(int(count.p), int(count.q)) == expected
    if d % 3 == 0:  # an integer width: the NumPy backend can build it
        assert count == independent_params(v, d, 8 * d // 3, b)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_symbolic_form_by_hand(name):
    d, h = sp.symbols("d h", positive=True, integer=True)
    k = len(VARIANTS[name].projections)
    assert sp.expand(params(name) - k * d * h) == 0
    assert sp.expand(params(name, bias=True) - (k * d * h + (k - 1) * h + d)) == 0


def test_swiglu_at_eight_thirds_equals_relu_at_four():
    d = sp.Symbol("d", positive=True, integer=True)
    assert params("swiglu", d, sp.Rational(8, 3) * d) == 8 * d**2 == params("relu", d, 4 * d)


def test_numpy_count_counts_every_element():
    w = numpy_ffn.init_weights("swiglu", 3, 5, True, rng=1)
    assert numpy_ffn.param_count(w) == sum(np.prod(a.shape) for a in w.values()) == 3 * 15 + 13
