"""Numbers as people write them: scale suffixes, byte units, thousands separators,
superscript powers, vulgar fractions, scientific forms, a leading `~` and the remainder
`%`. Exact values and stated precision per form, an error per misuse that names its rule,
Hypothesis round trips (any integer written in any of these forms parses to itself), the
≈ tolerance at the stated scale, and the remainder never proved wrongly."""

from decimal import Decimal
from fractions import Fraction

import pytest
import sympy as sp
from helpers import verdict
from hypothesis import given, settings
from hypothesis import strategies as st

from ffnverify import notation
from ffnverify.claims import parser as P
from ffnverify.claims.build import Builder
from ffnverify.claims.evaluate import evaluate_claim
from ffnverify.claims.parser import ClaimSyntaxError, parse

NNBSP, THIN = "\u202f", "\u2009"
SUP = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def right(text):
    """The node on the right of `x == text`."""
    return parse(f"x == {text}").operands[1]


def value(text):
    v = Builder().value(right(text))
    assert v.is_Rational, v
    return Fraction(int(v.p), int(v.q))


# ---- each form: exact value and the unit of its last stated digit ---------------------

@pytest.mark.parametrize("text, exact, unit", [
    ("704.7M", 704_700_000, 100_000),
    ("6.74B", 6_740_000_000, 10_000_000),
    ("7B", 7 * 10**9, 10**9),
    ("1.5G", 1_500_000_000, 100_000_000),
    ("2T", 2 * 10**12, 10**12),
    ("32K", 32_000, 1000),
    ("32k", 32_000, 1000),
    ("14 GB", 14 * 10**9, 10**9),
    ("14GB", 14 * 10**9, 10**9),
    ("13.5GiB", Fraction(27, 2) * 2**30, Fraction(2**30, 10)),
    ("512 KiB", 512 * 1024, 1024),
    ("2 kB", 2000, 1000),
    ("1.5 TB", 1_500 * 10**9, 10**11),
    ("3 MiB", 3 * 2**20, 2**20),
    ("11,008", 11008, 1),
    ("134,217,728", 134_217_728, 1),
    ("1,234.5", Fraction(24690, 20), Fraction(1, 10)),
    (f"134{NNBSP}217{NNBSP}728", 134_217_728, 1),
    (f"11{THIN}008", 11008, 1),
    ("1,500K", 1_500_000, 1000),
    ("½", Fraction(1, 2), Fraction(1, 2)),
    ("⅔", Fraction(2, 3), Fraction(1, 3)),
    ("2⅔", Fraction(8, 3), Fraction(1, 3)),
    ("1¾", Fraction(7, 4), Fraction(1, 4)),
    ("⅜", Fraction(3, 8), Fraction(1, 8)),
    ("2½%", Fraction(5, 200), Fraction(1, 200)),
    ("6.7 × 10⁹", 6_700_000_000, 10**8),
    ("6.7·10^9", 6_700_000_000, 10**8),
    ("6.7*10**9", 6_700_000_000, 10**8),
    ("6.7e9", 6_700_000_000, 10**8),
    ("1.5 × 10⁻³", Fraction(15, 10_000), Fraction(1, 10_000)),
    ("10⁹", 10**9, 10**9),
    ("10**-2", Fraction(1, 100), Fraction(1, 100)),
    ("33%", Fraction(33, 100), Fraction(1, 100)),
    ("33 %", Fraction(33, 100), Fraction(1, 100)),
])
def test_each_form_is_one_exact_literal_with_its_stated_unit(text, exact, unit):
    node = right(text)
    assert isinstance(node, P.Num), node
    assert (node.value, node.unit) == (Fraction(exact), Fraction(unit))
    assert value(text) == exact


