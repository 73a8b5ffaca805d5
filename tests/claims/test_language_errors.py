"""Every error a claim's author can meet in the claim language, as the author reads it: the
full message and the 1-based column it points at. Each expected message below was read
against the claim it answers: it names what is wrong there, quotes the text as written
and, where one applies, the rule and the claim the author probably meant; the column is
the character to fix. (The language area's full mutation run, issue 26, docs/mutation.md:
a fifth of its survivors changed a message or passed None for its column, and no
selected test read the whole message.)"""

from fractions import Fraction as F

import pytest

from ffnverify.claims.lexer import MAX_CLAIM_CHARS, MAX_DEPTH, MAX_LITERAL_DIGITS
from ffnverify.claims.parser import PERCENT_RULE, ClaimSyntaxError, parse, percent_reading

_GROUPS = ("digit groups are separated by a comma outside a call's parentheses, an "
           "underscore, or a narrow no-break or thin space: 134,217,728 or 134_217_728; "
           "not by another space")
_BYTES = ("byte units are KB MB GB TB (powers of 1000) and KiB MiB GiB TiB (powers of "
          "1024)")
_REMAINDER = ("'%' between two operands is the remainder (d % 3) and after a number a "
              "percentage (33%); here it is followed by ")

GOLDEN = [
    # strings, characters
    ('x == "abc', 6, "unterminated or over-long string (limit 200)"),
    ("x == 'abc", 6, "unterminated or over-long string (limit 200)"),
    ("x == '" + "a" * 201 + "'", 6, "unterminated or over-long string (limit 200)"),
    ("1 == ⅟2", 6, "⅟ (fraction numerator one) is not a whole fraction; write 1/n"),
    ("x == é", 6, "unexpected character 'é'"),
    ("x == 1 $ 2", 8, "unexpected character '$'"),
    # a stray token, with the notation rule behind it
    ("x = 1", 3, "unexpected '='; to compare, write '=='"),
    ("1 2", 3, "unexpected '2' (two numbers in a row: a product is written with *)"),
    ("1 234", 3, f"unexpected '234' ({_GROUPS})"),
    ("1,000 000 == 1", 7, f"unexpected '000' ({_GROUPS})"),
    ("1 2345", 3, "unexpected '2345' (two numbers in a row: a product is written with *)"),
    ("x, 1", 2, "unexpected ',' (outside a call's parentheses a comma is only a thousands "
                "separator, between groups of three digits with no space: 11,008)"),
    ("1 ~ 2", 3, "unexpected '~' ('~' alone is not a comparison: write ≈ or ~=, or "
                 "x == ~704.7M)"),
    ("x x 2", 3, "unexpected 'x' (a product is written ×, · or *, not the letter x: "
                 "6.7 × 10⁹)"),
    ("d million", 3, "unexpected 'million' (a scale is written as a suffix straight after "
                     "the number: M for million, as in 704.7M)"),
    ("d Billion", 3, "unexpected 'Billion' (a scale is written as a suffix straight after "
                     "the number: B for billion, as in 704.7M)"),
    ("d y", 3, "unexpected 'y'"),
    ("1 == 2 )", 8, "unexpected ')'"),
    # what the grammar expected
    ("(1 + 2", 7, "expected ')' to close the '(' at col 1, found the end of the claim"),
    ("x * (1 + 2", 11, "expected ')' to close the '(' at col 5, found the end of the claim"),
    ("f(1 2)", 5, "expected ',' or ')' in the arguments of f(), found '2' (two numbers in a "
                  "row: a product is written with *)"),
    ("not", 4, "expected a number, name or '(', found the end of the claim"),
    ("1 +", 4, "expected a number, name or '(', found the end of the claim"),
    ("1 + * 2", 5, "expected a number, name or '(', found '*'"),
    ("and == 1", 1, "unexpected keyword 'and'"),
    ("1 + or", 5, "unexpected keyword 'or'"),
    ("heads(x=1, x=2)", 12, "keyword argument 'x' repeated"),
    ("heads(x=1, 2)", 12, "positional argument after a keyword argument"),
    # '~'
    ("x == ~y", 7, "a leading '~' reads as ≈ only before a number (x == ~704.7M), not "
                   "before 'y'"),
    ("x == ~", 7, "a leading '~' reads as ≈ only before a number (x == ~704.7M), not "
                  "before the end of the claim"),
    ("x < ~5", 5, "a leading '~' before a number turns == into ≈ (x == ~704.7M); after '<' "
                  "it has no meaning"),
    ("~5 == x", 1, "a leading '~' reads as ≈ only right after == (x == ~704.7M); a ≈ b is "
                   "written ≈ or ~="),
    # superscript powers
    ("x² ** 2", 4, "a superscript power (²) cannot take another power after it; use "
                   "parentheses"),
    ("x² ²", 4, "a superscript power (²) cannot take another power after it; use "
                "parentheses"),
    ("² == 4", 1, "a superscript power (²) follows a number, name or ')' (4096², d³)"),
    ("10⁻ == 1", 3, "a superscript minus (⁻) is followed by superscript digits (10⁻³)"),
    # '%' with no operand after it, after a name or ')'
    ("x % or y", 3, _REMAINDER + "'or'"),
    ("x % ) ", 3, _REMAINDER + "')'"),
    ("x % * 2", 3, _REMAINDER + "'*'"),
    ("x % == 1", 3, _REMAINDER + "'=='"),
    ("(x) %", 5, _REMAINDER + "the end of the claim"),
    # letters after a number: a unit, a suffix, an exponent or a product meant
    ("1e3k == 1", 4, "a number takes an exponent or a scale suffix, not both: 1e3k (write "
                     "1e3 or 1k)"),
    ("2.5e-3M == 1", 7, "a number takes an exponent or a scale suffix, not both: 2.5e-3M "
                        "(write 2.5e-3 or 2.5M)"),
    ("1 gb == 1", 3, f"{_BYTES}; did you mean 1 GB?"),
    ("1gb == 1", 2, f"{_BYTES}; did you mean 1GB?"),
    ("2 mib == 1", 3, f"{_BYTES}; did you mean 2 MiB?"),
    ("1 M == 1", 3, "suffix `M` means 10^6 and is written straight after the number; did "
                    "you mean 1M? (a product is written 1*M)"),
    ("7\u00a0B == 1", 3, "suffix `B` means 10^9 and is written straight after the number; "
                         "did you mean 7B? (a product is written 7*B)"),
    ("1m == 1", 2, "scale suffixes are K or k (10^3), M (10^6), B or G (10^9) and T (10^12), "
                   "in capitals except k; did you mean 1M? (a product is written 1*m)"),
    ("1e == 1", 2, "an exponent needs its digits after 'e' (1e3); a product is written 1*e"),
    ("1E == 1", 2, "an exponent needs its digits after 'E' (1E3); a product is written 1*E"),
    ("1x2 == 1", 2, "unexpected 'x' after the number '1' (write 1*x2, not 1x2)"),
    ("12abc == 1", 3, "unexpected 'a' after the number '12' (write 12*abc, not 12abc)"),
    ("1.2.3 == 1", 4, "unexpected '.' after the number '1.2'"),
    ("2⅔3 == 1", 3, "unexpected '3' after the number '2⅔'"),
    ('1 "a"', 3, "unexpected '\"a\"'"),
    ("(1, 2) == 1", 3, "expected ')' to close the '(' at col 1, found ',' (outside a call's "
                       "parentheses a comma is only a thousands separator, between groups of "
                       "three digits with no space: 11,008)"),
    ("x == 1,234,", 11, "unexpected ',' (outside a call's parentheses a comma is only a "
                        "thousands separator, between groups of three digits with no space: "
                        "11,008)"),
    # digit groups: the separator named, an example in that separator, the group at fault
    ("1\u202f23 == 1", 3, "thousands separators (a narrow no-break space) group the digits in "
                          "threes, as in 134\u202f217\u202f728; '1\\u202f23' has a group of 2 "
                          "digits"),
    ("1\u200923 == 1", 3, "thousands separators (a thin space) group the digits in threes, as "
                          "in 134\u2009217\u2009728; '1\\u200923' has a group of 2 digits"),
    ("1,23,456 == 1", 3, "thousands separators (a comma) group the digits in threes, as in "
                         "134,217,728; '1,23,456' has a group of 2 digits"),
    ("1\u202f234,567 == 1", 6, "thousands separators (a narrow no-break space) group the "
                               "digits in threes, as in 134\u202f217\u202f728; '1\\u202f234' "
                               "is followed by a different separator (a comma)"),
    ("1,234\u202f567 == 1", 6, "thousands separators (a comma) group the digits in threes, as "
                               "in 134,217,728; '1,234' is followed by a different separator "
                               "(a narrow no-break space)"),
    ("1.5\u202f000 == 1", 4, "thousands separators go only between groups of the whole part "
                             "('1.5' is followed by a narrow no-break space and digits)"),
    ("1,234.567,8 == 1", 10, "thousands separators go only between groups of the whole part "
                             "('1,234.567' is followed by a comma and digits)"),
    # a mixed number is a plain whole number and one fraction
    ("1_0⅔ == 1", 4, "a mixed number is a whole number followed by one fraction (2⅔); "
                     "'1_0⅔' is not one"),
    (".5⅔ == 1", 3, "a mixed number is a whole number followed by one fraction (2⅔); "
                    "'.5⅔' is not one"),
    ("5%% == 1", 3, _REMAINDER + "'=='"),  # 5%, then a remainder with no right operand
    ("5MB% == 1", 4, "a percentage takes no scale suffix or byte unit ('5MB%'); '%' between "
                     "two operands is the remainder"),
    ("5k % == 1", 4, "a percentage takes no scale suffix or byte unit ('5k %'); '%' between "
                     "two operands is the remainder"),
    ("f(11,008)", 5, "inside a call's parentheses a comma separates arguments, so '11,008' "
                     "would be 11 and 008; write 11008 or 11_008 for one number, or put a "
                     "space after the comma for two arguments"),
    ("f(g(1), 2,048)", 10, "inside a call's parentheses a comma separates arguments, so "
                           "'2,048' would be 2 and 048; write 2048 or 2_048 for one number, or "
                           "put a space after the comma for two arguments"),
    ("f(x, 2,048)", 7, "inside a call's parentheses a comma separates arguments, so '2,048' "
                       "would be 2 and 048; write 2048 or 2_048 for one number, or put a "
                       "space after the comma for two arguments"),
    ("1e401 == 1", 1, "exponent 401 in '1e401' is beyond ±400"),
    ("x == 2.5e-401", 6, "exponent -401 in '2.5e-401' is beyond ±400"),
    # the claim as a whole
    ("", 1, "empty claim"),
    ("  \t ", 1, "empty claim"),
    ("x == 1\ny == 2", 7, "a claim is one line of text"),
    ("x == 12\r", 8, "a claim is one line of text"),
    ("x\x00", 2, "a claim is one line of text"),
]


