"""The claim language (SPEC §4), parsed by a whitelist grammar of its own.

Nothing here evaluates anything: text becomes a tree of the node classes below, or a
`ClaimSyntaxError` with the 1-based column of the offending character. Numbers become
exact `Fraction`s (`2.67` is 267/100, `33%` is 33/100, `1e4` is 10000) together with the
unit of their last stated digit (for `≈`). Size limits are enforced while parsing:
claim length, literal length, literal exponent and nesting depth: each parenthesis,
function call, sign, exponent and `not` opens one level, and MAX_DEPTH levels are
allowed (a flat chain `a + b + c ...` is one level however long).

Grammar (lowest precedence first; `**` is right-associative and binds tighter than a
unary minus on its left, as in Python):

    claim   := or
    or      := and ("or" and)*
    and     := not ("and" not)*
    not     := "not" not | compare
    compare := sum (("==" | "!=" | "<" | "<=" | ">" | ">=" | "≈" | "~=") sum)*
    sum     := term (("+" | "-") term)*
    term    := unary (("*" | "/") unary)*
    unary   := ("-" | "+") unary | power
    power   := atom ("**" unary)?
    atom    := NUMBER | NAME | NAME "(" args? ")" | "(" or ")" | STRING
    args    := arg ("," arg)* ;  arg := NAME "=" or | or | WORD

WORD is a bare name such as `llama-2-7b`, read only where the function takes a name
(signatures.takes_word). Unicode `≤ ≥ ≠ × · −` are accepted for `<= >= != * * -`.
"""

import re
from dataclasses import dataclass
from fractions import Fraction

from ffnverify.claims.signatures import takes_word

MAX_CLAIM_CHARS = 4000
MAX_LITERAL_DIGITS = 400
MAX_LITERAL_EXPONENT = 400
MAX_DEPTH = 60

KEYWORDS = {"and", "or", "not"}
COMPARE_OPS = {"==", "!=", "<", "<=", ">", ">=", "≈"}


class ClaimSyntaxError(Exception):
    """A claim that is not in the language; `col` is 1-based within the claim text."""

    def __init__(self, message: str, col: int):
        super().__init__(message)
        self.message = message
        self.col = col

    def __str__(self):
        return f"col {self.col}: {self.message}"


# ---- nodes (col: 1-based column of the node's first character) ----------------------


@dataclass(frozen=True)
class Num:
    value: Fraction
    unit: Fraction  # one unit in the last stated digit (1/100 for 33%, 1/10 for 2.7)
    text: str
    col: int


@dataclass(frozen=True)
class Name:
    id: str
    col: int


@dataclass(frozen=True)
class Word:
    """A name in a name position: a bare word (`llama-2-7b`) or a quoted string."""

    text: str
    col: int


@dataclass(frozen=True)
class Call:
    func: str
    args: tuple
    kwargs: tuple  # ((name, node, col), ...)
    col: int


@dataclass(frozen=True)
class Unary:
    op: str
    operand: object
    col: int


@dataclass(frozen=True)
class BinOp:
    op: str
    left: object
    right: object
    col: int


@dataclass(frozen=True)
class Compare:
    operands: tuple
    ops: tuple
    col: int


@dataclass(frozen=True)
class BoolOp:
    op: str  # "and" | "or"
    values: tuple
    col: int


@dataclass(frozen=True)
class Not:
    operand: object
    col: int


# ---- lexer ---------------------------------------------------------------------------

_DIGITS = "0123456789"  # ASCII only: '²' or '٣' are not numbers here
_SPACE = re.compile(r"[ \t]*")
_NUMBER = re.compile(r"(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9]+)?%?")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:[-.][A-Za-z0-9_]+)*(?=[ \t]*[,)])")
_STRING = re.compile(r"\"[^\"\n]{0,200}\"|'[^'\n]{0,200}'")
_OPS = ["**", "==", "!=", "<=", ">=", "~=", "<", ">", "+", "-", "*", "/", "(", ")", ",", "="]
_ALIASES = {"≈": "≈", "≤": "<=", "≥": ">=", "≠": "!=", "×": "*", "·": "*", "−": "-", "~=": "≈"}


@dataclass(frozen=True)
class Token:
    kind: str  # NUM NAME WORD STR OP EOF
    text: str
    col: int  # 1-based
    value: object = None


