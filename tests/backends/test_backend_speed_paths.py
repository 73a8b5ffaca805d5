"""The NumPy backend's fast paths give bit for bit the results of the plain expressions.

numpy_ffn computes the activations into preallocated buffers (`*_into` kernels with
`out=`, no temporaries) over row blocks. These tests pin that down in float64 (the
reference path) and float32: every kernel against np_activations on random and special
values (±0, subnormals, the exp over/underflow edges, ±inf, nan), and the whole forward
and backward against an op-by-op computation written out here, with block boundaries that
cut rows in odd places. (tests/bench/test_bench_helpers.py checks every variant and bias on
random inputs the same way.)
"""

import numpy as np
import pytest

from ffnverify.backends import numpy_ffn
from ffnverify.backends.activations import ACTIVATIONS
from ffnverify.backends.variants import BACKEND_VARIANTS

DTYPES = (np.float32, np.float64)
SPECIAL = [0.0, -0.0, 1e-45, -1e-45, 5e-324, -5e-324, 1e-30, -1e-30, 0.5, -0.5, 20.0, -20.0,
           88.7, -88.7, 89.0, -104.0, 709.0, 710.0, -745.0, -746.0, 1e4, -1e4, 3e38, -3e38,
           1e300, -1e300, np.inf, -np.inf, np.nan]


def _values(dtype, seed=0):
    rng = np.random.default_rng(seed)
    z = np.concatenate([rng.standard_normal(3001) * s for s in (1, 8, 100, 1e4)] + [SPECIAL])
    with np.errstate(over="ignore"):
        return z.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_into_kernels_are_bitwise_np_activations(name, dtype):
    z = _values(dtype)
    act_into, dact_into = numpy_ffn._activation_into(name)
    if name == "identity":
        assert act_into is None and dact_into is None  # the backend skips the work
        return
    for into, ref in ((act_into, ACTIVATIONS[name][0]), (dact_into, ACTIVATIONS[name][1])):
        with np.errstate(all="ignore"):
            want = ref(z)
            out = np.full_like(z, 7.0)  # stale contents, in the output and every scratch array
            tmp = [np.full_like(z, -3.0) for _ in range(into.narrow)]
            wide = [np.full(z.shape, -5.0) for _ in range(into.wide)]
            into(z, out, tmp, wide)
        assert out.dtype == want.dtype == dtype
        assert np.array_equal(out, want, equal_nan=True), (
            f"{name} {dtype.__name__}: {into.__name__} differs at "
            f"{z[~((out == want) | (np.isnan(out) & np.isnan(want)))][:5]}")


def test_the_bitwise_check_catches_a_reordered_kernel():
    z = _values(np.float32)
    out, tmp = np.empty_like(z), np.empty_like(z)
    # silu as z / (1 + exp(-z)): the same function, rounded differently
    with np.errstate(all="ignore"):
        np.divide(z, 1 + np.exp(-z), out=out)
        assert not np.array_equal(out, ACTIVATIONS["silu"][0](z), equal_nan=True)
        numpy_ffn._silu_into(z, out, [tmp])
        assert np.array_equal(out, ACTIVATIONS["silu"][0](z), equal_nan=True)


def _op_by_op(variant, w, x, dy):
    """Forward and backward written out one NumPy operation at a time (np_activations)."""
    act_name, gated = BACKEND_VARIANTS[variant]
    act, dact = ACTIVATIONS[act_name]
    z_up = x @ w["W_up"]
    if gated:
        z = x @ w["W_gate"]
        a = act(z)
        hidden = a * z_up
    else:
        z = z_up
        hidden = act(z)
    y = hidden @ w["W_down"]
    grads = {"W_down": hidden.T @ dy}
    dh = dy @ w["W_down"].T
    if gated:
        dz_gate = dh * z_up
        dz_gate = dz_gate * dact(z)
        dz_up = dh * a
        grads["W_gate"], grads["W_up"] = x.T @ dz_gate, x.T @ dz_up
        dx = dz_gate @ w["W_gate"].T
        dx = dx + dz_up @ w["W_up"].T
    else:
        dz_up = dh * dact(z)
        grads["W_up"] = x.T @ dz_up
        dx = dz_up @ w["W_up"].T
    grads["x"] = dx
    return y, grads


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("variant", ["swiglu", "glu", "reglu", "tanhglu", "bilinear", "relu",
                                     "relu2", "gelu", "quick_gelu"])
