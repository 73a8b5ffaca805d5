"""Memory statements read as claims: the KV cache of a named model per token, per sequence
and per batch at a dtype (`kv_cache_bytes(m, context, batch=…, dtype=…)`), and the memory
of the weights at a dtype or at a stated number of bytes per parameter (`weight_bytes(m,
dtype=…)`, `params_total(m) * 16` for "16 bytes per parameter for Adam", or the arithmetic
as written, `7B · bytes(fp32)`, for a model known only by its nominal size).

Binding: the result is a byte figure (`1.25 GB`, `524288 bytes`); the context is a figure
followed by "tokens" (or after "context of", "sequence length of"), or "per token"; the
batch a figure before "sequences", "requests", … or after "batch (size) of"; the dtype is
the format named nearest the result with no other result between. A reading is `sure` only
when every input is bound so; a KV cache whose dtype is not stated is read at 16 bits,
not sure. A named model's weights are read at its real count (strict) and, leniently, also
at its nominal size (`Llama 2 7B` as 7B: the figure a reader may have multiplied).
"""

import re

from ffnverify import catalogue
from ffnverify.scan.binding import (
    DTYPES,
    dtypes,
    in_names,
    inside,
    model,
    nearest,
    nominal,
    side,
    words_after,
)
from ffnverify.scan.figure import Term, bound, call, compare, const, range_ends, terms_of
from ffnverify.scan.numbers import literal, normalise, tokens
from ffnverify.scan.parts import Part

KV = re.compile(r"\b(?:kv|k/v|key[- ]value|key/value)[- ]?(?:cache|caches|caching)\b|"
                r"\bcache[sd]?\b", re.I)
PER_TOKEN = re.compile(r"\bper[- ](?:generated )?token\b|\b(?:each|every)(?: additional| extra| new|"
                       r" generated)? token\b|\ba single token\b|"
                       r"\bone token\b|/\s?token\b|\ba token\b", re.I)
# the attention form a figure is stated for, as (form, pattern), first match wins where two
# overlap ("without GQA" before "GQA"): "with MHA" of a GQA model is the same model with
# kv_heads = heads (a hypothetical, never checked); "with GQA" is its own cache only where
# the model has grouped KV heads (the group count of a hypothetical GQA is not stated)
_FORMS = (("mha", re.compile(r"\bwithout (?:GQA|MQA|grouped[- ]query|multi[- ]query)\b|"
                             r"\bMHA\b|\bmulti[- ]head(?:ed)? (?:self[- ])?attention\b", re.I)),
          ("mqa", re.compile(r"\bMQA\b|\bmulti[- ]query (?:self[- ])?attention\b", re.I)),
          ("gqa", re.compile(r"\bGQA\b|\bgrouped[- ]query (?:self[- ])?attention\b", re.I)))
_CONTEXT_BEFORE = re.compile(r"(?:context|sequence|prompt)(?: length| window| size)?"
                             r"(?: of)?\s*$|\bat\s*$", re.I)
_TOKENS_AFTER = re.compile(r"\s*-?\s*tokens?\b|\s*(?:-token )?context\b", re.I)
_BATCH_WORDS = {"sequences", "requests", "users", "prompts", "concurrent", "samples"}
_BATCH_BEFORE = re.compile(r"batch(?: size)?(?: of| =)?\s*$", re.I)
_PER_PARAM = re.compile(r"^\s*bytes?\s*(?:per|/|a|for each|each)\s*(?:parameter|param|weight)",
                        re.I)
_COUNT_NOUNS = {"parameters", "parameter", "params", "param", "weights", "model",
                "models", "-parameter", "parameter-model"}
_STATE_WORDS = re.compile(r"\bgradients?\b|\boptimi[sz]er\b|\badam\b|\bactivations?\b|"
                          r"\btraining\b|\bfine-?tun", re.I)
_WEIGHTS = re.compile(r"\bweights?\b|\bload(?:s|ed|ing)?\b|\bfootprint\b|\bparam(?:eter)?s?\b|"
                      r"\bcheckpoints?\b|\bvram\b|\bstor(?:e|ed|es|ing)\b|\bmodel size\b|"
                      r"\b(?:takes|needs|requires|occupies|uses|fits?)\b", re.I)