@pytest.mark.parametrize("text, exact", [
    ("4096²", 4096**2),
    ("2³²", 2**32),
    ("(3 + 1)²", 16),
    ("2⁻¹", Fraction(1, 2)),
    ("-2²", -4),
    ("2^10", 1024),
    ("2^3^2", 2**9),
    ("7 % 3", 1),
    ("-7 % 3", 2),
    ("7 % -3", -2),
    ("7%3", 1),
    ("7.5 % 2", Fraction(3, 2)),
    ("10 % 4 * 3", 6),
    ("2 * 7 % 4", 2),
    ("33%-1", 0),  # the '%' spaced alike on both sides (not at all): 33 % -1
    ("7%-3", -2),
    ("33% - 1", Fraction(-67, 100)),
    ("33%- 1", Fraction(-67, 100)),
    ("50% * 4", 2),
    ("2K²", 4_000_000),
    ("−5", -5),
])
def test_powers_remainders_and_their_precedence(text, exact):
    assert value(text) == exact


def test_symbols_take_superscripts_and_a_bare_suffix_letter_is_a_name():
    tree = parse("d³ == d**3")
    assert tree.operands[0] == P.BinOp("**", P.Name("d", 1), P.Num(Fraction(3), Fraction(1),
                                                                    "³", 2), 2)
    assert verdict("d³ == d*d*d") == "true"
    assert verdict("B == 1") == "false"  # B alone is a symbol
    assert isinstance(right("B"), P.Name)


def test_a_comma_inside_a_call_separates_arguments():
    tree = parse("params(swiglu, 4096, 11008) == 135,266,304")
    assert len(tree.operands[0].args) == 3
    assert tree.operands[1].value == 135_266_304
    assert parse("min(1, 234) == 1").operands[0].args[1].value == 234
    # a narrow no-break space is a separator inside a call too (it cannot be an argument)
    tree = parse(f"params(swiglu, 4{NNBSP}096, 11{NNBSP}008) == 135,266,304")
    assert [a.value for a in tree.operands[0].args[1:]] == [4096, 11008]
    # outside calls, grouping parentheses do not make a comma an argument separator
    assert value("(11,008 + 1)") == 11009


def test_a_leading_tilde_after_equals_is_approximately():
    tree = parse("params(swiglu, 4096, 11008) == ~135.3M")
    assert tree.ops == ("≈",)
    assert verdict("params(swiglu, 4096, 11008) == ~135.3M") == "true"
    assert verdict("params(swiglu, 4096, 11008) == ~135.2M") == "false"
    assert verdict("params(swiglu, 4096, 11008) == 135.3M") == "false"  # == stays exact
    assert parse("x ≈ ~5").ops == ("≈",)
    assert parse("x == ~-5").ops == ("≈",)


# ---- errors: each names its rule and suggests only the fix for that rule -------------

