"""The claim language's tokens: numbers as people write them, names, operators.

`Lexer` scans one claim into `Token`s on demand (the parser asks for a bare WORD where a
function takes a name). Numbers become exact Fractions with the unit of their last
stated digit (11,008  2.67  33%  704.7M  14 GB  2⅔  6.7 × 10⁹: see `parser`), from the
value tables of `ffnverify.notation`, shared with the prose scanner. The size limits
(claim length, literal length and exponent) are enforced here and in the parser, which
raise `ClaimSyntaxError` with a 1-based column and the rule broken; nothing is evaluated.
"""

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ffnverify import notation

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


_DIGITS = "0123456789"  # ASCII only: '٣' is not a number here; '²' is a power (below)
_SPACES = " \t\u00a0\u202f\u2009"  # also no-break, narrow no-break and thin spaces
_SPACE = re.compile(f"[{_SPACES}]*")


def skip_spaces(text: str, i: int) -> int:
    """The index of the first character at or after i that is not one of _SPACES."""
    m = _SPACE.match(text, i)  # a '*' pattern: it matches everywhere, if only ''
    return m.end() if m else i


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SEGMENT = r"[A-Za-z0-9_]+(?:[-.][A-Za-z0-9_]+)*"
# a bare name (llama-2-7b) or a Hugging Face repository id (meta-llama/Llama-2-7b-hf,
# 01-ai/Yi-6B: owner/name, either may start with a digit), ending at ',' or ')'
_WORD = re.compile(rf"(?:{_SEGMENT}/{_SEGMENT}|[A-Za-z_][A-Za-z0-9_]*(?:[-.][A-Za-z0-9_]+)*)"
                   r"(?=[ \t]*[,)])")
_STRING = re.compile(r"\"[^\"\n]{0,200}\"|'[^'\n]{0,200}'")
_OPS = ["**", "==", "!=", "<=", ">=", "~=", "<", ">", "+", "-", "*", "/", "(", ")", ",", "="]
_ALIASES = {"≈": "≈", "≤": "<=", "≥": ">=", "≠": "!=", "×": "*", "·": "*", "−": "-", "~=": "≈",
            "^": "**"}

# numbers as people write them
_RUN = re.compile(r"[0-9][0-9_]*")  # digits, with v1's underscores (11_008)
_GROUP = re.compile(r"[0-9]+")
_DECIMALS = re.compile(r"\.[0-9_]*")
_EXPONENT = re.compile(r"[eE][+-]?[0-9]+")
# the value tables are ffnverify.notation's, shared with the prose scanner
THOUSANDS = notation.THOUSANDS_SEPARATORS
SCALE = notation.SCALE_SUFFIXES  # suffix -> power of ten
BYTE_UNITS = notation.BYTE_UNITS
_BYTE_UNIT = re.compile(rf"(?:{notation.alternation(BYTE_UNITS)})(?![A-Za-z0-9_])")
_UNIT_SPELLING = {u.lower(): u for u in BYTE_UNITS if u != "kB"}
VULGAR = notation.VULGAR_FRACTIONS
SUPERSCRIPTS = notation.SUPERSCRIPT_DIGITS
_SUP_MINUS = notation.SUPERSCRIPT_MINUS
_SCALE_WORDS = {w: notation.SUFFIX_FOR_POWER.get(p, f"e{p}")
                for w, p in notation.SCALE_WORDS.items()}
_SCALE_RULE = "scale suffixes are K or k (10^3), M (10^6), B or G (10^9) and T (10^12)"
_BYTE_RULE = "byte units are KB MB GB TB (powers of 1000) and KiB MiB GiB TiB (powers of 1024)"


@dataclass(frozen=True)
class Token:
    kind: str  # NUM NAME WORD STR OP SUP EOF
    text: str
    col: int  # 1-based
    value: Any = None  # NUM (value, unit, form); SUP its exponent; WORD and STR their text
    end: int = 0  # 0-based index just after a NUM or SUP token


def _is_digit(text, i):
    return i < len(text) and text[i] in _DIGITS


def _starts_operand(text: str, i: int) -> bool:
    """Whether an operand (number, name, '(' or string) starts at text[i]: what tells the
    remainder `d % 3` from the percentage `33%`."""
    if i >= len(text):
        return False
    ch = text[i]
    if ch in _DIGITS or ch in VULGAR or ch in "(\"'" or (ch == "." and _is_digit(text, i + 1)):
        return True
    m = _NAME.match(text, i)
    return m is not None and m.group() not in KEYWORDS


