"""layout="auto": every built-in layout is found from the parameters alone, the chunk order
and Linear/Conv1D decided numerically; nothing fits: the parameters and closest layouts."""

import pytest

torch = pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from ffnverify.testing import check_ffn, layouts  # noqa: E402
from ffnverify.testing.conformance import ConformanceFailure, resolve_layout  # noqa: E402

from .zoo import GPT2, HF, correct, table_ffn  # noqa: E402

pytestmark = pytest.mark.torch

GATED = sorted(layouts._GATED)
PLAIN = sorted(layouts._PLAIN)


@pytest.mark.parametrize("layout", GATED)
def test_every_gated_layout_is_found(layout):
    for bias in (False, True):
        got, note = resolve_layout(table_ffn("swiglu", layout), "swiglu", bias)
        assert got == layout, note
        assert note.startswith("layout auto: " + layout)


@pytest.mark.parametrize("layout", PLAIN)
def test_every_plain_layout_is_found(layout):
    for bias in (False, True):
        got, note = resolve_layout(table_ffn("gelu", layout), "gelu", bias)
        assert got == layout, note


def test_conv1d_and_linear_c_fc_are_told_apart():
    assert resolve_layout(correct(GPT2, "gelu_tanh"), "gelu_tanh", True)[0] == "gpt2"
    assert resolve_layout(table_ffn("gelu_tanh", "starcoder2"), "gelu_tanh", True)[0] == \
        "starcoder2"


def test_auto_is_the_default_and_the_report_says_what_it_chose():
    report = check_ffn(table_ffn("swiglu", "timm-glu"), "swiglu", bias=False, max_examples=3)
    assert report.layout == "timm-glu"
    assert "layout auto: timm-glu" in report.summary() and "runner-up" in report.summary()


def test_nothing_fits_lists_the_parameters_and_the_closest_layouts():
    class Odd(torch.nn.Module):
        def __init__(self, d, h, bias=False):
            super().__init__()
            self.gate_proj = torch.nn.Linear(d, h, bias=False)
            self.up = torch.nn.Linear(d, h, bias=False)
            self.down_proj = torch.nn.Linear(h, d, bias=False)

        def forward(self, x):
            return self.down_proj(torch.nn.functional.silu(self.gate_proj(x)) * self.up(x))

    with pytest.raises(ConformanceFailure) as info:
        check_ffn(Odd, "swiglu", bias=False, max_examples=2)
    text = info.value.report()
    assert info.value.check == "layout"
    assert "gate_proj.weight (15, 6)" in text and "up.weight" in text
    assert "closest layouts: hf" in text


def test_extra_parameters_are_allowed_when_declared():
    class WithNorm(HF):
        def __init__(self, d, h, bias=False):
            super().__init__("swiglu", d, h, bias)
            self.norm = torch.nn.LayerNorm(d)  # outside the FFN: not called here

    with pytest.raises(ConformanceFailure) as info:
        check_ffn(WithNorm, "swiglu", bias=False, max_examples=2)
    assert info.value.check == "layout"
    report = check_ffn(WithNorm, "swiglu", bias=False, max_examples=2, extra_params=("norm.*",))
    assert report.layout == "hf"
