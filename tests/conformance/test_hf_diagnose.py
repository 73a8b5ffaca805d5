"""Real transformers classes (tox -e hf): FalconH1MLP with its mlp_multipliers and BloomMLP's
truncated constant are diagnosed, not just rejected; the experts of MixtralExperts,
Qwen2MoeExperts and DbrxExperts pass with experts=i, and identify names their layouts."""

import importlib.util
import warnings

import pytest

pytest.importorskip("torch", reason="the conformance kit needs PyTorch")
if importlib.util.find_spec("transformers") is None:
    pytest.skip("transformers is not installed (tox -e hf installs it)",
                allow_module_level=True)

from ffnverify.testing import check_ffn, identify_ffn
from ffnverify.testing import conformance as C

from .hf_broken import HF_BROKEN
from .hf_modules import bloom, bloom_call

pytestmark = [pytest.mark.hf, pytest.mark.torch]


def falcon_h1(d, h, bias=False):
    from transformers import FalconH1Config
    from transformers.models.falcon_h1.modeling_falcon_h1 import FalconH1MLP

    cfg = FalconH1Config(hidden_size=d, intermediate_size=h, mlp_bias=bias, hidden_act="silu",
                         mlp_multipliers=[0.5, 2.25], num_attention_heads=1,
                         num_key_value_heads=1, head_dim=2)
    return FalconH1MLP(cfg)


def test_falcon_h1_multipliers_are_named():
    found = identify_ffn(falcon_h1, bias=True)
    assert found.best is None
    assert [d.what for d in found.diagnoses] == [
        "the gate's pre-activation scaled by 0.5 and the output scaled by 2.25"], \
        found.summary()
    with pytest.raises(C.ConformanceFailure) as info:
        check_ffn(falcon_h1, "swiglu", bias=True, max_examples=5)
    assert "the output scaled by 2.25" in info.value.report()


def test_bloom_constant_is_fitted():
    """BloomMLP's 0.79788456 for sqrt(2/pi): the diagnosis fits it to its eight digits."""
    found = identify_ffn(bloom, bias=True, call=bloom_call, h_of=lambda d: 4 * d)
    assert found.best is None
    assert any("the gelu_tanh constant k = 0.79788456 (correct 0.797884560803)" in d.what
               for d in found.diagnoses), found.summary()


def mixtral(d, h, bias=False):
    from transformers import MixtralConfig
    from transformers.models.mixtral.modeling_mixtral import MixtralExperts

    return MixtralExperts(MixtralConfig(hidden_size=d, intermediate_size=h,
                                        num_local_experts=3, hidden_act="silu"))


def qwen2_moe(d, h, bias=False):
    from transformers import Qwen2MoeConfig
    from transformers.models.qwen2_moe.modeling_qwen2_moe import Qwen2MoeExperts

    return Qwen2MoeExperts(Qwen2MoeConfig(hidden_size=d, moe_intermediate_size=h,
                                          num_experts=3, hidden_act="silu"))


def dbrx(d, h, bias=False):
    from transformers import DbrxConfig
    from transformers.models.dbrx.modeling_dbrx import DbrxExperts

    cfg = DbrxConfig(d_model=d, ffn_config={"ffn_hidden_size": h, "moe_num_experts": 3,
                                            "ffn_act_fn": {"name": "silu"}})
    return DbrxExperts(cfg.ffn_config)


EXPERTS = [("MixtralExperts", mixtral, "mixtral-experts"),
           ("Qwen2MoeExperts", qwen2_moe, "mixtral-experts"),
           ("DbrxExperts", dbrx, "dbrx-experts")]


@pytest.mark.parametrize("name,factory,layout", EXPERTS, ids=[e[0] for e in EXPERTS])
def test_real_experts_pass_with_experts_i(name, factory, layout):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = identify_ffn(factory, bias=False, experts=2)
        assert (found.variant, found.layout) == ("swiglu", layout), found.summary()
        report = check_ffn(factory, "swiglu", bias=False, experts=1, max_examples=10)
    assert report.layout == layout and report.tool_notes == (), report.summary()


@pytest.mark.parametrize("name,factory,variant,layout,bias,kind,words", HF_BROKEN,
                         ids=[b[0] for b in HF_BROKEN])
def test_a_real_class_broken_the_way_issue_24_names_gets_that_diagnosis(
        name, factory, variant, layout, bias, kind, words):
    """Each diagnosis of issue 24 §1 on a real transformers class broken that way (its
    forward edited in a subclass, or its config): rejected, and the report names it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(C.ConformanceFailure) as info:
            check_ffn(factory, variant, layout, bias=bias, max_examples=10)
    text = info.value.report()
    assert kind in [d.kind for d in info.value.diagnoses], text
    assert words in text and "it then matches at every drawn point" in text, text
