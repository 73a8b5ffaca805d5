"""A column header that states the scale of its plain figures ("params (B)", "Size [M]",
"Parameters (in billions)") scales each cell before it is read, at the cell's precision:
found on the first half of the fresh2 corpus, where `params (B) | 8.0303` was compared with
8,030,261,248 as 8.0303 and called false. And a cell is read only when it states its
figure as a value: a formula cell ("N · 4 d2") is no value, and a first cell with a figure
of its own ("12 blocks of attention") labels only that figure, not the row's other cells
(which were read as layers == 4 and layers ≈ 28.3)."""

import pytest

from ffnverify.scan.numbers import normalise, tokens
from ffnverify.scan.rows import _a_value, _header_scale


@pytest.mark.parametrize("head, want", [
    ("params (B)", "B"), ("Size [M]", "M"), ("Parameters (in billions)", "B"),
    ("tokens (K)", "K"), ("params", ""), ("layers (L)", ""), ("memory (GB)", ""),
])
def test_the_header_scale(head, want):
    assert _header_scale(head) == want


def test_a_scaled_column_is_read_at_its_scale_and_precision(scan_text):
    doc = ("| model | params | params (B) | layers |\n|---|---|---|---|\n"
           "| Llama-3-8B | 8030261248 | 8.0303 | 32 |\n"   # true at ±0.00005B
           "| Llama-2-7B | 6738415616 | 6.9 | 32 |\n"      # 6.74B: no rounding gives 6.9
           "\n| model | Size (B) | Parameters (in billions) |\n|---|---|---|\n"
           "| Llama 2 70B | 70 | 68.98 |\n")               # 70 is the name's size
    got = [(s["status"], s["verdict"]) for s in scan_text(doc)["statements"]]
    assert got == [("checked", "true"), ("checked", "false"), ("checked", "true")], got


@pytest.mark.parametrize("cell, value", [
    ("80", True), ("33K tokens", True), ("28.3 M", True), ("~13B", True),
    ("N · 4 d2", False), ("4d", False), ("= 2 × 4096", False), ("3 * d", False),
])
def test_a_cell_states_a_value_or_a_formula(cell, value):
    t = next(x for x in tokens(normalise(cell)) if x.kind == "NUM")
    assert _a_value(cell, t) is value


def test_a_first_cell_with_a_figure_labels_only_its_own_figure(scan_text):
    doc = ("<h2>Where GPT-2 small's 124M goes</h2>\n<table><tr><th>Component</th>"
           "<th>Formula</th><th>Params</th></tr>\n"
           "<tr><td>12 blocks of attention</td><td>N · 4 d2</td><td>28.3 M</td></tr>\n"
           "<tr><td>Layers</td><td>13</td><td></td></tr>\n</table>\n")
    # the heading states a figure of its own (124M) and is listed too: the rows follow it
    got = [s for s in scan_text(doc, "doc.html")["statements"] if s["line"] > 1]
    assert got[0]["verdict"] == "true" and "layers(gpt2-small) == 4" not in got[0]["claim"]
    assert set(got[0]["unread"]) == {"4", "28.3 M"}, got[0]  # "28.3 M": the cell's scale apart
    assert (got[1]["status"], got[1]["verdict"]) == ("suggested", "false"), got[1]


@pytest.mark.parametrize("cell, field", [
    ("LayerNorms (per-block + final)", None), ("params (B)", "params_total"),
    ("KV heads (GQA)", "kv_heads"), ("Layers", "layers"), ("Memory per token (MHA)", None),
])
def test_a_parenthesis_in_a_label_qualifies_and_names_no_field(cell, field):
    from ffnverify.scan.rows import field_of

    assert field_of(cell) == field
