"""Weights memory read as claims: the memory of a model's weights at a dtype or at a
stated number of bytes per parameter (`weight_bytes(m, dtype=…)`, `params_total(m) * 16`
for "16 bytes per parameter for Adam", or the arithmetic as written, `7B · bytes(fp32)`,
for a model known only by its nominal size), the bytes of one number in a format
("FP16 = 2 bytes"), copies of the weights ("3 copies at fp32") and byte products
explained in parentheses ("640 MB (2048 × 320 KB)").

Binding as in `memory` (whose result figures and nominal counts it shares): the dtype is
the format named nearest the result with no other result between. A named model's
weights are read at its real count (strict) and, leniently, also at its nominal size
(`Llama 2 7B` as 7B: the figure a reader may have multiplied). The vocabulary (what says
weights, gradients, a runtime figure, a partial fine-tune) is in `words`.
"""

import re
from fractions import Fraction

from ffnverify.scan import memory, memory_words
from ffnverify.scan.binding import (
    DTYPES,
    dtypes,
    formats_named,
    inside,
    model,
    nearest,
    nominal,
    side,
    unsized_beside,
    words_after,
)
from ffnverify.scan.figure import (
    Term,
    bound,
    call,
    compare,
    const,
    devices,
    per_device,
    range_ends,
    terms_of,
)
from ffnverify.scan.numbers import literal
from ffnverify.scan.parts import Part


def _element_sizes(toks, text):
    """Indices of small byte counts ("4 bytes", "0.5 bytes", "2 bytes/element"): the size
    of one number in a format."""
    return [i for i, t in enumerate(toks) if t.kind == "NUM" and not t.scale and not t.money
            and 0 < t.value <= 8 and re.match(r"\s*[-—–]?\s*bytes?\b|[NPΦΨ]\s*bytes?\b",
                                              text[t.end:t.end + 9])]  # "4N bytes (FP32)":
    # 4 bytes for each of the N parameters


def dtype_sizes(toks, text, names, about: str = "") -> list[Part]:
    """"A parameter in float32 takes 4 bytes; in int4 0.5 bytes", "FP16 = 2 bytes": the
    bytes of one number in the format named nearest (no other size between them)."""
    sizes = _element_sizes(toks, text)
    many = bool(_MANY_A_PARAMETER.search(text))  # "Adam's moments in fp32 take 8 bytes"
    formats = dtypes(text)
    if sizes and not formats and about:
        return _sizes_by_header(toks, text, about, sizes)
    if not sizes or not formats:
        return []
    starts = [toks[i].start for i in sizes]
    # every byte figure stands between a format and a size beyond it, a large one too: in
    # "2 bytes for its gradient, and 12 bytes of FP32 optimizer state" FP32 is the 12's
    counted = [t.start for t in toks if t.kind == "NUM" and not t.money
               and re.match(r"\s*[-—–]?\s*bytes?\b", text[t.end:t.end + 8])]
    parts = []
    for i in sizes:
        t = toks[i]
        others = [s for s in counted if s != t.start]
        fmt = nearest(t.start, formats, others + [f[0] for f in formats
                                                  if f[0] != t.start], side(starts, formats))
        if fmt is None or abs(fmt[0] - t.start) > 60:
            continue
        if _SEVERAL_BEFORE.search(text, max(0, fmt[0] - 24), fmt[0]) or \
                _SEVERAL_AFTER.match(text, fmt[1]) or (many and not _ONE_NOUN.match(text, fmt[1])):
            continue  # "two fp32 moments: 8 bytes", "fp32 copies of m and v": more numbers
            # than one a parameter, each in that format
        parts.append(Part(f"bytes({fmt[2]}) == {literal(t.value)}", sure=True,
                          figures=tuple(sorted({i, *inside(toks, fmt[0], fmt[1])})),
                          reading=f"bytes per number in {fmt[2]}"))
    return parts


# what holds more than one number a parameter (an optimizer's state, a master copy)
_MANY_A_PARAMETER = re.compile(r"\b(?:adam\w*|optimi[sz]er\w*|moments|states|momentum|"
                               r"variance|m and v|master)\b", re.I)
