"""A stated figure compared with a product of quantities, in the two readings of a `Part`:
the claim text for `strict` and `lenient` (see `parts.Part`), built from exact literals.

The quantity is a product `a · b / c …` of `Term`s: exact literals, claim-language calls
(`params_total(llama-2-7b)`, `bytes(fp16)`) and figures read from the document. All terms
are positive (counts, sizes, rates, shares), so the product is monotone in each of them and
its range over the figures' intervals is the product of their ends.

- `strict`: every input figure as written; the result at half a unit of its last stated
  digit (a plain integer exactly; `13.5 GB` is ±0.05 GB), the `≈` rule made explicit.
- `lenient`: each input figure at its stated precision (`7B` is [6.5B, 7.5B]); a hedged
  figure (`~`, about, roughly, nearly, approximately, …) at one whole unit of its last
  digit instead of a half; `GB` as GB or GiB (and the reverse); `K`/`M`/`G` in a context
  length or memory as decimal or binary (each reading an alternative joined by `or`);
  bound words (at least ≥, at most ≤, up to ≤, over >, under <) by their meaning. The
  lenient claim holds when the product's range over the inputs' intervals meets the
  result's interval, for some alternative.
"""

import re
from dataclasses import dataclass
from fractions import Fraction
from itertools import product as _cartesian

from ffnverify.scan.numbers import BYTE_UNITS, SCALES, Tok, literal

