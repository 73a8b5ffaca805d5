"""Our whole-model totals against Hugging Face transformers' own classes.

Each model transformers has a class for is built from a config written here from the
catalogue row (nothing is downloaded), on the meta device (shapes only, no memory), and
its unique parameters are counted (`parameters()` yields a tied weight once). Runs in
`tox -e hf`; skips with a reason where transformers is absent.
"""

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations import transformer
from ffnverify import catalogue
from ffnverify.catalogue import MODELS

pytestmark = pytest.mark.hf
torch = pytest.importorskip("torch", reason="PyTorch is not installed (tox -e hf installs it)")
transformers = pytest.importorskip(
    "transformers", reason="Hugging Face transformers is not installed (run `tox -e hf`)")

# transformers' activation names -> derivations' activation names (the exact GELU form)
HF_ACTIVATIONS = {"silu": "silu", "gelu_pytorch_tanh": "gelu_tanh", "gelu_new": "gelu_tanh",
                  "gelu": "gelu", "relu": "relu"}
VARIANT_ACTIVATION = {"swiglu": "silu", "geglu_tanh": "gelu_tanh", "geglu": "gelu",
                      "gelu_tanh": "gelu_tanh", "gelu": "gelu", "relu": "relu"}
HF_ACT_FOR = {"silu": "silu", "gelu_tanh": "gelu_pytorch_tanh", "gelu": "gelu"}


def _decoder_kwargs(m):
    return dict(vocab_size=m.vocab, hidden_size=m.d_model, intermediate_size=m.d_ff,
                num_hidden_layers=m.layers, num_attention_heads=m.heads,
                num_key_value_heads=m.kv_heads, tie_word_embeddings=m.tied)


def _llama(m):
    assert m.head_dim == m.d_model // m.heads
    return transformers.LlamaConfig(**_decoder_kwargs(m), hidden_act="silu")


def _mistral(m):
    return transformers.MistralConfig(**_decoder_kwargs(m), head_dim=m.head_dim)


def _mixtral(m):
    return transformers.MixtralConfig(**_decoder_kwargs(m), num_local_experts=m.experts,
                                      num_experts_per_tok=m.active_experts)


def _qwen2(m):
    return transformers.Qwen2Config(**_decoder_kwargs(m))


def _gemma(m):
    act = HF_ACT_FOR[VARIANT_ACTIVATION[m.variant]]
    return transformers.GemmaConfig(**_decoder_kwargs(m), head_dim=m.head_dim,
                                    hidden_act=act, hidden_activation=act)


def _gemma2(m):
    act = HF_ACT_FOR[VARIANT_ACTIVATION[m.variant]]
    return transformers.Gemma2Config(**_decoder_kwargs(m), head_dim=m.head_dim,
                                     hidden_activation=act)


def _olmo(m):
    return transformers.OlmoConfig(**_decoder_kwargs(m))


def _phi3(m):
    return transformers.Phi3Config(**_decoder_kwargs(m), pad_token_id=0)


def _falcon(m):
    assert m.variant == "gelu" and m.tied and not m.bias and m.norm_bias
    new = m.norms_per_layer == 2  # ln_attn and ln_mlp (Falcon 40B's decoder)
    return transformers.FalconConfig(vocab_size=m.vocab, hidden_size=m.d_model,
                                     num_hidden_layers=m.layers, num_attention_heads=m.heads,
                                     num_kv_heads=m.kv_heads, multi_query=m.kv_heads == 1,
                                     new_decoder_architecture=new, parallel_attn=True,
                                     bias=False, alibi=False, ffn_hidden_size=m.d_ff,
                                     activation="gelu", tie_word_embeddings=m.tied)


def _gpt2(m):
    return transformers.GPT2Config(vocab_size=m.vocab, n_positions=m.positions,
                                   n_embd=m.d_model, n_layer=m.layers, n_head=m.heads,
                                   n_inner=m.d_ff, activation_function="gelu_new",
                                   tie_word_embeddings=m.tied)


