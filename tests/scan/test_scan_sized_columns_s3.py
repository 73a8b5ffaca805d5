"""A table whose columns are headed by sizes alone, under a paragraph that names the
family and ends with a colon ("GPT-2 comes in these sizes:" over "| Field | 124M | 355M
|"): each column is the family's row of that size (`structure.sized_header`), read as a
reading to confirm. Sentences written for these tests, not taken from the corpus.
GPT-2 small: 12 layers, d_model 768; GPT-2 medium: 24 layers, d_model 1024."""


def _rows(result):
    return {s["text"]: s for s in result["statements"] if " | " in s["text"]}


DOC = """\
# Notes

GPT-2 comes in these sizes:

| Field | 124M | 355M |
|---|---|---|
| n_layer | 12 | 24 |
| n_embd | 768 | 1280 |
"""


def test_size_headed_columns_are_the_familys_rows(scan_text):
    rows = _rows(scan_text(DOC))
    layers = rows["n_layer | 12 | 24"]
    assert (layers["status"], layers["verdict"]) == ("suggested", "true"), layers
    assert "layers(gpt2-small) == 12" in layers["claim"], layers
    assert "layers(gpt2-medium) == 24" in layers["claim"], layers
    width = rows["n_embd | 768 | 1280"]
    assert (width["status"], width["verdict"]) == ("suggested", "false"), width


def test_no_family_no_columns(scan_text):
    for doc in (DOC.replace("GPT-2 comes in these sizes:", "It comes in these sizes:"),
                DOC.replace("GPT-2 comes in these sizes:", "GPT-2 compared with OPT:"),
                DOC.replace("GPT-2 comes in these sizes:", "GPT-2 comes in these sizes.")):
        for s in _rows(scan_text(doc)).values():
            assert "gpt2-" not in (s.get("claim") or ""), (doc, s)


def test_a_heading_between_ends_the_family(scan_text):
    doc = DOC.replace("| Field |", "## Other\n\n| Field |")
    for s in _rows(scan_text(doc)).values():
        assert "gpt2-" not in (s.get("claim") or ""), s


def test_sized_header_names_only_sizes_the_family_has():
    from ffnverify.scan.structure import sized_header
    assert sized_header(("Field", "124M", "355M", "9B"), "GPT-2") == (
        "Field", "gpt2-small", "gpt2-medium", "9B")
    assert sized_header(("Field", "124M"), "") == ("Field", "124M")