@pytest.mark.parametrize("claim,col,message", GOLDEN, ids=[repr(g[0])[:40] for g in GOLDEN])
def test_each_error_says_what_is_wrong_at_its_column(claim, col, message):
    with pytest.raises(ClaimSyntaxError) as got:
        parse(claim)
    assert (got.value.col, got.value.message) == (col, message)
    assert str(got.value) == f"col {col}: {message}"


@pytest.mark.parametrize("claim", ["1%2 == 1", "50%5 == 0", "33%x == 1", "x%-3 == 1",
                                   "7 % -3 == -2", "7 %.5 == 1", "7 % x == 1", "x % +3 == 1",
                                   "x % 'a' == 1", "x % (3) == 1"])
def test_a_percent_between_two_operands_is_the_remainder(claim):
    tree = parse(claim)
    assert tree.operands[0].op == "%", tree


@pytest.mark.parametrize("claim,args", [
    ("f(1234,567)", (1234, 567)),  # a comma after four digits is no thousands separator
    ("f(12,3456)", (12, 3456)),
    ("f(123,45)", (123, 45)),
    ("f(1,5)", (1, 5)),
    ("f(1.5,2)", (F(3, 2), 2)),
    ("f(1_0,8)", (10, 8)),
])
def test_a_comma_in_a_call_that_is_no_digit_group_separates_arguments(claim, args):
    assert tuple(a.value for a in parse(claim).args) == args


