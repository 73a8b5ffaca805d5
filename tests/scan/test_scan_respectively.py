"""Sizes of one family and a field's figures paired in order (`respectively`): right
sentences read right, a mutant in any place caught, and lists that do not pair left
alone. Sentences written for these tests."""

import pytest

from ffnverify.scan.numbers import normalise, tokens
from ffnverify.scan.respectively import pairs


def _one(scan_text, text):
    (s,) = scan_text(text, "doc.md")["statements"]
    return s


@pytest.mark.parametrize("text, status, verdict", [
    ("Llama 2 7B, 13B and 70B have 32, 40 and 80 layers respectively.", "checked", "true"),
    ("Llama 2 7B/13B/70B have 32/40/80 layers.", "checked", "true"),
    ("Llama 2 7B and 13B have 4096 and 5120 hidden size respectively.", "checked", "true"),
    ("The 7B and 13B Llama 2 models have 32 and 40 layers.", "suggested", "true"),
    ("Llama 2 7B, 13B and 70B have 32, 40 and 64 layers respectively.", "checked", "false"),
    ("Llama 2 7B/13B/70B have 40/32/80 layers.", "checked", "false"),  # mutant: swapped
])
def test_sizes_and_figures_pair_in_order(scan_text, text, status, verdict):
    s = _one(scan_text, text)
    assert (s["status"], s["verdict"]) == (status, verdict), s


@pytest.mark.parametrize("text", [
    "Llama 2 7B, 13B and 70B have 32 and 40 layers respectively.",  # counts differ
    "Llama 7B and 13B have 32 and 40 layers respectively.",  # LLaMA 1 or Llama 2: no row
    "Llama 2 7B and 13B have 7 and 13 billion parameters.",  # a count, not a field
])
def test_lists_that_do_not_pair_are_left_alone(text):
    clean = normalise(text)
    assert pairs(tokens(clean), clean) == []
