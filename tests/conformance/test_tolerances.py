"""The kit's error bounds: derived from unit roundoff and shapes, and checked empirically.

Each bound must (a) hold for correct implementations (no false alarm), (b) sit far below the
signal (not vacuous), (c) be tight enough that a 1e-7 relative error is visible in float64.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ffnverify.backends import numpy_ffn
from ffnverify.backends.activations import ACTIVATIONS
from ffnverify.testing import tolerances


def test_unit_roundoffs_are_the_ieee_and_bfloat16_values():
    assert tolerances.DTYPES["float64"][0] == np.finfo(np.float64).eps / 2
    assert tolerances.DTYPES["float32"][0] == np.finfo(np.float32).eps / 2
    assert tolerances.DTYPES["float16"][0] == np.finfo(np.float16).eps / 2
    assert tolerances.DTYPES["bfloat16"][0] == 2.0**-8  # 8 significant bits


def test_gamma():
    u = 2.0**-53
    assert tolerances.gamma(1, u) == pytest.approx(u)
    assert tolerances.gamma(10, u) > 10 * u
    assert tolerances.gamma(2**60, u) == np.inf  # k·u >= 1: no bound


@pytest.mark.parametrize("name", sorted(tolerances.SECOND_DERIVATIVE_BOUND))
def test_second_derivative_bounds_hold(name):
    """sup |act''| <= the stated constant (finite differences of act' on a dense grid)."""
    _, dact = ACTIVATIONS[name]
    z = np.linspace(-12, 12, 200_001)
    dz = z[1] - z[0]
    second = np.abs(np.diff(dact(z))) / dz
    if name == "relu":
        second = second[np.abs(z[:-1]) > 2 * dz]  # the kink is handled separately
    # (finite differences of a linear piece carry ~1e-11 of rounding: relu2'' = 2 exactly)
    assert second.max() <= tolerances.SECOND_DERIVATIVE_BOUND[name] * (1 + 1e-9)
    assert second.max() >= 0.8 * tolerances.SECOND_DERIVATIVE_BOUND[name] or name == "relu"


def _draw(variant, d, h, n, bias, seed):
    rng = np.random.default_rng(seed)
    w = numpy_ffn.init_weights(variant, d, h, bias, np.float64, rng)
    return w, rng.standard_normal((n, d)), rng.standard_normal((n, d))


@given(st.data())
def test_bounds_are_tight_in_float64(data):
    """bound / max|T| stays within a few thousand units of roundoff for float64."""
    variant = data.draw(st.sampled_from(["swiglu", "geglu_tanh", "relu", "glu"]), label="v")
    d = data.draw(st.integers(1, 48), label="d")
    h = data.draw(st.integers(1, 64), label="h")
    n = data.draw(st.integers(1, 8), label="n")
    w, x, dy = _draw(variant, d, h, n, data.draw(st.booleans(), label="bias"),
                     data.draw(st.integers(0, 2**32 - 1), label="seed"))
    b = tolerances.first_order_bounds(variant, w, x, dy, "float64")
    y, cache = numpy_ffn.forward(variant, w, x)
    ref = {"y": y, **numpy_ffn.backward(variant, w, cache, dy)}
    for k, r in ref.items():
        scale = np.abs(r).max()
        if scale > 0:
            # first-order bounds: γ_k·(sums of |terms|), k <= 2h+1, so a few hundred u·|T|
            # unless the tensor cancels; 1e-9 relative is what a 1e-7 nudge must beat
            assert b[k].max() <= 1e-9 * max(scale, 1e-6 * np.abs(ref["y"]).max()), k


@pytest.mark.torch
@pytest.mark.parametrize("dtype", ["float64", "float32", "bfloat16", "float16"])
def test_correct_implementation_stays_inside_the_bound(dtype):
    """Over many draws, a correct torch FFN never exceeds the bound, and uses a visible part
    of it (the bound is not 100x the largest real error)."""
    torch = pytest.importorskip("torch", reason="empirical bound checks run the torch backend")
    from ffnverify.backends.torch_ffn import from_numpy_weights, to_numpy_weights

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny shapes: thread start-up would dominate
    try:
        worst = _max_error_over_bound(torch, dtype, from_numpy_weights, to_numpy_weights)
    finally:
        torch.set_num_threads(threads)
    assert worst > 0.01, f"the {dtype} bound is more than 100x the largest error seen"


def _max_error_over_bound(torch, dtype, from_numpy_weights, to_numpy_weights):
    worst = 0.0
    rng = np.random.default_rng(2026)
    for trial in range(60):
        variant = ["swiglu", "geglu_tanh", "reglu", "gelu", "tanhglu", "bilinear"][trial % 6]
        d, h, n = (int(v) for v in rng.integers(1, [48, 64, 8]))
        w, x64, dy64 = _draw(variant, d, h, n, bool(trial % 2), rng)
        tdt = getattr(torch, dtype)
        m = from_numpy_weights(variant, w, dtype=tdt)
        w = to_numpy_weights(m)
        x = torch.tensor(x64).to(tdt).requires_grad_(True)
        dy = torch.tensor(dy64).to(tdt)
        xn, dyn = x.detach().double().numpy(), dy.double().numpy()
        y, cache = numpy_ffn.forward(variant, w, xn)
        ref = {"y": y, **numpy_ffn.backward(variant, w, cache, dyn)}
        plain = tolerances.plain_errors(variant, w, xn, dyn, dtype, "cpu", ref)
        bound = tolerances.bounds(variant, w, xn, dyn, dtype, plain)
        out = m(x)
        out.backward(dy)
        got = {"y": out, "x": x.grad}
        for k in w:
            kind, p = k.split("_", 1)
            lin = getattr(m, f"{p}_proj")
            got[k] = lin.weight.grad.T if kind == "W" else lin.bias.grad
        for k, r in ref.items():
            err = np.abs(got[k].detach().double().numpy() - r)
            assert np.all(err <= bound[k]), (variant, k, (err / bound[k]).max())
            worst = max(worst, float((err / bound[k]).max()))
    return worst
