"""Statements whose figures the author does not state of the catalogue model itself:

- reported or believed ("According to one blog, X has 40 layers", "X reportedly has",
  "I used to think X had"): read as if stated, a reading to confirm, never `checked`;
- a model derived from it ("In our fork of X we use 40 layers", "We trained X with 40
  layers", "X will have 40 layers in the next release"): nothing said of X, not read;
- a sentence that opens with its premise ("Suppose X had 16 KV heads instead of 8"):
  conditional throughout, whatever it negates;
- a proportion written `64:8`: its terms are no field values.
"""

import pytest


def _all(scan_text, text):
    return scan_text(text + "\n")["statements"]


@pytest.mark.parametrize("text", [
    "According to one blog, Llama 2 7B has 40 layers.",
    "Llama 2 7B reportedly has 40 layers.",
    "Llama 2 7B was rumoured to have 40 layers.",
    "I used to think Llama 2 7B had 40 layers.",
    "Mistral 7B is said to have 48 layers.",
    "In my opinion Llama 2 7B has 40 layers.",
])
def test_reported_figures_are_not_checked(scan_text, text):
    for st in _all(scan_text, text):
        assert st["status"] != "checked", st


@pytest.mark.parametrize("text", [
    "In our fork of Llama 2 7B we use 40 layers.",
    "We trained Llama 2 7B with 40 layers for this ablation.",
    "Llama 2 7B will have 40 layers in the next release.",
    "We pruned Mistral 7B to 24 layers.",
    "A variant of Mistral 7B has 48 layers.",
])
def test_derived_models_are_not_read_as_the_model(scan_text, text):
    for st in _all(scan_text, text):
        assert st["verdict"] != "false", st


@pytest.mark.parametrize("text", [
    "Suppose Mistral 7B had 16 KV heads instead of 8.",
    "What if Llama 2 7B had 40 layers instead of 32?",
    "Imagine Llama 2 7B with 40 layers, not 32.",
])
def test_leading_premise_is_conditional(scan_text, text):
    for st in _all(scan_text, text):
        assert st["verdict"] != "false", st


@pytest.mark.parametrize("text,verdict", [
    ("Llama 2 7B has 40 layers.", "false"),                     # plain: still checked
    ("The next model after Llama 2 7B, Llama 2 13B, has 40 layers.", "true"),
    ("We use Llama 2 7B, which has 32 layers.", "true"),
    ("Mistral 7B has 8 KV heads, not 16.", "true"),
])
def test_plain_statements_still_read(scan_text, text, verdict):
    got = _all(scan_text, text)
    assert got and got[0]["verdict"] == verdict, got


def test_a_proportion_is_no_field_value(scan_text):
    for text in ("The ratio of query heads to KV heads in Llama 2 70B is 64:8 = 8.",
                 "Llama 2 70B uses an 8:1 ratio of query heads to KV heads."):
        for st in _all(scan_text, text):
            assert st["verdict"] != "false", st
    got = _all(scan_text, "Llama 2 70B: 64 heads : 8 KV heads.")
    assert got[0]["status"] == "checked" and got[0]["verdict"] == "true", got