def _t5(m):
    proj = {"geglu_tanh": "gated-gelu", "relu": "relu"}[m.variant]
    return transformers.T5Config(vocab_size=m.vocab, d_model=m.d_model, d_kv=m.head_dim,
                                 d_ff=m.d_ff, num_layers=m.encoder_layers,
                                 num_decoder_layers=m.layers, num_heads=m.heads,
                                 relative_attention_num_buckets=m.relative_attention_buckets,
                                 feed_forward_proj=proj, tie_word_embeddings=m.tied)


def _bert(m):
    assert m.variant == "gelu" and m.tied and m.pooler
    return transformers.BertConfig(vocab_size=m.vocab, hidden_size=m.d_model,
                                   num_hidden_layers=m.layers, num_attention_heads=m.heads,
                                   intermediate_size=m.d_ff, hidden_act="gelu",
                                   max_position_embeddings=m.positions,
                                   type_vocab_size=m.token_types)


def _gemma3(m):
    act = HF_ACT_FOR[VARIANT_ACTIVATION[m.variant]]
    return transformers.Gemma3TextConfig(**_decoder_kwargs(m), head_dim=m.head_dim,
                                         hidden_activation=act,
                                         max_position_embeddings=m.context)


def _qwen3(m):
    return transformers.Qwen3Config(**_decoder_kwargs(m), head_dim=m.head_dim)


def _qwen2_moe(m):
    kw = _decoder_kwargs(m)
    kw.pop("intermediate_size")
    return transformers.Qwen2MoeConfig(**kw, moe_intermediate_size=m.d_ff,
                                       shared_expert_intermediate_size=m.shared_d_ff,
                                       num_experts=m.experts,
                                       num_experts_per_tok=m.active_experts,
                                       decoder_sparse_step=1, mlp_only_layers=[])


BUILDERS = {
    **{n: _llama for n in MODELS if n.startswith("llama-")},
    "mistral-7b": _mistral, "mixtral-8x7b": _mixtral, "qwen2.5-7b": _qwen2,
    "gemma-2b": _gemma, "gemma-7b": _gemma, "gemma-2-9b": _gemma2, "olmo-7b": _olmo,
    "phi-3-mini": _phi3, "gpt2-small": _gpt2, "gpt-3-175b": _gpt2, "t5-v1.1-base": _t5,
    # issue 12
    "gpt2-medium": _gpt2, "gpt2-large": _gpt2, "gpt2-xl": _gpt2,
    "t5-small": _t5, "t5-base": _t5, "t5-large": _t5, "t5-3b": _t5,
    "bert-base": _bert, "bert-large": _bert, "gemma-3-1b": _gemma3,
    "qwen3-0.6b": _qwen3, "qwen3-8b": _qwen3, "qwen2.5-0.5b": _qwen2,
    "mixtral-8x22b": _mixtral, "qwen1.5-moe-a2.7b": _qwen2_moe,
    # widely discussed open models (the Llama-architecture rows are built by _llama above:
    # Yi and DeepSeek LLM ship LlamaForCausalLM configs, Code Llama and TinyLlama are Llama)
    "codellama-7b": _llama, "codellama-13b": _llama, "codellama-34b": _llama,
    "tinyllama-1.1b": _llama, "yi-34b": _llama, "deepseek-llm-7b": _llama,
    "deepseek-llm-67b": _llama, "mistral-7b-v0.3": _mistral, "mistral-nemo-12b": _mistral,
    "qwen2-7b": _qwen2, "qwen2-72b": _qwen2, "qwen2.5-14b": _qwen2, "qwen2.5-32b": _qwen2,
    "qwen2.5-72b": _qwen2, "gemma-2-2b": _gemma2, "gemma-2-27b": _gemma2,
    "phi-3-medium": _phi3, "falcon-7b": _falcon, "falcon-40b": _falcon,
}
NO_HF_CLASS = {
    "palm-540b": "transformers has no PaLM class (parallel block, MQA, no biases)",
    # checked against torch.nn.TransformerEncoderLayer/DecoderLayer in test_catalogue_torch.py
    "transformer-base": "the 2017 Transformer is torch.nn.Transformer's, not a transformers "
                        "class (checked in test_catalogue_torch.py)",
    "transformer-big": "as transformer-base",
}


