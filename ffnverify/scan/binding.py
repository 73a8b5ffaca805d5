"""Which words a figure is bound to (docs/architecture.md §5.2, binding): the words straight after it and
before it within its clause, the dtype a sentence names and where, the catalogue model a
position speaks of, and the nearest candidate that no other result separates from a
figure. Token-level helpers shared by the quantity readers; nothing here decides a claim.
"""

import re

from ffnverify.scan.numbers import Tok, tokens

_CLAUSE = {",", ";", ":", "(", ")", "=", "≈", "→"}

DTYPES = [  # (pattern on the text, the claim language's dtype name)
    (r"fp32|float32|f32|tf32|full[- ]precision|single[- ]precision|32-bit(?: floats?)?", "fp32"),
    (r"bf16|bfloat16", "bf16"),
    (r"fp16|float16|f16|half[- ]precision", "fp16"),
    (r"16bit|16-bit(?: floats?| weights| precision)?", "bf16"),
    (r"fp8|float8|e4m3|e5m2|8-bit floats?", "fp8"),
    (r"int8|8bit|8-bit(?: integers?| weights| quantization| quantized)?", "int8"),
    (r"int4|nf4|4bit|4-bit(?: integers?| weights| quantization| quantized)?", "int4"),
]
_DTYPE_RES = [(re.compile(r"(?<![\w-])(?:" + p + r")(?![\w])", re.I), d) for p, d in DTYPES]
# formats the claim language gives no size a number ("Q8", "Q4_K_M", "GGUF", "GPTQ", "AWQ",
# "EXL2"): a figure said of one is of no format the scan reads, and it is no figure of the
# format named past it ("in Q8 about 70 GB; in FP16 about 140 GB")
_UNSIZED = re.compile(r"(?<![\w-])(?:i?q[1-8](?:_[a-z0-9]{1,2}){0,2}|gguf|ggml|gptq|awq|exl2)"
                      r"(?![\w])", re.I)


def words_after(toks, i: int, n: int = 4) -> list[str]:
    """Up to n lower-case words after token i, within its clause (stop at a number)."""
    out = []
    for t in toks[i + 1:]:
        if t.kind == "NUM" or (t.kind == "OP" and t.text in _CLAUSE) or len(out) >= n:
            break
        if t.kind == "WORD":
            out.append(t.lower)
    return out


def words_before(toks, i: int, n: int = 3) -> list[str]:
    """Up to n lower-case words before token i, nearest last (stop at a number)."""
    out = []
    for t in reversed(toks[:i]):
        if t.kind == "NUM" or (t.kind == "OP" and t.text in _CLAUSE) or len(out) >= n:
            break
        if t.kind == "WORD":
            out.insert(0, t.lower)
    return out


def dtypes(text: str) -> list[tuple[int, int, str]]:
    """(start, end, dtype) of every number format the text names, left to right."""
    found, taken = [], []
    for pattern, name in _DTYPE_RES:
        for m in pattern.finditer(text):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            taken.append((m.start(), m.end()))
            found.append((m.start(), m.end(), name))
    return sorted(found)


def formats_named(text: str) -> list[tuple[int, int, str | None]]:
    """`dtypes`, and the formats it cannot size (dtype None) where no sized one is named
    with them ("GPTQ 4-bit", "Q8_0 (8-bit)" name int4 and int8)."""
    found = dtypes(text)
    return sorted(found + [(m.start(), m.end(), None) for m in _UNSIZED.finditer(text)
                           if not any(abs(m.start() - s) <= 12 or abs(e - m.end()) <= 12
                                      for s, e, _ in found)])


def unsized_beside(pos: int, formats, blockers=(), reach: int = 24) -> bool:
    """Whether a format the claim language cannot size stands right beside `pos` (within
    `reach` characters, no blocker between), on either side: "in Q8 about 70 GB" in a text
    that elsewhere writes "35 GB in Q4" is still Q8's figure, whichever side the text
    prefers."""
    got = nearest(pos, [f for f in formats if f[2] is None], blockers)
    return got is not None and min(abs(got[0] - pos), abs(got[1] - pos)) <= reach


