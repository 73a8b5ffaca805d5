"""The model (or family) a statement's place in its document gives (`scan.structure`, SPEC
§5.2 binding): the heading over it, in every format the readers read; a section's first
paragraph over listed data; a family's title over a table of sizes; a table whose rows
name their models. Each rule: a right input read right, a wrong one (a mutant) caught as
SUGGESTED FALSE, and hostile ones (two models in one scope, a section about another model,
rows that are other models) not read. A model given only by structure is never
`checked`, and the report names where it came from."""

import json
from fractions import Fraction

import pytest

from ffnverify.scan import structure


def _by_text(result) -> dict:
    return {" ".join(r["text"].split()): r for r in result["statements"]}


def _status(result, text) -> tuple:
    r = _by_text(result)[text]
    return r["status"], r["verdict"]


# ---- a heading naming one model, in every format -------------------------------------

FORMATS = {  # name -> (file name, a document: a heading "Llama 2 70B" over two key-value lines)
    "markdown": ("doc.md", "# Notes\n\n## Llama 2 70B\n\n- Layers: {layers}\n"
                           "- KV heads: {kv}\n"),
    "html": ("doc.html", "<h1>Notes</h1><h2>Llama 2 70B</h2><ul><li>Layers: {layers}</li>"
                         "<li>KV heads: {kv}</li></ul>"),
    "rst": ("doc.rst", "Notes\n=====\n\nLlama 2 70B\n-----------\n\n- Layers: {layers}\n"
                       "- KV heads: {kv}\n"),
    "text": ("doc.txt", "Notes\n\nLlama 2 70B\n\nLayers: {layers}\nKV heads: {kv}\n"),
    "ipynb": ("doc.ipynb", None),
}


