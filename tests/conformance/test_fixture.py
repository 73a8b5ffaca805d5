"""The `ffn_conformance` fixture from the ffnverify pytest plugin."""

import pytest

pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from .zoo import GateUpSwapped, SwiGLU  # noqa: E402

pytestmark = pytest.mark.torch


def test_fixture_accepts_a_correct_module(ffn_conformance):
    report = ffn_conformance(SwiGLU, "swiglu", layout="hf", max_examples=3)
    assert report.examples == {False: 3, True: 3}


def test_fixture_failure_is_an_assertion_error_with_the_report(ffn_conformance):
    with pytest.raises(AssertionError, match=r"check 'forward'\[float64\]"):
        ffn_conformance(GateUpSwapped, "swiglu", max_examples=3, shrink=False)


def test_plugin_module_registers_the_fixture():
    import ffnverify.pytest_plugin as plugin

    assert hasattr(plugin, "ffn_conformance")
