"""The claim language's number literals and its '%' rule, as a claim file's author meets
them: every malformed literal is refused with a message that quotes it as written and
points at the column to fix, and an ambiguous '%' names the two claims the author may
have meant, with the operands as written. (The full mutation run of the language area,
issue 26, docs/mutation.md, showed no selected test pinned these: 116 of its 547
survivors were in `lexer._scan_number` and `lexer.percent_reading`. It also found the
hint's left operand cut to its last digits, "write 1 % -y2" for `x1 %- y2`.)"""

from fractions import Fraction

import pytest

from ffnverify.claims.parser import ClaimSyntaxError, parse

GROUPS = "thousands separators (a comma) group the digits in threes, as in 134,217,728; "


@pytest.mark.parametrize("claim,col,message", [
    ("1__000 == 1000", 1, "misplaced underscore in number '1__000'"),
    ("1000_ == 1000", 1, "misplaced underscore in number '1000_'"),
    ("1_.5 == 1.5", 1, "misplaced underscore in number '1_.5'"),
    ("1._5 == 1.5", 1, "misplaced underscore in number '1._5'"),
    ("1_e3 == 1000", 1, "misplaced underscore in number '1_e3'"),
    ("x == 2_5.1_", 6, "misplaced underscore in number '2_5.1_'"),
    ("1.5⅔ == 1", 4, "a mixed number is a whole number followed by one fraction (2⅔); "
                    "'1.5⅔' is not one"),
    ("1e3⅔ == 1", 4, "a mixed number is a whole number followed by one fraction (2⅔); "
                    "'1e3⅔' is not one"),
    ("2⅔⅓ == 3", 3, "a mixed number has one fraction (2⅔ is 8/3); '2⅔⅓' has two"),
    ("⅔⅓ == 1", 2, "a mixed number has one fraction (2⅔ is 8/3); '⅔⅓' has two"),
    ("1,000.5,000 == 1", 8, "thousands separators go only between groups of the whole part "
                            "('1,000.5' is followed by a comma and digits)"),
    ("1,0000 == 1", 3, GROUPS + "'1,0000' has a group of 4 digits"),
    ("12,34 == 1", 4, GROUPS + "'12,34' has a group of 2 digits (the decimal point is '.')"),
    ("1,234,5 == 1", 7, GROUPS + "'1,234,5' has a group of 1 digit"),
    ("1,234_5 == 1", 1, GROUPS + "'1,234' mixes them with underscores"),
    ("1234,567 == 1", 1, GROUPS + "the first group of '1234,567' has 4 digits (at most 3)"),
])
def test_a_malformed_literal_is_quoted_as_written_at_its_column(claim, col, message):
    with pytest.raises(ClaimSyntaxError) as got:
        parse(claim)
    assert (got.value.col, got.value.message) == (col, message)


@pytest.mark.parametrize("literal,value", [
    ("1_000", Fraction(1000)), ("1_000.000_5", Fraction(10000005, 10000)),
    ("2⅔", Fraction(8, 3)), ("1,234,567", Fraction(1234567)), ("1.5e3", Fraction(1500)),
    ("1\u202f024", Fraction(1024)),
])
def test_a_well_formed_literal_reads_as_its_exact_value(literal, value):
    (left, _) = parse(f"{literal} == 0").operands  # no false alarm, and the value exact
    assert left.value == value, left


_WHY = ("('%' is the remainder when an operand follows it, a sign written straight before "
        "that operand and the '%' spaced")


@pytest.mark.parametrize("claim,col,hint", [
    ("7 %-3 == 1", 3, "write 7 % -3 for the remainder by -3, or 7% - 3 for 7 percent - 3"),
    ("33 % - 1 == 1", 4, "write 33 % -1 for the remainder by -1, or 33% - 1 for 33 percent - 1"),
    ("3.5 % - 0.5 == 1", 5, "write 3.5 % -0.5 for the remainder by -0.5, or 3.5% - 0.5 for "
                            "3.5 percent - 0.5"),
    ("x1 %- y2 == 1", 4, "write x1 % -y2 for the remainder by -y2"),
    ("d_model %- 3 == 1", 9, "write d_model % -3 for the remainder by -3"),
    ("x %+ 2 == 1", 3, "write x % +2 for the remainder by +2"),
])
def test_an_ambiguous_percent_names_both_readings_with_the_operands_as_written(claim, col, hint):
    with pytest.raises(ClaimSyntaxError) as got:
        parse(claim)
    assert got.value.col == col
    assert got.value.message.startswith(f"'%' followed by a sign is ambiguous here: {hint} "
                                        + _WHY), got.value.message


@pytest.mark.parametrize("claim,reading", [
    ("33% - 1 == -0.67", "percent"),  # glued to its number, spaced from the sign
    ("33%- 1 == -0.67", "percent"),
    ("7 % -3 == -2", "remainder"),  # spaced like the sign is glued to its operand
    ("7%-3 == -2", "remainder"),
    ("d % -3 == 1", "remainder"),
    ("7 % 3 == 1", "remainder"),
    ("50% == 1/2", "percent"),
])
def test_the_percent_rule_reads_each_spacing_one_way(claim, reading):
    tree = parse(claim)
    text = repr(tree)
    assert ("form='percent'" in text) == (reading == "percent"), text
    assert ("op='%'" in text) == (reading == "remainder"), text
