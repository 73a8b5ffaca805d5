"""Numbers written in words (`scan.spelled`): cardinals, fractions and multiples read
exactly; cardinals agree with the number-parser library (an independent reader) on every
number a Hypothesis strategy writes out; the tokens with cardinals made numbers map back
to the words they came from."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ffnverify.scan.numbers import normalise, tokens
from ffnverify.scan.spelled import as_tokens, is_spelled, spelled

number_parser = pytest.importorskip("number_parser")

_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
          "fourteen fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def _below_thousand(n: int, hyphen: bool, with_and: bool) -> str:
    words = []
    if n >= 100:
        words += [_UNITS[n // 100], "hundred"]
        n %= 100
        if n and with_and:
            words.append("and")
    if n >= 20:
        tens, unit = divmod(n, 10)
        words.append(f"{_TENS[tens]}-{_UNITS[unit]}" if unit and hyphen else _TENS[tens])
        if unit and not hyphen:
            words.append(_UNITS[unit])
    elif n:
        words.append(_UNITS[n])
    return " ".join(words)


def english(n: int, hyphen: bool = True, with_and: bool = False) -> str:
    """n in English words ("one hundred and twenty-eight"), n in [1, 10**12)."""
    parts = []
    for scale, word in ((10**9, "billion"), (10**6, "million"), (10**3, "thousand")):
        if n >= scale:
            parts.append(_below_thousand(n // scale, hyphen, with_and) + " " + word)
            n %= scale
    if n:
        parts.append(_below_thousand(n, hyphen, with_and))
    return " ".join(parts)


def values(text, kind=None):
    return [(text[s.start:s.end], s.value) for s in spelled(text) if kind in (None, s.kind)]


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 10**12 - 1), st.booleans(), st.booleans())
def test_cardinals_agree_with_number_parser(n, hyphen, with_and):
    words = english(n, hyphen, with_and)
    got = [s for s in spelled(words) if s.kind == "cardinal"]
    assert [g.value for g in got] == [n], (words, got)
    assert (got[0].start, got[0].end) == (0, len(words))
    assert number_parser.parse_number(words) == n, words  # the oracle reads it the same


@pytest.mark.parametrize("text,expected", [
    ("eighty layers", [("eighty", 80)]),
    ("sixty-four heads", [("sixty-four", 64)]),
    ("one hundred and twenty-eight", [("one hundred and twenty-eight", 128)]),
    ("a hundred layers", [("a hundred", 100)]),
    ("seventy billion parameters", [("seventy billion", 70 * 10**9)]),
    ("two three", [("two", 2), ("three", 3)]),  # two numbers, not 23
    ("three and four", [("three", 3), ("four", 4)]),
    ("one key and one value per layer", []),  # "one" is an article or pronoun
    ("zero-shot, a layer", []),
])
def test_cardinals(text, expected):
    assert values(text, "cardinal") == expected


@pytest.mark.parametrize("text,value", [
    ("half", Fraction(1, 2)), ("a half", Fraction(1, 2)), ("a third", Fraction(1, 3)),
    ("one third", Fraction(1, 3)), ("two thirds", Fraction(2, 3)),
    ("two-thirds", Fraction(2, 3)), ("a quarter", Fraction(1, 4)),
    ("three quarters", Fraction(3, 4)), ("three-quarters", Fraction(3, 4)),
    ("an eighth", Fraction(1, 8)),
])
def test_fractions(text, value):
    assert values(text, "fraction") == [(text, value)]


@pytest.mark.parametrize("text,value", [
    ("twice", 2), ("double", 2), ("doubles", 2), ("halves", Fraction(1, 2)),
    ("triple", 3), ("three times", 3), ("ten times", 10), ("tenfold", 10),
])
def test_multiples(text, value):
    assert values(text, "multiple") == [(text, value)]


def test_tokens_with_cardinals_map_back_to_their_words():
    text = normalise("Mixtral 8x7B routes each token to two of its eight experts.")
    toks = tokens(text)
    worded, where = as_tokens(toks, text)
    nums = [(i, t) for i, t in enumerate(worded) if is_spelled(t)]
    assert [(t.text, t.value) for _, t in nums] == [("two", 2), ("eight", 8)]
    for i, t in nums:
        assert toks[where[i]].start == t.start and toks[where[i]].kind == "WORD"
    assert as_tokens(tokens("no words here: 4096"), "no words here: 4096")[0] == tokens(
        "no words here: 4096")
