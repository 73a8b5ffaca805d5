"""Identities in symbols, as written (docs/architecture.md §5.2, arithmetic as written):
`4d² + 2·d·4d = 12d²`, `d × 4d + 4d × d = 8d²`, `2·d·h + d·h = 3dh` — read as one claim
each step (`4*d^2 + 2*d*(4*d) == 12*d^2`), which the claims engine proves or refutes for
every value of the symbols.

A symbol is one letter (`d`, `h`, `L`), with a power written `d²`, `d^2`, or a product of
letters written together (`dh`). Coefficients are integers or written fractions (`8/3 d`);
a decimal coefficient (`2.67d`) is a rounded figure and is not read here. A parenthesis
whose contents hold words or commas is a label, not a factor ("4d² (WQ, WK, WV, WO)") and
is skipped. Every side of the chain must hold a symbol (`d = 768` binds a symbol, it states
no identity) and some side an operation.

Where a power is written as a digit after the letter with its superscript lost (`4d2 + 8d2
= 12d2`, text copied from a page), the reading `d²` is a guess: such a part is to confirm,
and is kept only when it holds (a FALSE on a guessed reading would not be right often
enough to report).
"""

import itertools
import re
from fractions import Fraction

from ffnverify.scan.numbers import literal
from ffnverify.scan.parts import Part

# no e (a power of ten), x or X (times), a or A (an article), I (a pronoun)
_LETTER = "[b-df-wyzB-DF-HJ-WYZ]"
_SYMBOL = re.compile(rf"(?P<s>{_LETTER}{{1,2}})(?P<p>[²³])?")
_LOST = re.compile(rf"(?P<s>{_LETTER})(?P<p>[23])")  # "d2": d² lost its superscript
_POWER = {"²": "2", "³": "3"}
_TIMES = {"×", "·", "*"}
_OPS = {"+", "-", "/", "^", "(", ")"} | _TIMES
MAX_SIDES = 6


def _symbol(t):
    """(claim text, guessed) of a symbol token, or None."""
    if t.kind != "WORD":
        return None
    m = _SYMBOL.fullmatch(t.text)
    if m:
        letters = "*".join(m.group("s"))
        power = _POWER.get(m.group("p") or "")
        if power and len(m.group("s")) > 1:
            return None  # "dh²": which letter the power binds is not clear
        return (f"{letters}^{power}" if power else letters), False
    m = _LOST.fullmatch(t.text)
    if m:
        return f"{m.group('s')}^{m.group('p')}", True
    return None


def _label_end(toks, i):
    """Where a parenthesis opened at i ends when it is a label ("(WQ, WK, WV, WO)", "(W1,
    W2 in FFN)"): its contents hold a comma or a word that is no symbol. None otherwise."""
    depth, label = 0, False
    for j in range(i, min(len(toks), i + 40)):
        t = toks[j]
        if t.kind == "OP" and t.text == "(":
            depth += 1
        elif t.kind == "OP" and t.text == ")":
            depth -= 1
            if depth == 0:
                return j + 1 if label else None
        elif (t.kind == "OP" and t.text == ",") or (t.kind == "WORD" and _symbol(t) is None):
            label = True
        elif t.kind not in ("OP", "WORD", "NUM"):
            label = True
    return None


def _in_formula(toks, i) -> bool:
    """A word of two letters ("dh", but also "so", "in") is a symbol only inside a formula:
    glued to a coefficient ("3dh") or beside an operation ("+ dh", "dh ×")."""
    t = toks[i]
    m = _SYMBOL.fullmatch(t.text)
    if not m or len(m.group("s")) < 2:
        return True
    before = toks[i - 1] if i else None
    after = toks[i + 1] if i + 1 < len(toks) else None
    return bool(before is not None and ((before.kind == "NUM" and not t.space_before) or (
        before.kind == "OP" and before.text not in ("(", ")", ",")))) or bool(
        after is not None and after.kind == "OP" and after.text not in ("(", ")", ","))