@pytest.mark.parametrize("claim,value", [("x == ~5", 5), ("x == ~+5", 5), ("x == ~-5", -5)])
def test_a_tilde_before_a_signed_number_reads_as_approximately(claim, value):
    tree = parse(claim)
    assert tree.ops == ("≈",)
    right = tree.operands[1]
    assert (right.value if hasattr(right, "value") else
            (-1 if right.op == "-" else 1) * right.operand.value) == value


# ---------------------------------------------------------------- '%' and a sign

_WHY = f" ({PERCENT_RULE})"


@pytest.mark.parametrize("claim,col,hint", [
    ("33% -1 == 1", 3, "write 33 % -1 for the remainder by -1, or 33% - 1 for 33 percent - 1"),
    ("33 %-1 == 1", 4, "write 33 % -1 for the remainder by -1, or 33% - 1 for 33 percent - 1"),
    ("7 %−3 == 1", 3, "write 7 % −3 for the remainder by −3, or 7% − 3 for 7 percent − 3"),
    ("7 %- x == 1", 3, "write 7 % -x for the remainder by -x, or 7% - x for 7 percent - x"),
    ("3.5 %- .5 == 1", 5, "write 3.5 % -.5 for the remainder by -.5, or 3.5% - .5 for "
                          "3.5 percent - .5"),
    ("7% -.5 == 1", 2, "write 7 % -.5 for the remainder by -.5, or 7% - .5 for 7 percent - .5"),
    ("x %-3 == 1", 3, "write x % -3 for the remainder by -3"),
    ("x% -3 == 1", 2, "write x % -3 for the remainder by -3"),
    ("x%- 3 == 1", 2, "write x % -3 for the remainder by -3"),
    ("x %+3 == 1", 3, "write x % +3 for the remainder by +3"),
    # thin and no-break spaces are spaces on either side of the '%'
    ("x\u2009%- 3 == 1", 3, "write x % -3 for the remainder by -3"),
    ("x\u00a0%-3 == 1", 3, "write x % -3 for the remainder by -3"),
    ("x %\u2009- 3 == 1", 3, "write x % -3 for the remainder by -3"),
    # an operand that is no name or number is written a (on the left) or b (on the right)
    ("(x) %- 3 == 1", 5, "write a % -3 for the remainder by -3"),
    ("x %- (y) == 1", 3, "write x % -b for the remainder by -b"),
])
def test_a_sign_after_percent_spaced_unlike_it_names_the_readings(claim, col, hint):
    with pytest.raises(ClaimSyntaxError) as got:
        parse(claim)
    assert (got.value.col, got.value.message) == (
        col, f"'%' followed by a sign is ambiguous here: {hint}{_WHY}")


