"""Detection of numeric statements that carry no quantity word (ffnverify/scan/detect.py
`FORMULA`): a product of numbers, a number times a symbol, a symbol set to a number,
accelerators, overheads and passes; and what stays out."""

import pytest

from ffnverify.scan.detect import is_statement

STATEMENTS = ["B=1 S=2048 L=32 GQA8", "maybe 16 x 256 x 2B?", "12 * d^2 * L + 2 * V * d",
              "So, we have 2 passes.", "Let's add a 20% overhead factor.",
              "It ran on 8 A100s for a week.", "Is it 96 × 128?"]
NOT_STATEMENTS = ["In 2019 we moved to Paris.", "Call 555-1234 now.", "Version 2 is out.",
                  "The value 6.7 × 10⁹ is one number.", "Set u = 2 and k = 1 first.",
                  "The test passes 3 times out of 4 on Tuesdays."]


@pytest.mark.parametrize("text", STATEMENTS)
def test_a_formula_is_a_statement(text):
    assert is_statement(text)


@pytest.mark.parametrize("text", NOT_STATEMENTS)
def test_names_dates_and_scientific_numbers_are_not(text):
    assert not is_statement(text)
