"""The catalogue's functions, on what the first mutation run of the whole-model area
(issue 26, docs/mutation.md) left: the name lookup table (built once at import, so only a
test that builds it again can see a bug in it), and `layer_parts` and `params_active`,
which no selected test called."""

from ffnverify import catalogue
from ffnverify.catalogue.models import ALIASES, ROWS


def test_the_lookup_table_maps_every_name_alias_and_repository_id_in_lower_case():
    # kills catalogue._lookup mutmut_2 (names keyed upper-cased: `get` lower-cases what it
    # is given, so no catalogue name would be found)
    table = catalogue._lookup()
    for m in ROWS:
        assert table[m.name.lower()] == m.name
        for hf in m.hf_ids:
            assert table[hf.lower()] == m.name
    for alias, name in ALIASES.items():
        assert table[alias.lower()] == name
    assert all(key == key.lower() for key in table)
    assert table == catalogue.LOOKUP  # what `get` reads is this table


def test_llama_2_7b_layer_parts_are_its_published_shapes():
    # kills catalogue.layer_parts mutmut_1 (no selected test called it)
    # Llama 2 7B: d 4096, SwiGLU d_ff 11008, 32 heads of 128, two RMSNorms per layer
    assert catalogue.layer_parts("llama-2-7b") == {
        "attention": 4 * 4096 * 4096, "ffn": 3 * 4096 * 11008, "norms": 2 * 4096}
    # 32 layers of them, the 32000 x 4096 embedding and LM head and the final norm
    assert catalogue.params_total("llama-2-7b") == (
        32 * sum(catalogue.layer_parts("llama-2-7b").values()) + 2 * 32000 * 4096 + 4096)


def test_mixtral_uses_two_of_its_eight_experts_per_token():
    # kills catalogue.params_active mutmut_2 (no selected test called it)
    # Mixtral 8x7B: 32 layers, 8 SwiGLU experts of 3 * 4096 * 14336, 2 active per token:
    # the 6 it skips in every layer are what the total has beyond the active count
    total, active = catalogue.params_total("mixtral-8x7b"), catalogue.params_active("mixtral-8x7b")
    assert total - active == 32 * 6 * 3 * 4096 * 14336
    assert round(active / 1e9, 1) == 12.9  # Mistral AI's "12.9B active parameters"
    # a dense model uses every parameter
    assert catalogue.params_active("llama-2-7b") == catalogue.params_total("llama-2-7b")
