"""The claim language (docs/architecture.md §4, §4.2), parsed by a whitelist grammar of its own.

Nothing here evaluates anything: text becomes a tree of the node classes below, or a
`ClaimSyntaxError` with the 1-based column of the offending character and a message that
names the rule broken. Numbers become exact `Fraction`s together with the unit of their
last stated digit, at their own scale (what `≈` reads, from `Num.unit` alone):

    11008  11_008  11,008  11 008 (U+202F/U+2009)   2.67 (267/100)   33% (33/100)
    1e4  704.7M (unit 10^5)  7B  32k  14 GB  13.5GiB  ½  2⅔ (8/3, unit 1/3)
    10⁹ / 10**9 / 10^9 (unit 10^9)   6.7 × 10⁹ = 6.7·10^9 = 6.7*10**9 = 6.7e9 (unit 10^8)

A comma is a thousands separator only outside a call's parentheses (the parser keeps
`Lexer.call_depth`); inside, it separates arguments. Size limits are enforced while
parsing: claim length, literal length, literal exponent and nesting depth: each
parenthesis, function call, sign, exponent and `not` opens one level, and MAX_DEPTH levels
are allowed (a flat chain `a + b + c ...` is one level however long).

Grammar (lowest precedence first; `**` is right-associative and binds tighter than a
unary minus on its left, as in Python):

    claim   := or
    or      := and ("or" and)*
    and     := not ("and" not)*
    not     := "not" not | compare
    compare := sum (CMP "~"? sum)*     -- "== ~704.7M" reads as "≈ 704.7M"
    sum     := term (("+" | "-") term)*
    term    := unary (("*" | "/" | "%") unary)*     -- "%" here is the remainder
    unary   := ("-" | "+") unary | power
    power   := atom SUP | atom ("**" unary)?        -- SUP: ² ³ ⁻¹ ...; "^" is "**"
    atom    := NUMBER | NAME | NAME "(" args? ")" | "(" or ")" | STRING
    args    := arg ("," arg)* ;  arg := NAME "=" or | or | WORD

CMP is one of `== != < <= > >= ≈ ~=`. WORD is a bare name such as `llama-2-7b`, read only
where the function takes a name (signatures.takes_word). Unicode `≤ ≥ ≠ × · −` are
accepted for `<= >= != * * -`. A `%` straight after a number with no operand following
is part of the number (a percentage); between two operands it is the remainder. One
rule tells them apart, `percent_reading` (a sign after '%' must be spaced like the '%').

The pieces: `lexer` (tokens, numbers, size limits, ClaimSyntaxError), `nodes` (the tree);
this module is the grammar. The names of both are re-exported here.
"""

import re
from fractions import Fraction

from ffnverify.claims.lexer import (
    _SCALE_WORDS,
    _SPACES,
    BYTE_UNITS,
    COMPARE_OPS,
    KEYWORDS,
    MAX_CLAIM_CHARS,
    MAX_DEPTH,
    MAX_LITERAL_DIGITS,
    MAX_LITERAL_EXPONENT,
    PERCENT_RULE,
    SCALE,
    SUPERSCRIPTS,
    THOUSANDS,
    VULGAR,
    ClaimSyntaxError,
    Lexer,
    Token,
    percent_reading,
    skip_spaces,
)
from ffnverify.claims.nodes import BinOp, BoolOp, Call, Compare, Name, Not, Num, Unary, Word
from ffnverify.claims.signatures import takes_word

__all__ = [
    "BYTE_UNITS", "COMPARE_OPS", "KEYWORDS", "MAX_CLAIM_CHARS", "MAX_DEPTH",
    "MAX_LITERAL_DIGITS", "MAX_LITERAL_EXPONENT", "PERCENT_RULE", "SCALE", "SUPERSCRIPTS",
    "THOUSANDS", "VULGAR", "BinOp", "BoolOp", "Call", "ClaimSyntaxError", "Compare", "Lexer",
    "Name", "Not", "Num", "Parser", "Token", "Unary", "Word", "parse", "percent_reading",
]


