"""The scan's reading where issue 26's survivors showed the suite blind, beyond
test_mutation_kills.py: whether an exact value terminates (which decides if `= 1.0` states
a rounded figure), "a half" and "one half", and "half of that".

Each case is what a careful reader of the sentence concludes, with its false twin where a
bug of the same shape would turn the verdict (docs/architecture.md §5.2).
"""

import pytest
from verdicts import only


def one(scan_text, text):
    """(status, verdict, record) of the one statement `text` makes."""
    rec = only(scan_text, text)
    return rec["status"], rec["verdict"], rec


# ---- the exact value of a side, by the usual precedence ----------------------------------
# A decimal result states a precision. Where the left side's exact value has a finite
# decimal (1/3 × 3 + 0.04 = 1.04), `= 1.0` is that value rounded: not exact, suggested
# true. Where it has none (8/3 × 3 + 0.04 = 8.04 is finite too; 1/3 + 0.04 is not), `=`
# can only mean ≈. Read with + above × (or × above /), 1/3 × 3 + 0.04 is 1/3 × 3.04 (or
# 1/(3 × 3) + 0.04), whose decimals never end: the rounding would pass as an approximation.
# (/ above × is no bug: a × (b / c) is (a × b) / c exactly.)
@pytest.mark.parametrize("text,status,verdict", [
    ("1 / 3 × 3 + 0.04 = 1.0", "suggested", "true"),  # 1.04, exact: a rounded figure
    ("1 / 3 × 3 - 0.06 = 0.9", "suggested", "true"),  # 0.94
    ("0.04 + 1 / 3 × 3 = 1.0", "suggested", "true"),
    ("1 / 3 × 3 + 0.04 = 1.04", "checked", "true"),
    ("1 / 3 × 3 + 0.06 = 1.0", "checked", "false"),  # 1.06: past half a unit
    ("1 / 3 + 0.04 = 0.37", "checked", "true"),  # 0.3733…: no exact decimal, so ≈
    # - and + of one rank, left to right: 1 - 1/3 + 1/3 + 0.04 is 1.04, not 1 - 0.7066…
    ("1 - 1 / 3 + 1 / 3 + 0.04 = 1.0", "suggested", "true"),
])
def test_the_exact_value_follows_the_usual_precedence(scan_text, text, status, verdict):
    got = one(scan_text, text)
    assert got[:2] == (status, verdict), got[2]


# ---- "a half", "one half", "one-half" -----------------------------------------------------
@pytest.mark.parametrize("word", ["a half", "one half", "one-half"])
def test_a_half_in_any_spelling_is_one_half(scan_text, word):
    status, verdict, rec = one(scan_text, f"The width 40320 is {word} of 80640.")
    assert (status, verdict) == ("checked", "true"), rec
    for wrong in (40321, 26880):  # one off, and a third of it
        status, verdict, rec = one(scan_text, f"The width {wrong} is {word} of 80640.")
        assert (status, verdict) == ("checked", "false"), rec


# ---- "half of that": a fraction of a figure named before ---------------------------------
@pytest.mark.parametrize("text,verdict", [
    ("The model width is 4096, and the FFN width is half of that (2048).", "true"),
    ("The model width is 4096, and the FFN width is half of that (2049).", "false"),
    ("The model width is 4096, and the FFN width is half of that (1365).", "false"),
    ("The width is 4096; half of that is 2048.", "true"),
    ("The width is 4096; half of that is 1365.", "false"),
])
def test_half_of_that_is_half_the_figure_before(scan_text, text, verdict):
    recs = scan_text(text + "\n")["statements"]
    assert [r["verdict"] for r in recs] == [verdict], recs
