"""Every catalogue row pinned to its published architecture, typed a second time.

The catalogue's totals are derived from its own fields, so a wrong field (a layer count
typed 30 for 32) moves the derived total, the transformers build of the same fields and
every claim about it together; only a docs claim would notice. This table is typed
independently from the published config.json (Hugging Face) or the paper's table for each
row, and every field of every row must agree with it. A new row must be added here too.

Columns: d_model, d_ff (per branch; an expert's width for a mixture of experts), layers
(decoder, or encoder for encoder-only), heads, kv_heads, head_dim, vocab, context (None:
the paper states none), experts, active experts, tied embeddings.
"""

import dataclasses

import pytest

from ffnverify.catalogue import MODELS

FIELDS = ("d_model", "d_ff", "layers", "heads", "kv_heads", "head_dim", "vocab", "context",
          "experts", "active_experts", "tied")

PUBLISHED = {
    # Touvron et al. 2023a, Table 2; huggyllama/llama-* config.json
    "llama-1-7b": (4096, 11008, 32, 32, 32, 128, 32000, 2048, 1, 1, False),
    "llama-1-13b": (5120, 13824, 40, 40, 40, 128, 32000, 2048, 1, 1, False),
    "llama-1-33b": (6656, 17920, 60, 52, 52, 128, 32000, 2048, 1, 1, False),
    "llama-1-65b": (8192, 22016, 80, 64, 64, 128, 32000, 2048, 1, 1, False),
    # meta-llama/Llama-2-*-hf config.json
    "llama-2-7b": (4096, 11008, 32, 32, 32, 128, 32000, 4096, 1, 1, False),
    "llama-2-13b": (5120, 13824, 40, 40, 40, 128, 32000, 4096, 1, 1, False),
    "llama-2-70b": (8192, 28672, 80, 64, 8, 128, 32000, 4096, 1, 1, False),
    # meta-llama/Meta-Llama-3-*, Llama-3.1-*, Llama-3.2-* config.json
    "llama-3-8b": (4096, 14336, 32, 32, 8, 128, 128256, 8192, 1, 1, False),
    "llama-3-70b": (8192, 28672, 80, 64, 8, 128, 128256, 8192, 1, 1, False),
    "llama-3.1-8b": (4096, 14336, 32, 32, 8, 128, 128256, 131072, 1, 1, False),
    "llama-3.1-70b": (8192, 28672, 80, 64, 8, 128, 128256, 131072, 1, 1, False),
    "llama-3.1-405b": (16384, 53248, 126, 128, 8, 128, 128256, 131072, 1, 1, False),
    "llama-3.2-1b": (2048, 8192, 16, 32, 8, 64, 128256, 131072, 1, 1, True),
    "llama-3.2-3b": (3072, 8192, 28, 24, 8, 128, 128256, 131072, 1, 1, True),
    # mistralai/Mistral-7B-v0.1, Mixtral-8x7B-v0.1, Mixtral-8x22B-v0.1 config.json
    "mistral-7b": (4096, 14336, 32, 32, 8, 128, 32000, 32768, 1, 1, False),
    "mixtral-8x7b": (4096, 14336, 32, 32, 8, 128, 32000, 32768, 8, 2, False),
    "mixtral-8x22b": (6144, 16384, 56, 48, 8, 128, 32000, 65536, 8, 2, False),
    # Qwen/Qwen2.5-7B, Qwen2.5-0.5B, Qwen3-0.6B, Qwen3-8B, Qwen1.5-MoE-A2.7B(-Chat) config.json
    "qwen2.5-7b": (3584, 18944, 28, 28, 4, 128, 152064, 131072, 1, 1, False),
    "qwen2.5-0.5b": (896, 4864, 24, 14, 2, 64, 151936, 32768, 1, 1, True),
    "qwen3-0.6b": (1024, 3072, 28, 16, 8, 128, 151936, 40960, 1, 1, True),
    "qwen3-8b": (4096, 12288, 36, 32, 8, 128, 151936, 40960, 1, 1, False),
    "qwen1.5-moe-a2.7b": (2048, 1408, 24, 16, 16, 128, 151936, 32768, 60, 4, False),
    # google/gemma-2b, gemma-7b, gemma-2-9b, gemma-3-1b-pt config.json
    "gemma-2b": (2048, 16384, 18, 8, 1, 256, 256000, 8192, 1, 1, True),
    "gemma-7b": (3072, 24576, 28, 16, 16, 256, 256000, 8192, 1, 1, True),
    "gemma-2-9b": (3584, 14336, 42, 16, 8, 256, 256000, 8192, 1, 1, True),
    "gemma-3-1b": (1152, 6912, 26, 4, 1, 256, 262144, 32768, 1, 1, True),
    # Vaswani et al. 2017, Table 3 (base, big); shared 37000-token BPE vocabulary
    "transformer-base": (512, 2048, 6, 8, 8, 64, 37000, None, 1, 1, True),
    "transformer-big": (1024, 4096, 6, 16, 16, 64, 37000, None, 1, 1, True),
    # google-bert/bert-base-uncased, bert-large-uncased config.json
    "bert-base": (768, 3072, 12, 12, 12, 64, 30522, 512, 1, 1, True),
    "bert-large": (1024, 4096, 24, 16, 16, 64, 30522, 512, 1, 1, True),
    # google-t5/t5-* and google/t5-v1_1-base config.json (num_layers, d_kv)
    "t5-small": (512, 2048, 6, 8, 8, 64, 32128, 512, 1, 1, True),
    "t5-base": (768, 3072, 12, 12, 12, 64, 32128, 512, 1, 1, True),
    "t5-large": (1024, 4096, 24, 16, 16, 64, 32128, 512, 1, 1, True),
    "t5-3b": (1024, 16384, 24, 32, 32, 128, 32128, 512, 1, 1, True),
    "t5-v1.1-base": (768, 2048, 12, 12, 12, 64, 32128, 512, 1, 1, False),
    # openai-community/gpt2, gpt2-medium, gpt2-large, gpt2-xl config.json
    "gpt2-small": (768, 3072, 12, 12, 12, 64, 50257, 1024, 1, 1, True),
    "gpt2-medium": (1024, 4096, 24, 16, 16, 64, 50257, 1024, 1, 1, True),
    "gpt2-large": (1280, 5120, 36, 20, 20, 64, 50257, 1024, 1, 1, True),
    "gpt2-xl": (1600, 6400, 48, 25, 25, 64, 50257, 1024, 1, 1, True),
    # Brown et al. 2020, Table 2.1 (GPT-3 175B); GPT-2's tokenizer
    "gpt-3-175b": (12288, 49152, 96, 96, 96, 128, 50257, 2048, 1, 1, True),
    # Chowdhery et al. 2022, Table 1 (PaLM 540B: multi-query attention, d_ff = 4·d)
    "palm-540b": (18432, 73728, 118, 48, 1, 256, 256000, 2048, 1, 1, True),
    # allenai/OLMo-7B config (mlp_hidden_size 22016 fused: 11008 per branch; embedding 50304)
    "olmo-7b": (4096, 11008, 32, 32, 32, 128, 50304, 2048, 1, 1, False),
    # microsoft/Phi-3-mini-4k-instruct config.json
    "phi-3-mini": (3072, 8192, 32, 32, 32, 96, 32064, 4096, 1, 1, False),
    # --- widely discussed open models, each from its released config.json ---
    # meta-llama/Llama-3.3-70B-Instruct
    "llama-3.3-70b": (8192, 28672, 80, 64, 8, 128, 128256, 131072, 1, 1, False),
    # codellama/CodeLlama-{7b,13b,34b}-hf (34B: no infilling tokens, vocab 32000)
    "codellama-7b": (4096, 11008, 32, 32, 32, 128, 32016, 16384, 1, 1, False),
    "codellama-13b": (5120, 13824, 40, 40, 40, 128, 32016, 16384, 1, 1, False),
    "codellama-34b": (8192, 22016, 48, 64, 8, 128, 32000, 16384, 1, 1, False),
    # mistralai/Mistral-7B-v0.3, Mistral-Nemo-Base-2407 (head_dim 128, not 5120/32)
    "mistral-7b-v0.3": (4096, 14336, 32, 32, 8, 128, 32768, 32768, 1, 1, False),
    "mistral-nemo-12b": (5120, 14336, 40, 32, 8, 128, 131072, 128000, 1, 1, False),
    # TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T
    "tinyllama-1.1b": (2048, 5632, 22, 32, 4, 64, 32000, 2048, 1, 1, False),
    # Qwen/Qwen2-7B, Qwen2-72B, Qwen2.5-14B, Qwen2.5-32B, Qwen2.5-72B
    "qwen2-7b": (3584, 18944, 28, 28, 4, 128, 152064, 131072, 1, 1, False),
    "qwen2-72b": (8192, 29568, 80, 64, 8, 128, 152064, 131072, 1, 1, False),
    "qwen2.5-14b": (5120, 13824, 48, 40, 8, 128, 152064, 131072, 1, 1, False),
    "qwen2.5-32b": (5120, 27648, 64, 40, 8, 128, 152064, 131072, 1, 1, False),
    "qwen2.5-72b": (8192, 29568, 80, 64, 8, 128, 152064, 131072, 1, 1, False),
    # google/gemma-2-2b, gemma-2-27b
    "gemma-2-2b": (2304, 9216, 26, 8, 4, 256, 256000, 8192, 1, 1, True),
    "gemma-2-27b": (4608, 36864, 46, 32, 16, 128, 256000, 8192, 1, 1, True),
    # 01-ai/Yi-34B; deepseek-ai/deepseek-llm-7b-base, deepseek-llm-67b-base
    "yi-34b": (7168, 20480, 60, 56, 8, 128, 64000, 4096, 1, 1, False),
    "deepseek-llm-7b": (4096, 11008, 30, 32, 32, 128, 102400, 4096, 1, 1, False),
    "deepseek-llm-67b": (8192, 22016, 95, 64, 8, 128, 102400, 4096, 1, 1, False),
    # microsoft/Phi-3-medium-4k-instruct
    "phi-3-medium": (5120, 17920, 40, 40, 10, 128, 32064, 4096, 1, 1, False),
    # tiiuae/falcon-7b (multi_query: 1 KV head), tiiuae/falcon-40b (num_kv_heads 8); d_ff is
    # transformers FalconConfig's default 4 x hidden_size; the head is tied
    "falcon-7b": (4544, 18176, 32, 71, 1, 64, 65024, 2048, 1, 1, True),
    "falcon-40b": (8192, 32768, 60, 128, 8, 64, 65024, 2048, 1, 1, True),
}


