"""Number literals as people write them, and where each node of a claim's tree points.

A literal reads as its exact value with the unit of its last stated digit (what ≈ reads,
docs/architecture.md §4.2) and a form that says how it was written; the tables below are
worked by hand from the parser's documentation (11,008; 2.67 is 267/100 to 1/100; 704.7M
to 10^5; 13.5GiB to a tenth of 2^30; 2⅔ to 1/3; 6.7 × 10⁹ to 10^8). Every node's column
is the column of its own first character in the claim, and a literal's text is what the
claim holds there: what an error or a report quotes back. (The language area's full
mutation run, issue 26, docs/mutation.md: forms, units, folded literals' text and nodes'
columns were read by no selected test.)"""

from fractions import Fraction as F

import pytest

from ffnverify.claims.parser import (
    BinOp,
    BoolOp,
    Call,
    Compare,
    Name,
    Not,
    Num,
    Unary,
    Word,
    parse,
)

LITERALS = [
    # text, value, unit of the last stated digit, form
    ("11,008", 11008, 1, ""),
    ("11_008", 11008, 1, ""),
    ("11\u202f008", 11008, 1, ""),  # narrow no-break space
    ("11\u2009008", 11008, 1, ""),  # thin space
    ("1,234,567", 1234567, 1, ""),
    ("1,234.5", F(12345, 10), F(1, 10), ""),
    ("1_000.000_5", F(10000005, 10000), F(1, 10000), ""),
    ("007", 7, 1, ""),
    ("0", 0, 1, ""),
    ("2.67", F(267, 100), F(1, 100), ""),
    ("1.50", F(3, 2), F(1, 100), ""),  # the trailing zero is stated
    (".5", F(1, 2), F(1, 10), ""),
    ("33%", F(33, 100), F(1, 100), "percent"),
    ("33 %", F(33, 100), F(1, 100), "percent"),
    ("0.5%", F(1, 200), F(1, 1000), "percent"),
    ("1e4", 10**4, 10**4, "e"),
    ("1E4", 10**4, 10**4, "e"),
    ("1e+2", 100, 100, "e"),
    ("1.5e3", 1500, 100, "e"),
    ("2.5e-3", F(25, 10**4), F(1, 10**4), "e"),
    ("1_000e3", 10**6, 1000, "e"),
    ("704.7M", 704_700_000, 10**5, "suffix"),
    ("7B", 7 * 10**9, 10**9, "suffix"),
    ("2G", 2 * 10**9, 10**9, "suffix"),
    ("32k", 32_000, 1000, "suffix"),
    ("1.5K", 1500, 100, "suffix"),
    ("1.5T", 15 * 10**11, 10**11, "suffix"),
    ("14 GB", 14 * 10**9, 10**9, "bytes"),
    ("14GB", 14 * 10**9, 10**9, "bytes"),
    ("13.5GiB", F(135, 10) * 2**30, F(2**30, 10), "bytes"),
    ("512 KiB", 512 * 1024, 1024, "bytes"),
    ("1 kB", 1000, 1000, "bytes"),
    ("½", F(1, 2), F(1, 2), "fraction"),
    ("2⅔", F(8, 3), F(1, 3), "fraction"),
    ("1⅛", F(9, 8), F(1, 8), "fraction"),
    ("10⁹", 10**9, 10**9, "pow10"),
    ("10**9", 10**9, 10**9, "pow10"),
    ("10^9", 10**9, 10**9, "pow10"),
    ("10^-3", F(1, 1000), F(1, 1000), "pow10"),
    ("10**+3", 1000, 1000, "pow10"),
    ("10⁻³", F(1, 1000), F(1, 1000), "pow10"),
    ("10**400", 10**400, 10**400, "pow10"),
    ("6.7 × 10⁹", 67 * 10**8, 10**8, "sci"),
    ("6.7·10^9", 67 * 10**8, 10**8, "sci"),
    ("6.7*10**9", 67 * 10**8, 10**8, "sci"),
    ("2 × 10⁹", 2 * 10**9, 10**9, "sci"),
    ("1.25 × 10^-2", F(125, 10**4), F(1, 10**4), "sci"),
]