def test_forward_backward_bitwise_with_odd_blocks_and_large_inputs(variant, dtype, monkeypatch):
    monkeypatch.setattr(numpy_ffn, "BLOCK_ELEMENTS", 100)  # blocks of 4 rows of 24, last short
    rng = np.random.default_rng(11)
    n, d, h = 37, 6, 24
    w = numpy_ffn.init_weights(variant, d, h, dtype=dtype, rng=12)
    x = (rng.standard_normal((n, d)) * np.where(rng.random((n, d)) < 0.1, 1e3, 3)).astype(dtype)
    dy = rng.standard_normal((n, d)).astype(dtype)
    with np.errstate(all="ignore"):
        y0, g0 = _op_by_op(variant, w, x, dy)
        y1, cache = numpy_ffn.forward(variant, w, x)
        g1 = numpy_ffn.backward(variant, w, cache, dy)
    assert y1.dtype == dtype and np.array_equal(y0, y1, equal_nan=True)
    assert set(g1) == set(g0)
    for k in g0:
        assert g1[k].dtype == dtype
        assert np.array_equal(g0[k], g1[k], equal_nan=True), f"{variant} {dtype.__name__}: {k}"


def test_scratch_covers_a_short_last_block(monkeypatch):
    monkeypatch.setattr(numpy_ffn, "BLOCK_ELEMENTS", 10)
    like = np.empty((7, 3))
    s = numpy_ffn._Scratch(like, 2, 1)
    blocks = numpy_ffn._blocks(*like.shape)
    assert [r.start for r in blocks] == [0, 3, 6]
    got = [[[b.shape for b in bufs] for bufs in s.get(r, 7)] for r in blocks]
    assert got == [[[(3, 3)] * 2, [(3, 3)]]] * 2 + [[[(1, 3)] * 2, [(1, 3)]]]
    assert all(b.dtype == np.float64 for b in s.get(blocks[0], 7)[1])


def test_the_bitwise_check_catches_a_gelu_computed_at_float32():
    """np_activations' GELU computes a float32 input's erf in float64 (its constants are
    NumPy float64 scalars); a kernel that kept float32 throughout rounds differently."""
    from scipy import special

    z = _values(np.float32)
    with np.errstate(all="ignore"):
        narrow = (0.5 * z * (1 + special.erf(z * np.float32(2 ** -0.5)))).astype(np.float32)
        assert not np.array_equal(narrow, ACTIVATIONS["gelu"][0](z), equal_nan=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("variant", ["swiglu", "geglu", "gelu", "relu", "bilinear",
                                     "quick_gelu", "geglu_tanh"])
def test_a_workspace_changes_no_bit_and_is_reused(variant, dtype, monkeypatch):
    """With a workspace the results are bit for bit those without one; a second call with
    the same shapes allocates nothing new in it (the same buffers, the same nbytes)."""
    monkeypatch.setattr(numpy_ffn, "BLOCK_ELEMENTS", 100)
    rng = np.random.default_rng(5)
    n, d, h = 29, 5, 16
    w = numpy_ffn.init_weights(variant, d, h, bias=True, dtype=dtype, rng=6)
    x, dy = (rng.standard_normal((n, d)).astype(dtype) for _ in range(2))
    y0, c0 = numpy_ffn.forward(variant, w, x)
    g0 = numpy_ffn.backward(variant, w, c0, dy)
    ws = numpy_ffn.Workspace()
    held = []
    for free_cache in (False, False, True, True):
        y1, c1 = numpy_ffn.forward(variant, w, x, workspace=ws)
        assert np.array_equal(y0, y1)
        g1 = numpy_ffn.backward(variant, w, c1, dy, free_cache=free_cache, workspace=ws)
        assert set(g1) == set(g0)
        for k in g0:
            assert g1[k].dtype == dtype and np.array_equal(g0[k], g1[k]), (variant, k)
        held.append((ws.nbytes, {name: id(b) for name, b in ws._bufs.items()}))
    assert held[0] == held[1] == held[2] == held[3], "a repeated call allocated a new buffer"
    assert ws.nbytes >= 2 * n * h * np.dtype(dtype).itemsize  # the (n, h) arrays are in it


def test_a_workspace_reallocates_for_a_new_shape():
    ws = numpy_ffn.Workspace()
    a = ws.take("z", (4, 3), np.float32)
    assert ws.take("z", (4, 3), np.float32) is a
    b = ws.take("z", (5, 3), np.float32)
    assert b is not a and b.shape == (5, 3) and ws.nbytes == 5 * 3 * 4
    assert ws.take("z", (5, 3), np.float64).dtype == np.float64
