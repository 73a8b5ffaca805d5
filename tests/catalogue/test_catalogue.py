"""The catalogue: every d_ff reproduced from its rule, every published total from the
derivation, and the one checking function shown to catch wrong rows (mutants)."""

import dataclasses

import pytest
import sympy as sp

from derivations import transformer
from derivations.params import params
from ffnverify import catalogue
from ffnverify.catalogue import MATCH, MISMATCH, MODELS, check, get

NAMES = list(MODELS)
RULED = [n for n in NAMES if MODELS[n].width_rule is not None]
PUBLISHED = [n for n in NAMES if MODELS[n].published_total is not None]

REQUIRED = {
    "llama-1-7b", "llama-1-13b", "llama-1-33b", "llama-1-65b", "llama-2-7b", "llama-2-13b",
    "llama-2-70b", "llama-3-8b", "llama-3-70b", "llama-3.1-405b", "mistral-7b",
    "mixtral-8x7b", "qwen2.5-7b", "gemma-2b", "gemma-7b", "gemma-2-9b", "t5-v1.1-base",
    "palm-540b", "gpt2-small", "gpt-3-175b", "olmo-7b", "phi-3-mini",
    # issue 12
    "llama-3.1-8b", "llama-3.1-70b", "llama-3.2-1b", "llama-3.2-3b", "transformer-base",
    "transformer-big", "bert-base", "bert-large", "t5-base", "gpt2-medium", "gpt2-large",
    "gpt2-xl", "gemma-3-1b", "qwen3-8b", "mixtral-8x22b", "qwen1.5-moe-a2.7b",
    # widely discussed open models
    "llama-3.3-70b", "codellama-7b", "codellama-13b", "codellama-34b", "mistral-7b-v0.3",
    "mistral-nemo-12b", "tinyllama-1.1b", "qwen2-7b", "qwen2-72b", "qwen2.5-14b",
    "qwen2.5-32b", "qwen2.5-72b", "gemma-2-2b", "gemma-2-27b", "yi-34b", "deepseek-llm-7b",
    "deepseek-llm-67b", "phi-3-medium", "falcon-7b", "falcon-40b",
}
# Widths no stated rule produced: the config gives them. Listed so that a change is deliberate.
GIVEN_WIDTHS = {"mistral-7b", "mixtral-8x7b", "qwen2.5-7b", "gemma-2-9b", "t5-v1.1-base",
                "phi-3-mini", "llama-3.2-3b", "t5-small", "t5-base", "t5-large", "t5-3b",
                "gemma-3-1b", "qwen3-0.6b", "qwen3-8b", "qwen2.5-0.5b", "mixtral-8x22b",
                "qwen1.5-moe-a2.7b", "mistral-7b-v0.3", "mistral-nemo-12b", "tinyllama-1.1b",
                "qwen2-7b", "qwen2-72b", "qwen2.5-14b", "qwen2.5-32b", "qwen2.5-72b",
                "gemma-2-2b", "gemma-2-27b", "yi-34b", "deepseek-llm-7b", "deepseek-llm-67b",
                "phi-3-medium", "falcon-7b", "falcon-40b"}


def test_catalogue_has_every_required_model():
    assert REQUIRED <= set(MODELS), f"missing: {sorted(REQUIRED - set(MODELS))}"
    assert len(MODELS) >= 63


# The 2017 Transformer's paper states no maximum length; every other row carries one.
NO_CONTEXT = {"transformer-base", "transformer-big"}


@pytest.mark.parametrize("name", NAMES)
def test_every_row_carries_a_context_and_a_source(name):
    m = MODELS[name]
    assert (m.context is None) == (name in NO_CONTEXT)
    assert m.context is None or m.context > 0
    assert m.source
    assert m.published_total is None or m.published_source


def test_given_widths_are_exactly_the_rows_without_a_rule():
    assert set(NAMES) - set(RULED) == GIVEN_WIDTHS


@pytest.mark.parametrize("name", RULED)
def test_d_ff_reproduced_from_its_rule(name):
    m = MODELS[name]
    assert catalogue.derived_width(m) == m.d_ff, (
        f"{name}: rule {m.width_rule} {m.width_params} gives {catalogue.derived_width(m)}, "
        f"the row says {m.d_ff}")


