"""Every catalogue row with a released config.json against transformers' own class built
from that config, typed here from the release (not from the row).

tests/catalogue/test_hf_models.py builds each transformers model from the catalogue row's
own fields, so a wrong field moves both sides together (a learned-position count, a
T5 encoder depth, a shared expert's width: none of them is in test_published_fields.py's
table). Here the config is the release's own config.json, as its repository publishes it
(the keys that shape the weights; nothing is downloaded): the parameters transformers
builds from it on the meta device must be the catalogue's derived total, and, where the
row carries an exact published total, that total too. Rows whose source is a paper with no
released config (PaLM, GPT-3, the 2017 Transformer) are checked against their published
figures in test_published_fields.py and test_catalogue_torch.py. Runs in `tox -e hf`.
"""

import dataclasses

import pytest

from ffnverify import catalogue
from ffnverify.catalogue import MODELS

pytestmark = pytest.mark.hf
torch = pytest.importorskip("torch", reason="PyTorch is not installed (tox -e hf installs it)")
transformers = pytest.importorskip(
    "transformers", reason="Hugging Face transformers is not installed (run `tox -e hf`)")


def _llama(h, ff, layers, heads, kv=None, vocab=32000, tie=False, **kw):
    return dict(model_type="llama", hidden_size=h, intermediate_size=ff,
                num_hidden_layers=layers, num_attention_heads=heads,
                num_key_value_heads=kv or heads, vocab_size=vocab, tie_word_embeddings=tie,
                **kw)


def _gpt2(embd, layers, heads):
    return dict(model_type="gpt2", n_embd=embd, n_layer=layers, n_head=heads,
                n_positions=1024, n_ctx=1024, vocab_size=50257, n_inner=None)


def _t5(d, ff, kv, layers, heads, **kw):
    return dict(model_type="t5", d_model=d, d_ff=ff, d_kv=kv, num_layers=layers,
                num_heads=heads, vocab_size=32128, relative_attention_num_buckets=32, **kw)


def _bert(h, layers, heads):
    return dict(model_type="bert", hidden_size=h, intermediate_size=4 * h,
                num_hidden_layers=layers, num_attention_heads=heads, vocab_size=30522,
                max_position_embeddings=512, type_vocab_size=2)


