"""A figure a model's own card publishes, where the card's count is not the config's at
its stated precision (Qwen2.5 7B's "7.61B", 32B's "32.5B" and "31.0B non-embedding"), is
unread with that reason, never FALSE; another figure for the same field still is.
Sentences written for these tests."""

import pytest
from verdicts import only

from ffnverify.catalogue import get
from ffnverify.claims.signatures import SIGNATURES


@pytest.mark.parametrize("text", [
    "Qwen2.5-7B has 7.61B parameters.",
    "Qwen2.5-14B has 14.7B parameters.",
    "Qwen2.5-32B has 32.5B parameters.",
    "Qwen2.5-32B has 31.0B non-embedding parameters.",
    "Qwen2.5-14B has 13.1B non-embedding parameters.",
])
def test_a_cards_own_figure_is_not_false(scan_text, text):
    got = only(scan_text, text)
    assert got["status"] == "unchecked" and "primary source" in got["detail"], got


@pytest.mark.parametrize("text", [
    "Qwen2.5-7B has 7.2B parameters.",
    "Qwen2.5-32B has 30.0B non-embedding parameters.",
])
def test_another_figure_is_still_read(scan_text, text):
    assert only(scan_text, text)["verdict"] == "false"


def test_every_published_key_names_a_claim_function_or_a_scoped_count():
    from ffnverify.catalogue.models import ROWS
    for row in ROWS:
        for key in get(row.name).published_as:
            func, _, scope = key.partition(":")
            assert func in SIGNATURES and (not scope or func == "params_total"), (row.name, key)
