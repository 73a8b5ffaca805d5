"""Text the readers could lose or leak: Markdown nested past markdown-it's limit is
reported (file:line:col) and still read, the rest of the document too; a notebook whose
cells have no ids reads without nbformat's warning reaching stderr; one table of hedge
words serves the text and the token readers."""

import json
import warnings

import pytest

from ffnverify.scan import words
from ffnverify.scan.numbers import tokens
from ffnverify.scan.readers import read_ipynb


def _texts(result):
    return [s["text"] for s in result["statements"]]


@pytest.mark.parametrize("prefix", ["> " * 30, "- " * 30, "> - " * 15, "1. " * 25])
def test_too_deep_markdown_is_reported_and_read(scan_text, prefix):
    doc = f"Intro.\n\n{prefix}Mistral 7B has 40 layers.\n\nAfter: Llama 2 7B has 32 layers.\n"
    got = scan_text(doc)
    assert any("nested deeper" in e["message"] and e["line"] == 3 for e in got["errors"]), got
    assert got["errors"][0]["col"] == len(prefix) + 1
    by_text = {s["text"]: s for s in got["statements"]}
    assert by_text["Mistral 7B has 40 layers."]["verdict"] == "false"
    assert by_text["After: Llama 2 7B has 32 layers."]["verdict"] == "true"


def test_too_deep_indented_lists(scan_text):
    doc = "".join("  " * i + f"- item {i}\n" for i in range(30)) + \
        "\nMistral 7B has 32 layers.\n"
    got = scan_text(doc)
    assert got.get("errors") and all("nested deeper" in e["message"] for e in got["errors"])
    assert "Mistral 7B has 32 layers." in _texts(got)


def test_too_deep_keeps_fenced_code_out(scan_text):
    doc = "> " * 30 + "Intro.\n\n```\nLlama 2 7B has 99 layers\n```\n\nMistral 7B has 32 layers.\n"
    got = scan_text(doc)
    assert not any("99" in t for t in _texts(got))
    assert "Mistral 7B has 32 layers." in _texts(got)


def test_nesting_within_the_limit_is_no_problem(scan_text):
    got = scan_text("> " * 10 + "Llama 2 7B has 32 layers.\n\n[ref]: https://example.com\n")
    assert not got.get("errors")
    assert _texts(got) == ["Llama 2 7B has 32 layers."]


def test_too_deep_in_a_notebook_cell(scan_text):
    nb = {"cells": [{"cell_type": "markdown", "id": "a", "metadata": {},
                     "source": ["> " * 30 + "Llama 2 7B has 32 layers."]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    got = scan_text(json.dumps(nb), name="deep.ipynb")
    assert got["errors"] and got["errors"][0]["line"] == 1
    assert _texts(got) == ["Llama 2 7B has 32 layers."]


def test_notebook_without_cell_ids_warns_nothing():
    nb = {"cells": [{"cell_type": "markdown", "metadata": {},
                     "source": ["Llama 2 7B has 32 layers."]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        doc = read_ipynb(json.dumps(nb))
    assert doc.blocks and not caught, [str(w.message) for w in caught]
    # and no global filter was left behind
    assert not any(f[2].__name__ == "MissingIDFieldWarning" for f in warnings.filters)


# ---- one table of hedge words ----------------------------------------------------------

@pytest.mark.parametrize("hedge", words.HEDGE_WORDS + words.HEDGE_PHRASES)
def test_every_hedge_marks_the_token_and_the_text(hedge):
    nums = [t for t in tokens(f"It has {hedge} 32 layers.") if t.kind == "NUM"]
    assert nums[0].about, hedge
    assert words.hedged(f"It has {hedge} ")


@pytest.mark.parametrize("text", ["It has 32 layers.", "the order of 32 layers",
                                  "close 32 layers", "somewhere 32"])
def test_no_hedge_no_mark(text):
    nums = [t for t in tokens(text) if t.kind == "NUM"]
    assert not nums[0].about
