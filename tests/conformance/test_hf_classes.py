"""The MLP classes people ship pass the kit with a built-in or auto-detected layout, and
`identify_ffn` names each one's variant (tox -e hf: about 10 minutes on 2 cores).

BloomMLP is the exception the kit is right about: its tanh-GELU constant is 0.79788456, not
sqrt(2/pi) = 0.7978845608..., a 1e-9 relative truncation that float64 resolves (the
output is off by ~5e-11, the float64 bound is ~3e-15). It passes in float32, bfloat16 and
float16, fails the float64 forward check, and identify finds no exact variant, gelu_tanh
closest.

megatron-core's MLP (unfused, local parallel linears on one CPU gloo process; forward returns
(output, bias): megatron_call) passes. Its fused bias-GELU does not: bias_gelu_impl
computes tanh-GELU with 0.79788456 for sqrt(2/pi) while the config asks for F.gelu.
"""

import importlib.util
import os
import warnings

import pytest

pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from ffnverify.testing import check_ffn, identify_ffn
from ffnverify.testing.conformance import ConformanceFailure

from .hf_modules import HF_CLASSES, MCALL, MEGATRON_CLASSES, megatron_mlp

pytestmark = [pytest.mark.hf, pytest.mark.torch]
LOW = ("float32", "bfloat16", "float16")
# examples per bias setting: the kit's default 100 unless FFNVERIFY_HF_EXAMPLES says (the
# default tox run takes 25 to stay inside CI's time; `FFNVERIFY_HF_EXAMPLES=100 tox -e hf`)
EXAMPLES = int(os.environ.get("FFNVERIFY_HF_EXAMPLES", "100"))


def _need(pkg):
    if importlib.util.find_spec(pkg) is None:
        pytest.skip(f"{pkg} is not installed (tox -e hf installs it)")
    if pkg == "megatron":
        _need("megatron.core")


def _identify(factory, bias, kw):
    return identify_ffn(factory, bias=bias[-1], call=kw.get("call"), h_of=kw.get("h_of"),
                        d_multiple_of=kw.get("d_multiple_of"))


CLASSES = HF_CLASSES + MEGATRON_CLASSES
# classes whose auto-detected layout must be a given built-in one: the run below is then the
# check with that layout (GPT2MLP's only run: tests/conformance/real_modules.py)
NAMED_LAYOUT = {"GPT2MLP": "gpt2"}


@pytest.mark.parametrize("entry", CLASSES, ids=[e[0] for e in CLASSES])
def test_class_passes_with_an_auto_layout_and_is_identified(entry):
    name, factory, variant, bias, kw, pkg = entry
    _need(pkg)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = _identify(factory, bias, kw)
        if name == "BloomMLP":
            assert found.best is None and found.closest.variant == variant, found.summary()
            with pytest.raises(ConformanceFailure) as info:
                check_ffn(factory, variant, bias=bias, dtypes=("float64",), max_examples=5,
                          **kw)
            assert (info.value.check, info.value.dtype) == ("forward", "float64")
            assert info.value.error < 1e-9  # the truncated constant, nothing bigger
            report = check_ffn(factory, variant, bias=bias, dtypes=LOW, max_examples=EXAMPLES,
                               **kw)
        else:
            assert found.variant == variant, found.summary()
            if name in NAMED_LAYOUT:  # the layout a user would name (test_real.py's rows)
                assert found.layout == NAMED_LAYOUT[name], found.summary()
            report = check_ffn(factory, variant, bias=bias, max_examples=EXAMPLES, **kw)
    assert report.layout == found.layout, (report.summary(), found.summary())
    assert all(k == EXAMPLES for k in report.examples.values()), report.summary()


def test_megatron_fused_bias_gelu_is_tanh_gelu_with_a_truncated_constant():
    """bias_activation_fusion=True with F.gelu: megatron's bias_gelu is
    x/2·(1 + tanh(0.79788456·x·(1 + 0.044715·x²))), not exact GELU. The kit rejects it as
    gelu in float64 and identify finds no exact variant, gelu_tanh closest (the truncated
    constant: ~1e-9 relative). torch.compile (megatron's jit_fuser) is switched off: the
    formula is the same eagerly, and compiling it per shape takes minutes on a CPU."""
    _need("megatron")
    _need("megatron.core")
    import torch._dynamo

    fused = megatron_mlp(fused=True)
    with warnings.catch_warnings(), torch._dynamo.config.patch(disable=True):
        warnings.simplefilter("ignore")
        found = identify_ffn(fused, bias=True, **MCALL)
        assert found.best is None and found.closest.variant == "gelu_tanh", found.summary()
        assert found.closest.error < 1e-8, found.summary()
        with pytest.raises(ConformanceFailure) as info:
            check_ffn(fused, "gelu", bias=True, dtypes=("float64",), max_examples=5,
                      shrink=False, **MCALL)
        assert (info.value.check, info.value.dtype) == ("forward", "float64")


def test_kit_table_rows_are_measured():
    """build/kit_table.md (python -m tests.conformance.kit_table) is written from runs, and a
    library that does not import gets a row that says so, not a pass."""
    _need("transformers")
    from . import kit_table

    qwen = kit_table.row(HF_CLASSES[0], 2)
    assert (qwen["result"], qwen["layout"], qwen["examples"]) == ("pass", "hf", "2"), qwen
    assert qwen["identify"].startswith("swiglu ("), qwen
    if importlib.util.find_spec("timm") is None:  # the hf env has no timm
        absent = kit_table.row(("Nothing", None, "gelu", (True,), {}, "timm"), 2)
        assert absent["result"].startswith("not run: timm does not import"), absent
    text = kit_table.table([qwen], 2)
    assert "| Qwen2MLP | swiglu | False | hf | swiglu (" in text