class Parser:
    def __init__(self, text: str):
        self.lexer = Lexer(text)
        self.depth = 0
        self.last_end = 0
        self.tok = self.lexer.next()

    def advance(self, word: bool = False) -> Token:
        tok = self.tok
        self.last_end = self.lexer.pos  # where the token just consumed ends
        self.tok = self.lexer.next(word)
        return tok

    def expect(self, text: str, what: str) -> Token:
        if self.tok.kind != "OP" or self.tok.text != text:
            raise ClaimSyntaxError(f"expected {what}, found {_describe(self.tok)}"
                                   f"{_hint(self.tok)}", self.tok.col)
        return self.advance()

    def is_op(self, *texts) -> bool:
        return self.tok.kind == "OP" and self.tok.text in texts

    def is_keyword(self, word) -> bool:
        return self.tok.kind == "NAME" and self.tok.text == word

    def parse(self):
        node = self.parse_or()
        if self.is_op("="):
            raise ClaimSyntaxError("unexpected '='; to compare, write '=='", self.tok.col)
        if self.tok.kind != "EOF":
            raise ClaimSyntaxError(f"unexpected {_describe(self.tok)}{_hint(self.tok)}",
                                   self.tok.col)
        return node

    def parse_or(self):
        return self._bool("or", self.parse_and)

    def parse_and(self):
        return self._bool("and", self.parse_not)

    def _bool(self, word, inner):
        col = self.tok.col
        values = [inner()]
        while self.is_keyword(word):
            self.advance()
            values.append(inner())
        return values[0] if len(values) == 1 else BoolOp(word, tuple(values), col)

    def parse_not(self):
        if self.is_keyword("not"):
            col = self.advance().col
            self._enter(col)
            operand = self.parse_not()
            self.depth -= 1
            return Not(operand, col)
        return self.parse_compare()

    def parse_compare(self):
        col = self.tok.col
        operands = [self.parse_sum()]
        ops = []
        while self.tok.kind == "OP" and self.tok.text in COMPARE_OPS:
            op = self.advance().text
            if self.is_op("~"):  # `== ~704.7M` reads as `≈ 704.7M`
                tilde = self.advance()
                if op not in ("==", "≈"):
                    raise ClaimSyntaxError(
                        f"a leading '~' before a number turns == into ≈ (x == ~704.7M); "
                        f"after {op!r} it has no meaning", tilde.col)
                if not (self.tok.kind == "NUM" or self.is_op("-", "+")):
                    raise ClaimSyntaxError(
                        f"a leading '~' reads as ≈ only before a number (x == ~704.7M), "
                        f"not before {_describe(self.tok)}", self.tok.col)
                op = "≈"
            ops.append(op)
            operands.append(self.parse_sum())
        return operands[0] if not ops else Compare(tuple(operands), tuple(ops), col)

    def parse_sum(self):
        node = self.parse_term()
        while self.is_op("+", "-"):
            tok = self.advance()
            node = BinOp(tok.text, node, self.parse_term(), tok.col)
        return node

    def parse_term(self):
        node = self.parse_unary()
        while self.is_op("*", "/", "%"):
            tok = self.advance()
            if tok.text == "%":  # after a name or ')': the remainder, or an ambiguous sign
                i = tok.col - 1
                percent_reading(self.lexer.text, i, i > 0 and self.lexer.text[i - 1] in
                                _SPACES, False)
            if tok.text == "%" and ((self.tok.kind == "NAME" and self.tok.text in KEYWORDS) or
                                    not (self.tok.kind in ("NUM", "NAME", "STR")
                                         or self.is_op("(", "-", "+"))):
                raise ClaimSyntaxError(
                    "'%' between two operands is the remainder (d % 3) and after a number "
                    f"a percentage (33%); here it is followed by {_describe(self.tok)}",
                    tok.col)
            right = self.parse_unary()
            folded = self._scientific(node, right) if tok.text == "*" else None
            node = folded or BinOp(tok.text, node, right, tok.col)
        return node

    def _scientific(self, left, right):
        """`6.7 × 10⁹`, `6.7*10**9`: one literal stated to a unit of the mantissa's last
        digit times the power (as 6.7e9 is), or None when the product is not that form."""
        sign = None
        if isinstance(left, Unary) and isinstance(left.operand, Num):
            sign, left = left, left.operand
        if not (isinstance(left, Num) and left.form == "" and isinstance(right, Num)
                and right.form == "pow10"):
            return None
        text = self.lexer.text[left.col - 1:self.last_end]
        num = Num(left.value * right.value, left.unit * right.value, text, left.col, "sci")
        return num if sign is None else Unary(sign.op, num, sign.col)

    def _enter(self, col):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ClaimSyntaxError(f"expression nested deeper than {MAX_DEPTH} levels", col)

    def parse_unary(self):
        if self.is_op("-", "+"):
            tok = self.advance()
            self._enter(tok.col)  # one level per sign
            node = Unary(tok.text, self.parse_unary(), tok.col)
            self.depth -= 1
            return node
        return self.parse_power()

    def parse_power(self):
        node = self.parse_atom()
        if self.tok.kind == "SUP":  # 4096², d³, 10⁻³
            tok = self.advance()
            exponent = Num(Fraction(tok.value), Fraction(1), tok.text, tok.col)
            if self.is_op("**") or self.tok.kind == "SUP":
                raise ClaimSyntaxError(
                    f"a superscript power ({tok.text}) cannot take another power after it; "
                    "use parentheses", self.tok.col)
            return self._pow10(node, exponent) or BinOp("**", node, exponent, tok.col)
        if self.is_op("**"):
            tok = self.advance()
            self._enter(tok.col)  # one level per exponent
            exponent = self.parse_unary()
            self.depth -= 1
            node = self._pow10(node, exponent) or BinOp("**", node, exponent, tok.col)
        return node

    def _pow10(self, base, exponent):
        """`10⁹`, `10**9`, `10^-3` as one literal stated, like 1e9, to a unit of 10^k."""
        if not (isinstance(base, Num) and base.form == "" and base.text == "10"):
            return None
        sign = 1
        if isinstance(exponent, Unary) and isinstance(exponent.operand, Num):
            sign, exponent = (-1 if exponent.op == "-" else 1), exponent.operand
        if not (isinstance(exponent, Num) and exponent.form == "" and
                exponent.value.denominator == 1 and exponent.unit == 1):
            return None
        k = sign * int(exponent.value)
        if abs(k) > MAX_LITERAL_EXPONENT:
            return None
        value = Fraction(10) ** k
        return Num(value, value, self.lexer.text[base.col - 1:self.last_end], base.col,
                   "pow10")

    def parse_atom(self):
        tok = self.tok
        if tok.kind == "NUM":
            self.advance()
            value, unit, form = tok.value
            return Num(value, unit, tok.text, tok.col, form)
        if tok.kind == "NAME":
            if tok.text in KEYWORDS:
                raise ClaimSyntaxError(f"unexpected keyword {tok.text!r}", tok.col)
            self.advance()
            if self.is_op("("):
                return self.parse_call(tok)
            return Name(tok.text, tok.col)
        if tok.kind == "STR":
            self.advance()
            return Word(tok.value, tok.col)
        if self.is_op("("):
            self.advance()
            self._enter(tok.col)
            node = self.parse_or()
            self.depth -= 1
            self.expect(")", f"')' to close the '(' at col {tok.col}")
            return node
        if tok.kind == "SUP":
            raise ClaimSyntaxError(f"a superscript power ({tok.text}) follows a number, name "
                                   "or ')' (4096², d³)", tok.col)
        if self.is_op("~"):
            raise ClaimSyntaxError("a leading '~' reads as ≈ only right after == (x == "
                                   "~704.7M); a ≈ b is written ≈ or ~=", tok.col)
        raise ClaimSyntaxError(f"expected a number, name or '(', found {_describe(tok)}", tok.col)

    def parse_call(self, name_tok):
        func = name_tok.text
        self._enter(name_tok.col)
        args: list = []
        kwargs: list = []
        # the token after "(" may be a bare word such as llama-2-7b; inside the call's
        # parentheses a comma separates arguments (never thousands)
        self.lexer.call_depth += 1
        self.advance(word=takes_word(func, 0, None))
        if not self.is_op(")"):
            while True:
                args_col = self.tok.col
                if self.tok.kind in ("NAME", "WORD") and self._next_is_assign():
                    key = self.advance().text
                    self.advance(word=takes_word(func, None, key))  # the "="
                    if any(k == key for k, _, _ in kwargs):
                        raise ClaimSyntaxError(f"keyword argument {key!r} repeated", args_col)
                    kwargs.append((key, self._arg(), args_col))
                else:
                    if kwargs:
                        raise ClaimSyntaxError(
                            "positional argument after a keyword argument", args_col)
                    args.append(self._arg())
                if not self.is_op(","):
                    break
                self.advance(word=takes_word(func, len(args), None))
        self.lexer.call_depth -= 1
        self.expect(")", f"',' or ')' in the arguments of {func}()")
        self.depth -= 1
        return Call(func, tuple(args), tuple(kwargs), name_tok.col)

    def _arg(self):
        if self.tok.kind == "WORD":
            tok = self.advance()
            return Word(tok.text, tok.col)
        return self.parse_or()

    def _next_is_assign(self) -> bool:
        """Whether the current name is followed by a single '=' (a keyword argument)."""
        text, i = self.lexer.text, self.lexer.pos
        i = skip_spaces(text, i)
        return text.startswith("=", i) and not text.startswith("==", i)


