"""What a sentence does with its figures: a clause refuted after the fact ("..., but that
is wrong", "— this figure is false") is refuted, as one refuted before it ("It is a myth
that ..."); a model a modal sentence imagines ("a model like X", "a hypothetical X", "X
with 64 layers would ...") is no claim about X; terminal control sequences in prose are
no figures and are not copied into the text."""

import pytest
from verdicts import only


@pytest.mark.parametrize("text", [
    "People often say Mistral 7B has 48 layers, but that is wrong.",
    "Some posts claim Mistral 7B has 48 layers, but that's a myth.",
    "Mistral 7B has 48 layers, which is incorrect.",
    "Many blogs still claim Llama 2 7B has 40 layers, but this figure is false.",
    "Llama 2 7B has 40 layers — that is simply wrong.",
    "You will hear that Llama 2 7B has 40 layers; this is not true.",
    "Llama 2 7B has 40 layers, but that claim is completely false.",
])
def test_refuted_after_the_fact_is_never_false(scan_text, text):
    st = only(scan_text, text)
    assert st["verdict"] != "false", st


@pytest.mark.parametrize("text", [
    "Mistral 7B has 48 layers, but that is wrong.",      # refuted: the sentence holds
])
def test_refuted_figure_reads_as_its_negation(scan_text, text):
    st = only(scan_text, text)
    assert st["verdict"] == "true" and "not (" in st["claim"], st


@pytest.mark.parametrize("text", [
    "Llama 2 7B has 32 layers, but that is not the whole story.",
    "Mistral 7B has 32 layers, which is correct.",
])
def test_no_refutation_no_negation(scan_text, text):
    st = only(scan_text, text)
    assert st["status"] == "checked" and st["verdict"] == "true", st


def test_the_refuted_clause_is_the_one_before_the_pivot(scan_text):
    # not the author's own after it: 48 refuted, 32 said; never FALSE
    st = only(scan_text, "Mistral 7B has 48 layers, but that is wrong; it has 32 layers.")
    assert st["verdict"] != "false", st


@pytest.mark.parametrize("text", [
    "A model like Llama 2 7B with 64 layers would be twice as deep.",
    "Llama 2 7B with 64 layers would need far more memory.",
    "A hypothetical Llama 2 7B with 40 layers would be slower.",
    "Mistral 7B, grown to 48 layers, would need about 10B parameters.",
    "A network similar to Mistral 7B would have 48 layers.",
])
def test_imagined_models_are_never_false(scan_text, text):
    for st in scan_text(text)["statements"]:
        assert st["verdict"] != "false", st


@pytest.mark.parametrize("text", [
    "With 4,096 tokens of context, Llama 2 7B would need 2 GiB of KV cache.",
    "Llama 2 7B would need 2 GiB of KV cache at 4,096 tokens of context.",
])
def test_a_modal_with_an_input_is_still_read(scan_text, text):
    st = only(scan_text, text)
    assert st["verdict"] == "true" and st["status"] == "suggested", st


def test_a_plain_with_is_no_premise(scan_text):
    st = only(scan_text, "Llama 2 7B ships with 32 layers.")
    assert st["status"] == "checked" and st["verdict"] == "true", st


# ---- terminal control sequences ------------------------------------------------------

@pytest.mark.parametrize("name", ["doc.md", "doc.txt", "doc.html", "doc.rst"])
def test_ansi_sequences_yield_no_figures(scan_text, name):
    got = scan_text("Intro.\n\n\x1b[31mLlama 2 7B has 40 layers\x1b[0m here.\n", name=name)
    st = _only_of(got)
    assert "\x1b" not in st["text"] and "31" not in st["text"], st
    assert st["unread"] == [] and st["verdict"] == "false", st
    assert st["line"] == 3


def test_ansi_positions_point_at_the_text(scan_text):
    got = scan_text("\x1b[1;33mLlama 2 7B has 32 layers.\x1b[0m\n", name="doc.txt")
    st = _only_of(got)
    assert (st["line"], st["col"]) == (1, 8), st


def test_osc_and_c1_controls_dropped(scan_text):
    got = scan_text("\x1b]0;7B title 99\x07Mistral 7B has 32 layers.\x9b\n", name="doc.txt")
    st = _only_of(got)
    assert st["text"] == "Mistral 7B has 32 layers." and st["verdict"] == "true", st


def _only_of(got):
    assert len(got["statements"]) == 1, got
    return got["statements"][0]


# ---- a model without its grouped-query attention (`words.COUNTERFACTUAL`) ----------------
# "Llama 2 70B would need 64 KV heads without GQA" was SUGGESTED FALSE as kv_heads == 64:
# it imagines the model without GQA; the cache read "as if it used MHA" is still read.

@pytest.mark.parametrize("text", [
    "Llama 2 70B would need 64 KV heads without GQA.",
    "Before GQA, Llama 2 70B would have had 64 KV heads.",
    "Llama 2 7B would have had 40 layers in an early draft.",
])
def test_a_model_imagined_without_its_feature_is_no_claim(scan_text, text):
    for st in scan_text(text + "\n")["statements"]:
        assert st["verdict"] is None, st


def test_the_cache_imagined_without_gqa_is_read_as_mha(scan_text):
    (st,) = scan_text("Without GQA, the KV cache of Llama 2 70B at 4096 tokens in fp16 would "
                      "be 10.7 GB.\n")["statements"]
    assert (st["status"], st["verdict"]) == ("suggested", "true"), st
    (st,) = scan_text("Without GQA, the KV cache of Llama 2 70B at 4096 tokens in fp16 would "
                      "be 1.3 GB.\n")["statements"]  # mutant: the GQA figure
    assert st["verdict"] == "false", st


def test_a_plain_would_is_still_read(scan_text):
    (st,) = scan_text("Llama 2 7B in fp16 would take about 40 GB for its weights.\n")["statements"]
    assert st["verdict"] == "false", st