# the one number a format is said of ("2 bytes for the FP16 weight", "fp32 gradient"):
# read even beside an optimizer's state
_ONE_NOUN = re.compile(r"\s+(?:master\s+)?(?:weight|parameter|param|gradient|value|number)\b", re.I)
# a format named with a count of numbers, or a plural noun of several ("two fp32 moments",
# "2 × fp32", "fp32 copies", "fp32 states"): the bytes said are of all of them
_SEVERAL_BEFORE = re.compile(r"(?:\b(?:two|three|four|both|several|multiple|twice)|\d\s*[x×*]?)"
                             r"\s+(?:extra\s+|more\s+|additional\s+)?$", re.I)
_SEVERAL_AFTER = re.compile(r"[\s-]*(?:\w+\s+)?(?:moments|states|copies|buffers|tensors)\b",
                            re.I)


def _sizes_by_header(toks, text, about, sizes) -> list[Part]:
    """"Component | Size (float32)" over "Model weights | 4 bytes × P": a byte count in a
    column whose header names one format, in a row that names what holds one number a
    parameter (weights, gradients; not an optimizer's state, whose count of numbers is
    another convention): the bytes of one number in that format, to confirm."""
    first = text.split("|")[0] if "|" in text else ""
    if not memory_words.ONE_A_PARAMETER.match(first) or memory_words.MIXED.search(about):
        return []
    parts = []
    for i in sizes:
        column = memory.header_cell(text, about, toks[i].start)
        named = {f[2] for f in dtypes(column)}
        if len(named) == 1:
            fmt = named.pop()
            parts.append(Part(f"bytes({fmt}) == {literal(toks[i].value)}", sure=False,
                              figures=(i,), reading=f"bytes per number in {fmt}, the format "
                              "the column's header names"))
    return parts


def _per_param(toks, text):
    return [i for i, t in enumerate(toks) if t.kind == "NUM" and not t.scale
            and memory_words.PER_PARAM.match(text[t.end:t.end + 40])]
_DTYPE_ALT = "|".join(p for p, _ in DTYPES)
_COPY_AT = re.compile(r"(?<![\w.])(\d{1,2})\s+(?:full\s+)?cop(?:y|ies)\s+(?:at|of|×|x)\s+"
                      r"(\d{1,2}(?:\.\d+)?)\s*bytes?\s*(?:/|per|a|each)\s*(?:param(?:eter)?|weight)",
                      re.I)
_COPY_NOUN = r"(?:cop(?:y|ies)|moments?|states?|buffers?)"
_COPY_DTYPE = re.compile(r"(?<![\w.])(\d{1,2})\s+(" + _DTYPE_ALT + r")\s+" + _COPY_NOUN + r"\b|"
                         r"(?<![\w.])(\d{1,2})\s+" + _COPY_NOUN + r"\s+(?:in|at)\s+(" + _DTYPE_ALT +
                         r")\b", re.I)
_JOIN = re.compile(r"\s*(?:\+|,|and|plus)\s*", re.I)


def _index_at(toks, pos):
    return next((i for i, t in enumerate(toks) if t.kind == "NUM" and t.start == pos), None)


def copies(toks, text):
    """The bytes per parameter a text states as copies of the weights: "3 copies at 4
    bytes/parameter" (3 · 4), "1 FP32 copy + 2 8-bit copies" (1 · bytes(fp32) + 2 ·
    bytes(int8)), "2 copies in fp16": (start, term, figure indices) of each, left to right.
    Several "N <dtype> copies" joined by +, "and" or a comma are one sum."""
    out = []
    for m in _COPY_AT.finditer(text):
        a, b = _index_at(toks, m.start(1)), _index_at(toks, m.start(2))
        if a is not None and b is not None:
            out.append((m.start(), call(f"{literal(toks[a].value)} * {literal(toks[b].value)}"),
                        (a, b), m.end()))
    pieces = []
    for m in _COPY_DTYPE.finditer(text):
        k = m.group(1) or m.group(3)
        fmt = dtypes(m.group(2) or m.group(4))
        i = _index_at(toks, m.start(1) if m.group(1) else m.start(3))
        if not fmt or i is None:
            continue
        start = m.start(2) if m.group(2) else m.start(4)
        figs = (i, *inside(toks, start, start + len(m.group(2) or m.group(4))))
        pieces.append((m.start(), m.end(), f"{k} * bytes({fmt[0][2]})", figs))
    group = []
    for piece in pieces + [None]:
        if piece and group and _JOIN.fullmatch(text[group[-1][1]:piece[0]]):
            group.append(piece)
            continue
        if group:
            total = " + ".join(g[2] for g in group)
            out.append((group[0][0], call(f"({total})" if len(group) > 1 else total),
                        tuple(f for g in group for f in g[3]), group[-1][1]))
        group = [piece] if piece else []
    return sorted(out, key=lambda c: c[0])