def inside(toks, start: int, end: int) -> list[int]:
    """Indices of the number tokens inside [start, end) (`8-bit`'s 8)."""
    return [i for i, t in enumerate(toks) if t.kind == "NUM" and start <= t.start < end]


def in_names(t: Tok, names) -> bool:
    return any(s <= t.start < e for s, e, _ in names)


def nearest(pos: int, candidates, blockers=(), prefer: str = ""):
    """The candidate (start, ...) nearest `pos` with no blocker position strictly between
    them, on the side `prefer` ("before" / "after") when there is one there; None when
    there is none."""
    open_ = []
    for c in candidates:
        lo, hi = sorted((c[0], pos))
        if not any(lo < b < hi for b in blockers):
            open_.append(c)
    side = [c for c in open_ if (c[0] < pos) == (prefer == "before")] if prefer else []
    pool = side or open_
    return min(pool, key=lambda c: abs(c[0] - pos)) if pool else None


def side(results: list[int], candidates) -> str:
    """Which side of its result a document writes a qualifier on ("in fp16, 13.5 GB" or
    "13.5 GB in fp16"): the side of the first qualifier from the first result."""
    if not results or not candidates:
        return ""
    return "before" if min(c[0] for c in candidates) < min(results) else "after"


def model(names, pos: int):
    """(catalogue name, sure) of the model a position speaks of: the only one the text
    names (sure), or the nearest before it when it names several (not sure)."""
    distinct = {n for _, _, n in names}
    if not distinct:
        return None, False
    if len(distinct) == 1:
        return names[0][2], True
    before = [n for n in names if n[0] <= pos] or list(names)
    return before[-1][2], False


_NAME_SIZE = re.compile(r"(?<![x\d.])(\d+(?:\.\d+)?)([bm])$")


def nominal(toks, names, name: str):
    """The size figure inside the first span naming `name` ("Llama 2 7B" → 7B), or None.
    A model named around the unit, not in it (a heading's, span (-1, -1)), has the size
    its catalogue name writes (`llama-3.1-405b`: 405B), as the heading names it."""
    for s, e, n in names:
        if n != name:
            continue
        if s < 0:
            m = _NAME_SIZE.search(n)
            sized = [t for t in tokens(m.group(1) + m.group(2).upper()) if t.kind == "NUM"] \
                if m and "x" not in n else []
            return sized[0] if len(sized) == 1 else None
        sized = [t for t in toks if s <= t.start < e and t.kind == "NUM"
                 and t.scale in ("B", "M", "T")]
        if len(sized) == 1 and "x" not in name:
            return sized[0]
    return None


# (not the key of a next `Key: value` line: "Base model: Mistral 7B" over "Layers: 32"
# names the model, not its layers)
_COMPONENT_AFTER = re.compile(r"[\s-]*(?:experts?\b|style\b|like\b|based\b|variants?\b|"
                              r"clones?\b|blocks?\b|layers?\b|architecture\b)(?!\s*:)", re.I)
_MANY_BEFORE = re.compile(r"(?:\b(?:two|three|four|five|six|seven|eight|nine|ten|sixteen|"
                          r"several|multiple|many)|\d+\s*[x×])\s*$", re.I)


def subjects(text: str, names) -> tuple:
    """The names that speak of the model itself: not "eight Mistral 7B experts" (a part
    of another model), "Llama-style blocks", "two Llama 2 7B models"."""
    return tuple(n for n in names if not _COMPONENT_AFTER.match(text, n[1])
                 and not _MANY_BEFORE.search(text[max(0, n[0] - 12):n[0]]))


# models named side by side ("A vs B", "A, B"), and the figures after them (a range is one)
PARALLEL = re.compile(r"\s*(?:,|vs\.?|versus|and|or|to|&|/)\s*", re.I)
FIGURES = re.compile(r"\d[\d.,]*(?:\s*(?:to|–|—|-)\s*\d[\d.,]*)?")
