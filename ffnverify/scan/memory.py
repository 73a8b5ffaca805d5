"""KV-cache statements read as claims: the KV cache of a named model per token, per
sequence and per batch at a dtype (`kv_cache_bytes(m, context, batch=…, dtype=…)`); and
what the memory readers share (`weights` reads the weights): the result figures of a unit
(a byte figure, not a device's capacity), the nominal parameter counts it names, the
contexts it states.

Binding: the result is a byte figure (`1.25 GB`, `524288 bytes`); the context is a figure
followed by "tokens" (or after "context of", "sequence length of"), or "per token"; the
batch a figure before "sequences", "requests", … or after "batch (size) of"; the dtype is
the format named nearest the result with no other result between. A reading is `sure` only
when every input is bound so; a KV cache whose dtype is not stated is read at 16 bits,
not sure. The vocabulary (attention forms, batch and context words) is in `words`.
"""

import re

from ffnverify import catalogue
from ffnverify.scan import memory_words, words
from ffnverify.scan.binding import (
    dtypes,
    formats_named,
    in_names,
    inside,
    model,
    nearest,
    side,
    unsized_beside,
    words_after,
)
from ffnverify.scan.figure import bound, call, compare, const, range_ends
from ffnverify.scan.numbers import literal, normalise, tokens
from ffnverify.scan.parts import Part

COUNT_SCALES = {"B", "M", "T", "billion", "million", "trillion", "bn"}
# a cache whose dtype is not stated: 16 bits first (the strict reading), then the other
# widths caches are kept in (fp32, fp8/int8): FALSE only when none of them is true
_UNSTATED_DTYPES = ("bf16", "fp32", "fp8")


def result_figures(toks, text):
    """Indices of the byte figures that state a result (not "2 bytes per parameter")."""
    out = []
    for i, t in enumerate(toks):
        if t.kind != "NUM" or t.money:
            continue
        after = text[t.end:t.end + 40]
        if memory_words.PER_PARAM.match(after) or re.match(r"\s*(?:per|/)\s*(?:parameter|param)", after):
            continue
        if memory_words.CAPACITY.search(text[max(0, t.start - 24):t.start]) or (t.tilde and
                memory_words.CAPACITY.search(text[max(0, t.start - 25):t.start - 1])):
            continue  # "a GPU with 24GB", "if you have 40GB": what a device holds
        if memory_words.CAPACITY_AFTER.match(text, t.end) or memory_words.LEFT_BEFORE.search(
                text, max(0, t.start - 30), t.start):
            continue  # "160 GB, enough for the weights of a 70B model": what is there
        if (memory_words.DEVICE.match(text, t.end)
                or words.CARD_BEFORE.search(text[max(0, t.start - 24):t.start])) \
                and not bound(text, t):
            continue  # "on a 24 GB GPU", "an 80GB A100", "an H100 80GB": a device's memory
        if t.scale == "bytes" or (not t.scale and t.value >= 1024
                                  and re.match(r"\s*bytes?\b", after)):
            out.append(i)
    return out


# after a cache's figure: it is one sequence's, whatever batch the sentence names after it
_ONE_SEQUENCE = re.compile(r"\s*(?:per|for (?:a|one|each|every|a single))\s+(?:single\s+)?"
                           r"(?:sequence|request|user|prompt|sample|conversation|session)\b",
                           re.I)


