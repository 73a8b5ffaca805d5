"""KV-cache tables whose header gives the context, the batch or the dtype (docs/architecture.md
§5.2: tables, the header binds columns): "| Context | 1 user | 8 users |" over "| 4,096
tokens | ~1.3 GB | ~10.7 GB |", "| Model | 1k tokens | 16k tokens |" over "| Llama 3
8B | 0.125 GB | 2 GB |".

A byte figure of a row is read as `kv_cache_bytes(m, context, batch=…, dtype=…)` when the
table is about the cache (the figure's column header, the table's header, the title or
section, or the paragraph over the table names it: `carried.Around.kv_topic`), with

- the context: the one context figure of the row ("4,096 tokens"), else the one the
  figure's column header states ("16k tokens"; K as 1,000 or 1,024), else the one the
  paragraph over the table states (to confirm);
- the batch: a count of sequences or users in the figure's column header ("8 Concurrent
  Users"), else 1;
- the dtype: a format the row or the figure's column header names, else the table's
  header, else the paragraph over the table (to confirm); none stated: 16 bits (fp32 and
  fp8 also tried, to confirm), as `memory` reads it;
- the model: the one the row names, else the one the text around the table names (to
  confirm: `quantities.read_quantities` marks it assumed).

Sure (checkable) only when the row names the model, the figure's column header or the
table's header names the KV cache, and the context and dtype are bound by the row or the
header. The figures `memory.kv_cache` reads itself are left to it (with their compression
factors and attention forms); a figure said to be keys or values only is not read.
"""

import re

from ffnverify.scan import memory, memory_words
from ffnverify.scan.binding import dtypes, in_names, model
from ffnverify.scan.figure import bound, call, compare, range_ends
from ffnverify.scan.formats import byte_figures, cell_of, cells_of
from ffnverify.scan.numbers import literal, normalise, tokens
from ffnverify.scan.parts import Part

_UNSTATED = ("bf16", "fp32", "fp8")


def _one(found: list):
    return found[0] if len(set(found)) == 1 else None


def _header_context(column: str):
    """The one context length a column header states ("16k tokens", "Context 4096")."""
    clean = normalise(column)
    toks = tokens(clean)
    found = memory.contexts(toks, clean)
    return toks[found[0]] if len({toks[i].value for i in found}) == 1 else None


def _header_batch(column: str):
    clean = normalise(column)
    toks = tokens(clean)
    found = [toks[i] for i in memory.batches(toks, clean)]
    return found[0] if len(found) == 1 else None


# a column of context lengths: "Context", "Sequence length", "Kontext", "Tokens"
_CONTEXT_HEADER = re.compile(r"^\W*(?:context(?: length| window| size)?|kontext(?:länge)?|"
                             r"contexte|contexto|sequence(?: length)?|seq(?:uence)?[_ ]?len(?:gth)?|"
                             r"prompt(?: length)?|tokens?|длина контекста|контекст)\W*"
                             r"(?:\(\s*tokens?\s*\))?\W*$", re.I)


def _context_column(toks, cells, header) -> list[int]:
    """The figure of the row's one cell under a column headed as the context ("| Model |
    Context | KV cache |" over "| Llama 2 7B | 4K | 2 GB |"), alone in its cell; [] if
    there is no such column or its cell holds no single figure."""
    cols = [k for k, h in enumerate(header) if _CONTEXT_HEADER.match(normalise(h))]
    if len(cols) != 1:
        return []
    s, e = cells[cols[0]]
    inside = [i for i, t in enumerate(toks) if t.kind == "NUM" and s <= t.start < e]
    if len(inside) != 1 or toks[inside[0]].scale not in ("", "K", "k", "M"):
        return []
    return inside


