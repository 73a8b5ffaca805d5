"""The whole-model functions against Hugging Face transformers' real modules (tox -e hf):

- params_attention against the numel of one transformers attention module (Llama, Qwen2
  with q/k/v biases, GPT-2 with every bias, Qwen3 without its q/k norms), on meta;
- flops_model and one decoder layer's FLOPs against FlopCounterMode over a forward and a
  backward of small transformers models (eager attention: explicit matmuls), MHA and GQA,
  dense, Mixtral-style MoE and Qwen2-MoE with a shared expert;
- kv_cache_bytes against the bytes a real DynamicCache holds after a forward pass.

The claim functions are reached through the claims engine where a catalogue row exists
(`kv_cache_bytes(llama-3.2-1b, ...)`), and through derivations for drawn shapes.
Skips with a reason where transformers is absent.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations import attention, model_costs, transformer
from ffnverify.claims import model_functions

pytestmark = pytest.mark.hf
torch = pytest.importorskip("torch", reason="PyTorch is not installed (tox -e hf installs it)")
transformers = pytest.importorskip(
    "transformers", reason="Hugging Face transformers is not installed (run `tox -e hf`)")
from torch.utils.flop_counter import FlopCounterMode  # noqa: E402


@st.composite
def attention_configs(draw):
    kv = draw(st.integers(1, 4), label="kv_heads")
    heads = kv * draw(st.integers(1, 3), label="group")
    head_dim = 2 * draw(st.integers(1, 8), label="half_head_dim")
    d = heads * draw(st.integers(1, 8), label="d_per_head")  # the configs insist
    family = draw(st.sampled_from(["llama", "qwen2", "qwen3", "gpt2"]), label="family")
    return family, d, heads, kv, head_dim


def _attention_module(family, d, heads, kv, head_dim):
    common = dict(vocab_size=8, hidden_size=d, intermediate_size=4, num_hidden_layers=1,
                  num_attention_heads=heads, num_key_value_heads=kv, head_dim=head_dim)
    with torch.device("meta"):
        if family == "gpt2":
            cfg = transformers.GPT2Config(vocab_size=8, n_embd=heads * head_dim, n_layer=1,
                                          n_head=heads, n_positions=4)
            return transformers.GPT2Model(cfg).h[0].attn
        cls = {"llama": transformers.LlamaConfig, "qwen2": transformers.Qwen2Config,
               "qwen3": transformers.Qwen3Config}[family]
        return transformers.AutoModel.from_config(cls(**common)).layers[0].self_attn


@settings(max_examples=30, deadline=None)
@given(attention_configs())
def test_params_attention_matches_transformers_attention(cfg):
    family, d, heads, kv, head_dim = cfg
    module = _attention_module(family, d, heads, kv, head_dim)
    counted = sum(p.numel() for n, p in module.named_parameters() if "norm" not in n)
    if family == "gpt2":  # GPT-2: d = heads * head_dim, every projection biased
        d, kv = heads * head_dim, heads
    got = model_functions.params_attention(
        *map(sympy_int, (d, heads)), kv_heads=sympy_int(kv), head_dim=sympy_int(head_dim),
        qkv_bias=family in ("qwen2", "gpt2"), o_bias=family == "gpt2")
    assert counted == got == attention.attention_params(
        d, heads, kv, head_dim, family in ("qwen2", "gpt2"), family == "gpt2")
    norms = sum(p.numel() for n, p in module.named_parameters() if "norm" in n)
    assert norms == (2 * head_dim if family == "qwen3" else 0)  # Qwen3's q/k norms


def sympy_int(x):
    import sympy as sp

    return sp.Integer(x)


def _tiny(family, kv_heads, experts=1, shared=0, experts_implementation="eager"):
    d, heads, hd, h, layers, vocab = 32, 4, 8, 40, 2, 64
    kw = dict(vocab_size=vocab, hidden_size=d, intermediate_size=h, num_hidden_layers=layers,
              num_attention_heads=heads, num_key_value_heads=kv_heads, head_dim=hd,
              tie_word_embeddings=False, attn_implementation="eager")
    moe = dict(experts_implementation=experts_implementation)
    arch = dict(d_model=d, d_ff=h, variant="swiglu", layers=layers, vocab=vocab, heads=heads,
                kv_heads=kv_heads, head_dim=hd)
    if family == "llama":
        cfg = transformers.LlamaConfig(**kw)
    elif family == "qwen2":
        cfg = transformers.Qwen2Config(**kw)
        arch["qkv_bias"] = True
    elif family == "mixtral":
        cfg = transformers.MixtralConfig(**kw, num_local_experts=experts, num_experts_per_tok=2,
                                         **moe)
        arch.update(experts=experts, active_experts=2)
    else:  # qwen2_moe: routed experts of width h, a shared expert and its gate
        kw.pop("intermediate_size")
        cfg = transformers.Qwen2MoeConfig(**kw, moe_intermediate_size=h, num_experts=experts,
                                          num_experts_per_tok=2,
                                          shared_expert_intermediate_size=shared,
                                          decoder_sparse_step=1, mlp_only_layers=[], **moe)
        arch.update(experts=experts, active_experts=2, shared_d_ff=shared,
                    shared_expert_gate=True, qkv_bias=True)
    torch.manual_seed(0)
    return transformers.AutoModelForCausalLM.from_config(cfg), transformer.Architecture(**arch)


FAMILIES = [("llama", 4, 1), ("llama", 1, 1), ("qwen2", 2, 1), ("mixtral", 2, 4),
            ("qwen2_moe", 2, 4)]
IDS = ["llama-MHA", "llama-GQA(MQA)", "qwen2-GQA-bias", "mixtral-MoE", "qwen2-MoE-shared"]


def _counted(fn):
    with FlopCounterMode(display=False) as counter:
        fn()
    return counter


@pytest.mark.parametrize("family,kv_heads,experts", FAMILIES, ids=IDS)
def test_flops_model_matches_flop_counter_on_transformers(family, kv_heads, experts):
    model, arch = _tiny(family, kv_heads, experts, shared=24)
    assert sum(p.numel() for p in model.parameters()) == transformer.params_total(arch)
    batch, seq = 2, 5
    ids = torch.randint(0, arch.vocab, (batch, seq))
    out = {}
    fwd = _counted(lambda: out.setdefault("y", model(ids).logits))
    bwd = _counted(lambda: out["y"].sum().backward())
    n = batch * seq
    assert fwd.get_total_flops() == model_costs.model_flops(arch, n, seq, "forward")
    assert bwd.get_total_flops() == model_costs.model_flops(arch, n, seq, "backward")
    # one decoder layer, from the counter's per-module breakdown
    per_module = {k: sum(v.values()) for k, v in fwd.get_flop_counts().items()}
    layer0 = next(v for k, v in per_module.items() if k.endswith("model.layers.0"))
    assert layer0 == model_costs.layer_flops(arch, n, seq)
    head = next(v for k, v in per_module.items() if k.endswith("lm_head"))
    assert head == model_costs.lm_head_flops(arch, n)


def test_grouped_mm_experts_are_invisible_to_the_flop_counter():
    """transformers' default MoE path (experts_implementation="grouped_mm") multiplies with
    torch._grouped_mm, which FlopCounterMode does not count: it reports the attention,
    router and head but none of the experts' FLOPs. That is why the checks above run the
    eager experts. If this starts to fail, the counter has learned grouped_mm: run the
    default path in the checks above too."""
    model, arch = _tiny("mixtral", 2, 4, experts_implementation="grouped_mm")
    measured = _counted(lambda: model(torch.randint(0, arch.vocab, (2, 5)))).get_total_flops()
    expert_flops = arch.layers * 2 * _flops_one_expert(arch, 10)
    assert measured == model_costs.model_flops(arch, 10, 5) - expert_flops


def _flops_one_expert(arch, n):
    from derivations import flops

    return flops.flops(arch.variant, arch.d_model, arch.d_ff, n)


def test_flops_model_mutant_with_causal_halving_is_caught():
    model, arch = _tiny("llama", 1)
    ids = torch.randint(0, arch.vocab, (1, 6))
    measured = _counted(lambda: model(ids)).get_total_flops()
    halved = model_costs.model_flops(arch, 6, 6) - arch.layers * attention.score_value_flops(
        arch.heads, 6, 6, arch.head_dim) / 2
    assert measured == model_costs.model_flops(arch, 6, 6) and measured != halved


def _cache_bytes(cache) -> int:
    total = 0
    for layer in cache.layers:
        for t in (layer.keys, layer.values):
            total += t.numel() * t.element_size()
    return total


@pytest.mark.parametrize("dtype,name", [(torch.float32, "fp32"), (torch.bfloat16, "bf16")])
@pytest.mark.parametrize("kv_heads", [4, 2, 1], ids=["MHA", "GQA", "MQA"])
def test_kv_cache_bytes_match_a_real_dynamic_cache(kv_heads, dtype, name):
    model, arch = _tiny("llama", kv_heads)
    model = model.to(dtype)
    batch, seq = 3, 7
    out = model(torch.randint(0, arch.vocab, (batch, seq)), use_cache=True)
    cache = getattr(out, "cache", None) or out.past_key_values
    assert isinstance(cache, transformers.DynamicCache)
    assert _cache_bytes(cache) == model_costs.kv_cache_bytes(arch, seq, batch, name)
    # the cache grows by one position per generated token
    step = model(torch.randint(0, arch.vocab, (batch, 1)), past_key_values=cache,
                 use_cache=True)
    cache = getattr(step, "cache", None) or step.past_key_values
    assert _cache_bytes(cache) == model_costs.kv_cache_bytes(arch, seq + 1, batch, name)
    assert _cache_bytes(cache) != model_costs.kv_cache_bytes(  # mutant: k and v as MHA
        transformer.Architecture(**{**arch.__dict__, "kv_heads": 4}), seq + 1, batch, name) \
        or kv_heads == 4


def test_kv_cache_claim_for_a_catalogue_row_matches_transformers_cache_shapes():
    """kv_cache_bytes(llama-3.2-1b, ...) through the claim function, against a cache built
    by the real model class from the row's config with two of its 16 layers (the cache is
    per layer, so the full figure is 8 times the measured one)."""
    from ffnverify import catalogue

    m = catalogue.get("llama-3.2-1b")
    cfg = transformers.LlamaConfig(vocab_size=64, hidden_size=m.d_model,
                                   intermediate_size=8, num_hidden_layers=2,
                                   num_attention_heads=m.heads, num_key_value_heads=m.kv_heads,
                                   head_dim=m.head_dim, attn_implementation="eager")
    model = transformers.AutoModelForCausalLM.from_config(cfg).to(torch.bfloat16)
    out = model(torch.randint(0, 64, (1, 9)), use_cache=True)
    cache = getattr(out, "cache", None) or out.past_key_values
    measured = _cache_bytes(cache) * (m.layers // 2)
    assert measured == model_functions.kv_cache_bytes("llama-3.2-1b", sympy_int(9))
