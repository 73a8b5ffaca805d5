"""MoE blocks checked whole (ffnverify.testing.moe): the routed reference from the block's
own router weights passes correct blocks of either gating (identified, not a failure) and
rejects broken routers with the diagnosis naming the fault; a top-k tie is left out,
never failed."""

import os
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from ffnverify.testing import moe  # noqa: E402
from ffnverify.testing.results import ConformanceFailure  # noqa: E402

from . import moe_modules as M  # noqa: E402

pytestmark = pytest.mark.torch
EXAMPLES = 4
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("factory,gating", [(M.TopKMoE, "renormalised"),
                                            (M.MixtralLikeMoE, "renormalised"),
                                            (M.SoftmaxMoE, "softmax")],
                         ids=["litgpt-like", "mixtral-like", "softmax-like"])
def test_a_correct_block_passes_and_its_gating_is_identified(factory, gating):
    report = moe.check_moe(factory, "swiglu", M.TOP_K, bias=(False, True),
                           max_examples=EXAMPLES)
    assert (report.gating, report.experts, report.layout) == (gating, M.N_EXPERT,
                                                              "litgpt-moe"), report.summary()
    assert report.compared > 0 and "identified" in report.summary()
    assert report.grads > 0 and report.grad_worst < 1, report.summary()  # gradients too


def _failure(factory, **kw):
    with pytest.raises(ConformanceFailure) as info:
        moe.check_moe(factory, "swiglu", M.TOP_K, max_examples=EXAMPLES, **kw)
    return info.value


MUTANTS = [
    (M.TopKPlusOne, "top-k off by one: each token goes to 3 experts, not 2"),
    (M.TopKMinusOne, "top-k off by one: each token goes to 1 expert, not 2"),
    (M.ExpertsSwapped, "experts 1 and 2 swapped"),
    (M.GateTwice, "the gate weight applied twice (g², not g)"),
]


@pytest.mark.parametrize("factory,words", MUTANTS, ids=[m[0].__name__ for m in MUTANTS])
def test_a_broken_router_fails_with_the_diagnosis_naming_it(factory, words):
    failure = _failure(factory)
    text = failure.report()
    assert failure.check == "moe-forward" and [d.kind for d in failure.diagnoses] == [
        "routing"], text
    assert words in text and "it then matches at every drawn point" in text, text
    assert failure.case.d == 1 and failure.case.h == 1  # the smallest shapes, first


@pytest.mark.parametrize("factory,stated,words", [
    (M.SoftmaxMoE, "renormalised", "the gate weights are the softmax over every expert, "
     "taken at the top k (not renormalised), not the softmax of the top-k"),
    (M.TopKMoE, "softmax", "the gate weights are the softmax of the top-k router logits"),
])
def test_a_stated_gating_the_block_does_not_compute_is_named(factory, stated, words):
    text = _failure(factory, gating=stated).report()
    assert words in text, text


def test_a_slightly_wrong_gate_is_rejected_without_a_diagnosis():
    """Logits 0.1% too large: outside every hypothesis, and far outside the bound."""
    failure = _failure(M.RouterTemperature)
    assert failure.check == "moe-forward" and failure.diagnoses == [], failure.report()
    assert failure.error > 100 * failure.bound


def test_the_printed_reproducer_runs_and_fails_alike():
    failure = _failure(M.GateTwice)
    cmd = failure.case.reproducer()
    assert cmd.startswith("python -c ")
    code = shlex.split(cmd)[2]
    # (pytest imports these test modules as conformance.*, from tests/: so does the line)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=300)
    assert run.returncode != 0 and "check 'moe-forward'" in run.stderr, run.stderr[-2000:]
    assert "the gate weight applied twice" in run.stderr


def test_ties_are_left_out_and_clear_margins_kept():
    r = moe.Routing(2, "renormalised")
    logits = np.array([[1.0, 0.5, 0.5, -1.0],  # an exact tie for the second place
                       [1.0, 0.5, 0.5 - 1e-5, -1.0],  # closer than float16 rounding
                       [1.0, 0.5, 0.2, -1.0]])  # a clear margin
    e = np.full_like(logits, 1e-15)
    # (float64's gates are float32's: 4·(E+2)·2⁻²⁴ ≈ 1.4e-6 of slack)
    assert moe.ties(logits, e, r, "float64", 4).tolist() == [True, False, False]
    assert moe.ties(logits, e, r, "float16", 4).tolist() == [True, True, False]
    assert moe.ties(logits, e, moe.Routing(4, "softmax"), "float16", 4).tolist() == [
        False] * 3  # every expert chosen: no selection to get wrong


class _TieBreakReversed(M.TopKMoE):
    """Where the k-th and (k+1)-th logits are within float32 rounding of each other, this
    block picks the other expert: a legitimate tie-break, never a failure."""

    def forward(self, x):
        B, T, C = x.size()
        x = x.reshape(-1, C)
        logits = self.gate(x)
        flip = torch.arange(self.n_expert, dtype=logits.dtype) * 1e-7 * logits.abs().max()
        _, indices = torch.topk(logits + flip, self.top_k)
        probs = torch.gather(logits, 1, indices).softmax(dim=1, dtype=torch.float)
        probs = probs.to(x.dtype)
        y = torch.zeros_like(x)
        for e in range(self.n_expert):
            token, slot = torch.where(indices == e)
            if token.numel():
                y[token] += probs[token, slot, None] * self.experts[e](x[token])
        return y.view(B, T, C)


def test_a_block_breaking_near_ties_its_own_way_is_not_failed():
    """Its selection moves only between logits 1e-7 apart (relative): within what float32
    gates may confuse, so those tokens are ties in every dtype but float64's... and in
    float64 too, as the gates are float32: the block passes."""
    report = moe.check_moe(_TieBreakReversed, "swiglu", M.TOP_K, bias=False, max_examples=6)
    assert report.gating == "renormalised", report.summary()


def test_an_unreadable_block_is_a_layout_failure():
    with pytest.raises(ConformanceFailure) as info:
        moe.check_moe(lambda d, h, bias: torch.nn.Linear(d, d), "swiglu", 2, max_examples=1)
    assert info.value.check == "layout" and "no MoE layout reads the module" in str(info.value)
