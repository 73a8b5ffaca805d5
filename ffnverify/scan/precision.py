"""A figure compared with a quantity, in its two readings (see `parts.Part`): `strict`, the
figure as written, and `lenient`, the figure at its stated precision, a hedge at its
looser tolerance, `K`/`M`/`G` and `GB` as decimal or binary (the rules are in
`words`' docstring). A figure is rounded, never truncated (statcheck's rule: `6.73B`
for 6.738B is false). Both are claim-language text built from exact literals; the lenient
one uses only explicit `approx(x, v, abs=…)` and comparisons, never the `≈` rule.
"""

import re
from dataclasses import replace
from fractions import Fraction

from ffnverify.scan.numbers import BYTE_UNITS, SCALES, Tok, literal
from ffnverify.scan.words import HEDGE_RELATIVE, HEDGE_UNITS

_BINARY = {"K": 2**10, "k": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
_BYTES_TWIN = {"KB": "KiB", "MB": "MiB", "GB": "GiB", "TB": "TiB",
               "KiB": "KB", "MiB": "MB", "GiB": "GB", "TiB": "TB"}


def hedged(t: Tok) -> bool:
    return t.tilde or t.about


def _zeros(t: Tok) -> tuple[int, int]:
    """(significant digits, trailing zeros) of the integer part a figure is written with
    (`67,100,000`: 3 and 5; `70B`: 1 and 1); (0, 0) for a decimal or a power."""
    if t.power or (t.value.denominator != 1 and not t.scale):
        return 0, 0
    written = re.match(r"[\d,\u202f\u2009\u00a0 ]+(?:\.\d+)?", t.text)
    if not written or "." in written.group():
        return 0, 0
    digits = re.sub(r"\D", "", written.group())
    zeros = len(digits) - len(digits.rstrip("0"))
    return len(digits) - zeros, zeros


def rounded_unit(t: Tok, hedge: bool = False) -> Fraction:
    """One unit of the last stated digit, an integer's trailing zeros read as rounding:
    with two significant digits or more (`67,100,000`: 100,000), or, under a hedge, with
    any (`~70B`: 10B, `about 200M`: 100M)."""
    unit = t.unit
    if not unit:
        return unit
    sig, zeros = _zeros(t)
    # unhedged, a round integer of one significant digit (`32 layers`, `4000 tokens`)
    # is read as written; under a hedge any trailing zero rounds (`about 30 layers`: tens)
    if zeros and sig and ((sig >= 2 and (t.value >= 1000 or t.scale)) or hedge):
        return unit * 10**zeros
    return unit


def rounded_input(t: Tok) -> bool:
    """Whether an input of arithmetic states a rounded figure, read at its precision in a
    lenient reading: one with a scale or unit (`6.7B`, `24 GB`: a measurement), a hedge
    (`~2.67`), or a decimal that rounds a third, sixth, ninth or twelfth (`2.67` for 8/3,
    `0.33`, `1.33`: "2.67 × 4096 ≈ 10,923" is 8/3 × 4096). Another plain number (`4096`,
    `3.5`, `0.002`) is an operand as written, so "8,192 × 3.5 = 28,762" stays false."""
    return (bool(t.scale) and t.scale != "%") or hedged(t) or _rounds_a_third(t)


def _rounds_a_third(t: Tok) -> bool:
    """A plain decimal within half a unit of its last digit of p/q, q in 3, 6, 9, 12 (in
    lowest terms): no finite decimal states such a fraction, so it was rounded."""
    if t.ratio or t.unit is None or not 0 < t.unit < 1 or t.value <= 0:
        return False
    for q in (3, 6, 9, 12):
        p = round(t.value * q)
        if p and Fraction(p, q).denominator == q and abs(Fraction(p, q) - t.value) <= t.unit / 2:
            return True
    return False


def alternatives(t: Tok, binary: bool) -> list[tuple[Fraction, Fraction]]:
    """(value, unit) of each reading of the figure's scale: decimal, and binary where
    `binary` (a context length, a memory size) or the figure is a byte count."""
    out = [(t.value, t.unit)]
    if t.scale == "bytes":
        m = re.search(r"([KMGT]i?B)$", t.text)
        if m and m.group(1) in _BYTES_TWIN:
            here, there = BYTE_UNITS[m.group(1)], BYTE_UNITS[_BYTES_TWIN[m.group(1)]]
            out.append((t.value / here * there, t.unit / here * there))
    elif binary and t.scale in _BINARY:
        factor = Fraction(_BINARY[t.scale], SCALES[t.scale])
        out.append((t.value * factor, t.unit * factor))
    return out


def _approx(lhs: str, value: Fraction, tol: Fraction) -> str:
    if tol == 0:
        return f"{lhs} == {literal(value)}"
    return f"approx({lhs}, {literal(value)}, abs={literal(tol)})"


def strict(lhs: str, t: Tok, op: str = "", binary: bool = False) -> str:
    """The figure as written: exact for a plain integer, at half a unit of its last
    digit otherwise (a scale suffix or a decimal states a rounded figure). A bound on a
    figure with two readings of its scale (`over 32K`, where `binary`: 32,000 or 32,768)
    holds as written only when it holds under both: one that holds under one reading only
    is a reading to confirm (the lenient side takes either)."""
    if op:
        texts = list(dict.fromkeys(f"{lhs} {op} {literal(v)}" for v, _ in alternatives(t, binary)))
        return texts[0] if len(texts) == 1 else "(" + " and ".join(texts) + ")"
    unit = t.unit
    exact = t.value.denominator == 1 and t.unit == 1 and not hedged(t) and not t.scale
    return _approx(lhs, t.value, Fraction(0) if exact else unit / 2)


def exact_count(t: Tok) -> bool:
    """A plain integer, unhedged, with no trailing zeros to round: `32 layers`."""
    return t.value.denominator == 1 and t.unit == 1 and not hedged(t) and not t.scale \
        and rounded_unit(t) == t.unit


def lenient(lhs: str, t: Tok, op: str = "", binary: bool = False) -> str:
    """The most charitable reading a careful reader could intend."""
    alts = alternatives(t, binary)
    if op:  # "up to 46.7B", "at most 13.4 GB": a bound on a figure stated with decimals (a
        # rounded measurement) reaches the edge of its precision, so it holds for
        # 46,702,792,704; a round threshold ("under 32K", "at most 70B") is as written
        edge = {"<=": 1, ">=": -1}.get(op, 0) if "." in re.sub(r"[^\d.]", "", t.text) else 0
        texts = [f"{lhs} {op} {literal(v + edge * u / 2)}" for v, u in alts]
    else:
        texts = []
        for value, unit in alts:
            scale = unit / t.unit if t.unit else 1
            if hedged(t):  # a whole unit, half the unit of a round figure's last digit,
                tol = max(t.unit * HEDGE_UNITS * scale,  # or a share of the figure
                          rounded_unit(t, True) * scale / 2, abs(value) * HEDGE_RELATIVE)
            else:
                tol = rounded_unit(t) * scale / 2
            texts.append(_approx(lhs, value, tol))
    grouped = thousands_dotted(t)
    if grouped is not None:  # "4.096" in a text whose dots group thousands (4096)
        texts.append(f"{lhs} {op or '=='} {literal(grouped)}")
    texts = list(dict.fromkeys(texts))
    return texts[0] if len(texts) == 1 else "(" + " or ".join(texts) + ")"


_DOTTED = re.compile(r"\d{1,3}(?:\.\d{3})+")


def thousands_dotted(t: Tok) -> Fraction | None:
    """The integer a figure written with dots between groups of three digits states where
    the dot groups thousands, as many European texts write it (`4.096` for 4096,
    `6.738.415.616`), or None: a careful reader takes it so too (leniently)."""
    if t.scale or t.power or not _DOTTED.fullmatch(t.text):
        return None
    return Fraction(int(t.text.replace(".", "")))


def low_end(lo: Tok, hi: Tok) -> tuple[Fraction, Fraction]:
    """(value, unit) of a range's low end, which takes the high end's scale when it has
    none of its own (`7–9B`: 7B; `1.5–2.5 GB`: 1.5 GB)."""
    if not lo.scale and hi.scale and hi.scale != "%":
        factor = hi.value / _mantissa(hi) if _mantissa(hi) else 1
        return lo.value * factor, lo.unit * factor
    return lo.value, lo.unit


def interval(lhs: str, lo: Tok, hi: Tok, scale_from_hi: bool = True) -> tuple[str, str]:
    """A range `lo–hi` (`7–9B`: the scale of 9B applies to 7): (strict, lenient)."""
    lo_v, lo_u = low_end(lo, hi) if scale_from_hi else (lo.value, lo.unit)
    s = f"{literal(lo_v)} <= {lhs} <= {literal(hi.value)}"
    lenient_text = f"{literal(lo_v - lo_u / 2)} <= {lhs} <= {literal(hi.value + hi.unit / 2)}"
    return s, lenient_text


def bare(t: Tok) -> Tok | None:
    """The figure without its scale or byte unit (`12GB` → 12, `856M` → 856, at the same
    relative precision), or None when it has none: the reading of a result whose unitless
    terms share the scale written on it (`28 - 16 = 12GB`, `67 + 235 = 302M`)."""
    m = re.match(r"[\d.,]+", t.text)
    if not t.scale or t.scale in ("%", "flops") or not m or t.power:
        return None
    try:
        value = Fraction(m.group().replace(",", ""))
    except (ValueError, ZeroDivisionError):
        return None
    if not value:
        return None
    factor = t.value / value
    return replace(t, value=value, unit=t.unit / factor, scale="", plain=True, text=m.group())


def _mantissa(t: Tok) -> Fraction:
    m = re.match(r"[\d.,]+", t.text)
    if not m:
        return t.value
    try:
        return Fraction(m.group().replace(",", ""))
    except (ValueError, ZeroDivisionError):
        return t.value


def one_value(figs) -> bool:
    """Whether figures state one value: each within half a unit of the other's last digit
    ("6738411520 (6.74 B)" restates one count at a rounder precision; 28672 and 86016 are
    two values, a contrast)."""
    return all(abs(a.value - b.value) * 2 <= max(a.unit or 0, b.unit or 0)
               for a in figs for b in figs)