@pytest.mark.parametrize("text,j,spaced,after_number,reading", [
    ("d % 3", 2, True, False, "remainder"),
    ("7%3", 1, False, True, "remainder"),
    ("7 % -3", 2, True, True, "remainder"),
    ("7%-3", 1, False, True, "remainder"),
    ("d % -3", 2, True, False, "remainder"),
    ("33%", 2, False, True, "percent"),
    ("33 %", 3, True, True, "percent"),
    ("33% - 1", 2, False, True, "percent"),
    ("33%- 1", 2, False, True, "percent"),
    ("(d) %", 4, True, False, "remainder"),  # not after a number: never a percentage
])
def test_percent_reading_returns_the_reading_it_documents(text, j, spaced, after_number,
                                                          reading):
    assert text[j] == "%"
    assert percent_reading(text, j, spaced, after_number) == reading


# ---------------------------------------------------------------- limits


def test_a_claim_at_the_length_limit_is_read_and_one_character_more_is_refused():
    claim = "x == " + "1" * (MAX_CLAIM_CHARS - 5)
    assert len(claim) == MAX_CLAIM_CHARS
    with pytest.raises(ClaimSyntaxError) as got:  # too many digits, but read
        parse(claim)
    assert got.value.message.startswith("number literal has")
    with pytest.raises(ClaimSyntaxError) as got:
        parse(claim + "1")
    assert (got.value.col, got.value.message) == (
        1, f"claim is {MAX_CLAIM_CHARS + 1} characters long; the limit is {MAX_CLAIM_CHARS}")


