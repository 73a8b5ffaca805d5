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
  digit or 5% of the figure, whichever is wider; `GB` as GB or GiB (and the reverse);
  `K`/`M`/`G` in a context length or memory as decimal or binary (each reading an
  alternative joined by `or`);
  bound words (at least ≥, at most ≤, up to ≤, over >, under <, fits in ≤) by their
  meaning. The lenient claim holds when the product's range over the inputs' intervals
  meets the result's interval, for some alternative. The tolerances, the alternatives and
  the bound words are `precision`'s and `words`' (one rule for the whole scan); this
  module adds the ranges of products of figures.
"""

import re
from dataclasses import dataclass
from fractions import Fraction
from itertools import product as _cartesian

from ffnverify.scan import precision, words
from ffnverify.scan.numbers import Tok, literal

MAX_ALTERNATIVES = 32
# the lenient reading of a figure with more readings than that: not a claim (no verdict)
TOO_MANY_READINGS = "too_many_readings_to_decide()"
# "fits on a single 40 GB A100", "fits in 2GB": at most (beside `words.BOUNDS`)
_FITS = re.compile(r"\b(?:(?:fits?|fitting) (?:in|into|within|on|onto)|(?:runs?|running|loads?|"
                   r"loading) (?:\w+ )?on)(?: (?:a|an|one|the|a single|single))?"
                   r"(?:\s+(?:nvidia\s+)?(?:rtx\s?\d{4}(?:\s?ti)?|[a-z]{1,4}\d{2,4}[a-z]*))?"  # "a single
                   r"\s*\(?\s*~?\s*$|\bwithin\s*$", re.I)  # H100 80GB", "an RTX 4090 (24 GB)"
# what makes "runs on a 24 GB GPU" no bound on the weights: memory beyond the device's
_OFFLOAD = re.compile(r"\boffload\w*|\bcpu\b|\bswap\w*|\bdisk\b|\bsharded\b|\bacross\b|"
                      r"\bsplit\b|\bmulti-?gpu\b", re.I)

hedged = precision.hedged


def exact(t: Tok) -> bool:
    """A plain integer, unhedged, without a scale: read as exactly that number."""
    if t.unit == 0:  # 2⅔, 4096²: exact by construction
        return True
    return t.value.denominator == 1 and t.unit == 1 and not t.scale and not hedged(t)


def strict_tol(t: Tok) -> Fraction:
    """As `precision.strict`: a plain integer exactly, else half a unit of its last digit."""
    return Fraction(0) if exact(t) else t.unit / 2


def lenient_tol(t: Tok, result: bool = False) -> Fraction:
    """As `precision.lenient`: a hedge at its looser tolerance (`words.HEDGE_UNITS`,
    `words.HEDGE_RELATIVE`), else half a unit of the last digit with trailing zeros read as
    rounding (`precision.rounded_unit`). An input that is a plain integer stays exact."""
    if hedged(t):
        return max(t.unit * words.HEDGE_UNITS, precision.rounded_unit(t, True) / 2,
                   abs(t.value) * words.HEDGE_RELATIVE)
    if exact(t) and not result:
        return Fraction(0)
    return precision.rounded_unit(t) / 2


def alternatives(t: Tok, binary: bool = False,
                 result: bool = False) -> list[tuple[Fraction, Fraction]]:
    """(value, lenient tolerance) of each reading of the figure (`precision.alternatives`:
    as written, its binary or decimal twin for a byte unit, K/M/G binary where `binary`)."""
    tol = lenient_tol(t, result)
    return [(value, tol * (unit / t.unit) if t.unit else tol)
            for value, unit in precision.alternatives(t, binary)]


def bound(text: str, t: Tok) -> str:
    """The comparison a bound word gives figure t (`words.bound`; "fits on a 24 GB GPU" is
    at most; so is the memory of one of several devices, "fits on two 80 GB A100s",
    `devices`), or "" for none."""
    before, after = text[max(0, t.start - 40):t.start], text[t.end:t.end + 24]
    if words.bound(before, after):
        return words.bound(before, after)
    if _FITS.search(before) and not _OFFLOAD.search(text):
        return "<="
    return "<=" if devices(text, t) and not _NOT_RESIDENT.search(text) else ""


# "2x A100 80GB", "2 x 80 GB", "two 80 GB": a count of devices before a memory figure
_DEVICES_BEFORE = re.compile(r"\b(\d{1,2}|two|three|four|five|six|seven|eight|sixteen)"
                             r"(?:\s*[x×*]\s*|\s+)(?:(?:nvidia\s+)?[a-z]{1,4}\d{2,4}[a-z]*\s+)?"
                             r"~?\s*$", re.I)
_DEVICE_BEFORE = re.compile(r"[a-z]{1,4}\d{2,4}[a-z]*\s+~?\s*$", re.I)  # "A100 80GB"
_DEVICE_AFTER = re.compile(r"\s*(?:gpus|cards|devices|accelerators|a100s|h100s|h200s|"
                           r"[a-z]{1,4}\d{2,4}[a-z]*s?\b|each\b)", re.I)
# memory beyond the devices' own ("offloaded to CPU", "swap", "disk"): no bound on the weights
_NOT_RESIDENT = re.compile(r"\boffload\w*|\bcpu\b|\bswap\w*|\bdisk\b", re.I)


def devices(text: str, t: Tok) -> int:
    """How many devices a memory figure is the memory of one of ("two 80 GB A100s", "2x
    A100 80GB", "2 x 80 GB GPUs"): the count before it, with a device named beside it; 0
    when it is no such figure."""
    m = _DEVICES_BEFORE.search(text[max(0, t.start - 32):t.start])
    if not m or not (_DEVICE_AFTER.match(text, t.end) or _DEVICE_BEFORE.search(m.group(0))):
        return 0
    k = m.group(1).lower()
    k = words.UNIT_WORDS[k] if k in words.UNIT_WORDS else int(k)
    return k if 2 <= k <= 64 else 0


_DEVICE_WORDS = (r"(?:gpus?|devices?|cards?|accelerators?|nodes?|chips?|[abhl]\d{2,3}s?|tpus?|"
                 r"ranks?|rtx\s*\d{4}s?)")
# a figure said of each device: "35 GB per GPU", "70 GB each", "on each GPU", "each of the
# 8 GPUs holds 17.5 GB"
_EACH_AFTER = re.compile(r"\s*(?:of\s+\w+\s+)?(?:(?:per|a|/)\s*" + _DEVICE_WORDS + r"\b|each\b|"
                         r"on each\b|apiece\b)", re.I)
_EACH_BEFORE = re.compile(r"\b(?:each|every|per)\s+(?:of\s+the\s+\w+\s+)?" + _DEVICE_WORDS
                          + r"\b[^.;]{0,24}$", re.I)
# a count of devices: "4 GPUs", "eight of them", "two 80 GB A100s", "8x H100"
_COUNT_OF_DEVICES = re.compile(r"\b(\d{1,4}|two|three|four|five|six|seven|eight|sixteen)\s*"
                               r"(?:x\s*|×\s*)?(?:of\s+)?(?:[a-z]{1,4}\d{2,4}[a-z]*[\s-]+)?"
                               r"(?:\d+\s*gb\s+)?(?:nvidia\s+)?(?:" + _DEVICE_WORDS + r"|them)\b|"
                               r"\b(\d{1,4})\s*[x×]\s*(?=[a-z]{1,4}\d{2,4})", re.I)


def device_count(text: str) -> int | None:
    """The one count of devices (2 to 4096) the text states, or None (none, or several)."""
    counts = set()
    for m in _COUNT_OF_DEVICES.finditer(text):
        k = (m.group(1) or m.group(2)).lower()
        counts.add(words.UNIT_WORDS[k] if k in words.UNIT_WORDS else int(k))
    counts = {k for k in counts if 2 <= k <= 4096}
    return counts.pop() if len(counts) == 1 else None


def each_device(text: str, t: Tok) -> bool:
    """Whether memory figure t is said of each device ("35 GB per GPU", "70 GB each")."""
    return bool(_EACH_AFTER.match(text, t.end) or _EACH_BEFORE.search(text, 0, t.start))


def per_device(text: str, t: Tok) -> int:
    """How many devices a memory figure is each one's share of ("35 GB per GPU with tensor
    parallelism over 4 GPUs", "split over 2 GPUs needs 70 GB each", "each of the 8 GPUs
    holds 17.5 GB"): the one count of devices the sentence states; 0 when the figure is
    not said of each device, -1 when it is but no single count is stated (unreadable)."""
    if not each_device(text, t):
        return 0
    return device_count(text) or -1


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


def spread(items, text: str) -> Term:
    """An expression as a `Term` whose ends are its least and greatest values over the
    intervals its rounded figures state (`precision.rounded_input`: `6.7B` is [6.65B,
    6.75B]; a plain number stays as written), so that a lenient reading takes a rounded
    input as rounded (statcheck's rule: "6.7B params × 2 bytes = 13.5 GB" holds for
    6.74B). `items`: the operators (`+ - * /`) and, for each figure, (token, its text in
    `text`; `(16 / 8)` for a width in bits). Only for a flat expression over positive
    figures, where the way each figure moves the value is plain (a subtracted term or a
    divisor moves it down); otherwise, or with no rounded figure, `text` as written."""
    lo, hi, sign, invert, wide = [], [], 1, False, False
    for x in items:
        if isinstance(x, tuple):
            t, shown = x
            tol = lenient_tol(t) if precision.rounded_input(t) else Fraction(0)
            if t.value - tol <= 0 or t.power:
                return call(text)
            down, up = literal(t.value - tol), literal(t.value + tol)
            if shown != literal(t.value):  # a width in bits, counted in bytes
                down, up = f"({down} / 8)", f"({up} / 8)"
            if sign * (-1 if invert else 1) < 0:
                down, up = up, down
            lo.append(down)
            hi.append(up)
            wide = wide or bool(tol)
            invert = False
            continue
        if x not in ("+", "-", "*", "/"):
            return call(text)  # parentheses, powers: no plain direction
        lo.append(x)
        hi.append(x)
        if x in ("+", "-"):
            sign = 1 if x == "+" else -1
        invert = x == "/"
    return Term(text, " ".join(lo), " ".join(hi)) if wide else call(text)


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


def range_ends(toks, i) -> tuple[int, int] | None:
    """(low, high) indices when figure i is an end of a range: `1.5–2.5 GB`, `between 30
    and 35 GB`, `from 1 to 2 GB` (docs/architecture.md §5.2: a range is read as its interval)."""
    def num(k):
        return 0 <= k < len(toks) and toks[k].kind == "NUM"

    def word(k, *ws):
        return 0 <= k < len(toks) and toks[k].kind == "WORD" and toks[k].text.lower() in ws

    for lo in (i, i - 2):
        hi = lo + 2
        if num(lo) and num(hi) and (toks[lo + 1].kind == "RANGE" or (
                word(lo + 1, "and", "to") and word(lo - 1, "between", "from"))):
            return lo, hi
        if num(lo) and num(hi) and word(lo + 1, "to") and _bare_pair(toks, lo, hi):
            return lo, hi  # "32 to 80 layers", "7 to 8 billion": the interval
    return None


# words of a change before "N to M", beside the scan's words for less and more
# (`words.REDUCE`, `words.INCREASE`: "cut", "reduces", "grows", "increased")
_MOVED = {"from", "grew", "expand", "expands", "expanded", "raise", "raises", "raised", "go",
          "goes", "went", "change", "changes", "changed", "rounded", "round", "up", "down",
          "scale", "scales", "scaled", "shrink", "shrinks", "shrunk", "=", "→"}


def _bare_pair(toks, lo, hi) -> bool:
    """Whether `lo to hi` is a range said without "from": two figures alike (no scale on
    the first, or the same one), the smaller first, and no word of a change before them
    ("grows 4096 to 16384", "rounded up to 11008" are changes, not intervals)."""
    a, b = toks[lo], toks[hi]
    if not (a.value and b.value and a.value < b.value) or a.money != b.money:
        return False
    if (a.scale and a.scale != b.scale) or a.ratio or b.ratio:
        return False
    word = toks[lo - 1].text.lower() if lo > 0 else ""
    return not (word in _MOVED or words.REDUCE.match(word) or words.INCREASE.match(word))


def compare(choices: list[list[Term]], result: Tok, op: str = "",
            binary: bool = False, low: Tok | None = None) -> tuple[str, str]:
    """(strict, lenient) for `product == result`, where `choices` lists each factor's
    readings (the first of each is the strict one). `low`: the result is the high end of
    a range from `low` (`1.5–2.5 GB`): the product must fall in the interval."""
    first = [c[0] for c in choices]
    lhs = expression(first)
    tol = strict_tol(result)
    lo_value, lo_unit = precision.low_end(low, result) if low is not None else (None, None)
    if low is not None:
        strict = f"{literal(lo_value)} <= {lhs} <= {literal(result.value)}"
    elif op:
        strict = f"{lhs} {op} {literal(result.value)}"
    else:
        strict = _near(lhs, result.value, tol)
    readings = alternatives(result, binary, result=True)
    count = len(readings)
    for c in choices:
        count *= len(c)
    if count > 4 * MAX_ALTERNATIVES:  # bounded before they are built (hostile input)
        return strict, TOO_MANY_READINGS
    lenient = []
    for combo in _cartesian(*choices):
        for value, tol in readings:
            if low is not None:  # the interval, at this reading of the unit (GB or GiB),
                # each end at its own precision: 2.5–3 GB is [2.45 GB, 3.5 GB]
                factor = value / result.value if result.value else 1
                bottom = (lo_value - lo_unit / 2) * factor
                value, tol = (bottom + value + tol) / 2, (value + tol - bottom) / 2
            lenient.append(_met(list(combo), value, tol, "" if low is not None else op))
    lenient = list(dict.fromkeys(lenient))
    if len(lenient) > MAX_ALTERNATIVES:
        # more readings than one claim holds: dropping some could leave a FALSE that a
        # dropped reading rescues, so the lenient side is one the engine cannot decide
        # and the statement gets no verdict (never FALSE on an incomplete set)
        return strict, TOO_MANY_READINGS
    return strict, lenient[0] if len(lenient) == 1 else "(" + " or ".join(lenient) + ")"
