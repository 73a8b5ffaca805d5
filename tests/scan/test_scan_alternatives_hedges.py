"""Alternatives and hedges after a figure (docs/architecture.md §5.2, charitable reading):
`32 or 40 layers` offers either figure, a reading to confirm, never a FALSE that either
figure rescues; `30 layers or so`, `about 30 layers` and `6.5B-ish` are hedged, and a
hedged round figure's trailing zeros round (`about 30`: tens), so no CHECKED FALSE."""

import pytest


@pytest.mark.parametrize("text", [
    "Llama 2 7B has 32 or 40 layers depending on who you ask.",
    "Llama 2 7B has 40 or 32 layers.",
])
def test_either_alternative_rescues(scan_text, text):
    st = _one(scan_text, text)
    assert st["status"] == "suggested" and st["verdict"] == "true", st


def test_alternatives_both_wrong_are_at_most_suggested_false(scan_text):
    st = _one(scan_text, "Llama 2 7B has 40 or 48 layers.")
    assert st["status"] == "suggested" and st["verdict"] == "false", st


@pytest.mark.parametrize("text", [
    "Llama 2 7B has 30 layers or so.",
    "Llama 2 7B has about 30 layers.",
    "Llama 2 7B has roughly 30 layers.",
    "Llama 2 7B has 6.5B-ish parameters.",
])
def test_hedged_round_figures_are_never_checked_false(scan_text, text):
    st = _one(scan_text, text)
    assert st["verdict"] == "true", st


@pytest.mark.parametrize("text", [
    "Llama 2 7B has about 20 layers.",   # tens: [15, 25] misses 32
    "Llama 2 7B has 20 layers or so.",
    "Llama 2 7B has 30 layers.",         # unhedged: read as written
])
def test_hedges_do_not_rescue_everything(scan_text, text):
    st = _one(scan_text, text)
    assert st["verdict"] == "false", st


def test_an_exact_count_or_so_is_still_true(scan_text):
    st = _one(scan_text, "Llama 2 7B has 32 layers or so.")
    assert st["verdict"] == "true", st


def _one(scan_text, text):
    result = scan_text(text)
    (st,) = result["statements"]
    return st
