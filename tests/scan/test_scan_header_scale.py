"""A column header that states the scale of its plain figures ("params (B)", "Size [M]",
"Parameters (in billions)") scales each cell before it is read, at the cell's precision:
found on the first half of the fresh2 corpus, where `params (B) | 8.0303` was compared with
8,030,261,248 as 8.0303 and called false."""

import pytest

from ffnverify.scan.rows import _header_scale


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
