"""A table row whose cell is a formula in symbols next to the figure it gives, under
prose that set the symbols' values (`scan/formula_rows.py`, `carried.Before.given`).
Sentences written for these tests, not taken from the corpus."""


def _rows(result):
    return {s["text"]: s for s in result["statements"] if " | " in s["text"]}


DOC = """\
# Counting a small model

We take h = 512 and W = 32,000 throughout.

| Part | Formula | Count |
|---|---|---|
| Embedding | W · h | 16.4 M |
| Output head | W · h | 20 M |
| Blocks | 6 · 12 · h^2 | 18.9M |
| Norms | 2 · h · q | 1K |
"""


def test_a_formula_cell_at_the_values_set_before(scan_text):
    rows = _rows(scan_text(DOC))
    emb = rows["Embedding | W · h | 16.4 M"]  # 32,000 × 512 = 16,384,000
    assert (emb["status"], emb["verdict"]) == ("suggested", "true"), emb
    head = rows["Output head | W · h | 20 M"]
    assert (head["status"], head["verdict"]) == ("suggested", "false"), head
    blocks = rows["Blocks | 6 · 12 · h^2 | 18.9M"]  # 72 × 262,144 = 18,874,368
    assert (blocks["status"], blocks["verdict"]) == ("suggested", "true"), blocks


def test_a_symbol_without_a_value_leaves_the_row_unread(scan_text):
    rows = _rows(scan_text(DOC))
    assert rows["Norms | 2 · h · q | 1K"]["status"] == "unchecked"


def test_a_symbol_set_to_two_values_is_not_given(scan_text):
    doc = DOC.replace("throughout.", "throughout.\n\nFor the larger one, h = 1024.")
    rows = _rows(scan_text(doc))
    assert rows["Embedding | W · h | 16.4 M"]["status"] == "unchecked"


def test_the_given_values():
    from ffnverify.scan.carried import _given
    got = {}
    _given("with d = 768, V = 50,257 and L = 12.", got)
    assert got == {"d": "768", "V": "50257", "L": "12"}
    _given("so d = 4 × 768 here", got)   # a product, not a value
    assert got["d"] == "768"
    _given("and later d = 1024", got)
    assert got["d"] is None
