"""A figure restated in words, in another scale or unit, nothing computed: "a 7B model has
7,000,000,000 parameters", "a 1B-parameter model, that's 1 × 10⁹ parameters", "7B 模型有
70 亿个参数", "32 bits, or 4 bytes". (`arithmetic.conversions` reads the same written with
`=`; this reads the link in words.)

What it guarantees: the two figures count the same thing (a count of parameters with its
noun on both sides, or bits against bytes), nothing but a linking word stands between
them, and the part compares the second with the first at the precisions both state
(`figure.compare`: `7B` is [6.5B, 7.5B], a plain integer is exact). A worded link can
also join a nominal size to a measured one ("a 7B model has 6.7B parameters": a reader
may mean either), so the part is never sure: a reading to confirm, TRUE or FALSE.
"""

import re
from fractions import Fraction
from itertools import pairwise

from ffnverify.scan.figure import compare, terms_of
from ffnverify.scan.memory import COUNT_SCALES
from ffnverify.scan.numbers import literal
from ffnverify.scan.parts import Part

# between the two figures: the first one's noun, then a link that restates ("has",
# "that's", "i.e.", "or", "which is", a dash, 有)
_COUNT_LINK = re.compile(
    r"\s*(?:-?\s*(?:parameters?|params?)\b)?\s*(?:models?|llms?)?\s*"
    r"(?:[,:(—–-]\s*)?(?:(?:that'?s|that is|this is|which is|which means|or|has|have|holds?|"
    r"contains?|comes to|amounts? to|totals?|means|is|are)\b|i\.e\.,?|有|即|是)"
    r"\s*(?:about|roughly|approximately|around|~)?\s*$", re.I)
_COUNT_NOUN_AFTER = re.compile(r"\s*(?:个)?\s*(?:parameters?|params?|weights|参数)", re.I)
_BITS = re.compile(r"\s*-?\s*bits?\b", re.I)
_BYTES = re.compile(r"\s*-?\s*bytes?\b", re.I)
_BIT_LINK = re.compile(r"\s*(?:[,:(—–-]\s*)?(?:(?:that'?s|that is|which is|or|is|are|equals?|"
                       r"makes?|requires?|needs?|takes?|in)\b|i\.e\.,?|=)"
                       r"\s*(?:about|roughly|~)?\s*$", re.I)


def _count(t) -> bool:
    return t.kind == "NUM" and not (t.money or t.ratio or t.tilde) and t.value > 0


def _in_units(text: str, t, unit) -> bool:
    return bool(unit.match(text, t.end))


def restatements(toks, text: str, names=()) -> list[Part]:
    """The parts of the figures restated in words in `text` (see the module docstring).
    `names`: the spans of model names, whose sizes are names, not counts."""
    def named(t) -> bool:
        return any(s <= t.start < e for s, e, *_ in names)

    parts = []
    nums = [i for i, t in enumerate(toks) if t.kind == "NUM"]
    for a_i, b_i in pairwise(nums):
        a, b = toks[a_i], toks[b_i]
        if not (_count(a) and _count(b)) or named(a) or named(b):
            continue
        gap = text[a.end:b.start]
        if len(gap) > 40:
            continue
        bits = _in_units(text, a, _BITS) and _in_units(text, b, _BYTES)
        if bits or (_in_units(text, a, _BYTES) and _in_units(text, b, _BITS)):
            if a.scale or b.scale or not _BIT_LINK.match(_after_unit(text, a, b)):
                continue
            factor = Fraction(1, 8) if bits else Fraction(8)
            claim = f"{literal(a.value)} * {literal(factor)} == {literal(b.value)}"
            parts.append(Part(claim, claim, False, (a_i, b_i),
                              "bits and bytes restated (8 bits a byte)"))
            continue
        if a.scale not in COUNT_SCALES and not a.power and not (a.scale == "" and a.value >= 10**6):
            continue
        if not (b.scale in COUNT_SCALES or b.power or (b.scale == "" and b.value >= 10**6)):
            continue
        if not _COUNT_NOUN_AFTER.match(text, b.end) or not _COUNT_LINK.match(gap):
            continue
        if a.text == b.text:
            continue  # "a 7B model has 7B parameters": the figure repeated
        if re.search(r"\bor\b", gap, re.I) and (a.scale, a.power) == (b.scale, b.power):
            continue  # "7B or 13B parameters": alternatives in one scale, not a restatement
        strict, lenient = compare([terms_of(a)], b)
        parts.append(Part(strict, lenient, False, (a_i, b_i),
                          "a count restated in another scale (a nominal size or the count "
                          "itself: to confirm)"))
    for m in _BYTE_IS_BITS.finditer(text):
        i = next((k for k in nums if toks[k].start == m.start(1)), None)
        if i is not None and not toks[i].scale:
            claim = f"{literal(toks[i].value)} == 8"
            parts.append(Part(claim, claim, False, (i,), "the bits in one byte"))
    return parts


# "one byte is 8 bits", "a byte = 8 bits"
_BYTE_IS_BITS = re.compile(r"\b(?:one|a|1)\s+byte\s+(?:is|=|has|equals|contains|holds)\s+"
                           r"(\d+)\s*-?\s*bits?\b", re.I)


def _after_unit(text: str, a, b) -> str:
    """The text between figure a's unit word and figure b."""
    m = _BITS.match(text, a.end) or _BYTES.match(text, a.end)
    return text[m.end():b.start]
