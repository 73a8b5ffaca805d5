"""Figures after models named side by side ("A vs B: 32 vs 40 layers") are each only a
guess at their model: a FALSE from such a pairing is a note, never a flag (as a pairing
by nearness); one figure after a list of models ("A, B and C have 7 to 8 billion") is
said of each, and stays a flag; and "32 to 80 layers" is a range (found by probes in the
eleventh session; the sentences are written for the tests)."""

import pytest

from ffnverify.scan.figure import range_ends
from ffnverify.scan.numbers import tokens
from tests.scan.verdicts import decide


@pytest.mark.parametrize("text", [
    "Llama 2 7B vs Llama 2 13B: 32 vs 40 layers.",
    "Llama 2 7B and Llama 2 13B: 32 and 40 layers.",
    "Llama 2 13B vs Llama 2 7B: 40 vs 32 layers.",
])
def test_figures_after_names_side_by_side_are_no_flag(engine, text):
    _status, verdict, _, record = decide(engine, text)
    assert verdict != "false", record


def test_a_wrong_pair_after_names_side_by_side_is_noted(engine):
    _status, verdict, _, record = decide(engine, "Llama 2 7B vs Llama 2 13B: 48 vs 60 layers.")
    assert verdict is None and "nearest model named" in record["detail"], record


@pytest.mark.parametrize("text, verdict", [
    ("Small open models (Mistral 7B, Llama 3 8B, Phi-3 Mini) have 7 to 8 billion parameters.",
     "false"),  # said of each: Phi-3 Mini has 3.8B
    ("Llama 2 13B has 40 layers, while Llama 2 7B has 48 layers.", "false"),  # own clause
])
def test_a_figure_said_of_each_or_in_its_own_clause_is_still_flagged(engine, text, verdict):
    assert decide(engine, text)[1] == verdict, decide(engine, text)[3]


@pytest.mark.parametrize("text, is_range", [
    ("span 32 to 80 layers", True), ("have 7 to 8 billion parameters", True),
    ("from 4096 to 16384", True), ("grows 4096 to 16384", False),
    ("rounded up to 11008", False), ("cut 80 to 32 layers", False), ("80 to 32 layers", False),
])
def test_a_bare_to_between_like_figures_is_a_range(text, is_range):
    toks = tokens(text)
    first = next(i for i, t in enumerate(toks) if t.kind == "NUM")
    assert (range_ends(toks, first) is not None) == is_range


def test_a_range_of_layers_is_read_as_its_interval(engine):
    got = decide(engine, "Llama 2 7B to 70B span 32 to 80 layers.")
    assert got[1] == "true" and "32 <= layers(llama-2-7b) <= 80" in got[2], got[3]


@pytest.mark.parametrize("text, verdict", [
    ("Llama 2 7B has 6.5B parameters in its 32 layers.", "true"),  # 32 × 202.4M
    ("Llama 2 7B has 6.5B parameters across the layers.", "true"),
    ("Llama 2 7B has 5B parameters in its 32 layers.", "false"),
])
def test_parameters_in_its_layers_are_the_blocks_without_the_embedding(engine, text, verdict):
    got = decide(engine, text)
    assert got[1] == verdict, got[3]