def disagreements(model, published) -> list[str]:
    return [f"{f}: catalogue {getattr(model, f)!r}, published {p!r}"
            for f, p in zip(FIELDS, published, strict=True) if getattr(model, f) != p]


def test_every_row_is_pinned():
    assert set(PUBLISHED) == set(MODELS), (
        f"rows without a pinned published architecture: {sorted(set(MODELS) - set(PUBLISHED))}; "
        f"pinned rows the catalogue lacks: {sorted(set(PUBLISHED) - set(MODELS))}")


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_row_matches_its_published_architecture(name):
    assert not disagreements(MODELS[name], PUBLISHED[name]), (
        f"{name}: " + "; ".join(disagreements(MODELS[name], PUBLISHED[name])))


@pytest.mark.parametrize("field", FIELDS)
def test_a_changed_field_is_caught(field):
    """Mutants: every field of every row, changed, is a disagreement."""
    for name, model in MODELS.items():
        value = getattr(model, field)
        wrong = (not value) if isinstance(value, bool) else (value or 0) + 1
        mutant = dataclasses.replace(model, **{field: wrong})
        assert any(d.startswith(field + ":") for d in disagreements(mutant, PUBLISHED[name]))


def test_encoder_layers_of_each_kind_of_stack():
    from ffnverify.claims.model_functions import encoder_layers

    assert encoder_layers("bert-base") == 12 and encoder_layers("bert-large") == 24  # one stack
    assert encoder_layers("t5-base") == 12  # an encoder-decoder's encoder
    assert encoder_layers("llama-2-7b") == 0  # decoder-only
    assert {n for n, m in MODELS.items() if m.encoder_only} == {"bert-base", "bert-large"}


