"""Sizes of one family and a field's figures, paired in order: "Llama 2 7B, 13B and 70B
have 32, 40 and 80 layers respectively", "Llama 2 7B/13B/70B have 32/40/80 layers",
"The 7B and 13B Llama 2 models have 32 and 40 layers". Each size names the family's one
row of that size (`detect.row_of_size`, as for "the 7B variant of Llama 2"), and each figure is that row's
field, the field being the noun right after the last figure.

What it guarantees: as many sizes as figures (two to six), in one list each (joined by
commas, "and" or slashes), the figures bound to a field by its noun, every size naming
exactly one catalogue row. The parts are sure when the text says "respectively" or writes
both lists with slashes; otherwise the order is the likelier reading, to confirm.
"""

import re
from fractions import Fraction

from ffnverify.scan import words
from ffnverify.scan.detect import row_of_size
from ffnverify.scan.parts import Part

_SIZE = r"\d+(?:\.\d+)?\s?[MB]"
_NUM = r"\d[\d,]*(?:\.\d+)?"
_FAMILY = r"[A-Z][A-Za-z.-]*(?:\s\d(?:\.\d)?)?"


def _list(item: str) -> str:
    return rf"{item}(?:\s*(?:/|,\s*(?:and\s+)?|\s+and\s+)\s*{item}){{1,5}}"


# "Llama 2 7B, 13B and 70B have 32, 40 and 80 layers", "The 7B and 13B Llama 2 models have …"
_AFTER = re.compile(rf"(?P<f>{_FAMILY})\s+(?P<sizes>{_list(_SIZE)})\s+(?:models?\s+)?"
                    rf"(?:have|has|use|uses|with|come with|contain)\s+(?P<nums>{_list(_NUM)})\s+",
                    re.I)
_BEFORE = re.compile(rf"\b(?:the\s+)?(?P<sizes>{_list(_SIZE)})\s+(?P<f>{_FAMILY})\s+models?\s+"
                     rf"(?:have|has|use|with|contain)\s+(?P<nums>{_list(_NUM)})\s+", re.I)
_SPLIT = re.compile(r"\s*(?:/|,\s*(?:and\s+)?|\s+and\s+)\s*")


def _size(text: str) -> Fraction:
    m = re.match(r"(\d+(?:\.\d+)?)\s?([MB])", text, re.I)
    return Fraction(m.group(1)) * (10**9 if m.group(2).upper() == "B" else 10**6)


def pairs(toks, text: str) -> list[Part]:
    """Each row's field said in the order of its size (see the module docstring)."""
    for m in list(_AFTER.finditer(text)) + list(_BEFORE.finditer(text)):
        sizes = _SPLIT.split(m.group("sizes").strip())
        nums = _SPLIT.split(m.group("nums").strip())
        if len(sizes) != len(nums):
            continue
        field = next((f for pattern, f in words.FIELD_RES if pattern.match(text, m.end())), None)
        if field is None or field in ("params_total",):
            continue
        rows = [row_of_size(m.group("f"), _size(s)) for s in sizes]
        if not all(rows) or len(set(rows)) != len(rows):
            continue
        sure = bool(re.search(r"\brespectively\b", text[m.end():m.end() + 60], re.I)) or (
            "/" in m.group("sizes") and "/" in m.group("nums"))
        start, end = m.start("nums"), m.end("nums")
        figs = [i for i, t in enumerate(toks) if t.kind == "NUM" and (
            start <= t.start < end or m.start("sizes") <= t.start < m.end("sizes"))]
        claims = " and ".join(f"{field}({row}) == {n.replace(',', '')}"
                              for row, n in zip(rows, nums))
        return [Part(claims, claims, sure, tuple(figs),
                     f"{field} of {', '.join(rows)} in the order of their sizes"
                     + ("" if sure else " (no 'respectively': to confirm)"))]
    return []
