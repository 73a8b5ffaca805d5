"""A statement that names no model, in a document that has named one catalogue model and no
other: read as said of that model, to confirm, and never flagged FALSE (the statement may
speak of models in general, or of one the catalogue lacks); an unread statement says why;
field labels of model pages ("Hidden Dimension Size: 4096", "Max Position Embeddings",
"Parameter count"). Sentences written for these tests.
"""

import pytest


def _by_line(result):
    return {s["line"]: s for s in result["statements"]}


_ONE_MODEL = """# Long context

Llama 3.1 8B is a dense decoder with grouped-query attention.

KV cache {kv} at 128K tokens, FP16 KV.

Context window: {ctx} tokens.
"""


def test_a_statement_naming_no_model_is_read_as_said_of_the_documents_only_one(scan_text):
    got = _by_line(scan_text(_ONE_MODEL.format(kv="17.2 GB", ctx="131,072")))
    kv = got[5]
    assert (kv["status"], kv["verdict"]) == ("suggested", "true"), kv
    assert "kv_cache_bytes(llama-3.1-8b" in kv["claim"], kv


def test_a_reading_on_a_model_the_statement_does_not_name_never_accuses(scan_text):
    got = _by_line(scan_text(_ONE_MODEL.format(kv="34.4 GB", ctx="131,072")))
    kv = got[5]
    assert kv["status"] == "unchecked" and kv["verdict"] is None, kv
    assert "not flagged" in kv["detail"] and "llama-3.1-8b" in kv["detail"], kv


@pytest.mark.parametrize("first", [
    "Llama 3.1 8B and Llama 3.1 70B share a tokenizer.",  # two models
    "Llama 3.1 8B Instruct is tuned for chat.",  # a release the catalogue nearly matches
    "DeepSeek V3 and Llama 3.1 8B were both released in 2024.",  # one it lacks
])
def test_no_model_is_guessed_where_the_document_names_another(scan_text, first):
    text = f"{first}\n\nKV cache 34.4 GB at 128K tokens, FP16 KV.\n"
    for s in scan_text(text)["statements"]:
        assert "kv_cache_bytes" not in (s["claim"] or ""), s


def test_a_statement_naming_another_model_is_not_said_of_the_documents_one(scan_text):
    text = ("Llama 3.1 8B is a dense decoder.\n\n"
            "Falcon 40B needs a KV cache of 34.4 GB at 128K tokens in FP16.\n")
    got = _by_line(scan_text(text))
    assert "llama-3.1-8b" not in (got[3]["claim"] or ""), got[3]


def test_an_unread_statement_says_which_figures_went_unread(scan_text):
    got = _by_line(scan_text("Llama 2 70B in FP16 is split across 2 GPUs with 80 GB each.\n"))
    detail = got[1]["detail"]
    assert got[1]["status"] == "unchecked", got[1]
    assert "llama-2-70b" in detail and "80 GB" in detail, detail


@pytest.mark.parametrize("line,claim", [
    ("Hidden Dimension Size: {}", "d_model(llama-2-7b) == {}"),
    ("Max Position Embeddings: {}", "context(llama-2-7b) == {}"),
])
@pytest.mark.parametrize("value,verdict", [("4096", "true"), ("5120", "false")])
def test_a_model_pages_field_labels(scan_text, line, claim, value, verdict):
    got = _by_line(scan_text(f"# Llama 2 7B\n\n- {line.format(value)}\n"))[3]
    assert (got["status"], got["verdict"]) == ("suggested", verdict), got
    assert got["claim"] == claim.format(value), got


@pytest.mark.parametrize("value,verdict", [("6.7 billion", "true"), ("7.7 billion", "false")])
def test_a_parameter_count_label(scan_text, value, verdict):
    got = _by_line(scan_text(f"# Llama 2 7B\n\n- Parameter count: {value}\n"))[3]
    assert (got["status"], got["verdict"]) == ("suggested", verdict), got
    assert "params_total(llama-2-7b)" in got["claim"], got


def test_a_size_heading_under_a_family_heading_names_that_member(scan_text):
    # "# Llama 3.1" over "## 8B" over "| Num layers | 32 |": Llama 3.1 8B (`structure`)
    doc = ("# Llama 3.1\n\n## 8B\n\n| Attribute | Value |\n|--|--|\n| Num layers | 32 |\n"
           "| Hidden size | 4096 |\n\n## 70B\n\n| Attribute | Value |\n|--|--|\n"
           "| Num layers | 80 |\n| Hidden size | 4096 |\n")
    got = [(s["status"], s["verdict"], s.get("claim")) for s in scan_text(doc, "doc.md")["statements"]]
    assert got[0] == ("suggested", "true", "layers(llama-3.1-8b) == 32"), got
    assert got[1][1] == "true" and "llama-3.1-8b" in got[1][2], got
    assert got[2] == ("suggested", "true", "layers(llama-3.1-70b) == 80"), got
    assert got[3][1] == "false", got  # mutant: the 8B's width under the 70B


def test_a_size_heading_with_no_family_above_names_nothing(scan_text):
    doc = "# Notes\n\n## 8B\n\n| Attribute | Value |\n|--|--|\n| Num layers | 32 |\n"
    (s,) = scan_text(doc, "doc.md")["statements"]
    assert s["verdict"] is None, s