_EXPLAINED = re.compile(r"\s*\(\s*([^()]{1,60}?)\s*\)")
_FACTOR_OPS = {"×", "*", "·", "x"}


def explained(toks, text, r):
    """The product a byte figure is explained by in the parentheses straight after it:
    "~28GB (7B x 4 bytes)", "640 MB (2048 × 320 KB)": the factor indices, or None. The
    last factor is a count of bytes ("4 bytes") or one factor is a byte figure."""
    res = toks[r]
    m = _EXPLAINED.match(text, res.end)
    if not m:
        return None
    inner = [i for i, t in enumerate(toks) if m.start(1) <= t.start < m.end(1)]
    if not inner:
        return None
    shape = [toks[i] for i in inner]
    if shape[-1].kind == "WORD" and shape[-1].lower in ("bytes", "byte"):
        shape, tail = shape[:-1], True
    else:
        tail = False
    factors = shape[0::2]
    ops = shape[1::2]
    if len(factors) < 2 or len(shape) % 2 == 0 or any(t.kind != "NUM" or t.money
                                                        for t in factors) or \
            any(t.kind != "OP" or t.text not in _FACTOR_OPS for t in ops):
        return None
    if not tail and not any(t.scale == "bytes" for t in factors):
        return None
    if tail and any(t.scale == "bytes" for t in factors):
        return None
    return [i for i in inner if toks[i].kind == "NUM"]


def _split_into(toks, text, r):
    """"640 MB of KV cache, split into 2048 disjoint 4KB blocks": (count, size) indices of
    the pieces a byte figure is split into, or None."""
    for j in range(r + 1, min(len(toks), r + 12)):
        t = toks[j]
        if t.kind == "NUM":
            if not (t.scale == "" and t.value.denominator == 1 and t.value > 1
                    and memory_words.SPLIT_INTO.search(text[toks[r].end:t.start])):
                return None
            for k in range(j + 1, min(len(toks), j + 4)):
                u = toks[k]
                if u.kind == "NUM":
                    after = words_after(toks, k, 1)
                    if u.scale == "bytes" and after and after[0] in memory_words.PIECES:
                        return j, k
                    return None
                if u.kind != "WORD":
                    return None
            return None
    return None


def products(toks, text, names, about: str = "") -> list[Part]:
    """A byte figure and the arithmetic the sentence gives for it, read as written: the
    product in the parentheses after it ("~28GB (7B x 4 bytes)"), or the pieces it is split
    into ("640 MB …, split into 2048 4KB blocks": 2048 · 4KB). A reading to confirm, never
    sure: a parenthesis or "split into" is not an equals sign, and what it holds may be
    another account of the figure (a device count, a shape), not its product."""
    parts = []
    if "(" not in text and not re.search(r"\binto\b|\bacross\b|\bover\b", text):
        return parts
    for r in memory.result_figures(toks, text):
        res = toks[r]
        factors = explained(toks, text, r)
        if factors:
            strict, lenient = compare([terms_of(toks[i]) for i in factors], res)
            parts.append(Part(strict, lenient, False, (r, *factors),
                              "the product in the parentheses after the figure"))
            continue
        split = _split_into(toks, text, r)
        if split:
            n, size = split
            strict, lenient = compare([terms_of(toks[n]), terms_of(toks[size])], res)
            parts.append(Part(strict, lenient, False, (r, n, size),
                              f"{toks[n].text} pieces of {toks[size].text}"))
    return parts
_GLUED = re.compile(r"\s*\(\s*[\w-]+\s*\)")  # "13.5 GB (fp16)": the dtype glued to the figure
# "Llama 3 8B in bf16 is 16GB": a named model at a stated format *is* a size (to confirm)
_IS = re.compile(r"\b(?:is|are|weighs?)\s+(?:about|roughly|around|approximately|only|just|"
                 r"~|≈)?\s*~?\s*$", re.I)