def _scan_number(text: str, i: int, in_call: bool) -> Token:
    """One number literal at text[i] (a digit, '.digit' or a vulgar fraction): its exact
    value and the unit of its last stated digit, at the scale of its suffix or unit."""
    start, col, n = i, i + 1, len(text)
    whole = decimals = exp_text = ""
    dot = False
    frac = None  # a vulgar fraction's character
    if text[i] in VULGAR:
        frac = text[i]
        i += 1
    else:
        m = _RUN.match(text, i)
        if m:
            whole, i = m.group(), m.end()
        if whole and i < n and text[i] in THOUSANDS and _is_digit(text, i + 1):
            if text[i] == "," and in_call:
                _check_call_comma(text, start, i, whole)
            else:
                whole, i = _grouped(text, start, i, whole)
        m = _DECIMALS.match(text, i)
        if m:
            dot, decimals, i = True, m.group()[1:], m.end()
            if i < n and text[i] in THOUSANDS and _is_digit(text, i + 1) and not (
                    text[i] == "," and in_call):
                raise ClaimSyntaxError(
                    f"thousands separators go only between groups of the whole part "
                    f"({text[start:i]!r} is followed by {THOUSANDS[text[i]]} and digits)", i + 1)
        m = _EXPONENT.match(text, i)
        if m:
            exp_text, i = m.group()[1:], m.end()
        if i < n and text[i] in VULGAR:
            if dot or exp_text or not whole or not whole.isdigit():
                raise ClaimSyntaxError(
                    f"a mixed number is a whole number followed by one fraction (2⅔); "
                    f"{text[start:i + 1]!r} is not one", i + 1)
            frac = text[i]
            i += 1
    if i < n and text[i] in VULGAR:
        raise ClaimSyntaxError(
            f"a mixed number has one fraction (2⅔ is 8/3); {text[start:i + 1]!r} has two", i + 1)
    raw = whole + ("." + decimals if dot else "")
    if "__" in raw or raw.endswith("_") or "_." in raw or "._" in raw or (
            exp_text and raw.endswith("_")):
        raise ClaimSyntaxError(f"misplaced underscore in number {text[start:i]!r}", col)
    digits = (whole + decimals).replace("_", "").lstrip("0") or "0"
    if len(digits) > MAX_LITERAL_DIGITS:
        raise ClaimSyntaxError(
            f"number literal has {len(digits)} digits; the limit is {MAX_LITERAL_DIGITS}", col)
    exponent = int(exp_text) if exp_text else 0
    if abs(exponent) > MAX_LITERAL_EXPONENT:
        raise ClaimSyntaxError(
            f"exponent {exponent} in {text[start:i]!r} is beyond ±{MAX_LITERAL_EXPONENT}", col)
    power = exponent - len(decimals.replace("_", ""))
    unit = Fraction(10**power) if power >= 0 else Fraction(1, 10**-power)
    value = int((whole + decimals).replace("_", "") or "0") * unit
    form = "e" if exp_text else ""
    if frac is not None:
        value += VULGAR[frac]
        unit = Fraction(1, notation.fraction_denominator(frac))  # to the nearest 1/denominator
        form = "fraction"
    core = text[start:i]
    # a byte unit (with or without a space) or a scale suffix (straight after)
    j = skip_spaces(text, i)
    m = _BYTE_UNIT.match(text, j)
    word = _NAME.match(text, i)
    if m:
        scale, i, form = Fraction(BYTE_UNITS[m.group()]), m.end(), "bytes"
    elif word and word.group() in SCALE:
        if exp_text:
            raise ClaimSyntaxError(
                f"a number takes an exponent or a scale suffix, not both: {core}{word.group()}"
                f" (write {core} or {core[:len(core) - len(exp_text) - 1]}{word.group()})",
                i + 1)
        scale, i, form = Fraction(10) ** SCALE[word.group()], word.end(), "suffix"
    elif word:
        raise ClaimSyntaxError(_letters_after(core, word.group()), i + 1)
    else:
        scale = Fraction(1)
        spaced = _NAME.match(text, j) if j > i else None
        if spaced and spaced.group() in SCALE:
            s = spaced.group()
            raise ClaimSyntaxError(
                f"suffix `{s}` means 10^{SCALE[s]} and is written straight after the number;"
                f" did you mean {core}{s}? (a product is written {core}*{s})", j + 1)
        if spaced and spaced.group().lower() in _UNIT_SPELLING:
            raise ClaimSyntaxError(
                f"{_BYTE_RULE}; did you mean {core} {_UNIT_SPELLING[spaced.group().lower()]}?",
                j + 1)
    if scale != 1:
        value, unit = value * scale, unit * scale
    # a percentage or the remainder: one rule, percent_reading
    j = skip_spaces(text, i)
    if j < n and text[j] == "%" and percent_reading(text, j, j > i, True) == "percent":
        if form in ("suffix", "bytes"):
            raise ClaimSyntaxError(
                f"a percentage takes no scale suffix or byte unit ({text[start:j + 1]!r}); "
                "'%' between two operands is the remainder", j + 1)
        value, unit, i = value / 100, unit / 100, j + 1
        form = "percent"
    if i < n:
        ch = text[i]
        if ch in _DIGITS or ch in "._" or (ch.isalnum() and ch not in SUPERSCRIPTS):
            raise ClaimSyntaxError(f"unexpected {ch!r} after the number {text[start:i]!r}", i + 1)
    return Token("NUM", text[start:i], col, (value, unit, form), i)


