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

from ffnverify.scan.figure import compare, const, device_count, devices, each_device
from ffnverify.scan.parts import Part

_TOTAL = re.compile(r"\b(?:give|gives|giving|gave|totals?|totall?ing|combined|altogether|"
                    r"in total|for a total of|together|pooled|aggregate)\b|=", re.I)


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
    if not (devices(text, one) or each_device(text, one)
            or re.match(r"[\s-]*(?:gpus?|cards?|devices?|[abhl]\d{2,3}s?|rtx)\b", text[one.end:],
                        re.I) or re.search(r"[abhl]\d{2,3}[\s-]*$", text[:one.start], re.I)):
        return []  # the smaller figure is no device's memory
    k = devices(text, one) or device_count(text)
    if not k:
        return []
    strict, lenient = compare([[const(k)], [const(one.value)]], whole, binary=True)
    count_at = [i for i, t in enumerate(toks) if t.kind == "NUM" and t.value == k
                and not t.scale and t.start < whole.start][-1:]
    named = [i for i, t in enumerate(toks) if t.kind == "NUM" and not t.scale
             and re.search(r"(?:rtx|gtx|rx)\s*$", text[max(0, t.start - 5):t.start], re.I)]
    return [Part(strict, lenient, False, tuple(sorted({m, total, *count_at, *named})),
                 f"{k} devices × {one.text} each = {whole.text} in all (the words join them)")]