def _runs(toks):
    """Maximal runs of formula tokens, labels left out: lists of token indices."""
    runs, run, i = [], [], 0
    while i < len(toks):
        t = toks[i]
        if t.kind == "OP" and t.text == "(":
            end = _label_end(toks, i)
            if end is not None:
                i = end
                continue
        if (t.kind == "NUM" and not t.scale and not t.money and not t.ratio and not t.tilde
                and not t.about) or (_symbol(t) is not None and _in_formula(toks, i)) or \
                (t.kind == "OP" and (t.text in _OPS or t.text == "=")):
            run.append(i)
        else:
            if run:
                runs.append(run)
            run = []
        i += 1
    if run:
        runs.append(run)
    return runs


def _side(toks, idx):
    """(claim text, symbols?, operation?, guessed?, figures) of one side, or None."""
    out, prev, has_sym, has_op, guessed, figures = [], None, False, False, False, []
    depth, last = 0, -1
    for i in idx:
        t = toks[i]
        if t.kind == "NUM":
            if t.value.denominator != 1 or t.unit != 1 or not t.plain:
                return None  # a decimal is a rounded figure; a power or fraction glyph
            piece, kind = literal(t.value), "val"
            figures.append(i)
        elif t.kind == "WORD":
            sym = _symbol(t)
            piece, kind = f"({sym[0]})", "val"
            has_sym, guessed = True, guessed or sym[1]
        else:
            op = "*" if t.text in _TIMES else t.text
            if op == "(":
                depth += 1
            elif op == ")":
                depth -= 1
                if depth < 0:
                    return None
            if op not in "()":
                has_op = True
            kind = "open" if op == "(" else "close" if op == ")" else "op"
            piece = op
        if prev in ("val", "close") and kind in ("val", "open"):
            # "4d", "2(d + h)", "12 d²": a product written by juxtaposition, the factors
            # touching (or a coefficient before a power); "768 is" is no product
            touching = not toks[i].space_before and not toks[last].space_after
            if t.kind == "NUM" or not (touching or (toks[last].kind == "NUM" and t.kind == "WORD"
                                                    and re.search(r"[²³23]$", t.text))):
                return None
            out.append("*")
            has_op = True
        if prev in (None, "op", "open") and kind in ("op", "close") and piece not in ("-",):
            return None
        out.append(piece)
        prev, last = kind, i
    if depth != 0 or prev in ("op", "open") or not out:
        return None
    return out, has_sym, has_op, guessed, figures


_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "^": 3}
_POINTS = ({}, {"bump": 1}, {"bump": 2})  # three assignments of the symbols


def _value(pieces, at: dict):
    """The exact value of a side's pieces with each symbol set from `at` (letters a..z:
    a prime each, so that distinct symbols differ), or None (a division by zero, a
    power too large). Shunting-yard over the pieces this module built; nothing from the
    document is evaluated as code."""
    out, ops = [], []

    def apply():
        op = ops.pop()
        b, a = out.pop(), out.pop()
        if op == "^":
            if b.denominator != 1 or not 0 <= b <= 8:
                raise ValueError
            out.append(a ** int(b))
        elif op == "/":
            out.append(a / b)
        else:
            out.append(a + b if op == "+" else a - b if op == "-" else a * b)

    try:
        prev = None
        for p in pieces:
            if p == "(":
                ops.append(p)
            elif p == ")":
                while ops[-1] != "(":
                    apply()
                ops.pop()
            elif p in _PRECEDENCE:
                if p == "-" and prev in (None, "(", "op"):
                    out.append(Fraction(0))
                while ops and ops[-1] != "(" and (_PRECEDENCE[ops[-1]] > _PRECEDENCE[p] or (
                        _PRECEDENCE[ops[-1]] == _PRECEDENCE[p] and p != "^")):
                    apply()
                ops.append(p)
                prev = "op"
                continue
            else:
                out.append(_number(p, at))
            prev = p
        while ops:
            apply()
        return out[0] if len(out) == 1 else None
    except (ValueError, ZeroDivisionError, IndexError):
        return None


