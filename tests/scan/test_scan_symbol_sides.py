"""A side of written arithmetic that goes on into a symbol (`= 5.5·d_model`, `= 2.67d`,
`d·4 =`) is no number. Read as one, `4·1408 + 5632 = 11264 = 5.5·d_model` (this project's
own docs/index.md) was CHECKED FALSE as `11264 == 5.5`. The side is dropped, its figure is
unread, and the numeric steps around it are still checked."""

import pytest

from ffnverify.scan.arithmetic import arithmetic
from ffnverify.scan.numbers import normalise, tokens


def _claims(text):
    parts, _ = arithmetic(tokens(normalise(text)))
    return [p.strict for p in parts]


@pytest.mark.parametrize("text, want", [
    ("4·1408 + 5632 = 11264 = 5.5·d_model of FFN width", ["4 * 1408 + 5632 == 11264"]),
    ("8/3·4096 = 10922.67 = 2.67·d", ["8 / 3 * 4096 ≈ 10922.67"]),
    ("so h = 11008 = 2.6875·d here", []),
    ("8/3·4096 = 10922.67 = 2.67d.", ["8 / 3 * 4096 ≈ 10922.67"]),
    ("the FFN is d·4 = 16384 wide", []),
    ("(d + 2) × 4 = 16392", []),
])
def test_a_side_that_goes_on_into_a_symbol_is_not_read(text, want):
    assert _claims(text) == want


@pytest.mark.parametrize("text, want", [
    ("3 × 32 = 96 layers", ["3 * 32 == 96"]),         # a noun after the result: read
    ("3 × 32 = 96 d", ["3 * 32 == 96"]),              # spaced: a unit word, not a product
    ("8/3 × 4096 = 10923 × 1", ["8 / 3 * 4096 == 10923 * 1"]),
])
def test_numeric_sides_are_still_read(text, want):
    assert _claims(text) == want


def test_a_false_step_beside_a_symbol_is_still_flagged(scan_text):
    doc = ("4·1408 + 5632 = 11264 = 5.5·d_model of FFN width per token.\n\n"
           "4·1408 + 5632 = 11265 = 5.5·d_model of FFN width per token.\n")
    got = [(s["status"], s["verdict"]) for s in scan_text(doc)["statements"]]
    assert got[0][1] == "true" and got[1][1] == "false", got
    assert all(status != "checked" for status, _ in got), got  # 5.5 is unread
