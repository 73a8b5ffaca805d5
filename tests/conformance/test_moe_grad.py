"""MoE gradients checked (ffnverify.testing.moe_grad, through check_moe): correct blocks
pass in every dtype judged, blocks whose forward is right and backward broken fail with
the wrong gradient named (input, router, expert i's weight); the analytic reference
agrees with finite differences of the NumPy forward; the report's router and expert
costs are exact integers, the counted FLOPs the derived ones."""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from derivations.flops import flops  # noqa: E402
from ffnverify.testing import moe, moe_grad  # noqa: E402
from ffnverify.testing.moe_reference import Weights, reference  # noqa: E402
from ffnverify.testing.results import ConformanceFailure  # noqa: E402

from . import moe_grad_modules as G  # noqa: E402
from . import moe_modules as M  # noqa: E402

pytestmark = pytest.mark.torch
EXAMPLES = 4


@pytest.mark.parametrize("factory,gating,layout", [
    (G.SteppedMoE, "renormalised", "litgpt-moe"),
    (G.Qwen3LikeMoE, "softmax", "mixtral-moe"),
    (G.Qwen3LikeNormMoE, "renormalised", "mixtral-moe"),
    (G.Qwen2LikeMoE, "softmax", "qwen2-moe"),
], ids=["stepped-litgpt", "qwen3-like", "qwen3-like-norm", "qwen2-like-shared"])
def test_a_correct_block_passes_with_its_gradients_compared(factory, gating, layout):
    report = moe.check_moe(factory, "swiglu", M.TOP_K, max_examples=EXAMPLES)
    assert (report.gating, report.layout) == (gating, layout), report.summary()
    assert report.grads > 0 and report.grad_worst < 1, report.summary()
    assert "moe-backward (" in report.summary()


def _failure(factory):
    with pytest.raises(ConformanceFailure) as info:
        moe.check_moe(factory, "swiglu", M.TOP_K, max_examples=EXAMPLES)
    return info.value


ROUTER = "the gradient of the router weight (gate.weight)"
X = "the gradient of the input x"
EXPERT1 = {f"the gradient of expert 1's {w} (experts.1.{p}.weight)"
           for w, p in (("W_gate", "fc_1"), ("W_up", "fc_2"), ("W_down", "proj"))}
MUTANTS = [
    (G.GateDetached, {ROUTER, X}),
    (G.RouterGradDropped, {ROUTER}),
    (G.RouterInputDetached, {X}),
    (G.ExpertBackwardScaled, EXPERT1 | {X}),
    (G.GatingProductWrong, {ROUTER, X}),
    (G.SharedGateDetached, {"the gradient of the shared expert's gate "
                            "(shared_expert_gate.weight)"}),
]


@pytest.mark.parametrize("factory,wrong", MUTANTS, ids=[m[0].__name__ for m in MUTANTS])
def test_a_broken_backward_fails_naming_the_wrong_gradients(factory, wrong):
    """The forward is right (moe-forward passes); the backward names what is wrong, far
    outside the bound (not a near miss)."""
    failure = _failure(factory)
    named = {failure.tensor} | {o.tensor for o in failure.others}
    assert failure.check == "moe-backward" and named == wrong, failure.report()
    assert failure.error > 1e3 * failure.bound, failure.report()
    assert f"{failure.tensor} differs from the float64 reference" in failure.report()


def test_the_reproducer_of_a_backward_failure_fails_alike():
    """check_moe_example (what the printed reproducer calls) runs the gradient check."""
    failure = _failure(G.RouterGradDropped)
    c = failure.case
    assert "check_moe_example(RouterGradDropped" in c.reproducer()
    with pytest.raises(ConformanceFailure) as info:
        moe.check_moe_example(G.RouterGradDropped, "swiglu", M.TOP_K, d=c.d, h=c.h, n=c.n,
                              seed=c.seed, bias=c.bias)
    assert (info.value.check, info.value.tensor) == ("moe-backward", ROUTER)


def test_the_reference_gradients_match_finite_differences_of_the_forward():
    """Central differences of L = Σ gy·y(x) through moe_reference's forward (a draw far
    from top-k ties): ∂L/∂x, ∂L/∂Wr and one expert weight agree to ~1e-8."""
    rng = np.random.default_rng(3)
    d, h, n, E = 5, 7, 3, 4
    experts = [{"W_gate": rng.standard_normal((d, h)) / np.sqrt(d),
                "W_up": rng.standard_normal((d, h)) / np.sqrt(d),
                "W_down": rng.standard_normal((h, d)) / np.sqrt(h)} for _ in range(E)]
    w = Weights(rng.standard_normal((E, d)), experts)
    x, gy = rng.standard_normal((n, d)), rng.standard_normal((n, d))
    for gating in moe.GATINGS:
        r = moe.Routing(2, gating)
        assert not reference("swiglu", w, x, r, "float64")[2].any()  # no tie here
        grads, _ = moe_grad.reference("swiglu", w, x, gy, r)

        def loss(x_, w_, r=r):
            return float((gy * reference("swiglu", w_, x_, r, "float64")[0]).sum())

        def fd(array, i, make):
            step = 1e-6
            plus, minus = array.copy(), array.copy()
            plus[i] += step
            minus[i] -= step
            return (loss(*make(plus)) - loss(*make(minus))) / (2 * step)

        for i in np.ndindex(x.shape):
            assert fd(x, i, lambda a: (a, w)) == pytest.approx(grads["x"][i], abs=1e-7)
        for i in np.ndindex(w.router.shape):
            assert fd(w.router, i, lambda a: (x, Weights(a, experts))) == pytest.approx(
                grads["router"][i], abs=1e-7)
        for i in [(0, 0), (2, 3), (4, 6)]:
            got = fd(experts[1]["W_gate"], i, lambda a: (x, Weights(w.router, [
                *experts[:1], {**experts[1], "W_gate": a}, *experts[2:]])))
            assert got == pytest.approx(grads["experts"][1]["W_gate"][i], abs=1e-7)


def test_the_report_counts_the_router_apart_from_the_experts():
    """Exact integers: the router E·d parameters and 2·E·d FLOPs per token, the experts
    E·params and k·flops per token; counted under FlopCounterMode at the probe shape."""
    report = moe.check_moe(M.TopKMoE, "swiglu", M.TOP_K, max_examples=1)
    E, k = M.N_EXPERT, M.TOP_K
    c = report.costs(6, 15)
    assert c == {"router params": E * 6, "router FLOPs per token": 2 * E * 6,
                 "expert params": E * 3 * 6 * 15,
                 "expert FLOPs per token": k * int(flops("swiglu", 6, 15, 1, "forward"))}
    assert all(isinstance(v, int) for v in c.values())
    d, h, n = moe.PROBE
    assert report.counted == (2 * E * d * n, k * n * int(flops("swiglu", d, h, 1, "forward")))
    assert f"router {E * 6} parameters, {2 * E * 6} matmul FLOPs per token" in report.summary()