_NOT_WEIGHTS = re.compile(r"\btokens?\b|\bcontext\b|\bsequences?\b|\bbatch|\bactivations?\b|"
                          r"seq_len|\b[SB]\s*=", re.I)
_CAPACITY = re.compile(r"\b(?:has|have|having|with|own|offers?|provides?)\s+(?:an?\s+|only\s+|"
                       r"just\s+|about\s+|roughly\s+)?~?\s*$", re.I)
_DEVICE = re.compile(r"\s*(?:of\s+)?(?:gpus?|cards?|devices?|accelerators?|a100s?|h100s?|h200s?|"
                     r"a10g?|l4|l40s?|t4|v100s?|rtx\b|mi\d+|tpus?|macs?|macbooks?|laptops?|"
                     r"consumer|vram\s+(?:gpu|card))(?![\w-]*\s*(?:memory|vram|ram|hbm)\b)", re.I)
# ("14.5 GB of GPU memory" is an amount of memory, not a device)
_COUNT_SCALES = {"B", "M", "T", "billion", "million", "trillion", "bn"}
# words that say a figure is something other than the cache (weights, activations, the
# whole footprint), which a document's topic does not override
_WEIGHTS_SAID = re.compile(r"\bweights?\b|\bparam(?:eter)?s?\b|\bactivations?\b|\btotal\b|"
                           r"\boverall\b|\bgradients?\b|\boptimi[sz]er\b|\bcheckpoint", re.I)
# a cache whose dtype is not stated: 16 bits first (the strict reading), then the other
# widths caches are kept in (fp32, fp8/int8): FALSE only when none of them is true
_UNSTATED_DTYPES = ("bf16", "fp32", "fp8")


def _results(toks, text):
    """Indices of the byte figures that state a result (not "2 bytes per parameter")."""
    out = []
    for i, t in enumerate(toks):
        if t.kind != "NUM" or t.money:
            continue
        after = text[t.end:t.end + 40]
        if _PER_PARAM.match(after) or re.match(r"\s*(?:per|/)\s*(?:parameter|param)", after):
            continue
        if _CAPACITY.search(text[max(0, t.start - 24):t.start]) or t.tilde and \
                _CAPACITY.search(text[max(0, t.start - 25):t.start - 1]):
            continue  # "a GPU with 24GB", "if you have 40GB": what a device holds
        if _DEVICE.match(text, t.end) and not bound(text, t):
            continue  # "on a 24 GB GPU", "an 80GB A100": a device named by its memory
        if t.scale == "bytes" or (not t.scale and t.value >= 1024
                                  and re.match(r"\s*bytes?\b", after)):
            out.append(i)
    return out


def _element_sizes(toks, text):
    """Indices of small byte counts ("4 bytes", "0.5 bytes", "2 bytes/element"): the size
    of one number in a format."""
    return [i for i, t in enumerate(toks) if t.kind == "NUM" and not t.scale and not t.money
            and 0 < t.value <= 8 and re.match(r"\s*[-—–]?\s*bytes?\b", text[t.end:t.end + 8])]


def dtype_sizes(toks, text, names, about: str = "") -> list[Part]:
    """"A parameter in float32 takes 4 bytes; in int4 0.5 bytes", "FP16 = 2 bytes": the
    bytes of one number in the format named nearest (no other size between them)."""
    sizes = _element_sizes(toks, text)
    formats = dtypes(text)
    if sizes and not formats and about:
        return _sizes_by_header(toks, text, about, sizes)
    if not sizes or not formats:
        return []
    starts = [toks[i].start for i in sizes]
    parts = []
    for i in sizes:
        t = toks[i]
        others = [s for s in starts if s != t.start]
        fmt = nearest(t.start, formats, others + [f[0] for f in formats
                                                  if f[0] != t.start], side(starts, formats))
        if fmt is None or abs(fmt[0] - t.start) > 60:
            continue
        parts.append(Part(f"bytes({fmt[2]}) == {literal(t.value)}", sure=True,
                          figures=tuple(sorted({i, *inside(toks, fmt[0], fmt[1])})),
                          reading=f"bytes per number in {fmt[2]}"))
    return parts


_ONE_A_PARAMETER = re.compile(r"^\W*(?:model\s+)?(?:weights?|parameters?|params|gradients?)\W*$",
                               re.I)