# a quantized format's weights hold more than their bits: a scale (and zero point) per block
# of weights (GGUF Q4_K about 4.5 bits a weight, Q8_0 8.5, NF4 with double quantization
# about 4.13) and the embeddings often kept at 16 bits; the lenient reading allows up to
# 5/4 of bits/8 bytes a parameter
_QUANTIZED = {"int4", "int8", "fp8"}
QUANT_OVERHEAD = "5/4"


def _per_dtype(fmt: str) -> Term:
    """bytes(fmt) a parameter, with the allowance of a quantized format on the high end."""
    text = f"bytes({fmt})"
    return Term(text, text, f"{QUANT_OVERHEAD} * {text}") if fmt in _QUANTIZED else call(text)


# what a figure leaves out, from the words to the end of the clause: "140GB before accounting
# for gradients, optimizer states, and training data"
_EXCLUDED = re.compile(r"\b(?:before (?:accounting for|counting|adding|including)|not counting|"
                       r"excluding|not including|without counting|let alone)\b[^.;]*", re.I)


def weights(toks, text, names, about: str = "", count: str = "") -> list[Part]:
    """Weights memory at a dtype, at a stated number of bytes per parameter, or at stated
    copies ("3 copies at 4 bytes/parameter"); a byte figure explained by the product in
    the parentheses after it ("~28GB (7B x 4 bytes)") as that arithmetic. `count`: the
    nominal count the text before names ("a 7B model", `carried.Carry`), used only when
    the unit names no model and no count, in a reading to confirm."""
    if memory_words.KV_SAID.search(text) or memory_words.KV_SAID.search(about):
        return []
    results = memory.result_figures(toks, text)
    if not results:
        return []
    starts = [toks[i].start for i in results]
    per_param = [(toks[i].start, i) for i in _per_param(toks, text)]
    stated_copies = [(c[0], c) for c in copies(toks, text)]
    copy_figures = {f for _, c in stated_copies for f in c[2]}
    per_param = [p for p in per_param if p[1] not in copy_figures]
    formats = formats_named(text)
    sizes = [(toks[i].start, i) for i in memory.counts(toks, names)]
    # a count carried from the text before, only where the unit gives no size of its own,
    # bound or not ("13B: ~26 GB" speaks of a 13B model), and is no table row (whose cells
    # may name the model)
    carried = memory.carried_count(count) if not names and not sizes and not about and not any(
        t.kind == "NUM" and t.scale in memory.COUNT_SCALES for t in toks) else None
    parts = []
    for r in results:
        res = toks[r]
        if explained(toks, text, r):
            continue  # read as the arithmetic it shows (`products`)
        rng = range_ends(toks, r)
        if rng and rng[0] == r:
            continue  # a range's low end: read with its high end, as the interval
        low = toks[rng[0]] if rng else None
        others = [s for s in starts if s != res.start and not (rng and s == low.start)]
        copied = nearest(res.start, stated_copies, others, side(starts, stated_copies))
        bpp = None if copied else nearest(res.start, per_param, others, side(starts, per_param))
        if bpp and bpp[0] < res.start and ")" in text[bpp[0]:res.start] and \
                "(" not in text[bpp[0]:res.start]:
            bpp = None  # "140GB (2 bytes per parameter), or 35–40GB at 4-bit": an aside
            # closed before this figure explains the one it follows
        fmt = None if copied else nearest(res.start, formats, others, side(starts, formats))
        if bpp and fmt:  # "140GB at FP16 (2 bytes per parameter), or 35–40GB at 4-bit":
            # the qualifier nearer the figure is its own
            if abs(fmt[0] - res.start) < abs(bpp[0] - res.start):
                bpp = None
            else:
                fmt = None
        if (fmt is not None and fmt[2] is None) or unsized_beside(res.start, formats, others):
            continue  # said of a format the claim language gives no size: "in Q8 about 70 GB"
        if bpp is None and fmt is None and copied is None:
            continue
        said = _EXCLUDED.sub(" ", text)  # "before accounting for gradients": not counted
        if bpp is None and copied is None and memory_words.STATE_WORDS.search(
                memory_words.GRADIENTS.sub(" ", said) if fmt and memory_words.GRADIENTS.search(said)
                and not memory_words.PARTIAL.search(said) else said):
            continue  # optimizer states, activations, training: a convention not stated
            # (gradients at a stated dtype are one number a parameter, like the weights)
        count_at = nearest(res.start, sizes, (), "before")
        figures = [r]
        if copied:
            per = [copied[1][1]]
            figures += list(copied[1][2])
            per_text = f"{copied[1][1].text} bytes per parameter (the copies stated)"
        elif bpp:
            per = [const(toks[bpp[1]].value)]
            figures.append(bpp[1])
            per_text = f"{toks[bpp[1]].text} bytes per parameter"
        else:
            per = [_per_dtype(fmt[2])]
            figures += inside(toks, fmt[0], fmt[1])
            per_text = fmt[2]
        # "fits on two 80 GB A100s": the figure is one device's memory, the weights at most
        # the devices' total (a factor 1/k on the weights' side), to confirm
        each = per_device(text, res)  # "35 GB per GPU … over 4 GPUs": one device's share
        if each < 0:
            continue
        k = each or devices(text, res)
        shared = [[const(Fraction(1, k))]] if k else []
        figures += [i for i, t in enumerate(toks) if k and t.kind == "NUM" and t.value == k
                    and not t.scale and (each or res.start - 32 <= t.start < res.start)][-1:]
        if count_at:
            figures.append(count_at[1])
            factors = [terms_of(toks[count_at[1]]), per] + shared
            strict, lenient = compare(factors, res, bound(text, res), low=low)
            reading = f"{toks[count_at[1]].text} parameters × {per_text}"
            sure = True
        elif names and (memory_words.WEIGHTS_WORDS.search(text) or (fmt and _GLUED.match(text, res.end) and
                        _GLUED.match(text, res.end).end() >= fmt[1])
                        or (fmt and _IS.search(text, 0, res.start))) and \
                not memory_words.NOT_WEIGHTS.search(text) and not memory_words.RUNTIME_ONLY.search(text):
            name, sure = model(names, res.start)
            sure = sure and bool(memory_words.WEIGHTS_WORDS.search(text))  # "13.5 GB (fp16)": to confirm
            whole = call(f"params_total({name}) * {per[0].text}")
            if fmt:
                at = f"weight_bytes({name}, dtype={fmt[2]})"
                whole = Term(at, at, f"{QUANT_OVERHEAD} * {at}") if fmt[2] in _QUANTIZED \
                    else call(at)
            size = nominal(toks, names, name)
            choices = [whole]
            if size is not None:
                rough = terms_of(size)[0]
                choices.append(Term(f"{rough.text} * {per[0].text}", f"{rough.lo} * {per[0].text}",
                                    f"{rough.hi} * {per[0].text}"))
            factors = [choices] + shared
            strict, lenient = compare(factors, res, bound(text, res), low=low)
            reading = f"weights of {name} at {per_text}" + (
                f" (leniently also its nominal size {size.text})" if size is not None else "")
        elif carried is not None and not memory_words.NOT_WEIGHTS.search(text) and not memory_words.MIXED.search(text) \
                and not memory_words.RUNTIME.search(text) and (copied or bpp or len({f[2] for f in formats}) == 1):
            factors = [terms_of(carried), per] + shared
            strict, lenient = compare(factors, res, bound(text, res), low=low)
            reading = (f"{carried.text} parameters × {per_text} (the count {carried.text} is "
                       "named before it, not in it: assumed)")
            sure = False
        else:
            continue
        if low is None and not bound(text, res) and memory_words.REQUIREMENT.search(text) and \
                not memory_words.WEIGHTS_ONLY.search(text):
            # "needs 16 GB": what running it takes, the weights and what the text leaves
            # unstated (the cache, activations, buffers), so leniently at least the weights
            _, floor = compare(factors, res, "<=")
            lenient = f"({lenient} or {floor})"
            reading += " (a requirement: leniently, at least the weights)"
        if k:
            sure = False
            reading += (f", one device's share of {k}" if each else
                        f", on {k} devices of {res.text} each: at most their total")
        figures += [rng[0]] if rng else []
        parts.append(Part(strict, lenient, sure, tuple(sorted(set(figures))), reading))
    return parts