@pytest.mark.parametrize("name,d,expected", [
    ("llama-1-33b", 6656, 17920), ("llama-1-65b", 8192, 22016), ("llama-2-13b", 5120, 13824),
    ("llama-2-7b", 4096, 11008), ("llama-3.1-405b", 16384, 53248),
])
def test_llama_widths_quoted_in_the_issue(name, d, expected):
    assert MODELS[name].d_model == d
    assert catalogue.derived_width(name) == expected


@pytest.mark.parametrize("name", PUBLISHED)
def test_published_total_reproduced(name):
    m = MODELS[name]
    assert catalogue.params_total(m) == m.published_total, (
        f"{name}: derived {catalogue.params_total(m):,}, published {m.published_total:,} "
        f"({m.published_source})")


def test_published_totals_quoted_in_the_issue():
    quoted = {"llama-2-7b": 6_738_415_616, "llama-3-8b": 8_030_261_248,
              "mistral-7b": 7_241_732_096, "gemma-7b": 8_537_680_896,
              "llama-2-13b": 13_015_864_320, "llama-2-70b": 68_976_648_192,
              "llama-3-70b": 70_553_706_496, "mixtral-8x7b": 46_702_792_704,
              "gpt2-small": 124_439_808, "qwen2.5-7b": 7_615_616_512,
              "gemma-2b": 2_506_172_416}
    for name, total in quoted.items():
        assert catalogue.params_total(name) == total, name


def _plain_total(m) -> int:
    """The same count written out independently in plain integers (no SymPy, no helpers)."""
    d, q, kv = m.d_model, m.heads * m.head_dim, m.kv_heads * m.head_dim
    attn = 2 * d * q + 2 * d * kv + (q + 2 * kv if m.qkv_bias else 0) + (d if m.o_bias else 0)
    gated = {"glu", "bilinear", "reglu", "geglu", "geglu_tanh", "swiglu", "tanhglu"}
    mats = 3 if m.variant in gated else 2

    def mlp(width):
        return mats * d * width + ((mats - 1) * width + d if m.bias else 0)

    ffn = m.experts * mlp(m.d_ff) + (d * m.experts if m.experts > 1 else 0)
    ffn += (mlp(m.shared_d_ff) if m.shared_d_ff else 0) + (d if m.shared_expert_gate else 0)
    norm = d * (m.norm_weight + m.norm_bias)
    qk = 2 * m.head_dim if m.qk_norm else 0
    stacks = 2 if m.encoder_layers else 1
    total = m.vocab * d * (1 if m.tied else 2) + m.positions * d + m.token_types * d
    total += (norm if m.embedding_norm else 0) + (d * d + d if m.pooler else 0)
    total += m.layers * (attn + ffn + m.norms_per_layer * norm + qk)
    total += stacks * norm if m.final_norm else 0
    total += stacks * m.relative_attention_buckets * m.heads
    total += m.encoder_layers * (attn + ffn + m.norms_per_layer * norm + qk)
    total += m.layers * (attn + norm + qk) if m.encoder_layers else 0  # cross-attention
    return total


@pytest.mark.parametrize("name", NAMES)
def test_total_agrees_with_an_independent_plain_count(name):
    assert catalogue.params_total(name) == _plain_total(MODELS[name])


@pytest.mark.parametrize("name", NAMES)
def test_breakdown_sums_to_total_and_every_row_checks(name):
    assert sum(catalogue.breakdown(name).values()) == catalogue.params_total(name)
    c = check(name)
    assert c.ok, c


def test_llama_family_closed_form():
    L, V, d, h, H, K, hd = sp.symbols("L V d h H K hd", positive=True, integer=True)
    a = transformer.Architecture(d_model=d, d_ff=h, variant="swiglu", layers=L, vocab=V,
                                 heads=H, kv_heads=K, head_dim=hd)
    expected = L * (2 * d * H * hd + 2 * d * K * hd + 3 * d * h + 2 * d) + 2 * V * d + d
    assert sp.expand(transformer.params_total(a) - expected) == 0


def test_ffn_part_uses_derivations_params():
    a = catalogue.architecture("gpt2-small")
    assert transformer.ffn_params(a) == params("gelu_tanh", 768, 3072, True)


def test_rmsnorm_with_bias_is_rejected():
    with pytest.raises(ValueError, match="RMSNorm has no bias"):
        transformer.Architecture(d_model=8, d_ff=16, variant="swiglu", layers=1, vocab=10,
                                 heads=2, kv_heads=2, head_dim=4, norm="rms", norm_bias=True)


def test_get_names_the_known_models_and_resolves_aliases():
    assert get("gpt-2-small") is MODELS["gpt2-small"]
    with pytest.raises(KeyError, match="llama-2-7b") as e:
        get("llama-7b")
    assert "unknown model 'llama-7b'" in str(e.value)