@pytest.mark.parametrize("text,value,unit,form", LITERALS, ids=[t[0] for t in LITERALS])
def test_a_literal_reads_as_its_value_to_its_last_stated_digit(text, value, unit, form):
    for lead in ("", "x + "):  # at the start of a claim and inside it
        claim = f"{lead}{text} == 0"
        node = parse(claim).operands[0]
        if lead:
            node = node.right
        assert isinstance(node, Num), node
        assert (node.value, node.unit, node.form) == (value, unit, form)
        assert (node.text, node.col) == (text, len(lead) + 1)


@pytest.mark.parametrize("claim", [
    "1e3 × 10⁹ == 0",  # an exponent's literal times a power is a product of two
    "33% × 10⁹ == 0",
    "6.7 × 10⁴⁰¹ == 0",  # a power beyond the literal limit is computed, not a literal
    "6.7 × 10**2.5 == 0",  # a power that is no whole number
    "6.7 × 10**x == 0",
    "6.7 × 100**2 == 0",  # a base that is not 10
    "6.7 × 10.0**2 == 0",
    "6.7 / 10⁹ == 0",  # only a product is scientific notation
])
def test_what_is_not_one_literal_stays_an_operation(claim):
    node = parse(claim).operands[0]
    assert isinstance(node, BinOp), node


def test_a_signed_mantissa_keeps_its_sign_outside_the_literal():
    node = parse("x == -6.7 × 10⁹").operands[1]
    assert isinstance(node, Unary) and (node.op, node.col) == ("-", 6)
    assert node.operand == Num(67 * 10**8, 10**8, "6.7 × 10⁹", 7, "sci")
    node = parse("x == +2 × 10⁹").operands[1]
    assert isinstance(node, Unary) and (node.op, node.col) == ("+", 6)
    assert node.operand == Num(2 * 10**9, 10**9, "2 × 10⁹", 7, "sci")


def test_a_negative_power_of_ten_is_one_literal_in_both_spellings():
    for claim in ("x == 10**-3", "x == 10^-3", "x == 10⁻³"):
        node = parse(claim).operands[1]
        assert node == Num(F(1, 1000), F(1, 1000), claim[5:], 6, "pow10")


# ---------------------------------------------------------------- where nodes point

_SPELLINGS = {"*": "*×·", "-": "-−", "**": ("**", "^"), "%": "%", "+": "+", "/": "/"}


def _check_columns(claim, node):
    """Every node's column is its own first character in `claim` (1-based)."""
    at = claim[node.col - 1:]
    if isinstance(node, Num):
        assert at.startswith(node.text), (node, at)
    elif isinstance(node, Name):
        assert at.startswith(node.id), (node, at)
    elif isinstance(node, Word):
        assert at.lstrip("\"'").startswith(node.text), (node, at)
    elif isinstance(node, Call):
        assert at.startswith(node.func + "("), (node, at)
        for arg in node.args:
            _check_columns(claim, arg)
        for key, arg, col in node.kwargs:
            assert claim[col - 1:].startswith(key), (key, col)
            _check_columns(claim, arg)
    elif isinstance(node, Unary):
        assert at[:1] in _SPELLINGS[node.op], (node, at)
        _check_columns(claim, node.operand)
    elif isinstance(node, BinOp):
        if node.op == "**" and at[:1] in "⁰¹²³⁴⁵⁶⁷⁸⁹⁻":  # a superscript power
            pass
        else:
            assert any(at.startswith(s) for s in _SPELLINGS[node.op]), (node, at)
        _check_columns(claim, node.left)
        _check_columns(claim, node.right)
    elif isinstance(node, Compare):
        assert node.col == _start(node.operands[0]), (node, at)
        for operand in node.operands:
            _check_columns(claim, operand)
    elif isinstance(node, BoolOp):
        assert node.col == _start(node.values[0]), (node, at)
        for value in node.values:
            _check_columns(claim, value)
    elif isinstance(node, Not):
        assert at.startswith("not"), (node, at)
        _check_columns(claim, node.operand)
    else:
        raise AssertionError(node)