# ---- every row against its published total ----------------------------------------------
# Rows with an exact published count carry it as `published_total` (test_catalogue.py
# checks the derived total equals it). The others were published rounded: the derived total
# must round to the figure at its stated precision (half a unit of its last digit), or the
# row's note must say that it does not reproduce, and it must indeed not.
ROUNDED = {
    # Touvron et al. 2023a (arXiv:2302.13971), Table 2: params 6.7B, 13.0B, 32.5B, 65.2B
    "llama-1-7b": ("6.7", 10**9), "llama-1-13b": ("13.0", 10**9),
    "llama-1-33b": ("32.5", 10**9),
    # Gemma 2 (arXiv:2408.00118, Table 1): 9B
    "gemma-2-9b": ("9", 10**9),
    # Chowdhery et al. 2022 (arXiv:2204.02311): 540B, a size rounded to billions
    "palm-540b": ("540", 10**9),
    # Abdin et al. 2024 (arXiv:2404.14219): phi-3-mini, 3.8B parameters
    "phi-3-mini": ("3.8", 10**9),
    # the nominal sizes their releases are named by (no finer count is published):
    # Code Llama (arXiv:2308.12950) 7B, 13B, 34B; Mistral 7B v0.3; Mistral NeMo "12B"
    # (Mistral's announcement); Yi-34B (arXiv:2403.04652); DeepSeek LLM 7B, 67B
    # (arXiv:2401.02954); Gemma 2 27B (arXiv:2408.00118)
    "codellama-7b": ("7", 10**9), "codellama-13b": ("13", 10**9),
    "codellama-34b": ("34", 10**9), "mistral-7b-v0.3": ("7", 10**9),
    "mistral-nemo-12b": ("12", 10**9), "yi-34b": ("34", 10**9),
    "deepseek-llm-7b": ("7", 10**9), "deepseek-llm-67b": ("67", 10**9),
    "gemma-2-27b": ("27", 10**9),
    # TinyLlama (arXiv:2401.02385): 1.1B
    "tinyllama-1.1b": ("1.1", 10**9),
    # Qwen/Qwen2.5-72B model card: 72.7B
    "qwen2.5-72b": ("72.7", 10**9),
    # arXiv:2404.14219: phi-3-medium, 14B parameters
    "phi-3-medium": ("14", 10**9),
    # Falcon-7B (arXiv:2311.16867): the nominal 7B
    "falcon-7b": ("7", 10**9),
}
# published truncated, not rounded: the derived total lies in [figure, figure + one unit)
TRUNCATED = {
    # arXiv:2302.13971 Table 2: 65.2B (65.29B counted)
    "llama-1-65b": ("65.2", 10**9),
    # arXiv:2407.21783, Table 3: 405B (405.85B counted)
    "llama-3.1-405b": ("405", 10**9),
    # Qwen/Qwen2.5-14B model card: 14.7B (14.77B counted)
    "qwen2.5-14b": ("14.7", 10**9),
}
DOES_NOT_REPRODUCE = {
    # Brown et al. 2020, Table 2.1: 175.0B (the GPT-2-style count is 174.6B)
    "gpt-3-175b": ("175.0", 10**9),
    # Vaswani et al. 2017, Table 3: 65 x 10^6 (base), 213 x 10^6 (big)
    "transformer-base": ("65", 10**6), "transformer-big": ("213", 10**6),
    # Qwen/Qwen2.5-32B model card: 32.5B (32.76B counted)
    "qwen2.5-32b": ("32.5", 10**9),
}
NO_PUBLISHED_FIGURE = {
    "olmo-7b": "the OLMo report names the model by its nominal size (7B) only",
    "t5-v1.1-base": "google's T5 v1.1 release notes give no parameter count for base",
    "qwen2-7b": "the Qwen2 report (arXiv:2407.10671, Table 1) gives the shape and no count; "
                "the name's 7B is nominal (7.62B counted, which does not round to it)",
    "qwen2-72b": "as qwen2-7b: 72B is nominal (72.71B counted)",
    "gemma-2-2b": "the Gemma 2 report (arXiv:2408.00118) gives embedding and non-embedding "
                  "counts, not a total of the released weights (its embedding counts "
                  "256128 rows); the name's 2B is nominal (2.61B counted)",
    "falcon-40b": "only the nominal 40B is published (41.3B counted, which does not round "
                  "to it)",
}