_SIGNS = "-+−"
PERCENT_RULE = ("'%' is the remainder when an operand follows it, a sign written straight "
                "before that operand and the '%' spaced alike on both sides (d % 3, 7%3, "
                "7 % -3, 7%-3); after a number with no operand following it is a percentage "
                "(33%, 33 %, 33% - 1)")


def percent_reading(text: str, j: int, spaced_before: bool, after_number: bool) -> str:
    """The one rule for the '%' at text[j]: "percent" or "remainder" (PERCENT_RULE), or a
    ClaimSyntaxError for a sign after it that the rule leaves ambiguous: `7 % - 3`,
    `7 %-3`, `33% -1`, `33 % - 1` (is it 7 % (-3), or 7% - 3?)."""
    k = skip_spaces(text, j + 1)
    spaced_after = k > j + 1
    if _starts_operand(text, k):
        return "remainder"
    if k < len(text) and text[k] in _SIGNS:
        glued = _starts_operand(text, k + 1)
        if glued and spaced_after == spaced_before:
            return "remainder"  # 7 % -3, 7%-3, d % -3
        if not glued and after_number and not spaced_before:
            return "percent"  # 33% - 1, 33%- 1
        lead = text[:j].rstrip(_SPACES)
        tail = text[k + 1:].lstrip(_SPACES)
        word = re.match(r"[0-9]*[A-Za-z_]\w*|[0-9.]+", lead[::-1])  # "x1", "d_model", "3.5"
        a = word.group()[::-1] if word else "a"
        right = re.match(r"[0-9.]+|[A-Za-z_]\w*", tail)
        b = right.group() if right else "b"
        sign = text[k]
        hint = f"write {a} % {sign}{b} for the remainder by {sign}{b}"
        if after_number:
            hint += f", or {a}% {sign} {b} for {a} percent {sign} {b}"
        raise ClaimSyntaxError(f"'%' followed by a sign is ambiguous here: {hint} "
                               f"({PERCENT_RULE})", j + 1)
    return "percent" if after_number else "remainder"


def _grouped(text, start, i, first):
    """The digits of `1,234,567` (or with narrow/thin spaces), checked group by group."""
    sep = text[i]
    rule = (f"thousands separators ({THOUSANDS[sep]}) group the digits in threes, as in "
            f"{'134,217,728' if sep == ',' else '134' + sep + '217' + sep + '728'}")
    groups = [first]
    cols = [start + 1]
    while i < len(text) and text[i] == sep and _is_digit(text, i + 1):
        m = _GROUP.match(text, i + 1)
        assert m is not None  # a digit follows: _is_digit(text, i + 1)
        groups.append(m.group())
        cols.append(i + 2)
        i = m.end()
    literal = text[start:i]
    if "_" in first or (i < len(text) and text[i] == "_"):
        raise ClaimSyntaxError(f"{rule}; {literal!r} mixes them with underscores", start + 1)
    for other in THOUSANDS:
        if other != sep and i < len(text) and text[i] == other and _is_digit(text, i + 1):
            raise ClaimSyntaxError(f"{rule}; {literal!r} is followed by a different "
                                   f"separator ({THOUSANDS[other]})", i + 1)
    if len(first) > 3:
        raise ClaimSyntaxError(f"{rule}; the first group of {literal!r} has {len(first)} "
                               "digits (at most 3)", start + 1)
    for g, c in zip(groups[1:], cols[1:]):
        if len(g) != 3:
            hint = " (the decimal point is '.')" if sep == "," and len(groups) == 2 and \
                len(g) < 3 else ""
            raise ClaimSyntaxError(f"{rule}; {literal!r} has a group of {len(g)} digit"
                                   f"{'s' if len(g) != 1 else ''}{hint}", c)
    return "".join(groups), i