def _describe(tok: Token) -> str:
    return "the end of the claim" if tok.kind == "EOF" else repr(tok.text)


def _hint(tok: Token) -> str:
    """The notation rule behind a stray token, where one applies."""
    if tok.kind == "OP" and tok.text == ",":
        return (" (outside a call's parentheses a comma is only a thousands separator, "
                "between groups of three digits with no space: 11,008)")
    if tok.kind == "OP" and tok.text == "~":
        return " ('~' alone is not a comparison: write ≈ or ~=, or x == ~704.7M)"
    if tok.kind == "NAME" and tok.text == "x":
        return " (a product is written ×, · or *, not the letter x: 6.7 × 10⁹)"
    if tok.kind == "NAME" and tok.text.lower() in _SCALE_WORDS:
        return (f" (a scale is written as a suffix straight after the number: "
                f"{_SCALE_WORDS[tok.text.lower()]} for {tok.text.lower()}, as in 704.7M)")
    if tok.kind == "NUM" and re.fullmatch("[0-9]{3}", tok.text):
        return (" (digit groups are separated by a comma outside a call's parentheses, an "
                "underscore, or a narrow no-break or thin space: 134,217,728 or 134_217_728;"
                " not by another space)")
    if tok.kind == "NUM":
        return " (two numbers in a row: a product is written with *)"
    return ""


def parse(text: str):
    """The syntax tree of one claim; raises ClaimSyntaxError (never anything else)."""
    if not isinstance(text, str):
        raise ClaimSyntaxError("a claim must be text", 1)
    if len(text) > MAX_CLAIM_CHARS:
        raise ClaimSyntaxError(
            f"claim is {len(text)} characters long; the limit is {MAX_CLAIM_CHARS}", 1)
    for i, ch in enumerate(text):
        if ch in "\n\r\x00":
            raise ClaimSyntaxError("a claim is one line of text", i + 1)
    if not text.strip():
        raise ClaimSyntaxError("empty claim", 1)
    try:
        return Parser(text).parse()
    except RecursionError:  # belt and braces: MAX_DEPTH keeps the stack far from the limit
        raise ClaimSyntaxError(f"expression nested deeper than {MAX_DEPTH} levels", 1) from None
