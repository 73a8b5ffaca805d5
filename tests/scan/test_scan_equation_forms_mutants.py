"""The properties the mutants of `equation_forms` and `said_of` broke (a full mutation run of
the two modules in the eleventh session: 163 mutants, 35 survived; each test here is a
property a real bug of that shape would break)."""

from fractions import Fraction

import pytest

from ffnverify.scan import equation_forms as ef
from ffnverify.scan.numbers import Tok, tokens
from ffnverify.scan.parts import Part
from ffnverify.scan.said_of import results_said_of
from tests.scan.verdicts import decide

B = 10**9


def num(value, scale="", **kw) -> Tok:
    return Tok("NUM", str(value), 0, 1, value=Fraction(value), unit=kw.pop("unit", Fraction(1)),
               scale=scale, **kw)


TIMES = Tok("OP", "×", 0, 1)
SEVEN_B = [num(7 * B, "B", unit=Fraction(B))]


# --- is_label ---------------------------------------------------------------------------

def test_a_label_needs_a_scaled_count_on_the_left():
    assert not ef.is_label([num(7 * B)], [num(32), TIMES, num(4096)], 32 * 4096)  # no scale
    assert ef.is_label(SEVEN_B, [num(32), TIMES, num(4096)], 32 * 4096)


@pytest.mark.parametrize("right", [
    [num(32), TIMES, num(4000, "K", unit=Fraction(1000))],  # a scaled figure
    [num(32), TIMES, num(1000, power=True)],  # a power
    [num(32), TIMES, num(4096, money=True)],  # money
])
def test_a_right_side_with_a_scale_power_or_money_is_no_label(right):
    assert not ef.is_label(SEVEN_B, right, 32 * 4096)


@pytest.mark.parametrize("value, label", [
    (Fraction(1, 20000), True),  # far below, however small
    (Fraction(0), False),  # nothing
    (Fraction(7 * B, ef.LABEL_GAP), False),  # exactly the gap: read as an equality
    (Fraction(7 * B, ef.LABEL_GAP) - 1, True),
    (None, False),
])
def test_the_gap_is_strict_at_both_ends(value, label):
    assert ef.is_label(SEVEN_B, [num(32), TIMES, num(4096)], value) is label


# --- inverse ------------------------------------------------------------------------------

FACTOR = num(10, ratio=True)


@pytest.mark.parametrize("value, got", [
    (Fraction(1, 2), True), (Fraction(0), False), (Fraction(1), False),
    (Fraction(3, 2), False), (None, False),
])
def test_only_a_fraction_strictly_below_one_is_inverted(value, got):
    assert (ef.inverse("x", value, [FACTOR]) is not None) is got


def test_no_right_side_and_no_factor_are_no_inverse():
    assert ef.inverse("x", Fraction(1, 2), []) is None
    assert ef.inverse("x", Fraction(1, 2), [num(10)]) is None  # a plain 10: no factor
    assert ef.inverse("x", Fraction(1, 2), [num(10, "B", ratio=True)]) is None  # scaled
    assert ef.inverse("x", Fraction(1, 2), [num(10), TIMES]) == ("1 / (x)", num(10))


# --- scaled_result --------------------------------------------------------------------------

@pytest.mark.parametrize("result", [
    num(26, ratio=True), num(26, power=True), num(26, "B", unit=Fraction(B)),
    num(26, money=True), Tok("OP", ")", 0, 1),
])
def test_only_a_bare_number_is_read_in_the_terms_scale(result):
    assert ef.scaled_result([*SEVEN_B, TIMES, num(2)], result) is None


def test_the_scaled_result_carries_the_scale_and_its_unit():
    got = ef.scaled_result([*SEVEN_B, TIMES, num(2)], num(14, unit=Fraction(1, 10)))
    assert (got.value, got.unit, got.scale) == (14 * B, Fraction(B, 10), "B")


def test_terms_in_two_scales_give_no_scaled_result():
    left = [*SEVEN_B, TIMES, num(2000, "K", unit=Fraction(1000))]
    assert ef.scaled_result(left, num(14)) is None


# --- said_of --------------------------------------------------------------------------------

def _arith(text):
    toks = tokens(text)
    figs = tuple(i for i, t in enumerate(toks) if t.kind == "NUM")
    return toks, [Part("x", "x", True, figs, "arithmetic as written: x")]


def test_a_result_given_to_a_model_says_why_it_is_to_confirm():
    text = "Mixtral 8x7B has 8 × 7 = 56 parameters"
    toks, parts = _arith(text)
    got = results_said_of(parts, toks, text, ((0, 12, "mixtral-8x7b"),))
    assert got[0].sure is False
    assert got[0].reading == ("arithmetic as written: x (the result is then said of a model's "
                              "quantity, which is not read)")


def test_a_field_before_the_arithmetic_is_not_its_result(engine):
    got = decide(engine, "Llama 2 7B has 32 layers, and 2 × 16 = 32.")
    assert got[:2] == ("checked", "true"), got[3]


def test_a_totalling_word_that_opens_the_text_counts(engine):
    got = decide(engine, "Totaling 8 × 7B = 56B, Mixtral 8x7B is large.")
    assert got[0] == "suggested", got[3]