MAX_ALTERNATIVES = 8
_BINARY = {"K": 2**10, "k": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
_TWIN = {"KB": "KiB", "MB": "MiB", "GB": "GiB", "TB": "TiB",
         "KiB": "KB", "MiB": "MB", "GiB": "GB", "TiB": "TB"}
_BOUNDS = [  # words just before a figure, and the comparison they give it
    (re.compile(r"\b(?:at least|no (?:less|fewer) than|a minimum of|minimum of)\s*~?\s*$", re.I),
     ">="),
    (re.compile(r"\b(?:at most|no more than|not more than|up to|a maximum of|maximum of|"
                r"within|fits? (?:in|into|within|on|onto)(?: (?:a|an|one|the|a single|"
                r"single))?|under)\s*~?\s*$", re.I), "<="),
    (re.compile(r"\b(?:over|more than|greater than|above|exceeds?|exceeding|upwards of|"
                r"in excess of)\s*~?\s*$", re.I), ">"),
    (re.compile(r"\b(?:less than|fewer than|below)\s*~?\s*$", re.I), "<"),
]


def hedged(t: Tok) -> bool:
    return t.tilde or t.about


def exact(t: Tok) -> bool:
    """A plain integer, unhedged, without a scale: read as exactly that number."""
    if t.unit == 0:  # 2⅔, 4096²: exact by construction
        return True
    return t.value.denominator == 1 and t.unit == 1 and not t.scale and not hedged(t)


def _rounded_unit(t: Tok, result: bool = False) -> Fraction:
    """One unit of the last stated digit; in a rounding context (a hedged figure, or a
    result stated after arithmetic) trailing zeros of the digits as written count as
    rounding when two significant digits remain (`~16,000`: 1,000; `150K`: 10K)."""
    unit = t.unit
    if not (hedged(t) or result) or t.power or not unit:
        return unit
    if re.search(r"\d\.\d", t.text):
        return unit  # a decimal point states its last digit
    digits = re.sub(r"\D", "", re.split(r"[eE×]", t.text)[0])
    zeros = len(digits) - len(digits.rstrip("0"))
    return unit * 10**zeros if zeros and len(digits) - zeros >= 2 else unit


def strict_tol(t: Tok) -> Fraction:
    return Fraction(0) if exact(t) else t.unit / 2 if not hedged(t) else _rounded_unit(t) / 2


def lenient_tol(t: Tok, result: bool = False) -> Fraction:
    if hedged(t):
        return _rounded_unit(t, True)
    unit = _rounded_unit(t, result)
    if exact(t):  # a plain integer is exact, unless a result written with trailing zeros
        return unit / 2 if result and unit != t.unit else Fraction(0)
    return unit / 2


def alternatives(t: Tok, binary: bool = False,
                 result: bool = False) -> list[tuple[Fraction, Fraction]]:
    """(value, lenient tolerance) of each reading of the figure: as written, and its
    binary (decimal) twin for a byte unit, or for K/M/G where `binary`."""
    tol = lenient_tol(t, result)
    out = [(t.value, tol)]
    m = re.search(r"([KMGT]i?B)$", t.text)
    if t.scale == "bytes" and m:
        factor = Fraction(BYTE_UNITS[_TWIN[m.group(1)]], BYTE_UNITS[m.group(1)])
        out.append((t.value * factor, tol * factor))
    elif binary and t.scale in _BINARY:
        factor = Fraction(_BINARY[t.scale], SCALES[t.scale])
        out.append((t.value * factor, tol * factor))
    return out


def bound(text: str, t: Tok) -> str:
    """The comparison a bound word gives figure t: before it ("at least", "up to", "fits
    in"), or after it ("28 GB+", "28 GB or more"); "" for none."""
    before = text[max(0, t.start - 28):t.start]
    for pattern, op in _BOUNDS:
        if pattern.search(before):
            return op
    after = text[t.end:t.end + 16]
    if re.match(r"\+(?!\s*\d)", after) or re.match(r"\s*or (?:more|above|higher)\b", after):
        return ">="
    if re.match(r"\s*or (?:less|fewer|below|lower)\b", after):
        return "<="
    return ""


@dataclass(frozen=True)
class Term:
    """One factor: its exact text and, for a figure, the ends of its interval."""

    text: str
    lo: str = ""
    hi: str = ""
    divide: bool = False

    @property
    def spread(self) -> bool:
        return bool(self.lo) and (self.lo != self.text or self.hi != self.text)


def call(text: str, divide: bool = False) -> Term:
    return Term(text, text, text, divide)


def const(x: Fraction, divide: bool = False) -> Term:
    return call(literal(x), divide)


def terms_of(t: Tok, binary: bool = False, divide: bool = False) -> list[Term]:
    """The readings of an input figure, each a Term (the first is the figure as written)."""
    out = []
    for value, tol in alternatives(t, binary):
        out.append(Term(literal(value), literal(value - tol), literal(value + tol), divide))
    return out


def _join(texts_divs) -> str:
    out = ""
    for text, divide in texts_divs:
        if not out:
            out = text
        else:
            out += f" / {text}" if divide else f" * {text}"
    return out


def expression(terms: list[Term], end: str = "") -> str:
    """The product as claim text: `text` of each term, or with end "lo"/"hi" its lower or
    upper end (a divisor's opposite end)."""
    terms = sorted(terms, key=lambda t: t.divide)  # a numerator first
    picked = []
    for t in terms:
        if end == "lo":
            picked.append((t.hi if t.divide else t.lo, t.divide))
        elif end == "hi":
            picked.append((t.lo if t.divide else t.hi, t.divide))
        else:
            picked.append((t.text, t.divide))
    return _join(picked)


def _near(lhs: str, value: Fraction, tol: Fraction) -> str:
    if tol == 0:
        return f"{lhs} == {literal(value)}"
    return f"approx({lhs}, {literal(value)}, abs={literal(tol)})"


def _met(terms: list[Term], value: Fraction, tol: Fraction, op: str) -> str:
    """The lenient test of one alternative: the product's range meets [value ± tol]."""
    if not any(t.spread for t in terms):
        lhs = expression(terms)
        if op in (">", ">="):
            return f"{lhs} {op} {literal(value - tol)}"
        if op in ("<", "<="):
            return f"{lhs} {op} {literal(value + tol)}"
        return _near(lhs, value, tol)
    lo, hi = expression(terms, "lo"), expression(terms, "hi")
    if op in (">", ">="):
        return f"{hi} {op} {literal(value - tol)}"
    if op in ("<", "<="):
        return f"{lo} {op} {literal(value + tol)}"
    return f"({lo} <= {literal(value + tol)} and {literal(value - tol)} <= {hi})"


def compare(choices: list[list[Term]], result: Tok, op: str = "",
            binary: bool = False) -> tuple[str, str]:
    """(strict, lenient) for `product == result`, where `choices` lists each factor's
    readings (the first of each is the strict one)."""
    first = [c[0] for c in choices]
    lhs = expression(first)
    tol = strict_tol(result)
    if op:
        strict = f"{lhs} {op} {literal(result.value)}"
    else:
        strict = _near(lhs, result.value, tol)
    lenient = []
    for combo in _cartesian(*choices):
        for value, tol in alternatives(result, binary, result=True):
            lenient.append(_met(list(combo), value, tol, op))
            if len(lenient) >= MAX_ALTERNATIVES:
                break
        if len(lenient) >= MAX_ALTERNATIVES:
            break
    lenient = list(dict.fromkeys(lenient))
    return strict, lenient[0] if len(lenient) == 1 else "(" + " or ".join(lenient) + ")"