def _hf_activation(cfg) -> str:
    for attr in ("hidden_activation", "dense_act_fn", "activation_function", "hidden_act",
                 "activation"):  # FalconConfig's
        act = getattr(cfg, attr, None)
        if act:
            return act
    raise AssertionError(f"no activation in {type(cfg).__name__}")


def build(cfg):
    auto = (transformers.AutoModelForSeq2SeqLM if cfg.is_encoder_decoder
            else transformers.AutoModel if cfg.model_type == "bert"
            else transformers.AutoModelForCausalLM)
    with torch.device("meta"):
        return auto.from_config(cfg)


# transformers >= 5 forces T5Config.tie_word_embeddings to True (its T5Config source says
# so); loading google/t5-v1_1-base, whose lm_head differs from the embedding, un-ties them
# again. Building from a config cannot reproduce that, so the head is un-tied here by hand.
FORCED_TIE = {"t5-v1.1-base"}


def untie_forced_head(model, m):
    head, emb = model.get_output_embeddings(), model.get_input_embeddings()
    if m.tied or head.weight is not emb.weight:
        return model
    assert m.name in FORCED_TIE, f"{m.name}: transformers tied a head the release keeps apart"
    head.weight = torch.nn.Parameter(torch.empty_like(head.weight))
    return model


def test_every_row_has_a_builder_or_a_reason():
    assert set(BUILDERS) | set(NO_HF_CLASS) == set(MODELS)


@functools.cache
def built(name):
    """The catalogue row as transformers builds it (on meta), once per worker."""
    m = MODELS[name]
    return untie_forced_head(build(BUILDERS[name](m)), m)


# transformers' parameter names -> the parts of params_total(m, part=...), first match wins
PART_RULES = [
    ("lm_head", "lm_head"), ("pooler", "pooler"), ("relative_attention_bias", "positions"),
    ("wpe", "positions"), ("position_embeddings", "positions"),
    ("embed_tokens", "embedding"), ("wte", "embedding"), ("word_embeddings", "embedding"),
    ("token_type_embeddings", "embedding"), ("shared.", "embedding"),
    ("norm", "norms"), ("ln_", "norms"),
    ("attn", "attention"), ("attention", "attention"), ("encdecattention", "attention"),
    ("mlp", "ffn"), ("intermediate", "ffn"), ("output.dense", "ffn"),
    ("densereludense", "ffn"), ("block_sparse_moe", "ffn"),
]


def part_of(param_name: str) -> str:
    low = param_name.lower()
    for key, part in PART_RULES:
        if key in low:
            return part
    raise AssertionError(f"no part for transformers parameter {param_name!r}")


def hf_parts(model) -> dict[str, int]:
    out = dict.fromkeys(transformer.PARTS, 0)
    for pname, p in model.named_parameters():  # a tied weight appears once
        out[part_of(pname)] += p.numel()
    return out


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_parts_match_transformers_modules(name):
    """params_total(m, part=P) for every part against the numel of transformers' own
    parameters of that part (classified by their names)."""
    assert hf_parts(built(name)) == catalogue.parts(name)


def test_part_classifier_catches_a_moved_norm():
    """Mutant: counting the final norm as FFN makes the comparison fail."""
    parts = dict(catalogue.parts("llama-3-8b"))
    parts["norms"] -= 4096
    parts["ffn"] += 4096
    assert hf_parts(built("llama-3-8b")) != parts


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_total_matches_transformers(name):
    m = MODELS[name]
    model = built(name)
    counted = sum(p.numel() for p in model.parameters())  # a tied weight appears once
    assert all(p.device.type == "meta" for p in model.parameters())
    assert counted == catalogue.params_total(m), (
        f"{name}: transformers {counted:,}, derived {catalogue.params_total(m):,}; "
        f"breakdown {catalogue.breakdown(m)}")


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_gelu_form_matches_transformers(name):
    """The catalogue's variant names the same activation transformers' config runs."""
    m = MODELS[name]
    act = _hf_activation(BUILDERS[name](m))
    assert HF_ACTIVATIONS[act] == VARIANT_ACTIVATION[m.variant], (name, act, m.variant)


