"""TOML positions, by property: however a claim's `expr` is written (basic or literal
string, on one line or several, with escapes, under a quoted or spaced table header,
after other keys), every character of the claim read from the file points at the
(line, col) in the file where that character, or the escape that stands for it, is."""

import re
import tomllib

from hypothesis import given
from hypothesis import strategies as st

from ffnverify.claims.files import toml_claims

CHARS = st.characters(exclude_categories=("Cs",), exclude_characters="\x00")
SHORT = {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"',
         "\\": "\\\\"}


@st.composite
def basic_string(draw, multiline):
    """(source text, value) of a TOML basic string, each character escaped or not."""
    value = draw(st.text(CHARS, min_size=1, max_size=20))
    out = []
    for ch in value:
        plain_ok = ch not in '"\\' and (ord(ch) >= 0x20 or ch == "\t") and ch != "\x7f"
        if multiline and ch == "\n":
            plain_ok = True
        if plain_ok and draw(st.booleans()):
            out.append(ch)
        elif ch in SHORT and draw(st.booleans()):
            out.append(SHORT[ch])
        else:
            out.append(f"\\u{ord(ch):04X}" if ord(ch) < 0x10000 else f"\\U{ord(ch):08X}")
    quote = '"""' if multiline else '"'
    return quote + "".join(out) + quote, value


@st.composite
def literal_string(draw, multiline):
    bad = "'\r\x7f" + ("" if multiline else "\n")
    alphabet = st.characters(exclude_categories=("Cs", "Cc"), exclude_characters=bad)
    if multiline:
        alphabet = st.one_of(alphabet, st.just("\n"))
    value = draw(st.text(alphabet, min_size=1, max_size=20))
    quote = "'''" if multiline else "'"
    return quote + value + quote, value


STRINGS = st.one_of(basic_string(False), basic_string(True), literal_string(False),
                    literal_string(True))
HEADERS = st.sampled_from(["[[claim]]", "[[ claim ]]", '[["claim"]]', "[[ 'claim' ]]",
                           "[[claim]]  # a comment"])
KEYS = st.sampled_from(["expr", '"expr"', "'expr'", "EXPR", '"Expr"'])
BEFORE = st.sampled_from(["", 'id = "x"\n', 'quote = """a\nb = "c"\n"""\n',
                          'assume = [\n  "d >= 1", # [\n  "h >= 1",\n]\n', "\n# note\n"])


@given(st.lists(st.tuples(HEADERS, BEFORE, KEYS, st.sampled_from(["", "  ", "\t"]),
                          STRINGS), min_size=1, max_size=3))
def test_every_character_of_expr_points_into_the_file(tables):
    text = ""
    for header, before, key, indent, (source, _) in tables:
        text += f"{header}\n{before}{indent}{key} = {source}\n\n"
    data = tomllib.loads(text)
    claims = toml_claims(text, "p.toml")
    assert len(claims) == len(tables)
    lines = text.split("\n")
    for claim, entry in zip(claims, data["claim"]):
        value = next(v for k, v in entry.items() if k.lower() == "expr")
        assert claim.problem is None, claim.problem
        if "\n" in value or "\r" in value:  # on several lines: one claim, spaces joined
            assert claim.expr == " ".join(re.findall(r"[^ \t\r\n]+", value))
        else:
            assert claim.expr == value
        for k, ch in enumerate(claim.expr):
            line, col = claim.position(k)
            if ch != " ":
                at = lines[line - 1][col - 1]
                assert at == ch or at == "\\", (k, ch, at, line, col)
        if claim.expr:  # one past the end, where "the end of the claim" errors point
            line, col = claim.position(len(claim.expr) - 1)
            assert claim.position(len(claim.expr)) == (line, col + 1)