def _number(piece: str, at: dict) -> Fraction:
    """A value piece: a literal, or a symbol "(d)", "(d^2)", "(d*h)"."""
    if piece.startswith("("):
        total = Fraction(1)
        for factor in piece[1:-1].split("*"):
            name, _, power = factor.partition("^")
            base = _PRIMES[(ord(name.lower()) - 97) % len(_PRIMES)] + at.get("bump", 0) * 7 \
                + (1 if name.isupper() else 0) * 11
            total *= Fraction(base) ** int(power or 1)
        return total
    return Fraction(piece)


_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73,
           79, 83, 89, 97, 101)


def _holds(left, right) -> bool:
    """Whether two sides agree at three assignments of their symbols (a guessed reading
    is kept only where it holds; the verdict is still the engine's)."""
    for at in _POINTS:
        a, b = _value(left, at), _value(right, at)
        if a is None or b is None or a != b:
            return False
    return True


def _letters_known(toks, run) -> bool:
    """Letters written together ("dh") are a product only where each letter is also a
    symbol of its own in the chain ("2·d·h + d·h = 3dh"); else the pair may be a word."""
    single, pairs = set(), set()
    for i in run:
        m = _SYMBOL.fullmatch(toks[i].text) if toks[i].kind == "WORD" else None
        if m:
            (pairs if len(m.group("s")) == 2 else single).add(m.group("s"))
    return all(set(p) <= single for p in pairs)


def identities(toks, text, names=(), about: str = "") -> list[Part]:
    """The identities in symbols the statement writes (see the module docstring)."""
    parts = []
    for run in _runs(toks):
        cuts = [k for k, i in enumerate(run) if toks[i].text == "=" and toks[i].kind == "OP"]
        if not cuts or len(cuts) >= MAX_SIDES:
            continue
        bounds = [-1] + cuts + [len(run)]
        sides = [_side(toks, run[a + 1:b]) for a, b in itertools.pairwise(bounds)]
        # "Pblock = 4d² + …", "n = 2·d": a name defined, not an identity (a side that is
        # one symbol, or no formula, at either end)
        while sides and (sides[0] is None or len(sides[0][0]) == 1):
            sides = sides[1:]
        while sides and sides[-1] is not None and len(sides[-1][0]) == 1:
            sides = sides[:-1]
        if len(sides) < 2 or any(s is None or not s[1] for s in sides) or \
                not any(s[2] for s in sides) or not _letters_known(toks, run):
            continue
        guessed = any(s[3] for s in sides)
        if guessed and not all(_holds(a[0], b[0]) for a, b in itertools.pairwise(sides)):
            continue
        for left, right in itertools.pairwise(sides):
            claim = f"{''.join(left[0])} == {''.join(right[0])}"
            parts.append(Part(claim, claim, not guessed, tuple(left[4] + right[4]),
                              "an identity in symbols, as written" + (
                                  " (a digit after a letter read as its power, d2 as d²: "
                                  "to confirm)" if guessed else "")))
    return parts


# quantities in words joined by an operator, then set equal to figures: "Layers * attention
# heads = 32 * 32", "key vectors + value vectors = 1024 + 1024"
_WORD = r"[A-Za-z][A-Za-z_]*(?:\s+[A-Za-z][A-Za-z_.]*){0,4}"
_WORD_FORMULA = re.compile(rf"(?<![\w.]){_WORD}\s*(?:[*×+]|\sx\s)\s*{_WORD}"
                           rf"(?:\s*(?:[*×+/]|\sx\s)\s*{_WORD})*\s*=\s*\(?\d")


def in_words(clean: str) -> bool:
    """Whether the text sets a formula in words equal to figures ("No of key vectors per
    token = Layers * attention heads = 32 * 32 = 1024"): the figures are said to be
    quantities (of a model, often) that the arithmetic as written does not check, so that
    arithmetic is a reading to confirm, not the statement's whole claim."""
    return bool(_WORD_FORMULA.search(clean))