def _start(node):
    """The column of the first character a node was written with."""
    if isinstance(node, BinOp):
        return _start(node.left)
    if isinstance(node, Compare):
        return _start(node.operands[0])
    if isinstance(node, BoolOp):
        return _start(node.values[0])
    return node.col


@pytest.mark.parametrize("claim", [
    "x + 2 * y - 3 / z == 4",
    "a == b and c != d or not e < f",
    "not not x == 1",
    "x ** 2 + y² + z³ ≈ 4^2",
    "-x + −y == +3",
    "d % 3 == 1 and d % -3 == -2",
    "x × y · z == 6.7 × 10⁹",
    "params_total(llama-2-7b) == 6.7B",
    "params_attention(4096, 32, kv_heads=8, head_dim=128) < 10**8",
    "params_total('llama-2-7b', part=\"ffn\") > 1",
    "x == ~704.7M",
    "1 < x <= 2 == y",
])
def test_every_node_points_at_its_own_first_character(claim):
    _check_columns(claim, parse(claim))


def test_the_columns_of_a_claim_are_each_nodes_own():
    tree = parse("a + b == 2 and not c")
    assert isinstance(tree, BoolOp) and (tree.op, tree.col) == ("and", 1)
    compare, negation = tree.values
    assert compare == Compare((BinOp("+", Name("a", 1), Name("b", 5), 3),
                               Num(F(2), F(1), "2", 10)), ("==",), 1)
    assert negation == Not(Name("c", 20), 16)
    call = parse("x == f(y, 'w', k=-1)").operands[1]
    assert call == Call("f", (Name("y", 8), Word("w", 11)),
                        (("k", Unary("-", Num(F(1), F(1), "1", 19), 18), 16),), 6)


def test_a_name_argument_is_a_word_where_the_function_takes_a_name_and_a_name_elsewhere():
    # params_total(model, part): both are names; kv_cache_bytes(model, context, ...): only
    # the model, so `context` in second place is a variable
    call = parse("params_total(llama-2-7b, ffn) > 0").operands[0]
    assert call.args == (Word("llama-2-7b", 14), Word("ffn", 26))
    call = parse("params_total(llama-2-7b, part=ffn) > 0").operands[0]
    assert call.kwargs == (("part", Word("ffn", 31), 26),)
    call = parse("kv_cache_bytes(llama-2-7b, context) > 0").operands[0]
    assert call.args == (Word("llama-2-7b", 16), Name("context", 28))


def test_an_equality_inside_a_call_is_an_argument_not_a_keyword():
    call = parse("f(x == 1, y=2)")
    assert call.args == (Compare((Name("x", 3), Num(F(1), F(1), "1", 8)), ("==",), 3),)
    assert call.kwargs == (("y", Num(F(2), F(1), "2", 13), 11),)


# ---------------------------------------------------------------- the lexer's tokens


def _tokens(text):
    from ffnverify.claims.parser import Lexer

    lexer, out = Lexer(text), []
    while True:
        tok = lexer.next()
        out.append((tok.kind, tok.text, tok.col))
        if tok.kind == "EOF":
            return out


def test_the_lexer_gives_each_token_its_text_and_column_and_an_empty_end():
    assert _tokens("_d ≤ 'a b' × 2²") == [
        ("NAME", "_d", 1), ("OP", "<=", 4), ("STR", "'a b'", 6), ("OP", "*", 12),
        ("NUM", "2", 14), ("SUP", "²", 15), ("EOF", "", 16)]
    assert _tokens("") == [("EOF", "", 1)]
    assert _tokens("  ") == [("EOF", "", 3)]


def test_a_word_and_a_string_token_carry_their_text_as_value():
    from ffnverify.claims.parser import Lexer

    lexer = Lexer("meta-llama/Llama-2-7b-hf, 'x'")
    word = lexer.next(word=True)
    assert (word.kind, word.text, word.col, word.value) == (
        "WORD", "meta-llama/Llama-2-7b-hf", 1, "meta-llama/Llama-2-7b-hf")
    assert lexer.next().text == ","
    string = lexer.next()
    assert (string.kind, string.text, string.col, string.value) == ("STR", "'x'", 27, "x")