@pytest.mark.parametrize("text, col, fragments", [
    ("x == 704.7 M", 12, ["suffix `M` means 10^6", "did you mean 704.7M?"]),
    ("x == 3 k", 8, ["suffix `k` means 10^3", "did you mean 3k?"]),
    ("x == 7b", 7, ["scale suffixes are", "did you mean 7B?"]),
    ("x == 2t", 7, ["scale suffixes are", "did you mean 2T?", "2*t"]),
    ("x == 14gb", 8, ["byte units are", "did you mean 14GB?"]),
    ("x == 14 gib", 9, ["byte units are", "did you mean 14 GiB?"]),
    ("x == 1e3K", 9, ["an exponent or a scale suffix, not both", "write 1e3 or 1K"]),
    ("x == 5K%", 8, ["a percentage takes no scale suffix"]),
    ("x == 11,0080", 9, ["group the digits in threes", "a group of 4 digits"]),
    ("x == 1,00", 8, ["group the digits in threes", "a group of 2 digits",
                      "decimal point is '.'"]),
    ("x == 1,2,345", 8, ["a group of 1 digit"]),
    ("x == 1234,567", 6, ["the first group", "has 4 digits"]),
    ("x == 1_000,000", 6, ["mixes them with underscores"]),
    ("x == 1,000_000", 6, ["mixes them with underscores"]),
    (f"x == 1,000{NNBSP}000", 11, ["a different separator"]),
    ("x == 1.234,5", 11, ["only between groups of the whole part"]),
    ("x == 1 000", 8, ["not by another space", "134,217,728"]),
    ("x == 1\u00a0000", 8, ["not by another space"]),
    ("x == 1, 000", 7, ["a comma is only a thousands separator"]),
    ("min(11,008) == 1", 7, ["a comma separates arguments", "11 and 008",
                             "11008 or 11_008"]),
    ("round_up(4,096) == 1", 11, ["a comma separates arguments"]),
    ("min(1,000.5) == 1", 6, ["a comma separates arguments"]),
    ("min(x=1,234) == 1", 8, ["a comma separates arguments"]),
    ("x == 2⅔⅔", 8, ["a mixed number has one fraction", "'2⅔⅔' has two"]),
    ("x == ⅔½", 7, ["a mixed number has one fraction"]),
    ("x == 2.5⅔", 9, ["a mixed number is a whole number followed by one fraction"]),
    ("x == 1e2½", 9, ["a mixed number is a whole number"]),
    ("x == ⅟3", 6, ["not a whole fraction"]),
    ("x == ²", 6, ["a superscript power (²) follows a number, name or ')'"]),
    ("x == d²**2", 8, ["cannot take another power after it"]),
    ("x == 10⁻", 8, ["superscript minus"]),
    ("x < ~3", 5, ["turns == into ≈", "after '<' it has no meaning"]),
    ("x == ~d", 7, ["only before a number"]),
    ("~3 == x", 1, ["only right after =="]),
    ("x ~ 3", 3, ["'~' alone is not a comparison"]),
    ("d % == 1", 3, ["'%' between two operands is the remainder"]),
    ("d % and 1", 3, ["'%' between two operands"]),
    ("x == 2d", 7, ["write 2*d, not 2d"]),
    ("x == 6.7 x 10^9", 10, ["a product is written ×, · or *, not the letter x"]),
    ("x == 704.7 million", 12, ["a scale is written as a suffix", "M for million"]),
    ("min(6.7 x 10, 1) == 1", 9, ["in the arguments of min()", "not the letter x"]),
    ("(1 000) == 1", 4, ["to close the '('", "not by another space"]),
    ("x == 2e", 7, ["an exponent needs its digits", "2e3", "2*e"]),
    ("x == 2e+", 7, ["an exponent needs its digits"]),
])
def test_every_notation_error_names_its_rule(text, col, fragments):
    with pytest.raises(ClaimSyntaxError) as e:
        parse(text)
    assert e.value.col == col, e.value
    for fragment in fragments:
        assert fragment in e.value.message, e.value.message
    if "write 2*d" not in fragments[-1]:  # the product hint belongs to letters only
        assert "not 2d" not in e.value.message


def test_remainder_by_zero_is_an_error():
    assert evaluate_claim("d % 0 == 1")["detail"].startswith("remainder by zero")
    assert verdict("d % (h - h) == 1") == "error"


# ---- Hypothesis: round trips and the ≈ tolerance -------------------------------------

SEPARATORS = st.sampled_from([",", NNBSP, THIN])
SUFFIXES = st.sampled_from(sorted(P.SCALE))
UNITS = st.sampled_from(sorted(P.BYTE_UNITS))


def grouped(n: int, sep: str) -> str:
    return f"{n:,}".replace(",", sep)


@given(st.integers(0, 10**30), SEPARATORS)
def test_any_integer_with_thousands_separators_is_itself(n, sep):
    node = right(grouped(n, sep))
    assert (node.value, node.unit) == (n, 1)
    assert value(f"-({grouped(n, sep)})") == -n


def _decimal(mantissa: int, places: int) -> str:
    return str(Decimal(mantissa).scaleb(-places))