def _sizes_by_header(toks, text, about, sizes) -> list[Part]:
    """"Component | Size (float32)" over "Model weights | 4 bytes × P": a byte count in a
    column whose header names one format, in a row that names what holds one number a
    parameter (weights, gradients; not an optimizer's state, whose count of numbers is
    another convention): the bytes of one number in that format, to confirm."""
    first = text.split("|")[0] if "|" in text else ""
    if not _ONE_A_PARAMETER.match(first) or _MIXED.search(about):
        return []
    parts = []
    for i in sizes:
        column = _cell(text, about, toks[i].start)
        named = {f[2] for f in dtypes(column)}
        if len(named) == 1:
            fmt = named.pop()
            parts.append(Part(f"bytes({fmt}) == {literal(toks[i].value)}", sure=False,
                              figures=(i,), reading=f"bytes per number in {fmt}, the format "
                              "the column's header names"))
    return parts


def _per_param(toks, text):
    return [i for i, t in enumerate(toks) if t.kind == "NUM" and not t.scale
            and _PER_PARAM.match(text[t.end:t.end + 40])]


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


_SPLIT = re.compile(r"\b(?:split|divided|partitioned|broken|chopped|sharded|cut|spread)\s+"
                    r"(?:up\s+)?(?:into|across|over)\s*$", re.I)
_PIECES = {"blocks", "pages", "chunks", "pieces", "shards", "segments", "tiles", "slabs"}


def _split_into(toks, text, r):
    """"640 MB of KV cache, split into 2048 disjoint 4KB blocks": (count, size) indices of
    the pieces a byte figure is split into, or None."""
    for j in range(r + 1, min(len(toks), r + 12)):
        t = toks[j]
        if t.kind == "NUM":
            if not (t.scale == "" and t.value.denominator == 1 and t.value > 1
                    and _SPLIT.search(text[toks[r].end:t.start])):
                return None
            for k in range(j + 1, min(len(toks), j + 4)):
                u = toks[k]
                if u.kind == "NUM":
                    after = words_after(toks, k, 1)
                    if u.scale == "bytes" and after and after[0] in _PIECES:
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
    for r in _results(toks, text):
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


def _carried_count(count: str):
    """The token of a carried count ("7B"), or None."""
    if not count:
        return None
    toks = tokens(normalise(count))
    return toks[0] if len(toks) == 1 and toks[0].kind == "NUM" else None


def contexts(toks, text):
    out = []
    for i, t in enumerate(toks):
        if t.kind != "NUM" or t.scale not in ("", "K", "k", "M") or t.value.denominator != 1:
            continue
        after = words_after(toks, i, 2)
        glued = _TOKENS_AFTER.match(text, t.end)
        if glued or (after[:1] and after[0] in ("tokens", "token")) or (
                _CONTEXT_BEFORE.search(text[max(0, t.start - 30):t.start])
                and after[:1] != ["tokens"] and re.search(r"context|sequence|prompt",
                                                          text[max(0, t.start - 30):t.start],
                                                          re.I)):
            out.append(i)
    return out


def _batches(toks, text):
    out = []
    for i, t in enumerate(toks):
        if t.kind != "NUM" or t.scale or t.value.denominator != 1:
            continue
        after = words_after(toks, i, 1)
        if (after and after[0] in _BATCH_WORDS) or _BATCH_BEFORE.search(
                text[max(0, t.start - 20):t.start]):
            out.append(i)
    return out


def _alts(t, binary=True):
    """Exact readings of an integer input with a scale (32K as 32000 or 32768)."""
    values = [t.value]
    if binary and t.scale in ("K", "k", "M"):
        values.append(t.value // (10**3 if t.scale in "Kk" else 10**6)
                      * (2**10 if t.scale in "Kk" else 2**20))
    return values


def _window(name: str) -> int:
    """The catalogue row's sliding window (0 where it has none or is not a row)."""
    try:
        return catalogue.get(name).sliding_window
    except (KeyError, ValueError):
        return 0


def _forms(text: str) -> list[tuple[int, int, str]]:
    """(start, end, form) of every attention form the text names (MHA, MQA, GQA)."""
    found, taken = [], []
    for form, pattern in _FORMS:
        for m in pattern.finditer(text):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            taken.append((m.start(), m.end()))
            found.append((m.start(), m.end(), form))
    return sorted(found)