def test_transformers_catches_a_wrong_kv_heads():
    """Mutant: the catalogue total of a row with the wrong kv_heads disagrees with the
    model transformers builds from the right config."""
    import dataclasses

    m = MODELS["llama-3-8b"]
    model = build(BUILDERS["llama-3-8b"](m))
    counted = sum(p.numel() for p in model.parameters())
    assert counted != catalogue.params_total(dataclasses.replace(m, kv_heads=32))


@st.composite
def small_decoders(draw):
    """Small configs of the decoder families transformers has classes for."""
    family = draw(st.sampled_from(["llama", "qwen2", "gemma", "mixtral", "gpt2", "qwen3"]),
                  label="family")
    heads = draw(st.integers(1, 4), label="heads")
    kv = draw(st.sampled_from([k for k in range(1, heads + 1) if heads % k == 0]), label="kv")
    head_dim = 2 * draw(st.integers(1, 8), label="half_head_dim")  # RoPE wants it even
    # a multiple of heads (the configs insist) with an even head_dim (RoPE)
    d = heads * 2 * draw(st.integers(1, 6), label="d_model_per_head")
    if family not in ("gemma", "qwen3"):  # configs with head_dim from the start
        head_dim = d // heads
    h = draw(st.integers(1, 96), label="d_ff")
    layers = draw(st.integers(1, 3), label="layers")
    vocab = draw(st.integers(8, 300), label="vocab")
    tied = draw(st.booleans(), label="tied")
    common = dict(d_model=d, d_ff=h, layers=layers, vocab=vocab, heads=heads, kv_heads=kv,
                  head_dim=head_dim, tied=tied)
    kw = dict(vocab_size=vocab, hidden_size=d, intermediate_size=h, num_hidden_layers=layers,
              num_attention_heads=heads, num_key_value_heads=kv, head_dim=head_dim,
              tie_word_embeddings=tied)
    if family == "llama":
        return (transformers.LlamaConfig(**kw),
                transformer.Architecture(variant="swiglu", **common))
    if family == "qwen3":
        return (transformers.Qwen3Config(**kw),
                transformer.Architecture(variant="swiglu", qk_norm=True, **common))
    if family == "qwen2":
        return (transformers.Qwen2Config(**kw),
                transformer.Architecture(variant="swiglu", qkv_bias=True, **common))
    if family == "gemma":
        return (transformers.GemmaConfig(**kw, hidden_activation="gelu_pytorch_tanh"),
                transformer.Architecture(variant="geglu_tanh", **common))
    if family == "mixtral":
        experts = draw(st.integers(2, 4), label="experts")
        return (transformers.MixtralConfig(**kw, num_local_experts=experts,
                                           num_experts_per_tok=2),
                transformer.Architecture(variant="swiglu", experts=experts, **common))
    positions = draw(st.integers(1, 64), label="positions")
    d = heads * head_dim  # GPT-2 ties the attention width to d_model
    return (transformers.GPT2Config(vocab_size=vocab, n_positions=positions, n_embd=d,
                                    n_layer=layers, n_head=heads, n_inner=h,
                                    tie_word_embeddings=tied, bos_token_id=None,
                                    eos_token_id=None),
            transformer.Architecture(**{**common, "d_model": d, "kv_heads": heads},
                                     variant="gelu_tanh", bias=True, qkv_bias=True,
                                     o_bias=True, norm="layer", norm_bias=True,
                                     positions=positions))


@settings(max_examples=25)
@given(small_decoders())
def test_drawn_configs_match_transformers(pair):
    cfg, arch = pair
    model = build(cfg)
    counted = sum(p.numel() for p in model.parameters())
    assert counted == transformer.params_total(arch), (cfg, transformer.breakdown(arch))
    assert hf_parts(model) == transformer.parts(arch)