@given(st.integers(0, 10**8), st.integers(0, 4), SUFFIXES, st.booleans())
def test_a_suffix_scales_the_value_and_the_stated_unit(mantissa, places, suffix, commas):
    text = _decimal(mantissa, places)
    if commas and places == 0:
        text = f"{mantissa:,}"
    node = right(text + suffix)
    scale = Fraction(10) ** P.SCALE[suffix]
    assert node.value == Fraction(mantissa, 10**places) * scale
    assert node.unit == scale / 10**places


@given(st.integers(0, 10**6), st.integers(0, 3), UNITS, st.sampled_from(["", " ", NNBSP]))
def test_a_byte_unit_scales_by_its_power_of_1000_or_1024(mantissa, places, unit, space):
    node = right(_decimal(mantissa, places) + space + unit)
    assert node.value == Fraction(mantissa, 10**places) * P.BYTE_UNITS[unit]
    assert node.unit == Fraction(P.BYTE_UNITS[unit], 10**places)


@given(st.integers(-10**4, 10**4), st.integers(0, 40))
def test_superscript_powers_are_exact(base, k):
    sup = str(k).translate(SUP)
    assert value(f"({base}){sup}") == Fraction(base) ** k
    if base > 0:
        assert value(f"{base}{sup}") == base**k
        assert value(f"{base}^{k}") == base**k


@given(st.integers(0, 10**6), st.sampled_from(sorted(P.VULGAR)))
def test_mixed_numbers_are_whole_plus_fraction(whole, ch):
    frac = notation.VULGAR_FRACTIONS[ch]
    assert value(f"{whole}{ch}") == whole + frac
    assert right(f"{whole}{ch}").unit == Fraction(1, notation.fraction_denominator(ch))


@given(st.integers(1, 10**6), st.integers(0, 5), st.integers(-30, 30))
def test_scientific_forms_state_the_same_precision(mantissa, places, k):
    m = _decimal(mantissa, places)
    sup = str(k).translate(SUP)
    forms = [f"{m} × 10{sup}", f"{m}·10^{k}", f"{m}*10**{k}", f"{m}e{k}", f"{m} * 10^({k})"]
    nodes = [right(f) for f in forms[:4]]
    assert len({(n.value, n.unit) for n in nodes}) == 1, nodes
    assert nodes[0].value == Fraction(mantissa, 10**places) * Fraction(10) ** k
    assert nodes[0].unit == Fraction(10) ** (k - places)
    assert value(forms[4]) == nodes[0].value  # parenthesised: same value, v1's precision


@settings(deadline=None)
@given(st.integers(1, 10**6), st.integers(0, 3), SUFFIXES, st.sampled_from([-1, 1]))
def test_approx_holds_to_half_a_unit_at_the_stated_scale_and_not_beyond(
        mantissa, places, suffix, side):
    stated = _decimal(mantissa, places) + suffix
    half = Fraction(10) ** P.SCALE[suffix] / 10**places / 2
    centre = Fraction(mantissa, 10**places) * Fraction(10) ** P.SCALE[suffix]
    edge = centre + side * half
    beyond = edge + side * half / 1000
    for op in ("≈", "== ~"):
        assert verdict(f"{edge.numerator}/{edge.denominator} {op}{stated}") == "true"
        assert verdict(f"{beyond.numerator}/{beyond.denominator} {op}{stated}") == "false"


@given(st.integers(-10**6, 10**6), st.integers(-50, 50).filter(bool))
def test_remainder_is_pythons(a, b):
    assert value(f"({a}) % ({b})") == a % b
    assert value(f"{a} % ({b})") == a % b


# ---- the remainder in the prover: right verdicts, never a wrong `true` ---------------