def _heads(name: str):
    """(heads, kv_heads) of a catalogue row, or None where it is not one."""
    try:
        row = catalogue.get(name)
        return row.heads, row.kv_heads
    except (KeyError, ValueError, AttributeError):
        return None


def _as_form(name: str, form: str):
    """How a cache stated for an attention form is read for the model `name`: "actual"
    (the form is the model's own), the kv-heads expression of a hypothetical form
    ("heads(m)" for MHA, "1" for MQA), or None (a form that cannot be read: GQA of a model
    without grouped heads, whose group count is not stated; a model not in the catalogue)."""
    shape = _heads(name)
    if shape is None or not shape[0] or not shape[1]:
        return None
    heads, kv = shape
    own = "mha" if kv == heads else "mqa" if kv == 1 else "gqa"
    if form == own:
        return "actual"
    return {"mha": f"heads({name})", "mqa": "1"}.get(form)


_SHRINK_HEADER = re.compile(r"compress|reduction|ratio|smaller|shrink", re.I)
_SHRINK_AFTER = re.compile(r"\s*(?:compression|smaller|reduction|compressed|less memory)\b", re.I)
_SHRINK_BEFORE = re.compile(r"\b(?:compress(?:ed|es|ing)?|shrinks?|shrunk|reduced|reduces|cuts?)"
                            r"(?: it| the cache)?(?: by)?\s*$", re.I)


def _cell(text: str, about: str, pos: int) -> str:
    """The header of the table column a position of a row's text lies in ("" if none)."""
    header = about.split(" | ") if about else []
    k = text[:pos].count("|")
    return header[k] if "|" in text and k < len(header) else ""


def compressions(toks, text, about: str = "") -> list[tuple[int, int]]:
    """(start, index) of each compression factor: a ratio figure ("10x", "4×") under a
    column headed "Compression" (ratio, reduction), or bound in prose ("10x compression",
    "compressed 10×", "4× smaller")."""
    out = []
    for i, t in enumerate(toks):
        if t.kind != "NUM" or not t.ratio or t.value <= 1:
            continue
        if _SHRINK_HEADER.search(_cell(text, about, t.start)) or \
                _SHRINK_AFTER.match(text, t.end) or \
                _SHRINK_BEFORE.search(text[max(0, t.start - 30):t.start]):
            out.append((t.start, i))
    return out


