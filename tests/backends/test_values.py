"""Forward values: the NumPy backend == the torch backend, within derived rounding bounds.

Both backends run in the same dtype on the same inputs (rounded to that dtype first); the
bound for each element comes from tests/tolerance.py (unit roundoff, inner dimensions,
|x| @ |W| magnitudes), never from a hand-picked atol. Two implementations within the bound
of the float64 reference differ by at most twice it. A separate test checks the bound is
informative: far below the output's magnitude, yet above the errors actually observed.
"""

import numpy as np
import pytest
import strategies as S
from hypothesis import given, settings
from hypothesis import strategies as st
from tolerance import assert_within, ffn_bounds

from derivations.variants import VARIANTS
from ffnverify.backends import numpy_ffn

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch)")
from ffnverify.backends import torch_ffn  # noqa: E402


def numpy_forward(variant, w, x):
    return numpy_ffn.forward(variant, w, x)[0]


def torch_forward(variant, w, x):
    dtype = getattr(torch, np.dtype(x.dtype).name)
    module = torch_ffn.from_numpy_weights(variant, w, dtype=dtype)
    with torch.no_grad():
        return module(torch.from_numpy(x)).numpy()


def make_inputs(variant, d, h, token_shape, bias, dtype, rng, scale=1.0):
    w = numpy_ffn.init_weights(variant, d, h, bias, dtype=dtype, rng=rng)
    x = (scale * rng.standard_normal((*token_shape, d))).astype(dtype)
    return w, x


def check_forward_agree(forward_a, forward_b, variant, w, x):
    """Both forwards, run in x's dtype, are within the rounding bound of that dtype of the
    float64 reference, hence within twice it of each other."""
    dtype = np.dtype(x.dtype).name
    ref, _ = ffn_bounds(variant, w, x, dtype=dtype)
    ref64, _ = ffn_bounds(variant, w, x, dtype="float64")
    shape = x.shape[:-1] + (ref.value.shape[-1],)
    ya, yb = forward_a(variant, w, x), forward_b(variant, w, x)
    assert ya.shape == yb.shape == shape, f"{variant}: shapes {ya.shape} {yb.shape} {shape}"
    assert ya.dtype == yb.dtype == x.dtype, f"{variant}: dtypes {ya.dtype} {yb.dtype} {x.dtype}"
    bound = (ref.err + ref64.err).reshape(shape)
    name_a, name_b = forward_a.__name__, forward_b.__name__
    assert_within(ya, ref.value.reshape(shape), bound, f"{variant} {dtype} {name_a} vs reference")
    assert_within(yb, ref.value.reshape(shape), bound, f"{variant} {dtype} {name_b} vs reference")
    assert_within(ya, yb, 2 * ref.err.reshape(shape), f"{variant} {dtype} {name_a} vs {name_b}")


@settings(max_examples=40)
@given(st.data())
def test_numpy_forward_equals_torch_forward(data):
    v, b, dtype = S.variant(data), S.bias(data), S.float_dtype(data)
    d, h = S.dim(data, "d", 1, 48), S.dim(data, "h", 1, 64)
    scale = data.draw(st.sampled_from([1e-3, 1.0, 8.0]), label="input_scale")
    w, x = make_inputs(v, d, h, S.token_shape(data), b, dtype, S.rng(data), scale)
    check_forward_agree(numpy_forward, torch_forward, v, w, x)


@pytest.mark.parametrize("name", list(VARIANTS))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_bound_is_informative(name, dtype):
    """Observed errors sit below the bound (with room), and the bound sits far below |y|."""
    rng = np.random.default_rng(7)
    w, x = make_inputs(name, 64, 96, (4, 8), True, dtype, rng)
    ref, _ = ffn_bounds(name, w, x, dtype=np.dtype(dtype).name)
    exact_ref, _ = ffn_bounds(name, w, x, dtype="float64")
    y = torch_forward(name, w, x).reshape(ref.value.shape).astype(np.float64)
    bound = ref.err + exact_ref.err
    ratio = np.abs(y - ref.value) / bound
    assert ratio.max() <= 1, f"bound violated: max error/bound {ratio.max():.3g}"
    assert np.median(ratio) < 0.05, f"bound barely clears the error: median {np.median(ratio):.3g}"
    rel = np.linalg.norm(bound) / np.linalg.norm(ref.value)
    u = 2.0**-53 if dtype == np.float64 else 2.0**-24
    assert rel < 1e5 * u, f"bound {rel:.3g}·|y| is too loose to be a test (u={u:.3g})"


def test_forward_keeps_shape_and_dtype_3d():
    rng = np.random.default_rng(3)
    w, x = make_inputs("swiglu", 5, 7, (2, 3), True, np.float32, rng)
    y, cache = numpy_ffn.forward("swiglu", w, x)
    assert y.shape == (2, 3, 5) and y.dtype == np.float32
    assert cache["x"].shape == (6, 5)
