"""Markdown soft line breaks (issue 27): a sentence that goes on on the next source line
is one statement, read from markdown-it-py's `softbreak`/`hardbreak` tokens, and every
character of it keeps its own source line and column (`ffnverify/scan/inline.py`): in
paragraphs, list items, block quotes, across emphasis, links and inline code, with
backslash escapes and entities (mapped to their first source character)."""

import html

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ffnverify.scan import readers
from ffnverify.scan.scan import statements_of


def _units(text):
    found, _, problems = statements_of(text, "markdown", "f.md")
    assert not problems
    return found


def _where_in(text, line, col):
    return text.split("\n")[line - 1][col - 1:]


@pytest.mark.parametrize("text, first", [
    ("The Foo 9B model has\n48 layers and a width of 5120.\n", "The Foo 9B model has 48 layers"),
    ("- The Foo 9B model has\n  48 layers and a width of 5120.\n", "The Foo 9B model has 48"),
    ("> The Foo 9B model has\n> 48 layers and a width of 5120.\n", "The Foo 9B model has 48"),
    ("1. The Foo 9B model has\n   48 layers and\n   a width of 5120.\n", "The Foo 9B model has 48"),
    ("The *Foo 9B model\nhas* 48 layers and a width of 5120.\n", "The Foo 9B model has 48"),
    ("The Foo 9B model has  \n48 layers and a width of 5120.\n", "The Foo 9B model has 48"),
    ("The Foo 9B model has\\\n48 layers and a width of 5120.\n", "The Foo 9B model has 48"),
    ("The [Foo 9B\nmodel](https://example.org/a) has\n48 layers, width 5120.\n",
     "The Foo 9B model has 48"),
])
def test_a_sentence_over_two_lines_is_one_statement_where_it_starts(text, first):
    units = _units(text)
    assert len(units) == 1, [u.text for u in units]
    unit = units[0]
    assert unit.text.startswith(first)
    assert "\n" not in unit.text
    assert _where_in(text, unit.line, unit.col).startswith(first.split()[0])
    assert unit.end_line > unit.line


def test_two_sentences_over_three_lines_are_two_with_their_own_columns():
    text = "Intro words here. The Foo 9B model\nhas 48 layers. Its width\nis 5120 wide.\n"
    units = _units(text)
    assert [u.text for u in units] == ["The Foo 9B model has 48 layers.",
                                       "Its width is 5120 wide."]
    assert (units[0].line, units[0].col) == (1, 19)
    assert (units[1].line, units[1].col) == (2, 16)


def _position(doc, block, needle):
    return doc.where(block.offset(block.text.index(needle)))


@pytest.mark.parametrize("text, needle, line, col", [
    ("A &amp; B have\n48 layers &lt; 50 and 5120 dims.\n", "5120", 2, 23),
    ("A \\* B have\n48 layers \\< 50 and 5120 dims.\n", "5120", 2, 21),
    ("A `2 * 4096\n+ 1` B with 48\nlayers and 5120 dims.\n", "5120", 3, 12),
    ("> - quoted item\n>   with 48 layers &ndash; 5120 dims.\n", "5120", 2, 28),
])
def test_escapes_entities_and_code_keep_later_figures_in_place(text, needle, line, col):
    doc = readers.read(text, "markdown")
    block = next(b for b in doc.blocks if needle in b.text)
    assert _position(doc, block, needle) == (line, col)
    assert _where_in(text, line, col).startswith(needle)


def test_an_escape_or_entity_maps_to_its_first_source_character():
    text = "Cost &asymp; 5 and \\* 7 here.\n"
    doc = readers.read(text, "markdown")
    block = doc.blocks[0]
    assert block.text == "Cost ≈ 5 and * 7 here."
    assert text[block.offset(block.text.index("≈"))] == "&"
    assert text[block.offset(block.text.index("*"))] == "\\"


WORD = st.sampled_from(["the", "model", "has", "48", "layers", "5120", "*wide*", "**bold**",
                        "`x * y`", "&amp;", "&#8776;", "\\*", "[link](http://e.org/x)",
                        "9B", "e.g.", "dims."])
LINE = st.lists(WORD, min_size=1, max_size=6).map(" ".join)


@given(st.lists(LINE, min_size=1, max_size=4), st.sampled_from(["", "- ", "> ", "1. "]))
def test_every_copied_character_is_where_the_source_has_it(lines, marker):
    indent = " " * len(marker) if marker in ("- ", "1. ") else marker
    text = marker + ("\n" + indent).join(lines) + "\n"
    doc = readers.read(text, "markdown")
    for block in doc.blocks:
        for i, ch in enumerate(block.text):
            if ch.isspace():
                continue
            src = text[block.offset(i):]
            if src.startswith("&"):  # an entity: its first source character
                assert html.unescape(src[:src.index(";") + 1]).startswith(ch)
            elif src.startswith("\\") and ch != "\\":  # an escape: its backslash
                assert src[1] == ch
            else:
                assert src[0] == ch, (i, ch, block.text, text)


def test_lines_that_are_each_a_label_and_its_value_are_statements_of_their_own():
    # a card's fields set one a line (`units._KEY_VALUE`): they were one merged statement
    text = ("Modality: Text\nLicense: Apache 2.0 (Open)\nParameter size: 8x7B (47B total)\n"
            "Context window: 32,768 tokens\nReleased: December 11, 2023\n")
    got = {(u.line, u.col): u.text for u in _units(text)}
    assert got[(3, 1)] == "Parameter size: 8x7B (47B total)", got
    assert got[(4, 1)] == "Context window: 32,768 tokens", got


def test_prose_wrapped_after_a_colon_is_still_one_statement():
    text = "The model has: 32 layers, and it was\nlater scaled to 48 layers in total.\n"
    units = _units(text)
    assert len(units) == 1, [u.text for u in units]