@pytest.mark.parametrize("alias,name", [
    ("Llama-2-7B", "llama-2-7b"), ("meta-llama/Llama-2-7b-hf", "llama-2-7b"),
    ("META-LLAMA/LLAMA-2-7B-HF", "llama-2-7b"), ("Qwen/Qwen3-8B", "qwen3-8b"),
    ("google-bert/bert-base-uncased", "bert-base"), ("openai-community/gpt2", "gpt2-small"),
    ("mistralai/Mixtral-8x22B-v0.1", "mixtral-8x22b"), ("GPT2-XL", "gpt2-xl"),
    # a version in the name picks its row: v0.3 is not v0.1's (its vocabulary is 32768)
    ("Mistral-7B-v0.3", "mistral-7b-v0.3"), ("mistralai/Mistral-7B-v0.3", "mistral-7b-v0.3"),
    ("Mistral-7B-v0.1", "mistral-7b"), ("CodeLlama-34B", "codellama-34b"),
    ("codellama/CodeLlama-7b-hf", "codellama-7b"), ("Mistral-Nemo", "mistral-nemo-12b"),
])
def test_names_are_case_insensitive_and_take_repository_ids(alias, name):
    assert get(alias) is MODELS[name]


@pytest.mark.parametrize("typo,first", [
    ("llama-2-7", "llama-2-7b"), ("mixtral-8x22", "mixtral-8x22b"), ("qwen3-8", "qwen3-8b"),
    ("meta-llama/Llama-2-7b", "llama-2-7b"),
])
def test_an_unknown_name_suggests_the_closest(typo, first):
    if typo.lower() in catalogue.LOOKUP:  # a real id, not a typo: it resolves
        assert get(typo).name == first
        return
    with pytest.raises(KeyError) as e:
        get(typo)
    assert f"did you mean {first}" in str(e.value), str(e.value)


def test_an_unrelated_name_suggests_nothing_wrong():
    with pytest.raises(KeyError) as e:
        get("zzzz")
    assert "did you mean" not in str(e.value) and "ffnverify models" in str(e.value)


def test_every_repository_id_names_one_row():
    seen = {}
    for m in MODELS.values():
        for hf in m.hf_ids:
            assert hf.lower() not in seen, (hf, seen.get(hf.lower()), m.name)
            seen[hf.lower()] = m.name


def test_claim_functions():
    assert catalogue.d_model("gemma-7b") == 3072
    assert catalogue.d_ff("llama-2-7b") == 11008
    assert catalogue.layers("llama-3.1-405b") == 126
    assert isinstance(catalogue.params_total("llama-3-8b"), int)


# --- mutants: wrong rows that the one checking function must flag as MISMATCH ---------

def _mutant(name, **changes):
    return dataclasses.replace(MODELS[name], **changes)


@pytest.mark.parametrize("name", sorted(set(RULED) | set(PUBLISHED)))
def test_mutant_wrong_d_ff_is_caught(name):
    m = _mutant(name, d_ff=MODELS[name].d_ff + 256)
    c = check(m)
    assert MISMATCH in (c.width, c.total) and not c.ok, c


@pytest.mark.parametrize("name", PUBLISHED)
def test_mutant_wrong_kv_heads_is_caught(name):
    m = MODELS[name]
    wrong = m.kv_heads // 2 if m.kv_heads > 1 else 2
    c = check(_mutant(name, kv_heads=wrong))
    assert c.total == MISMATCH and c.width != MISMATCH, c


@pytest.mark.parametrize("name", PUBLISHED)
def test_mutant_flipped_tying_is_caught(name):
    """An untied head counted as tied (and a tied one counted twice)."""
    c = check(_mutant(name, tied=not MODELS[name].tied))
    assert c.total == MISMATCH, c


def test_mutant_registry_multiplier_is_caught():
    """llama-models' sku_list.py gives Llama 2 7B ffn_dim_multiplier 1.3: that rule gives
    14336, not the released 11008."""
    m = _mutant("llama-2-7b", width_params=dict(multiple_of=256, multiplier="1.3"))
    c = check(m)
    assert (c.width, c.derived_width) == (MISMATCH, 14336)


def test_unmutated_rows_match():
    assert all(check(n).width in (MATCH, "given") for n in NAMES)
    assert all(check(n).total in (MATCH, "unpublished") for n in NAMES)