def kv_cache(toks, text, names, about: str = "", topic: bool = False,
             context: str = "") -> list[Part]:
    """The KV cache of a named model, at a stated context (or per token) and dtype.
    `about`: the words around the unit (a table's header) that may say it is the cache.
    An attention form bound to the figure ("Memory per token (MHA)", "with MHA requires")
    also says it is the cache (a reading to confirm), and a form that is not the model's
    own is read as the hypothetical model with that form (never sure). `topic`: the
    document's title or section names the KV cache, so a byte figure of a named model at
    a stated context ("Llama-3-8B at 128K context (baseline: 16 GB)") is read as its cache,
    a reading to confirm (a figure per token is not: too loose a binding). `context`: the
    context the paragraph over a table states, for a row that states none (a reading to
    confirm). A compression factor bound to the figure (`compressions`) divides the cache
    (a reading to confirm: the factor may be nominal)."""
    forms = _forms(text)
    said_kv = bool(KV.search(text) or KV.search(about))
    by_topic = topic and not said_kv and not forms and not _WEIGHTS_SAID.search(text)
    if not names or not (said_kv or forms or by_topic):
        return []
    results = _results(toks, text)
    if not results:
        return []
    starts = [toks[i].start for i in results]
    ctx_figs = [(toks[i].start, i) for i in contexts(toks, text) if not in_names(toks[i], names)]
    given = _carried_count(context) if about and not ctx_figs else None  # a row, none its own
    shrinks = compressions(toks, text, about)
    per_token = [(m.start(), None) for m in PER_TOKEN.finditer(text)]
    batches = [(toks[i].start, i) for i in _batches(toks, text)]
    formats = dtypes(text)
    parts = []
    for r in results:
        res = toks[r]
        rng = range_ends(toks, r)
        if rng and rng[0] == r:
            continue  # a range's low end: read with its high end, as the interval
        others = [s for s in starts if s != res.start and not (rng and s == toks[rng[0]].start)]
        ctx = nearest(res.start, ctx_figs + per_token, others, side(starts, ctx_figs + per_token))
        if ctx is None and given is None:
            continue
        per_tok = ctx is not None and ctx[1] is None
        ctx_tok = given if ctx is None else None if per_tok else toks[ctx[1]]
        name, sure = model(names, res.start)
        fmt = nearest(res.start, formats, others, side(starts, formats))
        dtype = fmt[2] if fmt else "bf16"
        batch = nearest(res.start, batches, others, side(starts, batches))
        form = nearest(res.start, forms, others, side(starts, forms))
        as_form = _as_form(name, form[2]) if form else "actual"
        if as_form is None or not (said_kv or form or by_topic):
            continue
        if by_topic and per_tok:
            continue
        figures = [r]
        ctx_values = [1] if per_tok else _alts(ctx_tok)
        if ctx is not None and not per_tok:
            figures.append(ctx[1])
        shrink = nearest(res.start, shrinks, others, side(starts, shrinks))
        if shrink is not None:
            figures.append(shrink[1])
        batch_values = [1] if batch is None else _alts(toks[batch[1]], False)
        if batch is not None:
            figures.append(batch[1])
        if fmt:
            figures += inside(toks, fmt[0], fmt[1])
        low = toks[rng[0]] if rng else None
        if rng:
            figures.append(rng[0])
        window = _window(name)
        readings = []  # (strict, lenient) at each width read; the first is the strict one
        for d in (dtype,) if fmt else _UNSTATED_DTYPES:
            calls = []
            for c in ctx_values:
                # a sliding window: the cache may hold only the window's tokens
                held = (c, window) if window and not per_tok and c > window else (c,)
                for c_at in held:
                    for b in batch_values:
                        extra = f", batch={literal(b)}" if b != 1 else ""
                        calls.append(call(
                            f"kv_cache_bytes({name}, {literal(c_at)}{extra}, dtype={d})"
                            if as_form == "actual" else
                            f"2 * layers({name}) * {as_form} * head_dim({name})"
                            f" * {literal(c_at)} * {literal(b)} * bytes({d})"))
            choices = [calls] + ([[const(toks[shrink[1]].value, divide=True)]] if shrink else [])
            readings.append(compare(choices, res, bound(text, res), low=low))
        strict = readings[0][0]  # each width compared on its own: none is cut off
        lenient = " or ".join(le for _, le in readings)
        lenient = lenient if len(readings) == 1 else f"({lenient})"
        said = "per token" if per_tok else f"at {ctx_tok.text} tokens"
        reading = (f"KV cache of {name} {said}"
                   + (f", batch {toks[batch[1]].text}" if batch else "")
                   + (f", in {dtype}" if fmt else
                      ", at 16 bits (no dtype stated: assumed; fp32 and fp8 also tried)")
                   + ("" if as_form == "actual" else f", as if it used {form[2].upper()} "
                      f"(kv_heads = {as_form}: a hypothetical model)")
                   + ("" if said_kv or not form else f" (read as the KV cache from "
                      f"{form[2].upper()}: assumed)")
                   + (" (read as the KV cache: the document's title or section speaks of it; "
                      "assumed)" if by_topic else "")
                   + (f" (the context {ctx_tok.text} is stated over the table: assumed)"
                      if ctx is None else "")
                   + (f", after {toks[shrink[1]].text} compression (the cache divided by it: "
                      "assumed)" if shrink else ""))
        figures += inside(toks, form[0], form[1]) if form else []
        parts.append(Part(strict, lenient, sure and fmt is not None and said_kv and ctx is not None
                          and not shrink and as_form == "actual", tuple(sorted(set(figures))),
                          reading))
    return parts


def counts(toks, names):
    """Indices of parameter counts bound by their noun ("7B parameters", "a 7B model")."""
    out = []
    for i, t in enumerate(toks):
        if t.kind != "NUM" or t.scale not in _COUNT_SCALES or in_names(t, names) or t.ratio:
            continue
        after = words_after(toks, i, 2)
        if after and (after[0] in _COUNT_NOUNS or after[0].startswith("parameter")
                      or (len(after) > 1 and after[1] in ("model", "models", "parameters"))):
            out.append(i)
    return out


