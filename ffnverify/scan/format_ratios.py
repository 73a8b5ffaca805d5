"""The memory of one number format set against another's (docs/architecture.md §5.2,
weights memory at a dtype): "FP16 halves the memory of FP32", "INT8 uses a quarter of the
memory of FP32", "4-bit quantization cuts memory by 75% compared to FP16", "going from
FP32 to INT8 shrinks the model 4×". Each is read as a claim on `bytes(A) / bytes(B)`,
the format said (A) against the one it is measured against (B).

What it guarantees: the sentence names exactly two formats of different sizes, one of
them set as the reference ("than", "compared to", "vs", "relative to", "over", "of the
memory of", "from B to A", "B → A"), a noun of memory, and exactly one factor: a multiple or
fraction in words, a figure with × or "times", or a percent said as a reduction or as a
share. The part is never sure ("memory" may be a whole footprint, not only the weights):
a reading to confirm, TRUE or FALSE, read at the factor's stated precision.
"""

import re

from derivations.model_costs import DTYPE_BYTES as _BYTES
from ffnverify.scan import precision, words
from ffnverify.scan.binding import dtypes
from ffnverify.scan.numbers import literal
from ffnverify.scan.parts import Part
from ffnverify.scan.spelled import spelled

# before the format measured against
_REFERENCE = re.compile(r"(?:\bthan|\bcompared\s+(?:to|with)|\bvs\.?|\bversus|\brelative\s+to|"
                        r"\bover|\bof|\bagainst|\bfrom)\s+(?:the\s+|full\s+|standard\s+|"
                        r"plain\s+|an?\s+)?$", re.I)
_FROM_TO = re.compile(r"\bfrom\s+$", re.I)
_MEMORY = re.compile(r"\b(?:memory|vram|ram|size|footprint|storage|space|bytes?|disk|"
                     r"weights?|model|smaller|larger|bigger)\b", re.I)
# the scan's words for less and more (`words.REDUCE`, `words.INCREASE`), and a format's own
_LESS = re.compile(words.REDUCE.pattern + r"|cutting|shrink|decreas|compress", re.I)
_MORE = words.INCREASE
_SHARE = re.compile(r"\s*of\s+(?:the\s+)?(?:memory|vram|size|footprint|storage|space|bytes)",
                    re.I)
# a sentence about speed or quality, not memory: its factors are not bytes
_NOT_MEMORY = re.compile(r"\b(?:faster|slower|speed\w*|throughput|latency|accuracy|"
                         r"perplexity|flops?|tokens?/s|bandwidth)\b", re.I)


def _pair(text: str, found) -> tuple | None:
    """(measured, reference) dtype spans, or None unless exactly one is the reference."""
    a, b = found
    if re.fullmatch(r"\s*(?:→|->|=>|⇒)\s*", text[a[1]:b[0]]) or (_FROM_TO.search(
            text, max(0, a[0] - 8), a[0]) and re.fullmatch(r"\s+to\s+", text[a[1]:b[0]])):
        return b, a  # "from FP32 to INT8", "FP16→INT8": the second against the first
    refs = [f for f in found if _REFERENCE.search(text, max(0, f[0] - 24), f[0])]
    if len(refs) != 1:
        return None
    ref = refs[0]
    return (b if ref is a else a), ref


def ratios(toks, text: str) -> list[Part]:
    """The part a sentence states of two formats' bytes (see the module docstring)."""
    found = [f for f in dtypes(text) if f[2] in _BYTES]
    if len(found) != 2 or _BYTES[found[0][2]] == _BYTES[found[1][2]] \
            or not _MEMORY.search(text) or _NOT_MEMORY.search(text):
        return []
    pair = _pair(text, found)
    if pair is None:
        return []
    (_, _, new), (_, _, ref) = pair
    a_over_b = f"bytes({new}) / bytes({ref})"
    in_formats = {i for i, t in enumerate(toks) if t.kind == "NUM"
                  and any(s <= t.start < e for s, e, _ in found)}
    figs = [i for i, t in enumerate(toks) if t.kind == "NUM" and i not in in_formats]
    words = [sp for sp in spelled(text) if sp.kind in ("multiple", "fraction")
             and not re.match(r"[\s-]*precision", text[sp.end:])]
    if len(figs) + len(words) != 1:
        return []
    less, more = bool(_LESS.search(text)), bool(_MORE.search(text))
    if figs:
        t = toks[figs[0]]
        if t.scale == "%":
            if _SHARE.match(text, t.end):  # "uses 25% of the memory of FP32"
                lhs = a_over_b
            elif less and not more:  # "cuts memory by 75% compared to FP16"
                lhs = f"1 - {a_over_b}"
            else:
                return []
        elif t.ratio or re.match(r"\s*times\b", text[t.end:], re.I):
            if less and not more:  # "4× smaller than FP32", "cuts memory 4x"
                lhs = f"bytes({ref}) / bytes({new})"
            elif more and not less:  # "2x more memory than INT8"
                lhs = a_over_b
            else:
                return []
        else:
            return []
        strict, lenient = precision.strict(lhs, t), precision.lenient(lhs, t)
        read = (figs[0],)
        said = t.text
    else:
        sp = words[0]
        value = sp.value
        said = text[sp.start:sp.end]
        before = text[max(0, sp.start - 12):sp.start]
        if sp.kind == "fraction" and re.search(r"\bby\s+(?:a|an|one)?\s*$", before, re.I) \
                and less:
            value = 1 - value  # "cuts memory by a quarter": three quarters remain
        elif sp.kind == "multiple" and value > 1 and less and not more:
            return []  # "twice as small": not a way of saying it
        strict = lenient = f"{a_over_b} == {literal(value)}"
        read = tuple(i for i, t in enumerate(toks) if sp.start <= t.start < sp.end)
    return [Part(strict, lenient, False, tuple(sorted(set(read) | in_formats)),
                 f"bytes of {new} against {ref} ({said}), as the memory said: to confirm")]
