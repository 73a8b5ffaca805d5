"""One table per piece of number notation (ffnverify.notation): the claim language's
lexer and the prose scanner's both read it, to the same values; and every number the
scanner writes back into a claim (numbers.literal) is read by the claim parser exactly."""

import unicodedata
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ffnverify import notation
from ffnverify.claims import parser as P
from ffnverify.scan import numbers
from ffnverify.scan.numbers import literal, tokens


def _value(node) -> Fraction:
    """The exact value of a parsed numeric expression (numbers, unary minus, + - * /)."""
    if isinstance(node, P.Num):
        return node.value
    if isinstance(node, P.Unary) and node.op == "-":
        return -_value(node.operand)
    if isinstance(node, P.BinOp) and node.op in "+-*/":
        a, b = _value(node.left), _value(node.right)
        return {"+": a + b, "-": a - b, "*": a * b, "/": a / b}[node.op]
    raise AssertionError(f"not a number: {node}")


def claim_value(text: str) -> Fraction:
    """What the claim parser reads `text` as (the left side of `text == 0`)."""
    return _value(P.parse(f"{text} == 0").operands[0])


def scan_value(text: str) -> Fraction:
    (tok,) = [t for t in tokens(numbers.normalise(text)) if t.kind == "NUM"]
    return tok.value


def test_both_lexers_hold_the_notation_tables():
    assert P.VULGAR is numbers.FRACTIONS is notation.VULGAR_FRACTIONS
    assert P.BYTE_UNITS is numbers.BYTE_UNITS is notation.BYTE_UNITS
    assert P.SCALE is notation.SCALE_SUFFIXES
    assert numbers.SCALES == {s: 10**p for s, p in notation.SCALE_SUFFIXES.items()}
    assert numbers.FLOP_SCALES is notation.SI_PREFIXES


@pytest.mark.parametrize("ch", sorted(notation.VULGAR_FRACTIONS))
def test_vulgar_fractions_are_unicode_values_read_alike(ch):
    want = notation.VULGAR_FRACTIONS[ch]
    assert want == Fraction(unicodedata.numeric(ch)).limit_denominator(10)
    assert claim_value(ch) == scan_value(ch) == want
    assert claim_value(f"2{ch}") == scan_value(f"2{ch}") == 2 + want


@pytest.mark.parametrize("suffix", sorted(notation.SCALE_SUFFIXES))
def test_scale_suffixes_read_alike(suffix):
    want = Fraction(15, 10) * 10 ** notation.SCALE_SUFFIXES[suffix]
    assert claim_value(f"1.5{suffix}") == scan_value(f"1.5{suffix}") == want


@pytest.mark.parametrize("unit", sorted(notation.BYTE_UNITS))
def test_byte_units_read_alike(unit):
    want = 3 * notation.BYTE_UNITS[unit]
    assert claim_value(f"3 {unit}") == scan_value(f"3 {unit}") == want


@pytest.mark.parametrize("word", sorted(notation.SCALE_WORDS))
def test_scale_words_are_read_by_the_scanner_and_named_by_the_parser(word):
    assert scan_value(f"7 {word}") == 7 * 10 ** notation.SCALE_WORDS[word]
    power = notation.SCALE_WORDS[word]
    suffix = notation.SUFFIX_FOR_POWER.get(power, f"e{power}")  # no letter past T: e-notation
    with pytest.raises(P.ClaimSyntaxError, match=suffix):
        P.parse(f"7 {word} == 1")
    assert claim_value(f"7{suffix}") == 7 * 10 ** power  # the spelling it names parses


@pytest.mark.parametrize("sep", sorted(notation.THOUSANDS_SEPARATORS))
def test_thousands_separators_read_alike(sep):
    text = f"11{sep}008"
    assert claim_value(text) == scan_value(text) == 11008


_FRACTIONS = st.fractions(max_denominator=10**6).filter(lambda x: abs(x) < 10**30)
_DECIMALS = st.builds(lambda n, k: Fraction(n, 10**k), st.integers(-10**20, 10**20),
                      st.integers(0, 12))


@given(st.one_of(_FRACTIONS, _DECIMALS, st.integers(-10**40, 10**40).map(Fraction)))
def test_every_literal_the_scanner_writes_reads_back_exactly(x):
    assert claim_value(literal(x)) == x


_PROSE = st.one_of(
    st.integers(0, 10**15).map(lambda n: f"{n:,}"),
    st.builds(lambda n, k: f"{n}.{k:03d}", st.integers(0, 10**6), st.integers(0, 999)),
    st.builds(lambda n, s: f"{n}{s}", st.integers(1, 999), st.sampled_from(
        sorted(notation.SCALE_SUFFIXES))),
    st.builds(lambda n, u: f"{n} {u}", st.integers(1, 999), st.sampled_from(
        sorted(notation.BYTE_UNITS))),
    st.builds(lambda n, f: f"{n}{f}", st.integers(0, 99), st.sampled_from(
        sorted(notation.VULGAR_FRACTIONS))),
)


@given(_PROSE)
def test_scanned_prose_figures_written_back_read_the_same(text):
    """A figure the scanner reads, written back as the claim-language literal of its
    value, and (where the scanner marks it `plain`) as it stands, means the same."""
    (tok,) = [t for t in tokens(text) if t.kind == "NUM"]
    assert claim_value(literal(tok.value)) == tok.value
    if tok.plain:
        assert claim_value(tok.text) == tok.value
