"""An MoE block's FLOPs are judged, not only reported (ffnverify.testing.moe_costs through
check_moe): the matmul FLOPs FlopCounterMode counts in one forward, and one forward +
backward, equal the exact routed count (the router's matmul, and each expert's FFN on the
tokens routed to it) as integers; a block with right outputs and gradients that runs every
expert on every token is rejected with that diagnosis, and another surplus without it;
the printed reproducer of such a failure runs and fails the same way."""

import re

import pytest

torch = pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from derivations.flops import flops  # noqa: E402
from ffnverify.testing import moe, moe_costs  # noqa: E402
from ffnverify.testing.results import ConformanceFailure  # noqa: E402

from . import moe_flops_modules as F  # noqa: E402
from . import moe_grad_modules as G  # noqa: E402
from . import moe_modules as M  # noqa: E402
from .test_reproducers import reproduce  # noqa: E402

pytestmark = pytest.mark.torch
E, K = M.N_EXPERT, M.TOP_K


def _f(d, h, n, pass_="forward"):
    return int(flops("swiglu", d, h, n, pass_))


def test_the_routed_count_is_the_derivation_per_expert_on_its_tokens():
    """Exact integers: the router 2·E·d·n (×3 with its backward), each expert
    flops(d, h, n_e); the total is k·n tokens' worth whatever the routing; dense compute
    is E·n tokens' worth."""
    d, h, n = 6, 15, 16
    for tokens in ([7, 7, 11, 7], [16, 16, 0, 0], [0, 16, 9, 7]):
        t = {"n": n, "experts": tokens}
        assert moe_costs.routed("swiglu", E, d, h, t) == (
            2 * E * d * n, sum(_f(d, h, m) for m in tokens))
        assert moe_costs.routed("swiglu", E, d, h, t) == (2 * E * d * n, _f(d, h, K * n))
        assert moe_costs.routed("swiglu", E, d, h, t, pass_="train") == (
            3 * 2 * E * d * n, _f(d, h, K * n, "train"))
        router, rest = moe_costs.routed("swiglu", E, d, h, t, shared=True)
        assert (router, rest) == (2 * E * d * n, _f(d, h, K * n) + _f(d, h, n) + 2 * d * n)
        assert all(isinstance(v, int) for v in (router, rest))
    assert moe_costs.dense("swiglu", E, d, h, n) == (2 * E * d * n, E * _f(d, h, n))


@pytest.mark.parametrize("factory", [M.TopKMoE, G.Qwen2LikeMoE],
                         ids=["litgpt-like", "qwen2-like-shared"])
def test_a_routed_block_counts_exactly_the_routed_flops(factory):
    report = moe.check_moe(factory, "swiglu", K, max_examples=1)
    d, h, n = moe.PROBE
    shared = 2 * d * n if report.shared else 0
    shared_ffn = _f(d, h, n) if report.shared else 0
    assert report.counted == (2 * E * d * n, _f(d, h, K * n) + shared_ffn + shared)
    assert report.counted_train == (
        3 * 2 * E * d * n,
        _f(d, h, K * n, "train") + (_f(d, h, n, "train") + 3 * shared if report.shared else 0))
    assert not report.flops_note
    assert "moe-flops: counted over 16 tokens, exactly the routed count" in report.summary()


def _failure(factory):
    with pytest.raises(ConformanceFailure) as info:
        moe.check_moe(factory, "swiglu", K, max_examples=2)
    return info.value


def test_dense_compute_is_rejected_and_named():
    """Right outputs and gradients (moe-forward and moe-backward pass); its forward counts
    E/k times the experts' routed FLOPs, and the diagnosis says why, exactly."""
    failure = _failure(F.DenseMoE)
    d, h, n = moe.PROBE
    assert failure.check == "moe-flops", failure.report()
    assert (f"forward counted {2 * E * d * n + E * _f(d, h, n)} matmul FLOPs"
            in failure.report())
    assert f"routed: {2 * E * d * n + _f(d, h, K * n)} = router" in failure.report()
    assert [dg.what.split(":")[0] for dg in failure.diagnoses] == [
        "every expert run on every token (dense compute, then masked)"]
    assert "diagnosis: the counted FLOPs are exactly those of every expert run on every " \
           "token" in failure.report()


def test_a_surplus_that_is_not_dense_is_rejected_without_that_diagnosis():
    failure = _failure(F.ExpertRunTwice)
    assert failure.check == "moe-flops" and not failure.diagnoses, failure.report()


def test_the_reproducer_of_a_flops_failure_fails_the_same_way(capsys, monkeypatch):
    from .test_reproducers import ROOT, report_lines

    monkeypatch.chdir(ROOT)
    first = _failure(F.DenseMoE).report()
    line = re.search(r"reproduce: (.*)", first).group(1)
    assert "check_moe_example(DenseMoE" in line
    assert report_lines(reproduce(line, capsys)) == report_lines(first)


def test_a_counter_failure_is_a_note_never_the_blocks_failure(monkeypatch):
    """FlopCounterMode failing where the plain call runs (as on DbrxExperts under
    no_grad) leaves the FLOPs unjudged, said in the report."""
    from torch.utils import flop_counter

    class Broken(flop_counter.FlopCounterMode):
        def __enter__(self):
            raise RuntimeError("Expected gradient function to be set")

    monkeypatch.setattr(flop_counter, "FlopCounterMode", Broken)
    report = moe.check_moe(M.TopKMoE, "swiglu", K, max_examples=1)
    assert not report.counted
    assert "routed FLOPs not judged: torch's FlopCounterMode failed" in report.summary()