# repository -> the weight-shaping keys of its config.json
CONFIGS = {
    # huggyllama/llama-{7b,13b,30b,65b} (the LLaMA 1 weights; no num_key_value_heads key)
    "huggyllama/llama-7b": _llama(4096, 11008, 32, 32),
    "huggyllama/llama-13b": _llama(5120, 13824, 40, 40),
    "huggyllama/llama-30b": _llama(6656, 17920, 60, 52),
    "huggyllama/llama-65b": _llama(8192, 22016, 80, 64),
    "meta-llama/Llama-2-7b-hf": _llama(4096, 11008, 32, 32, 32),
    "meta-llama/Llama-2-13b-hf": _llama(5120, 13824, 40, 40, 40),
    "meta-llama/Llama-2-70b-hf": _llama(8192, 28672, 80, 64, 8),
    "meta-llama/Meta-Llama-3-8B": _llama(4096, 14336, 32, 32, 8, 128256),
    "meta-llama/Meta-Llama-3-70B": _llama(8192, 28672, 80, 64, 8, 128256),
    "meta-llama/Llama-3.1-8B": _llama(4096, 14336, 32, 32, 8, 128256),
    "meta-llama/Llama-3.1-70B": _llama(8192, 28672, 80, 64, 8, 128256),
    "meta-llama/Llama-3.1-405B": _llama(16384, 53248, 126, 128, 8, 128256),
    "meta-llama/Llama-3.2-1B": _llama(2048, 8192, 16, 32, 8, 128256, True, head_dim=64),
    "meta-llama/Llama-3.2-3B": _llama(3072, 8192, 28, 24, 8, 128256, True, head_dim=128),
    "mistralai/Mistral-7B-v0.1": dict(
        model_type="mistral", hidden_size=4096, intermediate_size=14336, num_hidden_layers=32,
        num_attention_heads=32, num_key_value_heads=8, vocab_size=32000,
        tie_word_embeddings=False, sliding_window=4096),
    "mistralai/Mixtral-8x7B-v0.1": dict(
        model_type="mixtral", hidden_size=4096, intermediate_size=14336, num_hidden_layers=32,
        num_attention_heads=32, num_key_value_heads=8, vocab_size=32000,
        tie_word_embeddings=False, num_local_experts=8, num_experts_per_tok=2),
    "mistral-community/Mixtral-8x22B-v0.1": dict(
        model_type="mixtral", hidden_size=6144, intermediate_size=16384, num_hidden_layers=56,
        num_attention_heads=48, num_key_value_heads=8, vocab_size=32000,
        tie_word_embeddings=False, num_local_experts=8, num_experts_per_tok=2),
    "Qwen/Qwen2.5-7B": dict(
        model_type="qwen2", hidden_size=3584, intermediate_size=18944, num_hidden_layers=28,
        num_attention_heads=28, num_key_value_heads=4, vocab_size=152064,
        tie_word_embeddings=False),
    "Qwen/Qwen2.5-0.5B": dict(
        model_type="qwen2", hidden_size=896, intermediate_size=4864, num_hidden_layers=24,
        num_attention_heads=14, num_key_value_heads=2, vocab_size=151936,
        tie_word_embeddings=True),
    "Qwen/Qwen3-0.6B": dict(
        model_type="qwen3", hidden_size=1024, intermediate_size=3072, num_hidden_layers=28,
        num_attention_heads=16, num_key_value_heads=8, head_dim=128, vocab_size=151936,
        tie_word_embeddings=True),
    "Qwen/Qwen3-8B": dict(
        model_type="qwen3", hidden_size=4096, intermediate_size=12288, num_hidden_layers=36,
        num_attention_heads=32, num_key_value_heads=8, head_dim=128, vocab_size=151936,
        tie_word_embeddings=False),
    "Qwen/Qwen1.5-MoE-A2.7B": dict(
        model_type="qwen2_moe", hidden_size=2048, intermediate_size=5632,
        moe_intermediate_size=1408, shared_expert_intermediate_size=5632, num_experts=60,
        num_experts_per_tok=4, decoder_sparse_step=1, mlp_only_layers=[],
        num_hidden_layers=24, num_attention_heads=16, num_key_value_heads=16,
        vocab_size=151936, tie_word_embeddings=False),
    "google/gemma-2b": dict(
        model_type="gemma", hidden_size=2048, intermediate_size=16384, num_hidden_layers=18,
        num_attention_heads=8, num_key_value_heads=1, head_dim=256, vocab_size=256000),
    "google/gemma-7b": dict(
        model_type="gemma", hidden_size=3072, intermediate_size=24576, num_hidden_layers=28,
        num_attention_heads=16, num_key_value_heads=16, head_dim=256, vocab_size=256000),
    "google/gemma-2-9b": dict(
        model_type="gemma2", hidden_size=3584, intermediate_size=14336, num_hidden_layers=42,
        num_attention_heads=16, num_key_value_heads=8, head_dim=256, vocab_size=256000),
    "google/gemma-3-1b-pt": dict(
        model_type="gemma3_text", hidden_size=1152, intermediate_size=6912,
        num_hidden_layers=26, num_attention_heads=4, num_key_value_heads=1, head_dim=256,
        vocab_size=262144),
    "allenai/OLMo-7B": dict(  # as allenai/OLMo-7B-hf writes it (olmo: non-parametric norms)
        model_type="olmo", hidden_size=4096, intermediate_size=11008, num_hidden_layers=32,
        num_attention_heads=32, num_key_value_heads=32, vocab_size=50304,
        tie_word_embeddings=False),
    "microsoft/Phi-3-mini-4k-instruct": dict(
        model_type="phi3", hidden_size=3072, intermediate_size=8192, num_hidden_layers=32,
        num_attention_heads=32, num_key_value_heads=32, vocab_size=32064, pad_token_id=32000,
        tie_word_embeddings=False),
    # the rows added in the sixth v3 session, typed here from their config.json files apart
    # from the rows themselves (the catalogue's typing and this one must agree)
    "meta-llama/Llama-3.3-70B-Instruct": _llama(8192, 28672, 80, 64, 8, 128256),
    "codellama/CodeLlama-7b-hf": _llama(4096, 11008, 32, 32, 32, 32016),
    "codellama/CodeLlama-13b-hf": _llama(5120, 13824, 40, 40, 40, 32016),
    "codellama/CodeLlama-34b-hf": _llama(8192, 22016, 48, 64, 8, 32000),
    "TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T": _llama(2048, 5632, 22, 32, 4),
    "01-ai/Yi-34B": _llama(7168, 20480, 60, 56, 8, 64000),
    "deepseek-ai/deepseek-llm-7b-base": _llama(4096, 11008, 30, 32, 32, 102400),
    "deepseek-ai/deepseek-llm-67b-base": _llama(8192, 22016, 95, 64, 8, 102400),
    "mistralai/Mistral-7B-v0.3": dict(
        model_type="mistral", hidden_size=4096, intermediate_size=14336, num_hidden_layers=32,
        num_attention_heads=32, num_key_value_heads=8, vocab_size=32768,
        tie_word_embeddings=False),
    "mistralai/Mistral-Nemo-Base-2407": dict(
        model_type="mistral", hidden_size=5120, intermediate_size=14336, num_hidden_layers=40,
        num_attention_heads=32, num_key_value_heads=8, head_dim=128, vocab_size=131072,
        tie_word_embeddings=False),
    **{f"Qwen/Qwen{v}": dict(
        model_type="qwen2", hidden_size=h, intermediate_size=ff, num_hidden_layers=n,
        num_attention_heads=heads, num_key_value_heads=kv, vocab_size=152064,
        tie_word_embeddings=False) for v, h, ff, n, heads, kv in [
            ("2-7B", 3584, 18944, 28, 28, 4), ("2-72B", 8192, 29568, 80, 64, 8),
            ("2.5-14B", 5120, 13824, 48, 40, 8), ("2.5-32B", 5120, 27648, 64, 40, 8),
            ("2.5-72B", 8192, 29568, 80, 64, 8)]},
    "google/gemma-2-2b": dict(
        model_type="gemma2", hidden_size=2304, intermediate_size=9216, num_hidden_layers=26,
        num_attention_heads=8, num_key_value_heads=4, head_dim=256, vocab_size=256000),
    "google/gemma-2-27b": dict(
        model_type="gemma2", hidden_size=4608, intermediate_size=36864, num_hidden_layers=46,
        num_attention_heads=32, num_key_value_heads=16, head_dim=128, vocab_size=256000),
    "microsoft/Phi-3-medium-4k-instruct": dict(
        model_type="phi3", hidden_size=5120, intermediate_size=17920, num_hidden_layers=40,
        num_attention_heads=40, num_key_value_heads=10, vocab_size=32064,
        tie_word_embeddings=False),
    "tiiuae/falcon-7b": dict(
        model_type="falcon", hidden_size=4544, num_hidden_layers=32, num_attention_heads=71,
        multi_query=True, new_decoder_architecture=False, parallel_attn=True, bias=False,
        vocab_size=65024),
    "tiiuae/falcon-40b": dict(
        model_type="falcon", hidden_size=8192, num_hidden_layers=60, num_attention_heads=128,
        num_kv_heads=8, new_decoder_architecture=True, parallel_attn=True, bias=False,
        vocab_size=65024),
    "openai-community/gpt2": _gpt2(768, 12, 12),
    "openai-community/gpt2-medium": _gpt2(1024, 24, 16),
    "openai-community/gpt2-large": _gpt2(1280, 36, 20),
    "openai-community/gpt2-xl": _gpt2(1600, 48, 25),
    "google-bert/bert-base-uncased": _bert(768, 12, 12),
    "google-bert/bert-large-uncased": _bert(1024, 24, 16),
    "google-t5/t5-small": _t5(512, 2048, 64, 6, 8),
    "google-t5/t5-base": _t5(768, 3072, 64, 12, 12),
    "google-t5/t5-large": _t5(1024, 4096, 64, 24, 16),
    "google-t5/t5-3b": _t5(1024, 16384, 128, 24, 32),
    "google/t5-v1_1-base": _t5(768, 2048, 64, 12, 12, feed_forward_proj="gated-gelu",
                               tie_word_embeddings=False),
}

