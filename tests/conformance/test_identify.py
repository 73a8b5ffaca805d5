"""identify_ffn / `ffnverify identify`: the variant, layout and biases a module computes, judged
in float64 against every row of the variant table; a failing forward check names it."""

import json

import pytest

torch = pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from ffnverify.cli import main  # noqa: E402
from ffnverify.testing import check_ffn, identify_ffn  # noqa: E402
from ffnverify.testing.conformance import ConformanceFailure  # noqa: E402

from .zoo import HF, correct, table_ffn  # noqa: E402

pytestmark = pytest.mark.torch


@pytest.mark.parametrize("variant", ["gelu", "gelu_tanh", "relu", "relu2", "quick_gelu",
                                     "silu", "geglu", "geglu_tanh", "swiglu", "reglu"])
def test_names_the_variant_and_its_runner_up(variant):
    found = identify_ffn(correct(HF, variant), bias=False)
    assert found.variant == variant and found.layout == "hf", found.summary()
    assert found.best.error < 1e-12 < found.runner_up.error
    assert found.runner_up.variant != variant


def test_gate_first_or_second_and_biases():
    for layout in ("timm-glu", "timm-glu-gate-first"):
        found = identify_ffn(table_ffn("swiglu", layout), bias=True)
        assert (found.variant, found.layout) == ("swiglu", layout), found.summary()
        assert found.bias == {"gate": True, "up": True, "down": True}


def test_none_of_the_variants():
    class Off(HF):
        def forward(self, x):
            return super().forward(x) * 1.001

    found = identify_ffn(lambda d, h, bias: Off("gelu", d, h, bias), bias=False)
    assert found.best is None and found.closest.variant in ("gelu", "gelu_tanh")
    assert found.summary().startswith("none of the variants")


def test_a_forward_failure_names_the_variant_the_module_computes():
    with pytest.raises(ConformanceFailure) as info:
        check_ffn(correct(HF, "gelu_tanh"), "gelu", "hf", bias=False, max_examples=5,
                  shrink=False)
    assert info.value.check == "forward"
    assert "this computes gelu_tanh, not gelu" in info.value.report()


def test_cli(capsys):
    assert main(["identify", "tests.conformance.zoo:SwiGLU", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["best"]["variant"] == "swiglu" and data["best"]["layout"] == "hf"
    assert main(["identify", "no.such.module:f"]) == 2
