"""Expert MLPs: experts=i reads expert i of fused 3-D (Mixtral, Qwen-MoE) and stacked
(Dbrx, w2 stored h×d) weights and routes every token to it; litgpt's LLaMAMoE is checked
with its router counted apart (parameters and matmul FLOPs); a failing FlopCounterMode is
the tool's failure, never the module's."""

import pytest

torch = pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from ffnverify.cli import main  # noqa: E402
from ffnverify.testing import check_ffn, identify_ffn  # noqa: E402
from ffnverify.testing import conformance as C  # noqa: E402

from . import experts  # noqa: E402
from .zoo import SwiGLU  # noqa: E402

pytestmark = pytest.mark.torch


@pytest.mark.parametrize("factory,layout", [(experts.MixtralExpertsCopy, "mixtral-experts"),
                                            (experts.DbrxExpertsCopy, "dbrx-experts")])
@pytest.mark.parametrize("expert", [0, experts.N_EXPERTS - 1])
def test_each_expert_is_found_and_conformant(factory, layout, expert):
    report = check_ffn(factory, "swiglu", bias=False, experts=expert, max_examples=5)
    assert report.layout == layout, report.summary()
    found = identify_ffn(factory, bias=False, experts=expert)
    assert (found.variant, found.layout) == ("swiglu", layout), found.summary()


def test_an_expert_out_of_range_is_a_layout_failure():
    with pytest.raises(C.ConformanceFailure) as info:
        check_ffn(experts.MixtralExpertsCopy, "swiglu", bias=False,
                  experts=experts.N_EXPERTS, max_examples=2)
    assert info.value.check == "layout"


def test_the_expert_is_the_one_checked():
    """Expert 1 broken (its down projection doubled): expert 0 passes, expert 1 fails."""

    class OneBroken(experts.MixtralExpertsCopy):
        def expert(self, e, x):
            return super().expert(e, x) * (2.0 if e == 1 else 1.0)

    check_ffn(OneBroken, "swiglu", "mixtral-experts", bias=False, experts=0, max_examples=3)
    with pytest.raises(C.ConformanceFailure) as info:
        check_ffn(OneBroken, "swiglu", "mixtral-experts", bias=False, experts=1,
                  max_examples=3)
    assert "the output scaled by 2" in info.value.report()


def test_dbrx_w2_read_as_a_linear_weight_is_rejected():
    with pytest.raises(C.ConformanceFailure) as info:
        check_ffn(experts.DbrxW2Transposed, "swiglu", "dbrx-experts", bias=False,
                  experts=0, max_examples=5)
    # it runs only where d == h, and there computes w2 transposed
    assert "mlp.w2 used transposed" in info.value.report(), info.value.report()


@pytest.mark.parametrize("bias", [False, True])
def test_litgpt_moe_router_counted_apart(bias):
    """The router's parameters are not the expert's, nor its matmul FLOPs (8 vs 6 before)."""
    report = check_ffn(experts.LLaMAMoECopy, "swiglu", bias=bias, experts=0, max_examples=5)
    assert report.layout == "litgpt-moe", report.summary()


def test_extra_params_flops_are_counted_apart_and_said_so():
    """A module whose outside-the-FFN submodule (a norm-like projection) does a matmul: the
    FLOPs are counted apart; a redundant matmul inside the FFN still fails, naming both."""

    class WithAux(SwiGLU):
        def __init__(self, d, h, bias=False):
            super().__init__(d, h, bias)
            self.aux = torch.nn.Linear(d, d, bias=False)

        def forward(self, x):
            return super().forward(x) + 0 * self.aux(x)

    check_ffn(WithAux, "swiglu", "hf", bias=False, extra_params=("aux.*",), max_examples=3)

    class AuxAndRedundant(WithAux):
        def forward(self, x):
            return super().forward(x) + 0 * (self.up_proj(x) @ self.up_proj.weight).sum()

    with pytest.raises(C.ConformanceFailure) as info:
        check_ffn(AuxAndRedundant, "swiglu", "hf", bias=False, extra_params=("aux.*",),
                  max_examples=3)
    assert info.value.check == "flops"
    assert "in the submodules outside the FFN, counted apart" in info.value.report()


def _counter_fails_under_no_grad(monkeypatch):
    """torch's FlopCounterMode crashing under no_grad, as it did on DbrxExperts."""
    from torch.utils import flop_counter

    real = flop_counter.FlopCounterMode.__enter__

    def enter(self):
        if not torch.is_grad_enabled():
            raise RuntimeError("Expected gradient function to be set")
        return real(self)

    monkeypatch.setattr(flop_counter.FlopCounterMode, "__enter__", enter)


def test_a_counter_failing_under_no_grad_is_not_the_modules_failure(monkeypatch):
    _counter_fails_under_no_grad(monkeypatch)
    report = check_ffn(SwiGLU, "swiglu", "hf", bias=False, max_examples=3)
    assert report.tool_notes == (), report.summary()  # counted with grad enabled instead


def test_a_counter_that_always_fails_leaves_the_check_out_with_a_note(monkeypatch):
    from torch.utils import flop_counter

    def enter(self):
        raise RuntimeError("Expected gradient function to be set")

    monkeypatch.setattr(flop_counter.FlopCounterMode, "__enter__", enter)
    report = check_ffn(SwiGLU, "swiglu", "hf", bias=False, max_examples=3)
    assert report.tool_notes and "flops not checked: torch's FlopCounterMode failed" in \
        report.summary()


def test_a_module_failing_without_the_counter_is_still_the_modules_failure(monkeypatch):
    _counter_fails_under_no_grad(monkeypatch)

    class FailsAtFlops(SwiGLU):
        calls = 0

        def forward(self, x):
            type(self).calls += 1
            if not torch.is_grad_enabled() and x.shape[0] == 7:
                raise ValueError("seven")
            return super().forward(x)

    def factory(d, h, bias=False):
        return FailsAtFlops(d, h, bias)

    # a direct case: n = 7 fails in the independence check first (also no_grad)
    with pytest.raises(C.ConformanceFailure) as info:
        C.check_example(factory, "swiglu", "hf", n=7, dtypes=("float64",))
    assert "forward raised ValueError: seven" in info.value.report()


def test_cli_experts(capsys):
    code = main(["check", f"{experts.__name__}:DbrxExpertsCopy", "--variant", "swiglu",
                 "--bias", "false", "--experts", "2", "--max-examples", "3"])
    out = capsys.readouterr().out
    assert code == 0 and "layout dbrx-experts" in out, out