def test_a_literal_of_the_digit_limit_is_read_and_one_digit_more_is_refused():
    parse("x == " + "9" * MAX_LITERAL_DIGITS)
    parse("x == 0.000" + "9" * (MAX_LITERAL_DIGITS - 1))  # leading zeros are no digits
    with pytest.raises(ClaimSyntaxError) as got:
        parse("x == 1_" + "9" * MAX_LITERAL_DIGITS)
    assert (got.value.col, got.value.message) == (
        6, f"number literal has {MAX_LITERAL_DIGITS + 1} digits; the limit is "
           f"{MAX_LITERAL_DIGITS}")
    with pytest.raises(ClaimSyntaxError) as got:  # trailing zeros are digits
        parse("x == 1" + "0" * MAX_LITERAL_DIGITS)
    assert got.value.col == 6 and "has 401 digits" in got.value.message


def test_an_exponent_at_the_limit_is_read_and_one_more_is_refused():
    assert parse("1e400 == 0").operands[0].value == 10**400
    assert parse("1e-400 == 0").operands[0].value * 10**400 == 1
    with pytest.raises(ClaimSyntaxError) as got:
        parse("1e-401 == 0")
    assert (got.value.col, got.value.message) == (1, "exponent -401 in '1e-401' is beyond ±400")


def test_a_superscript_exponent_of_the_digit_limit_is_read_and_one_more_is_refused():
    sup = "¹" * MAX_LITERAL_DIGITS
    parse(f"x{sup} == 1")
    with pytest.raises(ClaimSyntaxError) as got:
        parse(f"x == y{sup}¹")
    assert (got.value.col, got.value.message) == (
        7, f"superscript exponent has {MAX_LITERAL_DIGITS + 1} digits; the limit is "
           f"{MAX_LITERAL_DIGITS}")
    with pytest.raises(ClaimSyntaxError) as got:
        parse(f"x == y⁻{sup}¹")
    assert got.value.col == 7 and f"has {MAX_LITERAL_DIGITS + 1} digits" in got.value.message


_OPENERS = {  # one level of nesting each, written n times (width columns each), then
    # closed; the level is counted at the column `at` within its opener
    "parenthesis": (lambda n: "(" * n + "1" + ")" * n, 1, 1),
    "sign": (lambda n: "-" * n + "1", 1, 1),
    "not": (lambda n: "not " * n + "x", 4, 1),
    "call": (lambda n: "f(" * n + "1" + ")" * n, 2, 1),  # at the function's name
    "exponent": (lambda n: "2**" * n + "1", 3, 2),  # at the '**'
}


@pytest.fixture
def deep_stack():
    # the limit under test is the claim's MAX_DEPTH, not Python's stack: under a tracer or
    # mutmut's trampolines each level takes more frames than the default limit allows
    import sys

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    yield
    sys.setrecursionlimit(old)


@pytest.mark.parametrize("kind", sorted(_OPENERS))
def test_nesting_to_the_limit_is_read_and_one_level_more_is_refused_at_that_level(
        kind, deep_stack):
    write, width, at = _OPENERS[kind]
    parse(write(MAX_DEPTH))
    with pytest.raises(ClaimSyntaxError) as got:
        parse(write(MAX_DEPTH + 1))
    # the column of the opener one past the limit
    assert (got.value.col, got.value.message) == (
        MAX_DEPTH * width + at, f"expression nested deeper than {MAX_DEPTH} levels")


@pytest.mark.parametrize("kind", sorted(_OPENERS))
def test_a_closed_level_is_given_back(kind, deep_stack):
    # levels closed before are not counted again: 100 nested pairs side by side are flat,
    # and a chain after closed levels still has all MAX_DEPTH levels and no more
    write, width, at = _OPENERS[kind]
    parse(" and ".join([write(2)] * 100))
    prefix = " and ".join([write(3)] * 5) + " and "
    parse(prefix + write(MAX_DEPTH))
    with pytest.raises(ClaimSyntaxError) as got:
        parse(prefix + write(MAX_DEPTH + 1))
    assert got.value.col == len(prefix) + MAX_DEPTH * width + at


def test_a_claim_that_runs_out_of_stack_is_a_syntax_error_at_its_start_not_a_crash():
    # MAX_DEPTH keeps the parser far from Python's recursion limit; with a stack already
    # nearly used up, parse still raises its own error, never RecursionError
    import inspect
    import sys

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 40)
    try:
        with pytest.raises(ClaimSyntaxError) as got:
            parse("(" * 30 + "1" + ")" * 30)
    finally:
        sys.setrecursionlimit(old)
    assert got.value.col == 1 and got.value.message.startswith("expression nested deeper")
