"""Arithmetic whose result (or source) is tied to it by words, not by `=`, and a model's
nominal size in rows under a heading that names it (sentences written for these tests,
none copied from a corpus).

- "768 × 768 × 4 + 768 × 4, which comes to 2,362,368": a result said in words
  (`words.RESULT_LINK`), a reading to confirm, FALSE when the sum is another;
- "2,362,368 is equal to 768 × 768 × 4 + 768 × 4": the same, figure first
  (`words.SOURCE_LINK`, `arithmetic.worded_sources`);
- "= only 21.3M": a word that says nothing of the value between `=` and its result
  (`words.RESULT_FILLER`) is passed over, so the comparison is read as written;
- "three matrices of size 8,192 × 28,672, totaling ~705M": a total of several shapes
  is not the one product before it (`words.AGGREGATE_LINK`, `SHAPE_BEFORE`): unread;
- "Total Parameters | 405B" under "# Llama 3.1 405B": the heading's size repeated, a
  name and not a measurement (unread); "BF16 Weights | 810.0 GB" there may be the
  nominal 405B × 2 bytes, so it is never FALSE.
"""

import pytest
from verdicts import only

SUM = "768 × 768 × 4 + 768 × 4"  # 2,362,368

LINKED = [
    (f"The block holds {SUM}, which comes to 2,362,368 parameters.", "true"),
    (f"The block holds {SUM}, which works out to 2,362,368 parameters.", "true"),
    (f"The block holds {SUM}, which amounts to 2,362,368 parameters.", "true"),
    (f"The block holds {SUM} parameters, which adds up to 2,362,368.", "true"),
    (f"The count {SUM} is equal to 2,362,368.", "true"),
    (f"The count 2,362,368 is equal to {SUM}.", "true"),
    (f"The count 2,362,368 is exactly {SUM}.", "true"),
    (f"Their sum 2,362,368 equals {SUM}.", "true"),
    (f"The block holds {SUM}, which comes to 2,362,369 parameters.", "false"),
    (f"The count 2,362,396 is equal to {SUM}.", "false"),
    (f"The block holds {SUM}, which works out to about 2.4M parameters.", "true"),
    (f"The block holds {SUM}, which works out to about 3.1M parameters.", "false"),
]


@pytest.mark.parametrize("text,verdict", LINKED)
def test_a_result_tied_by_words_is_a_reading_to_confirm(scan_text, text, verdict):
    got = only(scan_text, text)
    assert (got["status"], got["verdict"]) == ("suggested", verdict), got


@pytest.mark.parametrize("text,verdict", [
    ("The projections hold (768 × 768 × 3 + 768 × 3) × 12 = only 21.3M parameters.", "true"),
    ("The projections hold (768 × 768 × 3 + 768 × 3) × 12 = just 21.3M parameters.", "true"),
    ("The projections hold (768 × 768 × 3 + 768 × 3) × 12 = only 2.13M parameters.", "false"),
])
def test_a_filler_word_after_the_sign_changes_nothing(scan_text, text, verdict):
    got = only(scan_text, text)
    assert (got["status"], got["verdict"]) == ("checked", verdict), got


@pytest.mark.parametrize("text", [
    "Each FFN has three matrices of size 8,192 × 28,672, totaling ~705M parameters.",
    "Two projections of shape 4096 × 11008 add up to 90M parameters.",
    # a bound after the sign is no filler: "= just under" stays unread
    "The projections hold (768 × 768 × 3 + 768 × 3) × 12 = just under 22M parameters.",
    # "exactly" denies the rounding `= 0.03` is read with: not passed over (unread)
    "1 / 40 = exactly 0.03",
    # no link: the words between say something else
    f"The block holds {SUM}, more than 2,000,000 parameters.",
])
def test_no_link_no_equality(scan_text, text):
    for got in scan_text(text + "\n")["statements"]:
        assert got["verdict"] != "false", got
        assert got["status"] != "checked", got


HEADED = """# Llama 3.1 405B

| Spec | Value |
|---|---|
| Total Parameters | 405B |
| Active Parameters | 405B |
| BF16 Weights | 810.0 GB |
| Layers | 126 |
"""


def test_a_heading_models_size_repeated_in_a_row_is_its_name(scan_text):
    rows = {s["text"].split(" | ")[0]: s for s in scan_text(HEADED)["statements"]}
    for name in ("Total Parameters", "Active Parameters"):
        assert rows[name]["status"] == "unchecked", rows[name]
    weights = rows["BF16 Weights"]
    assert (weights["status"], weights["verdict"]) == ("suggested", "true"), weights
    assert "405B" in weights["detail"] or "405000000000" in weights["claim"], weights
    layers = rows["Layers"]  # the rule takes only the name's size: other rows are read
    assert (layers["status"], layers["verdict"]) == ("suggested", "true"), layers


def test_a_row_under_the_heading_still_fails_when_no_reading_holds(scan_text):
    text = HEADED.replace("| 810.0 GB |", "| 1,620.0 GB |").replace("| 126 |", "| 120 |")
    rows = {s["text"].split(" | ")[0]: s for s in scan_text(text)["statements"]}
    assert rows["BF16 Weights"]["verdict"] == "false", rows["BF16 Weights"]
    assert rows["Layers"]["verdict"] == "false", rows["Layers"]
