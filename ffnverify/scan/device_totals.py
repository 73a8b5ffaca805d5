"""The memory of several devices said as their total: "Two A100-80GBs give you 160GB",
"8x H100 80GB for a total of 640 GB", "Each H100 has 80 GB, so eight of them give 640 GB
in total". Read as arithmetic the words imply: count × one device's memory = the total,
each figure at its stated precision (`figure.compare`; GB or GiB alike on both sides).

What it guarantees: the sentence holds exactly two byte figures, the smaller one a
device's memory (a device named beside it, or "each") and the larger said as what the
devices give together ("give", "total", "combined", "altogether", "for a total of"); and
exactly one count of devices (2 to 4096). The part is a reading to confirm: the words,
not an operator, join the figures.
"""

import re

from ffnverify.scan import words
from ffnverify.scan.figure import compare, const, devices
from ffnverify.scan.parts import Part

_DEVICE = r"(?:gpus?|devices?|cards?|accelerators?|nodes?|[abhl]\d{2,3}s?|tpus?|them|rtx\s*\d{4}s?)"
_COUNT = re.compile(r"\b(\d{1,4}|two|three|four|five|six|seven|eight|sixteen)\s*(?:x\s*|×\s*)?"
                    r"(?:of\s+)?(?:[a-z]{1,4}\d{2,4}[a-z]*[\s-]+)?(?:\d+\s*gb\s+)?(?:nvidia\s+)?"
                    + _DEVICE
                    + r"\b|\b(\d{1,4})\s*[x×]\s*(?=[a-z]{1,4}\d{2,4})", re.I)
_TOTAL = re.compile(r"\b(?:give|gives|giving|gave|totals?|totall?ing|combined|altogether|"
                    r"in total|for a total of|together|pooled|aggregate)\b|=", re.I)
_EACH = re.compile(r"\beach\b|\bper\s+(?:gpu|device|card)\b|\bapiece\b", re.I)


def _count(text: str) -> int | None:
    found = set()
    for m in _COUNT.finditer(text):
        k = (m.group(1) or m.group(2)).lower()
        found.add(words.UNIT_WORDS[k] if k in words.UNIT_WORDS else int(k))
    found = {k for k in found if 2 <= k <= 4096}
    return found.pop() if len(found) == 1 else None


def totals(toks, text: str) -> list[Part]:
    """count × a device's memory = the total they give (see the module docstring)."""
    byte_figs = [i for i, t in enumerate(toks) if t.kind == "NUM" and t.scale == "bytes"
                 and not t.money]
    if len(byte_figs) != 2:
        return []
    m, total = byte_figs
    one, whole = toks[m], toks[total]
    if whole.value <= one.value or not _TOTAL.search(text, one.end, whole.end + 16):
        return []
    if not (devices(text, one) or _EACH.search(text, max(0, one.start - 24), one.end + 16)
            or re.match(r"[\s-]*(?:gpus?|cards?|devices?|[abhl]\d{2,3}s?|rtx)\b", text[one.end:],
                        re.I) or re.search(r"[abhl]\d{2,3}[\s-]*$", text[:one.start], re.I)):
        return []  # the smaller figure is no device's memory
    k = devices(text, one) or _count(text)
    if not k:
        return []
    strict, lenient = compare([[const(k)], [const(one.value)]], whole, binary=True)
    count_at = [i for i, t in enumerate(toks) if t.kind == "NUM" and t.value == k
                and not t.scale and t.start < whole.start][-1:]
    named = [i for i, t in enumerate(toks) if t.kind == "NUM" and not t.scale
             and re.search(r"(?:rtx|gtx|rx)\s*$", text[max(0, t.start - 5):t.start], re.I)]
    return [Part(strict, lenient, False, tuple(sorted({m, total, *count_at, *named})),
                 f"{k} devices × {one.text} each = {whole.text} in all (the words join them)")]
