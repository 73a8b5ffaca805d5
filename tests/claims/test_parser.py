"""The claim parser: exact numbers, positions in errors, name arguments, limits, and
Hypothesis: grammar-built expressions parse; any text parses or raises ClaimSyntaxError."""

from fractions import Fraction

import pytest
from claim_strategies import SYNTAX_CLAIMS
from hypothesis import given, settings
from hypothesis import strategies as st

from ffnverify.claims import parser as P
from ffnverify.claims.parser import ClaimSyntaxError, parse


def number(text):
    node = parse(f"{text} == 0").operands[0]
    while isinstance(node, P.Unary):
        node = node.operand
    return node


@pytest.mark.parametrize("text, value, unit", [
    ("11008", Fraction(11008), Fraction(1)),
    ("11_008", Fraction(11008), Fraction(1)),
    ("2.67", Fraction(267, 100), Fraction(1, 100)),
    ("2.70", Fraction(27, 10), Fraction(1, 100)),
    ("1e4", Fraction(10000), Fraction(10000)),
    ("1.5e3", Fraction(1500), Fraction(100)),
    ("2.5e-3", Fraction(25, 10000), Fraction(1, 10000)),
    ("33%", Fraction(33, 100), Fraction(1, 100)),
    ("32.5%", Fraction(325, 1000), Fraction(1, 1000)),
    (".5", Fraction(1, 2), Fraction(1, 10)),
    ("0.044715", Fraction(44715, 1_000_000), Fraction(1, 1_000_000)),
])
def test_numbers_are_exact_rationals_with_their_last_stated_digit(text, value, unit):
    n = number(text)
    assert isinstance(n, P.Num)
    assert (n.value, n.unit) == (value, unit)


def test_fractions_stay_fractions():
    tree = parse("8/3 == 2.67")
    assert isinstance(tree.operands[0], P.BinOp) and tree.operands[0].op == "/"


@pytest.mark.parametrize("text, col, fragment", [
    ("params(relu, d, h) ==== 1", 22, "expected a number"),
    ("1 +", 4, "end of the claim"),
    ("2d == 1", 2, "write 2*d"),
    ("d = 3", 3, "unexpected '='"),
    ("x == d %", 8, "'%' between two operands is the remainder"),
    ("(1 + 2 == 3", 12, "')' to close the '(' at col 1"),
    ("f(1, x=2, 3)", 11, "positional argument after a keyword"),
    ("a == b $ c", 8, "unexpected character '$'"),
    ("1_000_ == 1", 1, "underscore"),
    ("params(relu, d, h, bias=1, bias=2)", 28, "repeated"),
])
def test_errors_carry_the_column_of_the_offending_token(text, col, fragment):
    with pytest.raises(ClaimSyntaxError) as e:
        parse(text)
    assert e.value.col == col, e.value
    assert fragment in e.value.message


def test_bare_words_in_name_positions():
    tree = parse("d_model(llama-2-7b) == params_total('llama-3.1-405b')")
    left, right = tree.operands
    assert left.args == (P.Word("llama-2-7b", 9),)
    assert right.args[0].text == "llama-3.1-405b"
    # outside a name position the same text is arithmetic
    tree = parse("params(relu, d, d-1) == 1")
    assert isinstance(tree.operands[0].args[2], P.BinOp)
    tree = parse("flops(swiglu, d, h, pass=train, count=all) == 1")
    kwargs = dict((k, v) for k, v, _ in tree.operands[0].kwargs)
    assert kwargs == {"pass": P.Word("train", 26), "count": P.Word("all", 39)}


def test_unicode_operators():
    tree = parse("a × b · c − d ≤ e ≥ f ≠ g ≈ 1 ~= 2")
    assert tree.ops == ("<=", ">=", "!=", "≈", "≈")


def test_power_binds_tighter_than_unary_minus_and_is_right_associative():
    tree = parse("-2**3**2 == 1").operands[0]
    assert isinstance(tree, P.Unary)
    assert tree.operand.right.op == "**"


def test_limits():
    with pytest.raises(ClaimSyntaxError, match="nested deeper"):
        parse("(" * 500 + "1" + ")" * 500 + " == 1")
    with pytest.raises(ClaimSyntaxError, match="nested deeper"):
        parse("-" * 500 + "1 == 1")
    with pytest.raises(ClaimSyntaxError, match="characters long"):
        parse("1" * 1_000_000)
    with pytest.raises(ClaimSyntaxError, match="digits"):
        parse("1" * 1000 + " == 1")
    with pytest.raises(ClaimSyntaxError, match="exponent"):
        parse("1e99999 == 1")
    with pytest.raises(ClaimSyntaxError, match="one line"):
        parse("1 == 1\n2 == 2")


# ---- Hypothesis: the grammar is claim_strategies.SYNTAX_CLAIMS ------------------------


@given(st.data())
def test_claims_built_from_the_grammar_parse(data):
    text = data.draw(SYNTAX_CLAIMS, label="claim")
    tree = parse(text)
    assert isinstance(tree, P.Compare | P.BoolOp)


@given(st.data())
def test_any_text_parses_or_raises_its_own_error(data):
    text = data.draw(st.one_of(
        st.text(max_size=200),
        st.text(alphabet="()+-*/=<>≈~%._,'\" 0123456789edhzn", max_size=200),
        st.text(alphabet="()+-*/=<>≈~%._,'\" 0123456789dhnKkMBGTiB²³⁻½⅔×·−^\u202f\u2009",
                max_size=60),
        SYNTAX_CLAIMS.map(lambda c: c[: len(c) // 2]),  # truncated claims
    ), label="text")
    try:
        parse(text)
    except ClaimSyntaxError as e:
        assert 1 <= e.col <= max(len(text), 1) + 1


@pytest.fixture(scope="module")
def budget_engine():
    """One engine (one worker process) for every drawn example, as the audit keeps one for
    every claim: a claim that stops its worker must not stop the next example's."""
    from ffnverify.claims.budget import Engine

    with Engine(timeout=1.5, jobs=1) as engine:
        yield engine


@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_grammar_claims_evaluate_to_a_verdict_under_the_budget(budget_engine, data):
    claims = data.draw(st.lists(SYNTAX_CLAIMS, min_size=1, max_size=5), label="claims")
    results = budget_engine.evaluate_many([(c, ()) for c in claims])
    for result in results:
        assert result["verdict"] in ("true", "false", "unknown", "error")
        assert isinstance(result["value"], str) and isinstance(result["detail"], str)