_GLUED = re.compile(r"\s*\(\s*[\w-]+\s*\)")  # "13.5 GB (fp16)": the dtype glued to the figure
_RUNTIME_ONLY = re.compile(r"\boverhead\b|\bin practice\b|\bpeak\b", re.I)
_GRADIENTS = re.compile(r"\bgradients?\b", re.I)
# gradients of only some parameters (adapters, a trainable subset): not one a parameter
_PARTIAL = re.compile(r"\blora\b|\bq?lora\b|\bpeft\b|\badapters?\b|\btrainable\b|\bfrozen\b|"
                      r"\bfreez", re.I)
_MIXED = re.compile(r"\bmixed[- ]precision\b|\bamp\b", re.I)
# what a figure needs to run, not what the weights hold (runtime buffers, the cache, the
# framework): a count carried from the text before is not read against such a figure
_RUNTIME = re.compile(r"\bv?ram\b|\bto run\b|\brun(?:s|ning)?\b|\binference\b|\bserv(?:e|es|ing)\b|"
                      r"\boverhead\b|\btotal\b|\bin practice\b|\bneeds?\b|\brequire[sd]?\b|"
                      r"\bpeak\b|\busage\b|\bfile\b|\bdownload|\bdisk\b|\bgguf\b|\bq\d", re.I)
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


def weights(toks, text, names, about: str = "", count: str = "") -> list[Part]:
    """Weights memory at a dtype, at a stated number of bytes per parameter, or at stated
    copies ("3 copies at 4 bytes/parameter"); a byte figure explained by the product in
    the parentheses after it ("~28GB (7B x 4 bytes)") as that arithmetic. `count`: the
    nominal count the text before names ("a 7B model", `carried.Carry`), used only when
    the unit names no model and no count, in a reading to confirm."""
    if KV.search(text) or KV.search(about):
        return []
    results = _results(toks, text)
    if not results:
        return []
    starts = [toks[i].start for i in results]
    per_param = [(toks[i].start, i) for i in _per_param(toks, text)]
    stated_copies = [(c[0], c) for c in copies(toks, text)]
    copy_figures = {f for _, c in stated_copies for f in c[2]}
    per_param = [p for p in per_param if p[1] not in copy_figures]
    formats = dtypes(text)
    sizes = [(toks[i].start, i) for i in counts(toks, names)]
    # a count carried from the text before, only where the unit gives no size of its own,
    # bound or not ("13B: ~26 GB" speaks of a 13B model), and is no table row (whose cells
    # may name the model)
    carried = _carried_count(count) if not names and not sizes and not about and not any(
        t.kind == "NUM" and t.scale in _COUNT_SCALES for t in toks) else None
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
        fmt = None if bpp or copied else nearest(res.start, formats, others,
                                                 side(starts, formats))
        if bpp is None and fmt is None and copied is None:
            continue
        if bpp is None and copied is None and _STATE_WORDS.search(
                _GRADIENTS.sub(" ", text) if fmt and _GRADIENTS.search(text)
                and not _PARTIAL.search(text) else text):
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
        if count_at:
            figures.append(count_at[1])
            strict, lenient = compare([terms_of(toks[count_at[1]]), per], res, bound(text, res),
                                      low=low)
            reading = f"{toks[count_at[1]].text} parameters × {per_text}"
            sure = True
        elif names and (_WEIGHTS.search(text) or fmt and _GLUED.match(text, res.end) and
                        _GLUED.match(text, res.end).end() >= fmt[1]) and \
                not _NOT_WEIGHTS.search(text) and not _RUNTIME_ONLY.search(text):
            name, sure = model(names, res.start)
            sure = sure and bool(_WEIGHTS.search(text))  # "13.5 GB (fp16)": to confirm
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
            strict, lenient = compare([choices], res, bound(text, res), low=low)
            reading = f"weights of {name} at {per_text}" + (
                f" (leniently also its nominal size {size.text})" if size is not None else "")
        elif carried is not None and not _NOT_WEIGHTS.search(text) and not _MIXED.search(text) \
                and not _RUNTIME.search(text) and (copied or bpp or len({f[2] for f in formats}) == 1):
            strict, lenient = compare([terms_of(carried), per], res, bound(text, res), low=low)
            reading = (f"{carried.text} parameters × {per_text} (the count {carried.text} is "
                       "named before it, not in it: assumed)")
            sure = False
        else:
            continue
        figures += [rng[0]] if rng else []
        parts.append(Part(strict, lenient, sure, tuple(sorted(set(figures))), reading))
    return parts