def carried_count(count: str):
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
        glued = memory_words.TOKENS_AFTER.match(text, t.end)
        if glued or (after[:1] and after[0] in ("tokens", "token")) or (
                memory_words.CONTEXT_BEFORE.search(text[max(0, t.start - 30):t.start])
                and after[:1] != ["tokens"] and re.search(r"context|sequence|prompt|_len\b|n_ctx",
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
        if (after and after[0] in memory_words.BATCH_WORDS) or memory_words.BATCH_BEFORE.search(
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
    for form, pattern in memory_words.ATTENTION_FORMS:
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


def header_cell(text: str, about: str, pos: int) -> str:
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
        if memory_words.SHRINK_HEADER.search(header_cell(text, about, t.start)) or \
                memory_words.SHRINK_AFTER.match(text, t.end) or \
                memory_words.SHRINK_BEFORE.search(text[max(0, t.start - 30):t.start]):
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
    said_kv = bool(memory_words.KV_SAID.search(text) or memory_words.KV_SAID.search(about))
    by_topic = topic and not said_kv and not forms and not memory_words.WEIGHTS_SAID.search(text)
    if not names or not (said_kv or forms or by_topic):
        return []
    results = result_figures(toks, text)
    if not results:
        return []
    starts = [toks[i].start for i in results]
    ctx_figs = [(toks[i].start, i) for i in contexts(toks, text) if not in_names(toks[i], names)]
    given = carried_count(context) if about and not ctx_figs else None  # a row, none its own
    shrinks = compressions(toks, text, about)
    per_token = [(m.start(), None) for m in memory_words.PER_TOKEN_FIGURE.finditer(text)]
    batches = [(toks[i].start, i) for i in _batches(toks, text)]
    formats = formats_named(text)
    parts = []
    for r in results:
        res = toks[r]
        rng = range_ends(toks, r)
        if rng and rng[0] == r:
            continue  # a range's low end: read with its high end, as the interval
        if memory_words.OTHER_NOUN_BEFORE.search(text[max(0, res.start - 32):res.start]):
            continue  # "weights ~26.49 GB + KV cache": the figure's own noun is another's
            # (it still stands between the cache's figure and its context: `others`)
        others = [s for s in starts if s != res.start and not (rng and s == toks[rng[0]].start)]
        ctx = nearest(res.start, ctx_figs + per_token, others, side(starts, ctx_figs + per_token))
        if ctx is None and given is None:
            continue
        per_tok = ctx is not None and ctx[1] is None
        ctx_tok = given if ctx is None else None if per_tok else toks[ctx[1]]
        name, sure = model(names, res.start)
        fmt = nearest(res.start, formats, others, side(starts, formats))
        if (fmt is not None and fmt[2] is None) or unsized_beside(res.start, formats, others):
            continue  # a cache in a format the claim language gives no size ("Q8 KV")
        dtype = fmt[2] if fmt else "bf16"
        batch = nearest(res.start, batches, others, side(starts, batches))
        if _ONE_SEQUENCE.match(text, res.end):
            batch = None  # "1.25 GiB per sequence, for a batch of 8 …": one sequence's
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
        per_layer = bool(words.PER_LAYER.search(text))
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
            if per_layer:  # "4 KB per token per layer": one layer's share, read first; the
                # whole cache leniently too (a figure a text says of "each layer" may be its sum)
                layer = compare(choices + [[call(f"layers({name})", divide=True)]], res,
                                bound(text, res), low=low)
                whole = compare(choices, res, bound(text, res), low=low)
                readings.append((layer[0], f"({layer[1]} or {whole[1]})"))
                continue
            readings.append(compare(choices, res, bound(text, res), low=low))
        strict = readings[0][0]  # each width compared on its own: none is cut off
        lenient = " or ".join(le for _, le in readings)
        lenient = lenient if len(readings) == 1 else f"({lenient})"
        said = ("per token" if per_tok else f"at {ctx_tok.text} tokens") + (
            ", per layer (leniently also the whole cache)" if per_layer else "")
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
        if t.kind != "NUM" or t.scale not in COUNT_SCALES or in_names(t, names) or t.ratio:
            continue
        after = [re.sub(r"['’]s$", "", w) for w in words_after(toks, i, 2)]  # "model's"
        if after and (after[0] in memory_words.COUNT_NOUNS or after[0].startswith("parameter")
                      or (len(after) > 1 and after[1] in ("model", "models", "parameters"))):
            out.append(i)
        elif memory_words.COUNT_SAID_BEFORE.search(_before(toks, i)) or (
                t.scale in ("B", "billion") and _format_before(_before(toks, i))
                and not (after and memory_words.COUNT_OTHER_NOUN.match(after[0]))):
            out.append(i)
    return out


def _format_before(before: str) -> bool:
    """Whether a format is named right before a count in billions ("INT4 quantised 70B
    runs on a 48GB GPU"), by `binding.dtypes`' one table of formats."""
    rest = re.sub(r"\s+quanti[sz]ed\s*$", "", before.rstrip(), flags=re.I)
    found = dtypes(rest)
    return bool(found) and found[-1][1] == len(rest)


def _before(toks, i) -> str:
    """The text of the tokens before token i, back to the previous figure."""
    k = i - 1
    while k >= 0 and toks[k].kind != "NUM":
        k -= 1
    return " ".join(t.text for t in toks[k + 1:i])


# the shared helpers, as the table readers (`kv_tables`) use them
batches, alts, window_of = _batches, _alts, _window