def _number(text: str, col: int) -> Token:
    raw = text
    percent = raw.endswith("%")
    if percent:
        raw = raw[:-1]
    if "__" in raw or raw.endswith("_") or "_." in raw or "._" in raw or "_e" in raw.lower():
        raise ClaimSyntaxError(f"misplaced underscore in number {text!r}", col)
    raw = raw.replace("_", "")
    mantissa, _, exp_text = raw.lower().partition("e")
    whole, _, decimals = mantissa.partition(".")
    digits = (whole + decimals).lstrip("0") or "0"
    if len(digits) > MAX_LITERAL_DIGITS:
        raise ClaimSyntaxError(
            f"number literal has {len(digits)} digits; the limit is {MAX_LITERAL_DIGITS}", col)
    exponent = int(exp_text) if exp_text else 0
    if abs(exponent) > MAX_LITERAL_EXPONENT:
        raise ClaimSyntaxError(
            f"exponent {exponent} in {text!r} is beyond ±{MAX_LITERAL_EXPONENT}", col)
    scale = exponent - len(decimals)
    unit = Fraction(10) ** scale
    value = int(whole + decimals or "0") * unit
    if percent:
        value, unit = value / 100, unit / 100
    return Token("NUM", text, col, (value, unit))


class Lexer:
    """Scans tokens on demand, so the parser can ask for a bare WORD where names go."""

    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def next(self, word: bool = False) -> Token:
        text = self.text
        self.pos = _SPACE.match(text, self.pos).end()
        i = self.pos
        col = i + 1
        if i >= len(text):
            return Token("EOF", "", col)
        if word:
            m = _WORD.match(text, i)
            if m:
                self.pos = m.end()
                return Token("WORD", m.group(), col, m.group())
        ch = text[i]
        if ch in _DIGITS or (ch == "." and text[i + 1:i + 2] in _DIGITS and i + 1 < len(text)):
            m = _NUMBER.match(text, i)
            end = m.end()
            if end < len(text) and (text[end].isalnum() or text[end] in "_."):
                raise ClaimSyntaxError(
                    f"unexpected {text[end]!r} after the number {m.group()!r}"
                    " (write 2*d, not 2d)", end + 1)
            self.pos = end
            return _number(m.group(), col)
        if ch.isalpha() or ch == "_":
            m = _NAME.match(text, i)
            if m is None:  # a non-ASCII letter
                raise ClaimSyntaxError(f"unexpected character {ch!r}", col)
            self.pos = m.end()
            return Token("NAME", m.group(), col)
        if ch in "\"'":
            m = _STRING.match(text, i)
            if m is None:
                raise ClaimSyntaxError("unterminated or over-long string (limit 200)", col)
            self.pos = m.end()
            return Token("STR", m.group(), col, m.group()[1:-1])
        for op in _OPS:
            if text.startswith(op, i):
                self.pos = i + len(op)
                return Token("OP", _ALIASES.get(op, op), col)
        if ch in _ALIASES:
            self.pos = i + 1
            return Token("OP", _ALIASES[ch], col)
        if ch == "%":
            raise ClaimSyntaxError("'%' only follows a number (33% is 33/100)", col)
        raise ClaimSyntaxError(f"unexpected character {ch!r}", col)


# ---- parser --------------------------------------------------------------------------


class Parser:
    def __init__(self, text: str):
        self.lexer = Lexer(text)
        self.depth = 0
        self.tok = self.lexer.next()

    def advance(self, word: bool = False) -> Token:
        tok = self.tok
        self.tok = self.lexer.next(word)
        return tok

    def expect(self, text: str, what: str) -> Token:
        if self.tok.kind != "OP" or self.tok.text != text:
            raise ClaimSyntaxError(f"expected {what}, found {_describe(self.tok)}", self.tok.col)
        return self.advance()

    def is_op(self, *texts) -> bool:
        return self.tok.kind == "OP" and self.tok.text in texts

    def is_keyword(self, word) -> bool:
        return self.tok.kind == "NAME" and self.tok.text == word

    def parse(self):
        node = self.parse_or()
        if self.tok.kind != "EOF":
            raise ClaimSyntaxError(f"unexpected {_describe(self.tok)}", self.tok.col)
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
            ops.append(self.advance().text)
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
        while self.is_op("*", "/"):
            tok = self.advance()
            node = BinOp(tok.text, node, self.parse_unary(), tok.col)
        return node

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
        if self.is_op("**"):
            tok = self.advance()
            self._enter(tok.col)  # one level per exponent
            node = BinOp("**", node, self.parse_unary(), tok.col)
            self.depth -= 1
        return node

    def parse_atom(self):
        tok = self.tok
        if tok.kind == "NUM":
            self.advance()
            value, unit = tok.value
            return Num(value, unit, tok.text, tok.col)
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
        raise ClaimSyntaxError(f"expected a number, name or '(', found {_describe(tok)}", tok.col)

    def parse_call(self, name_tok):
        func = name_tok.text
        self._enter(name_tok.col)
        args, kwargs = [], []
        # the token after "(" may be a bare word such as llama-2-7b
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
        i = _SPACE.match(text, i).end()
        return text.startswith("=", i) and not text.startswith("==", i)


def _describe(tok: Token) -> str:
    return "the end of the claim" if tok.kind == "EOF" else repr(tok.text)


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