def _unit(figure: str, scale: int):
    from fractions import Fraction

    digits = figure.split(".")[1] if "." in figure else ""
    return Fraction(scale, 10**len(digits))


def _reproduces(total: int, figure: str, scale: int) -> bool:
    from fractions import Fraction

    return abs(total - Fraction(figure) * scale) <= _unit(figure, scale) / 2


def test_every_row_has_a_published_total_or_a_reason():
    from ffnverify.catalogue import MODELS

    exact = {n for n, m in MODELS.items() if m.published_total is not None}
    groups = [exact, set(ROUNDED), set(TRUNCATED), set(DOES_NOT_REPRODUCE),
              set(NO_PUBLISHED_FIGURE)]
    accounted = set().union(*groups)
    assert accounted == set(MODELS), sorted(set(MODELS) ^ accounted)
    assert sum(map(len, groups)) == len(accounted), "a row in two groups"


@pytest.mark.parametrize("name", sorted(ROUNDED))
def test_rounded_published_total_reproduces(name):
    from ffnverify import catalogue

    total = catalogue.params_total(MODELS[name])
    figure, scale = ROUNDED[name]
    assert _reproduces(total, figure, scale), f"{name}: {total:,} is not {figure} x {scale:,}"


@pytest.mark.parametrize("name", sorted(DOES_NOT_REPRODUCE))
def test_a_total_that_does_not_reproduce_says_so(name):
    from ffnverify import catalogue

    total = catalogue.params_total(MODELS[name])
    figure, scale = DOES_NOT_REPRODUCE[name]
    assert not _reproduces(total, figure, scale), f"{name} now reproduces {figure}: move it"
    assert figure.split(".")[0] in MODELS[name].note, MODELS[name].note


@pytest.mark.parametrize("name", sorted(TRUNCATED))
def test_truncated_published_total_reproduces_as_a_truncation(name):
    from fractions import Fraction

    from ffnverify import catalogue

    total = catalogue.params_total(MODELS[name])
    figure, scale = TRUNCATED[name]
    low = Fraction(figure) * scale
    assert low <= total < low + _unit(figure, scale), f"{name}: {total:,} vs {figure}"
    assert not _reproduces(total, figure, scale), f"{name} rounds to {figure}: move it"