def rows(toks, text, names, about: str = "", topic: bool = False, context: str = "",
         dtype: str = "") -> list[Part]:
    """The KV-cache figures of a table row (see the module docstring)."""
    if not about or "|" not in text or not names:
        return []
    header = about.split(" | ")
    cells = cells_of(text)
    if len(cells) != len(header):
        return []
    in_header = bool(memory_words.KV_SAID.search(about) or memory_words.KV_HEADER.search(about))
    if not (in_header or topic) or memory_words.WEIGHTS_SAID.search(text):
        return []
    taken = {f for p in memory.kv_cache(toks, text, names, about, topic=topic, context=context)
             for f in p.figures}  # what `memory` reads itself is left to it
    toks = byte_figures(toks, text)
    row_ctx = [i for i in memory.contexts(toks, text) if not in_names(toks[i], names)]
    if not row_ctx:
        row_ctx = _context_column(toks, cells, header)
    if len(row_ctx) > 1:
        return []
    row_fmt = _one([d for _, _, d in dtypes(text)] or [None])
    table_fmt = _one([d for _, _, d in dtypes(about)] or [None])
    parts = []
    for r in memory.result_figures(toks, text):
        if r in taken:
            continue
        res = toks[r]
        k = cell_of(cells, res.start)
        column = header[k]
        if memory_words.HALF_CACHE.search(column) or memory_words.WEIGHTS_SAID.search(column):
            continue
        rng = range_ends(toks, r)
        if rng and rng[0] == r:
            continue
        col_said = bool(memory_words.KV_SAID.search(column) or memory_words.KV_HEADER.search(column))
        per_token = False
        if row_ctx:
            ctx, ctx_from = toks[row_ctx[0]], "row"
        elif _header_context(column) is not None:
            ctx, ctx_from = _header_context(column), "header"
        elif memory_words.PER_TOKEN_FIGURE.search(column) and col_said:
            ctx, ctx_from, per_token = None, "header", True  # "| KV cache per token (fp16) |"
        elif memory.carried_count(context) is not None:
            ctx, ctx_from = memory.carried_count(context), "before"
        else:
            continue
        batch = _header_batch(column)
        col_fmt = _one([d for _, _, d in dtypes(column)] or [None])
        fmt = row_fmt or col_fmt or table_fmt
        fmt_from = "table" if fmt else ""
        if fmt is None and dtype:
            fmt, fmt_from = dtype, "before"
        name, sure = model(names, res.start)
        window = memory.window_of(name)
        readings = []
        for d in (fmt,) if fmt else _UNSTATED:
            calls = []
            for c in [1] if per_token else memory.alts(ctx):
                held = (c, window) if window and c > window else (c,)
                for c_at in held:
                    for b in memory.alts(batch, False) if batch is not None else [1]:
                        extra = f", batch={literal(b)}" if b != 1 else ""
                        calls.append(call(f"kv_cache_bytes({name}, {literal(c_at)}{extra}, "
                                          f"dtype={d})"))
            readings.append(compare([calls], res, bound(text, res), low=toks[rng[0]]
                                    if rng else None))
        strict = readings[0][0]
        lenient = readings[0][1] if len(readings) == 1 else \
            "(" + " or ".join(le for _, le in readings) + ")"
        figures = [r] + ([row_ctx[0]] if ctx_from == "row" else []) + ([rng[0]] if rng else [])
        reading = (f"KV cache of {name} " + ("per token" if per_token else f"at {ctx.text} tokens")
                   + (f", batch {batch.text}" if batch is not None else "")
                   + (f", in {fmt}" if fmt else ", at 16 bits (no dtype stated: assumed; "
                      "fp32 and fp8 also tried)")
                   + {"row": "", "header": " (the context from its column's header)",
                      "before": " (the context stated over the table: assumed)"}[ctx_from]
                   + (" (the dtype stated over the table: assumed)" if fmt_from == "before"
                      else "")
                   + ("" if in_header else " (read as the KV cache: the text around the "
                      "table speaks of it; assumed)"))
        parts.append(Part(strict, lenient, sure and (col_said or in_header) and
                          ctx_from != "before" and fmt_from == "table",
                          tuple(sorted(set(figures))), reading))
    return parts