# the row -> the repository whose config.json it is checked against (the row's first
# hf_id where it has one)
LLAMA1 = {"llama-1-7b": "huggyllama/llama-7b", "llama-1-13b": "huggyllama/llama-13b",
          "llama-1-33b": "huggyllama/llama-30b", "llama-1-65b": "huggyllama/llama-65b"}
REPOSITORY = {**LLAMA1, **{n: m.hf_ids[0] for n, m in MODELS.items() if m.hf_ids}}
NO_CONFIG = {
    "palm-540b": "the PaLM paper's Table 1; Google released no weights or config",
    "gpt-3-175b": "the GPT-3 paper's Table 2.1; OpenAI released no weights or config",
    "transformer-base": "Vaswani et al. 2017, Table 3; checked against torch.nn.Transformer",
    "transformer-big": "as transformer-base",
}


def test_every_row_has_a_released_config_or_a_reason():
    assert set(REPOSITORY) | set(NO_CONFIG) == set(MODELS)
    assert not set(REPOSITORY) & set(NO_CONFIG)
    assert set(REPOSITORY.values()) == set(CONFIGS)


def count(repo: str) -> int:
    """The unique parameters of transformers' model for `repo`'s config.json, on meta."""
    kw = dict(CONFIGS[repo])
    cfg = transformers.AutoConfig.for_model(kw.pop("model_type"), **kw)
    auto = (transformers.AutoModelForSeq2SeqLM if cfg.is_encoder_decoder
            else transformers.AutoModel if cfg.model_type == "bert"  # BertModel: the pooler
            else transformers.AutoModelForCausalLM)
    with torch.device("meta"):
        model = auto.from_config(cfg)
    head, emb = model.get_output_embeddings(), model.get_input_embeddings()
    if (head is not None and head.weight is emb.weight
            and not kw.get("tie_word_embeddings", True)):
        # transformers >= 5 ties T5's head whatever the config says; loading the release
        # un-ties it again (test_hf_models.py FORCED_TIE): count the head as the release has it
        return sum(p.numel() for p in model.parameters()) + head.weight.numel()
    return sum(p.numel() for p in model.parameters())  # a tied weight appears once


@pytest.mark.parametrize("name", sorted(REPOSITORY))
def test_row_total_is_what_transformers_builds_from_the_released_config(name):
    counted = count(REPOSITORY[name])
    m = MODELS[name]
    assert counted == catalogue.params_total(m), (
        f"{name}: {REPOSITORY[name]} builds {counted:,}, the row derives "
        f"{catalogue.params_total(m):,}")
    if m.published_total is not None:
        assert counted == m.published_total, f"{name}: published {m.published_total:,}"


@pytest.mark.parametrize("field", ["layers", "d_ff", "vocab", "positions", "encoder_layers",
                                   "shared_d_ff", "token_types"])
def test_a_changed_row_field_leaves_the_released_config(field):
    """Mutants: a row whose field is changed by one derives a total its config does not."""
    rows = [n for n in sorted(REPOSITORY) if getattr(MODELS[n], field)]
    assert rows, field
    for name in rows[:2]:
        m = MODELS[name]
        wrong = dataclasses.replace(m, **{field: getattr(m, field) + 1})
        assert catalogue.params_total(wrong) != count(REPOSITORY[name]), (name, field)
