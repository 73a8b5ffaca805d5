"""Activation memory: the "store" convention == the elements the NumPy forward caches.

The NumPy backend's `forward` returns the cache its `backward` reads. Counting the
distinct arrays in it (by identity: the identity gate's output *is* its input, stored
once; the 'shape' entry is metadata) must give `activation_memory(..., "store")`.
"""

import math

import numpy as np
import pytest
import strategies as S
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from derivations.memory import activation_memory, saved_tensors
from derivations.variants import VARIANTS
from ffnverify.backends import numpy_ffn


def cached_elements(variant, d, h, token_shape, bias, forward=numpy_ffn.forward):
    """Total elements of the distinct arrays in the forward cache."""
    w = numpy_ffn.init_weights(variant, d, h, bias, rng=0)
    x = np.random.default_rng(1).standard_normal((*token_shape, d))
    _, cache = forward(variant, w, x)
    arrays = {id(a): a for k, a in cache.items() if k != "shape"}
    return sum(int(a.size) for a in arrays.values())


def check_memory_agree(counter, variant, d, h, token_shape, bias, formula=activation_memory):
    n = math.prod(token_shape)
    derived = formula(variant, d, h, n, "store")
    counted = counter(variant, d, h, token_shape, bias)
    assert derived == counted, (
        f"{variant} d={d} h={h} tokens={token_shape}: store-convention memory {derived} "
        f"!= {counted} elements cached by the backend"
    )


@given(st.data())
def test_store_memory_equals_numpy_cache(data):
    check_memory_agree(cached_elements, S.variant(data), S.dim(data, "d", 1, 24),
                       S.dim(data, "h", 1, 40), S.token_shape(data), S.bias(data))


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_variant_store_memory(name):
    check_memory_agree(cached_elements, name, 3, 5, (2, 3), False)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_recompute_keeps_only_inputs_and_preactivations(name):
    d, h, n = sp.symbols("d h n", positive=True, integer=True)
    first = len(VARIANTS[name].projections) - 1
    assert sp.expand(activation_memory(name, d, h, n, "recompute") - (n * d + first * n * h)) == 0
    assert saved_tensors(name, "recompute") == ["x"] + [
        f"z_{p}" for p in VARIANTS[name].projections[:-1]]


def test_store_by_hand():
    # swiglu: x (n·d) + z_gate, z_up, a, p (4·n·h); bilinear has no separate a.
    assert activation_memory("swiglu", 4, 6, 2) == 2 * 4 + 4 * 2 * 6
    assert activation_memory("bilinear", 4, 6, 2) == 2 * 4 + 3 * 2 * 6
    assert activation_memory("relu", 4, 6, 2) == 2 * 4 + 2 * 2 * 6


def test_unknown_convention_is_rejected():
    with pytest.raises(ValueError, match="unknown convention"):
        activation_memory("relu", convention="magic")
