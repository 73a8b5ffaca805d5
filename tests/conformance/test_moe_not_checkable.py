"""A gradient check_moe cannot judge in a dtype is reported as not checkable there, never
a silent pass (ffnverify.testing.moe_grad.not_checkable): in bfloat16 the router's and
the input's gradient bounds exceed 0.25 of their signal, so a block whose gating
product's backward is wrong (its FLOPs right) passes in bfloat16 alone, and the report and a warning say the
router's gradient was never compared; the same mutant is rejected in float32 and
float64. The gate-gradient bound (`_dl_response`, the exact Jacobian) is never looser
than the former form and still covers the module's error."""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from ffnverify.testing import moe, moe_grad  # noqa: E402
from ffnverify.testing.results import ConformanceFailure  # noqa: E402

from . import moe_grad_modules as G  # noqa: E402
from . import moe_modules as M  # noqa: E402
from .test_moe_grad import MUTANTS  # noqa: E402

pytestmark = pytest.mark.torch
ROUTER = "the gradient of the router weight (gate.weight)"


def _bf16(factory):
    with pytest.warns(moe_grad.NotCheckable) as caught:
        report = moe.check_moe(factory, "swiglu", M.TOP_K, dtypes=("bfloat16",),
                               max_examples=4)
    return report, " ".join(str(w.message) for w in caught)


@pytest.mark.parametrize("factory", [G.SteppedMoE, G.GatingProductWrong],
                         ids=["correct", "gating-product-backward-wrong"])
def test_bfloat16_names_the_router_gradient_not_checkable(factory):
    report, warned = _bf16(factory)
    assert "router" in report.not_checkable()["bfloat16"], report.summary()
    text = ("NOT CHECKABLE at this dtype: bfloat16: the router weight's")
    assert text in report.summary() and text in warned
    assert report.grad_tally["bfloat16", "router"][0] == 0  # never compared


@pytest.mark.parametrize("factory,wrong", MUTANTS, ids=[m[0].__name__ for m in MUTANTS])
def test_every_backward_mutant_is_rejected_in_float32_alone(factory, wrong):
    """test_moe_grad's mutants, each rejected in float32 alone (not only by float64,
    which runs first in the default dtypes), naming the same wrong tensors."""
    with pytest.raises(ConformanceFailure) as info:
        moe.check_moe(factory, "swiglu", M.TOP_K, dtypes=("float32",), max_examples=4)
    named = {info.value.tensor} | {o.tensor for o in info.value.others}
    assert (info.value.check, info.value.dtype, named) == ("moe-backward", "float32", wrong)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_the_same_mutant_is_rejected_where_the_check_is_meaningful(dtype):
    with pytest.raises(ConformanceFailure) as info:
        moe.check_moe(G.GatingProductWrong, "swiglu", M.TOP_K, dtypes=(dtype,),
                      max_examples=4)
    named = {info.value.tensor} | {o.tensor for o in info.value.others}
    assert (info.value.check, info.value.dtype) == ("moe-backward", dtype)
    assert ROUTER in named, info.value.report()


def test_a_run_that_compares_everything_names_nothing():
    report = moe.check_moe(G.SteppedMoE, "swiglu", M.TOP_K, dtypes=("float64", "float32"),
                           max_examples=2)
    assert report.not_checkable() == {} and "NOT CHECKABLE" not in report.summary()


def test_not_checkable_is_only_what_was_never_compared():
    tally = {("bfloat16", "router"): [0, 3], ("bfloat16", "experts"): [5, 2],
             ("float16", "x"): [1, 4], ("float16", "router"): [0, 0]}
    assert moe_grad.not_checkable(tally) == {"bfloat16": ["router"]}
    assert moe_grad.not_checkable_text(tally).startswith(
        "NOT CHECKABLE at this dtype: bfloat16: the router weight's gradient (bound over 0.25")


def test_the_jacobian_bound_is_never_looser_than_the_former_form():
    """_dl_response against ε(|c̃_j| + C) + π(E_c̃ + Σ(ε|c̃| + π E_c̃)), the form it
    replaced, plus that form's missing second-order products: random π on the simplex
    (some zero), c̃, errors."""
    rng = np.random.default_rng(5)
    for _ in range(200):
        n, E = 3, int(rng.integers(2, 7))
        pi = rng.dirichlet(np.ones(E), size=n) * (rng.random((n, E)) < 0.7)
        c = rng.standard_normal((n, E)) * 10.0 ** rng.integers(-3, 3)
        e_c = np.abs(rng.standard_normal((n, E))) * 1e-3
        eps = np.abs(rng.standard_normal((n, E))) * 1e-3 * pi
        ac = np.abs(c)
        C = (pi * ac).sum(axis=1, keepdims=True)
        old = (eps * (ac + C)
               + pi * (e_c + (eps * ac + pi * e_c).sum(axis=1, keepdims=True)))
        second = (eps * (e_c + (pi * e_c).sum(axis=1, keepdims=True))
                  + pi * (eps * e_c).sum(axis=1, keepdims=True)
                  + eps * (eps * (ac + e_c)).sum(axis=1, keepdims=True))
        assert np.all(moe_grad._dl_response(c, pi, e_c, eps) <= old + second + 1e-300)


def test_the_jacobian_bound_covers_perturbed_gates_exactly():
    """Perturb c̃ and π independently within e_c and ε (1%, as large as a bfloat16 gate's):
    ∂L/∂l moves by no more than the bound (first order plus the errors' products; this
    test caught a missing factor 2 in ∂/∂π_j, where one gate dominates)."""
    rng = np.random.default_rng(6)
    for i in range(1000):
        n, E = 2, int(rng.integers(2, 6))
        sign = (lambda shape: rng.choice([-1.0, 1.0], shape)) if i % 2 else (
            lambda shape: rng.uniform(-1, 1, shape))  # the corners, where the worst is
        pi = rng.dirichlet(np.ones(E) * 0.5, size=n)
        c = rng.standard_normal((n, E))
        e_c = np.abs(rng.standard_normal((n, E))) * 1e-2
        eps = pi * 1e-2
        dl = pi * (c - (pi * c).sum(axis=1, keepdims=True))
        c2 = c + e_c * sign((n, E))
        pi2 = pi + eps * sign((n, E))
        dl2 = pi2 * (c2 - (pi2 * c2).sum(axis=1, keepdims=True))
        assert np.all(np.abs(dl2 - dl) <= moe_grad._dl_response(c, pi, e_c, eps) * (1 + 1e-12))
