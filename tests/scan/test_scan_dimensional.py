"""A figure written as a width ("768-dimensional", "4096-dim", "4,096 wide") is a width:
never a count of layers, heads or experts, and "N-dimensional embeddings" (or hidden
states, residual stream) of a named model is its model width. Sentences written for
these tests."""

import pytest
from verdicts import only


@pytest.mark.parametrize("text", [
    "GPT-2 small's hidden layers are 768-dimensional.",
    "Llama 2 7B's attention heads are 128-dim.",
    "Mixtral 8x7B's experts are 14336 wide.",
])
def test_a_width_is_no_count(scan_text, text):
    got = only(scan_text, text)
    assert got["verdict"] != "false", got


@pytest.mark.parametrize("text,verdict", [
    ("Llama 2 7B uses 4096-dimensional embeddings.", "true"),
    ("Llama 2 7B uses 5120-dimensional embeddings.", "false"),
    ("GPT-2 small has 768 dimensional hidden states.", "true"),
])
def test_dimensional_embeddings_are_the_model_width(scan_text, text, verdict):
    got = only(scan_text, text)
    assert (got["status"], got["verdict"]) == ("checked", verdict), got


@pytest.mark.parametrize("text", [
    "In Llama 2 7B each query is a 128-dimensional vector.",
    "Llama 2 7B uses 128-dimensional embeddings per head.",
    "Llama 2 7B applies 128-dimensional rotary embeddings.",
])
def test_other_widths_are_not_the_model_width(scan_text, text):
    for got in scan_text(text + "\n")["statements"]:
        assert got["verdict"] != "false", got


@pytest.mark.parametrize("text,verdict", [
    ("In Llama 2 70B, each of the 80 layers has an FFN of width 28,672.", "true"),
    ("Llama 2 7B has an MLP with a hidden size of 11008.", "true"),
    ("In Llama 2 70B, each of the 80 layers has an FFN of width 8,192.", "false"),
])
def test_an_ffn_of_width_is_the_ffn_width(scan_text, text, verdict):
    got = only(scan_text, text)
    assert got["verdict"] == verdict, got
    assert "d_ff" in got["claim"], got


@pytest.mark.parametrize("text,verdict", [
    ("Llama 2 70B's FFN is three 8192 × 28672 matrices, 705M parameters per layer.", "true"),
    ("Llama 2 70B's FFN is three 8192 × 28672 matrices, 905M parameters per layer.", "false"),
])
def test_a_per_layer_count_may_be_the_part_the_sentence_spoke_of(scan_text, text, verdict):
    got = only(scan_text, text)
    assert (got["status"], got["verdict"]) == ("suggested", verdict), got


@pytest.mark.parametrize("text,verdict", [
    ("Llama 2 7B uses 11,008 intermediate units per layer.", "true"),
    ("Llama 2 7B uses 12,288 intermediate units per layer.", "false"),
    ("Llama 2 7B has 11008 FFN hidden units.", "true"),
])
def test_intermediate_units_are_the_ffn_width(scan_text, text, verdict):
    got = only(scan_text, text)
    assert (got["status"], got["verdict"]) == ("checked", verdict), got


@pytest.mark.parametrize("text,verdict", [
    ("Llama 2 (70B) has 80 layers.", "true"),
    ("Llama 2 (70B) has 64 layers.", "false"),
    ("Qwen2.5 (7B) has 28 layers.", "true"),
])
def test_a_size_in_parentheses_names_the_row(scan_text, text, verdict):
    got = only(scan_text, text)
    assert (got["status"], got["verdict"]) == ("checked", verdict), got


def test_an_initial_after_a_quote_mark_is_no_sentence_end(scan_text):
    # 'the initial in "N. Shazeer", …': the quote mark before the initial keeps it one
    got = scan_text('The bug split "N. Shazeer" at its initial and read Llama 2 7B as 40 '
                    'layers.\n')["statements"]
    assert len(got) == 1 and got[0]["text"].startswith("The bug split"), got