@pytest.mark.parametrize("claim, assume, allowed", [
    ("d % 2 == 0", (), {"false"}),
    ("d % 3 == 0", (), {"false"}),
    ("d % 3 >= 0", (), {"true"}),
    ("d % 3 <= 1", (), {"false"}),
    ("d % 3 < 3", (), {"true", "unknown"}),
    ("(d + 3) % 3 == d % 3", (), {"true"}),
    ("(2*d) % 2 == 0", (), {"true"}),
    ("d % h < d", (), {"false"}),
    ("d % h < h", (), {"true", "unknown"}),
    ("d % -3 >= 0", (), {"false"}),
    ("d % -3 <= 0", (), {"true", "unknown"}),
    ("x % 1 == x", (), {"false"}),
    ("x % 1 >= 0", (), {"true"}),
    ("floor(8*d/3) == 8*d/3", (), {"false"}),
    ("(8*d/3) % 1 == 0", (), {"false"}),
    # with the divisibility assumed: true (a proof) or unknown, never false or a wrong true
    ("floor(8*d/3) == 8*d/3", ("d % 3 == 0",), {"true", "unknown"}),
    ("(8*d/3) % 1 == 0", ("d % 3 == 0",), {"true", "unknown"}),
    ("d % 3 == 0", ("d % 3 == 0",), {"true", "unknown"}),
    ("d % 6 == 0", ("d % 3 == 0",), {"false"}),
    ("(4*d/3) % 2 == 0", ("d % 3 == 0",), {"true", "unknown"}),
    ("(d/3) % 2 == 0", ("d % 3 == 0",), {"false"}),
    ("d % 2 == 1", ("d % 4 == 1",), {"true", "unknown"}),
    ("2 - d % 3 > 0", (), {"false"}),
    ("d % 3 - 1 >= 0", (), {"false"}),
    ("(d*h + 1) % d == 1", (), {"false"}),
    ("not d % 2 == 0", (), {"false"}),
    ("3*floor(d/3) + d % 3 == d", (), {"true", "unknown"}),
    ("d % 2 == 0 or d % 2 == 1", (), {"true", "unknown"}),
    ("(d/2) % 1 == 1/2", ("d % 2 == 1",), {"true", "unknown"}),
    ("(d/2) % 1 == 0", ("d % 2 == 1",), {"false"}),
])
def test_remainder_claims_get_sound_verdicts(claim, assume, allowed):
    result = evaluate_claim(claim, assume)
    assert result["verdict"] in allowed, result


def test_a_false_remainder_claim_shows_its_counterexample():
    result = evaluate_claim("d % 2 == 0")
    assert result["detail"].startswith("counterexample d=1")
    result = evaluate_claim("d % 6 == 0", ("d % 3 == 0",))
    assert result["detail"].startswith("counterexample d=3")


def _holds(claim, assume, d):
    f = Builder().formula(parse(claim))
    point = {sp.Symbol("d", positive=True, integer=True): sp.Integer(d)}
    from ffnverify.claims.certify import truth as decide_numeric
    if assume is not None and decide_numeric(Builder().formula(parse(assume)).subs(point)) \
            is not True:
        return None
    return decide_numeric(f.subs(point))


@settings(deadline=None, max_examples=30)
@given(st.integers(-3, 3), st.integers(-4, 4), st.integers(1, 6).map(lambda m: m),
       st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), st.integers(-1, 6),
       st.one_of(st.none(), st.tuples(st.integers(2, 4), st.integers(0, 3))))
def test_remainder_verdicts_agree_with_brute_force(p, q, m, op, c, assume):
    """d ranges over 1..72, a whole number of periods of every residue used here."""
    claim = f"({p}*d + {q}) % {m} {op} {c}"
    cond = None
    if assume is not None:
        cond = f"d % {assume[0]} == {assume[1] % assume[0]}"
    result = evaluate_claim(claim, (cond,) if cond else ())
    truths = [t for t in (_holds(claim, cond, d) for d in range(1, 73)) if t is not None]
    if result["verdict"] == "true":
        assert all(truths), (claim, cond, result)
    elif result["verdict"] == "false":
        assert not all(truths), (claim, cond, result)
    else:
        assert result["verdict"] == "unknown", result