def _check_call_comma(text, start, i, whole):
    """Inside a call a comma separates arguments; `f(11,008)` would silently be f(11, 8),
    so a comma that looks like a thousands separator there is refused."""
    j = i + 1
    while _is_digit(text, j):
        j += 1
    if whole.isdigit() and len(whole) <= 3 and j - i - 1 == 3:
        raise ClaimSyntaxError(
            f"inside a call's parentheses a comma separates arguments, so "
            f"{text[start:j]!r} would be {whole} and {text[i + 1:j]}; write "
            f"{whole}{text[i + 1:j]} or {whole}_{text[i + 1:j]} for one number, or put a "
            "space after the comma for two arguments", i + 1)


def _letters_after(core: str, letters: str) -> str:
    """The message for letters straight after a number that are not a suffix or unit."""
    if letters.lower() in _UNIT_SPELLING:
        return f"{_BYTE_RULE}; did you mean {core}{_UNIT_SPELLING[letters.lower()]}?"
    if len(letters) == 1 and letters.upper() in SCALE:
        return (f"{_SCALE_RULE}, in capitals except k; did you mean {core}{letters.upper()}?"
                f" (a product is written {core}*{letters})")
    if letters in ("e", "E"):
        return (f"an exponent needs its digits after {letters!r} ({core}{letters}3); a product "
                f"is written {core}*{letters}")
    return f"unexpected {letters[0]!r} after the number {core!r} (write {core}*{letters}, " \
           f"not {core}{letters})"


def _scan_superscript(text: str, i: int) -> Token:
    """`²`, `¹⁰`, `⁻³`: a power whose exponent is written in superscript digits."""
    start, col = i, i + 1
    negative = text[i] == _SUP_MINUS
    if negative:
        i += 1
    j = i
    while j < len(text) and text[j] in SUPERSCRIPTS:
        j += 1
    if j == i:
        raise ClaimSyntaxError("a superscript minus (⁻) is followed by superscript digits "
                               "(10⁻³)", col)
    if j - i > MAX_LITERAL_DIGITS:
        raise ClaimSyntaxError(f"superscript exponent has {j - i} digits; the limit is "
                               f"{MAX_LITERAL_DIGITS}", col)
    value = int("".join(str(SUPERSCRIPTS[c]) for c in text[i:j]))
    return Token("SUP", text[start:j], col, -value if negative else value, j)


class Lexer:
    """Scans tokens on demand, so the parser can ask for a bare WORD where names go.
    `call_depth` (kept by the parser) tells whether a comma separates arguments."""

    def __init__(self, text: str):
        self.text = text
        self.pos = 0
        self.call_depth = 0

    def next(self, word: bool = False) -> Token:
        text = self.text
        self.pos = skip_spaces(text, self.pos)
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
        if ch in _DIGITS or ch in VULGAR or (ch == "." and _is_digit(text, i + 1)):
            tok = _scan_number(text, i, self.call_depth > 0)
            self.pos = tok.end
            return tok
        if ch in SUPERSCRIPTS or ch == _SUP_MINUS:
            tok = _scan_superscript(text, i)
            self.pos = tok.end
            return tok
        if ch == "⅟":
            raise ClaimSyntaxError("⅟ (fraction numerator one) is not a whole fraction; "
                                   "write 1/n", col)
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
        if ch in "%~":  # the remainder; '~' before a number on the right of == (≈)
            self.pos = i + 1
            return Token("OP", ch, col)
        raise ClaimSyntaxError(f"unexpected character {ch!r}", col)