def _document(fmt, layers, kv):
    name, body = FORMATS[fmt]
    if fmt == "ipynb":
        cell = f"## Llama 2 70B\n\n- Layers: {layers}\n- KV heads: {kv}\n"
        body = json.dumps({"cells": [{"cell_type": "markdown", "id": "c1", "metadata": {},
                                      "source": cell}],
                           "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    else:
        body = body.format(layers=layers, kv=kv)
    return body, name


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_heading_naming_one_model_gives_it_to_the_lines_under_it(scan_text, fmt):
    got = scan_text(*_document(fmt, 80, 8))  # Llama 2 70B: 80 layers, 8 KV heads
    assert _status(got, "Layers: 80") == ("suggested", "true")
    assert _status(got, "KV heads: 8") == ("suggested", "true")
    detail = _by_text(got)["Layers: 80"]["detail"]
    assert "llama-2-70b" in detail and "“Llama 2 70B” (line" in detail  # its origin


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_wrong_figure_under_the_heading_is_suggested_false_never_checked(scan_text, fmt):
    got = scan_text(*_document(fmt, 81, 64))
    assert _status(got, "Layers: 81") == ("suggested", "false")
    assert _status(got, "KV heads: 64") == ("suggested", "false")


def test_a_heading_naming_none_under_it_inherits_but_a_sibling_does_not(scan_text):
    doc = ("# Llama 2 70B\n\n## Architecture\n\n- Layers: 81\n\n"
           "# Benchmarks\n\n- Layers: 81\n\n# Mistral 7B\n\n- Layers: 32\n")
    got = [(r["line"], r["status"], r["verdict"]) for r in scan_text(doc)["statements"]]
    assert (5, "suggested", "false") in got  # under its subsection: the model's
    assert (9, "unchecked", None) in got  # a new top-level section names no model (and
    # the document names two, so it is about neither as a whole)


def test_a_subsection_naming_another_model_speaks_of_that_one(scan_text):
    doc = "## Llama 2 70B\n\n- Layers: 80\n\n### Mistral 7B\n\n- Layers: 32\n"
    got = [(r["line"], r["status"], r["verdict"], r["claim"])
           for r in scan_text(doc)["statements"]]
    assert got[0][:3] == (3, "suggested", "true") and "llama-2-70b" in got[0][3]
    assert got[1][:3] == (7, "suggested", "true") and "mistral-7b" in got[1][3]


@pytest.mark.parametrize("doc", [
    "## Llama 2 7B and Mistral 7B\n\n- Layers: 32\n",  # two models in the heading
    "## Llama 2 70B\n\nMistral 7B is the other model here.\n\n- Layers: 32\n",  # the section
    "## Llama 2 70B\n\nCompared with Falcon 40B, it is larger.\n\n- Layers: 60\n",  # no row
    "## Llama 2 70B\n\nA 7B model is what most people run.\n\n- Layers: 32\n",  # a size
    "## Mixtral 8x7B Instruct v0.1\n\n- Total Parameters: 45 billion\n",  # another release
    "## Llama 2 70B\n\n## Other\n\n- Layers: 32\n\n## Mistral 7B\n",  # a sibling heading
])
def test_a_scope_naming_another_model_gives_none(scan_text, doc):
    for r in scan_text(doc)["statements"]:
        if r["text"].startswith(("Layers", "Total")):
            assert r["status"] == "unchecked", (doc, r)


# ---- a family with a size: "GPT-2 124M" ------------------------------------------------

def test_a_family_and_a_size_name_the_row_of_that_size():
    member = structure.family_member
    assert member("GPT-2", Fraction(124 * 10**6)) == "gpt2-small"  # 124,439,808
    assert member("GPT-2", Fraction(355 * 10**6)) == "gpt2-medium"
    assert member("GPT-2", Fraction(15 * 10**8)) == "gpt2-xl"  # 1,557,611,200: within 5%
    assert member("GPT-2", Fraction(117 * 10**6)) is None  # 6% off gpt2-small: no row
    assert member("GPT-2", Fraction(600 * 10**6)) is None
    assert member("Mistral", Fraction(124 * 10**6)) is None
    assert structure.parse_size("GPT-2 124M") == ("GPT-2", Fraction(124 * 10**6))
    assert structure.parse_size("1.5 B") == ("", Fraction(15 * 10**8))
    assert structure.parse_size("GPT-2 Small") is None


def test_a_heading_with_a_family_and_a_size_gives_that_row(scan_text):
    doc = ("# Building GPT-2 124M\n\n### GPT-2 Architecture\n\n- **124M Parameters**: big\n"
           "- **12 Layers**: deep\n- **16 Attention Heads**: many\n")
    got = scan_text(doc)
    assert _status(got, "12 Layers: deep") == ("suggested", "true")
    assert _status(got, "16 Attention Heads: many") == ("suggested", "false")  # 12
    # the size the heading names the model by is its name, not a measurement
    assert _status(got, "124M Parameters: big") == ("unchecked", None)
    assert "gpt2-small" in _by_text(got)["12 Layers: deep"]["claim"]


def test_a_family_and_a_size_no_row_has_give_nothing(scan_text):
    got = scan_text("# GPT-2 117M\n\n- 12 Layers: deep\n- 16 Attention Heads: many\n")
    assert all(r["status"] == "unchecked" for r in got["statements"])


# ---- a table of sizes under a family's title (plain text, aligned) -------------------

SIZES = ("GPT-2\n\nThe GPT-2 model was released in four sizes.\n\n"
         "         layers heads embd ctx  vocab\n"
         "  124 M  12     12    768  1024 50257\n"
         "  355 M  {medium}     16    1024 1024 50257\n"
         "  1.5 B  48     25    1600 1024 50257\n")


def test_rows_of_sizes_under_a_family_title_are_that_familys_rows(scan_text):
    got = [r for r in scan_text(SIZES.format(medium=24), "doc.txt")["statements"]
           if r["line"] >= 6]
    assert [(r["status"], r["verdict"]) for r in got] == [("suggested", "true")] * 3
    assert ["gpt2-small" in got[0]["claim"], "gpt2-medium" in got[1]["claim"],
            "gpt2-xl" in got[2]["claim"]] == [True] * 3
    assert "the title “GPT-2” (line 1)" in got[0]["detail"]
    assert got[0]["unread"] == []  # "124 M" names the row: no unread figure


def test_a_wrong_figure_in_a_row_of_sizes_is_suggested_false(scan_text):
    got = [r for r in scan_text(SIZES.format(medium=36), "doc.txt")["statements"]
           if r["line"] == 7]
    assert [(r["status"], r["verdict"]) for r in got] == [("suggested", "false")]


@pytest.mark.parametrize("title", ["Models", "GPT-2 and Llama 2"])
def test_rows_of_sizes_without_one_family_are_not_read(scan_text, title):
    doc = SIZES.format(medium=24).replace("GPT-2\n\nThe GPT-2 model", title + "\n\nThe model")
    got = [r for r in scan_text(doc, "doc.txt")["statements"] if r["line"] >= 6]
    assert got and all(r["status"] == "unchecked" for r in got), title


# ---- tables: key | value under a heading; parameter | symbol | value; rows of models --

def test_a_key_value_table_under_a_heading_is_read_for_its_model(scan_text):
    doc = ("# Mixtral 8x7B\n\n## Specs\n\n| Field | Value |\n|---|---|\n"
           "| Total params | {total} |\n| Active params | 12.9B |\n| Context window | 32K |\n")
    right = scan_text(doc.format(total="46.7B"))
    assert _status(right, "Total params | 46.7B") == ("suggested", "true")
    assert _status(right, "Active params | 12.9B") == ("suggested", "true")
    assert _status(right, "Context window | 32K") == ("suggested", "true")
    wrong = scan_text(doc.format(total="45B"))
    assert _status(wrong, "Total params | 45B") == ("suggested", "false")


def test_a_parameter_table_with_a_symbol_column_reads_the_value(scan_text):
    doc = ("## Llama 2 70B\n\n| Parameter | Symbol | Value | Source |\n|---|---|---|---|\n"
           "| Transformer layers | L | {layers} | Published architecture |\n")
    assert _status(scan_text(doc.format(layers=80)),
                   "Transformer layers | L | 80 | Published architecture") == (
        "suggested", "true")
    assert _status(scan_text(doc.format(layers=64)),
                   "Transformer layers | L | 64 | Published architecture") == (
        "suggested", "false")


MODELS_TABLE = (".. list-table::\n   :header-rows: 1\n\n"
                "   * - Model Name\n     - :math:`n_{{layer}}`\n     - :math:`d_{{model}}`\n"
                "     - :math:`d_{{head}}`\n"
                "   * - GPT-2 Small\n     - {layers}\n     - 768\n     - 64\n")


def test_a_table_whose_rows_name_models_binds_each_column_by_its_header(scan_text):
    got = scan_text("Llama 2 7B\n==========\n\n" + MODELS_TABLE.format(layers=12), "doc.rst")
    row = next(r for r in got["statements"] if r["text"].startswith("GPT-2 Small"))
    assert (row["status"], row["verdict"]) == ("checked", "true")  # the row names it
    assert "llama-2-7b" not in row["claim"]  # not the heading's model
    assert "head_dim(gpt2-small) == 64" in row["claim"]  # d_{head}: LaTeX read as plain
    wrong = scan_text(MODELS_TABLE.format(layers=13), "doc.rst")
    row = next(r for r in wrong["statements"] if r["text"].startswith("GPT-2 Small"))
    assert (row["status"], row["verdict"]) == ("checked", "false")


def test_rows_that_are_other_models_under_a_heading_keep_their_own(scan_text):
    doc = ("## Llama 2 7B\n\n| Model | Layers |\n|---|---|\n| Mistral 7B | 32 |\n"
           "| Llama 2 13B | 40 |\n| 70B | 80 |\n")
    got = _by_text(scan_text(doc))
    assert (got["Mistral 7B | 32"]["status"], got["Mistral 7B | 32"]["verdict"]) == (
        "checked", "true")
    assert "llama-2-13b" in got["Llama 2 13B | 40"]["claim"]
    assert got["70B | 80"]["status"] == "unchecked"  # a size with no family named over it


# ---- a section's first paragraph over listed data -------------------------------------

def test_a_first_paragraph_naming_one_model_gives_it_to_the_list_after_it(scan_text):
    doc = "## Sizes\n\nLlama 2 70B at a glance.\n\n- Layers: {layers}\n- KV heads: 8\n"
    got = scan_text(doc.format(layers=80))
    assert _status(got, "Layers: 80") == ("suggested", "true")
    assert "first paragraph (line 3)" in _by_text(got)["Layers: 80"]["detail"]
    assert _status(scan_text(doc.format(layers=40)), "Layers: 40") == ("suggested", "false")


@pytest.mark.parametrize("lead", ["We compare with Llama 2 70B here.",
                                  "Llama 2 70B is larger than Mistral 7B."])
def test_a_first_paragraph_comparing_models_gives_none(scan_text, lead):
    got = scan_text(f"## Sizes\n\n{lead}\n\n- Layers: 40\n")
    assert _status(got, "Layers: 40") == ("unchecked", None)


def test_prose_after_the_first_paragraph_is_not_given_its_model(scan_text):
    doc = ("## Experts\n\nMixtral 8x7B has 8 experts.\n\n"
           "An expert holds about 176M parameters.\n")
    assert _status(scan_text(doc), "An expert holds about 176M parameters.")[0] != "checked"
    assert _by_text(scan_text(doc))["An expert holds about 176M parameters."]["verdict"] \
        != "false"


# ---- a heading that names a field: "## vocab_size" ------------------------------------

FIELD_DOC = ("# Notes on GPT-2 Small\n\n## vocab_size\n\n"
             "The model has a lookup table with exactly {vocab} slots.\n\n"
             "## hidden_dim\n\nIt is 4 times the embedding dimension (768 × 4 = 3072). "
             "Then it compresses the data back to 768 dimensions.\n")


def test_a_field_heading_names_the_field_of_a_bare_figure(scan_text):
    got = scan_text(FIELD_DOC.format(vocab="50,257"))
    r = _by_text(got)["The model has a lookup table with exactly 50,257 slots."]
    assert (r["status"], r["verdict"]) == ("suggested", "true")
    assert "vocab(gpt2-small) == 50257" in r["claim"] and "“vocab_size”" in r["detail"]
    wrong = _by_text(scan_text(FIELD_DOC.format(vocab="50,000")))
    r = wrong["The model has a lookup table with exactly 50,000 slots."]
    assert (r["status"], r["verdict"]) == ("suggested", "false")


def test_a_figure_the_section_says_of_another_field_is_not_the_headings(scan_text):
    got = _by_text(scan_text(FIELD_DOC.format(vocab="50,257")))
    r = got["Then it compresses the data back to 768 dimensions."]
    assert r["status"] == "unchecked", r  # 768 is the embedding width


@pytest.mark.parametrize("heading,line", [
    ("Where the parameters live", "The model has 124 of them."),  # a phrase, not a field
    ("Parameters", "The model has 124 of them."),  # a count of some scope or other
    ("n_layers", "The 12th layer extracts meaning."),  # an ordinal
    ("n_heads", "It reads the tokens 12 times in parallel."),  # a multiple
    ("n_layers", "The model has between 10 and 14 of them."),  # a range
    ("n_layers", "There are 12 of them and 768 features."),  # two figures
    ("n_layers", "It has 12 attention heads."),  # the statement names its own field
])
def test_a_field_heading_does_not_read_what_it_does_not_bind(scan_text, heading, line):
    got = scan_text(f"# GPT-2 Small\n\n## {heading}\n\n{line}\n")
    assert got["statements"], line
    for r in got["statements"]:
        assert "names the field" not in r["detail"], r  # no reading by the heading
        assert r["status"] != "checked", r


def test_heading_fields_are_whole_field_names():
    assert structure.heading_field("vocab_size") == "vocab"
    assert structure.heading_field("emb_dim") == "d_model"
    assert structure.heading_field("**Context length**") == "context"
    assert structure.heading_field("Where the parameters live") is None
    assert structure.heading_field("Parameters") is None
    assert structure.heading_field("GPT-2 Architecture") is None


# ---- a document whose headings name one model, and which names no other --------------

DOC_SCOPE = ("# KV cache growth\n\n## Example: Llama 2 70B\n\n- Layers: 80\n\n"
             "## The growth problem\n\n- KV heads: {kv}\n")


def test_a_document_whose_headings_name_one_model_speaks_of_it_throughout(scan_text):
    got = scan_text(DOC_SCOPE.format(kv=8))
    r = _by_text(got)["KV heads: 8"]  # under a sibling heading that names no model
    assert (r["status"], r["verdict"]) == ("suggested", "true")
    assert "the document as a whole (its heading “Example: Llama 2 70B”" in r["detail"]
    assert _status(scan_text(DOC_SCOPE.format(kv=64)), "KV heads: 64") == ("suggested", "false")


@pytest.mark.parametrize("doc", [
    DOC_SCOPE.format(kv=64) + "\nMistral 7B is smaller.\n",  # another model, anywhere
    DOC_SCOPE.format(kv=64) + "\nA 7B model needs less.\n",  # a size that is not its own
    DOC_SCOPE.format(kv=64).replace("## Example: Llama 2 70B\n\n",  # named in text only
                                    "## Example\n\nAn example: Llama 2 70B.\n\n"),
])
def test_a_document_naming_another_model_or_naming_it_only_in_text_gives_none(scan_text, doc):
    assert _status(scan_text(doc), "KV heads: 64") == ("unchecked", None)


# ---- what a whole document is about --------------------------------------------------

def test_a_company_named_for_its_models_is_no_model():
    """"Mistral AI" is the company: no other model beside the heading's Mixtral."""
    from ffnverify.scan.detect import other_names

    assert other_names("Provider: Mistral AI") == ()
    assert other_names("Mistral is a 7B model") != ()


def test_a_model_the_document_compares_with_leaves_it_its_subject(scan_text):
    """A line that names another model only as what the document's model is measured
    against ("Tokenizer: same as Mistral 7B", "comparable to ~30B–40B dense models"), or
    the company that made it ("Mistral AI"), leaves the whole document its one model: a
    section whose heading names none reads under it (suggested)."""
    doc = ("## Mixtral 8x7B\n\nA sparse model by Mistral AI.\n\n## Details\n\n"
           "- Tokenizer: same as Mistral 7B\n- Comparable to ~30B–40B dense models\n\n"
           "## Figures\n\n- Total Parameters: 45 billion\n")
    got = [r for r in scan_text(doc)["statements"] if r["text"].startswith("Total")]
    assert [(r["status"], r["verdict"]) for r in got] == [("suggested", "false")], got
    assert "mixtral-8x7b" in got[0]["claim"]
    # without the comparison words the other model clashes: nothing is read
    for clash in (doc.replace("same as Mistral 7B", "Mistral 7B"),
                  doc.replace("Comparable to ~30B–40B", "Also ~30B–40B")):
        got = [r for r in scan_text(clash)["statements"] if r["text"].startswith("Total")]
        assert got[0]["status"] == "unchecked", (clash, got)
