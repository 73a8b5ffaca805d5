"""A statement about a family as a whole (`catalogue.families`: every size it could
denote is a catalogue row): read of each member; TRUE when it holds for all, FALSE when it
fails for all, no verdict when it holds for some (the name may mean one of them). Always a
reading to confirm. A family with a member the catalogue lacks is not read at all.
Sentences written for these tests."""

import pytest
from verdicts import only

from ffnverify.catalogue import families
from ffnverify.catalogue.models import ALIASES, ROWS


def test_every_member_is_a_row_and_no_family_name_is_one():
    rows = {m.name for m in ROWS}
    for key, (members, source) in families.FAMILIES.items():
        assert set(members) <= rows, key
        assert len(members) >= 2 and source, key
        assert key not in rows and key not in ALIASES, key


@pytest.mark.parametrize("text,verdict", [
    ("GPT-2 has a vocabulary of 50,257 tokens.", "true"),
    ("GPT-2 has a context of 1,024 tokens.", "true"),
    ("GPT-2 has a vocabulary of 32,000 tokens.", "false"),
    ("Mixtral uses 8 experts in every layer.", "true"),
    ("Mixtral uses 16 experts in every layer.", "false"),
    ("Llama 3.1 has a vocabulary of 128,256 tokens.", "true"),
    ("LLaMA 1 has a vocabulary of 32,000 tokens.", "true"),
    ("LLaMA-1 has a context of 2,048 tokens.", "true"),
])
def test_a_family_as_a_whole(scan_text, text, verdict):
    got = only(scan_text, text)
    assert (got["status"], got["verdict"]) == ("suggested", verdict), got
    assert "every" in got["detail"], got


@pytest.mark.parametrize("text", [
    "GPT-2 has 48 layers.",  # gpt2-xl only
    "Llama 3.1 has 80 layers.",  # the 70B only
    "Mixtral has 56 layers.",  # the 8x22B only
])
def test_true_of_some_members_only_is_no_verdict(scan_text, text):
    got = only(scan_text, text)
    assert (got["status"], got["verdict"]) == ("unchecked", None), got
    assert "not of every one" in got["detail"], got


@pytest.mark.parametrize("text", [
    "Llama 2 has 40 layers.",  # the paper's 34B is no row: not a family here
    "Llama 2 has a vocabulary of 64,000 tokens.",
    "Llama 3 has a 128K vocabulary.",  # a lineage with vision models the catalogue lacks
    "GPT-2 does not have 48 layers.",  # of none of its models, or not of all?
    "Does GPT-2 have a vocabulary of 32,000 tokens?",
    "GPT-2 and Llama 3.1 have 32 layers.",  # two names
])
def test_no_family_reading(scan_text, text):
    for got in scan_text(text + "\n")["statements"]:
        assert got["verdict"] != "false", got
        assert got["status"] != "checked", got


@pytest.mark.parametrize("text,verdict", [
    ("Mixtral routes each token to 2 of its 8 experts.", "true"),
    ("Mixtral activates 2 experts per token.", "true"),
    ("Mixtral activates 4 experts per token.", "false"),
])
def test_the_quantity_readers_read_a_family_too(scan_text, text, verdict):
    got = only(scan_text, text)
    assert (got["status"], got["verdict"]) == ("suggested", verdict), got


def test_memory_true_of_one_member_is_no_verdict(scan_text):
    got = only(scan_text, "GPT-2 needs 500 MB of memory in fp32.")  # gpt2-small's
    assert (got["status"], got["verdict"]) == ("unchecked", None), got


@pytest.mark.parametrize("text,status,verdict", [
    # "Mistral 7B" unversioned may be v0.1 (32,000) or v0.3 (32,768): either holds leniently
    ("Mistral 7B has a vocabulary of 32,768 tokens.", "suggested", "true"),
    ("Mistral 7B has a vocabulary of 32,000 tokens.", "suggested", "true"),
    ("Mistral 7B has a vocabulary of 50,000 tokens.", "suggested", "false"),
    # a field both releases share stays checked; a version written picks its row
    ("Mistral 7B has 32 layers.", "checked", "true"),
    ("Mistral-7B-v0.1 has a vocabulary of 32,768 tokens.", "checked", "false"),
    ("Mistral-7B-v0.3 has a vocabulary of 32,768 tokens.", "checked", "true"),
])
def test_an_unversioned_name_may_be_any_release(scan_text, text, status, verdict):
    got = only(scan_text, text)
    assert (got["status"], got["verdict"]) == (status, verdict), got


def test_every_sibling_is_a_row():
    rows = {m.name for m in ROWS}
    for row, siblings in families.SIBLINGS.items():
        assert row in rows and set(siblings) <= rows, row


@pytest.mark.parametrize("text,verdict", [
    # a Llama size with no version: every Llama release of that size
    ("Llama 70B has 80 layers and 8 KV heads.", "true"),
    ("The KV cache of Llama 70B is 320 KiB per token in fp16.", "true"),
    ("Llama 70B has 64 layers.", "false"),
    ("Llama 8B has 32 layers.", "true"),
])
def test_a_llama_size_with_no_version(scan_text, text, verdict):
    got = only(scan_text, text)
    assert (got["status"], got["verdict"]) == ("suggested", verdict), got


def test_a_llama_size_whose_releases_differ_is_no_verdict(scan_text):
    got = only(scan_text, "Llama 8B has a context of 8K tokens.")  # 3: 8K, 3.1: 128K
    assert (got["status"], got["verdict"]) == ("unchecked", None), got
