"""Weights memory by number format, where a table or a list lays it out (docs/architecture.md
§5.2: tables, the header binds columns): the rows and lines that pair a number format with
a byte figure for a parameter count.

- A table row with the count in its own cell ("7B" under "Model size") and byte figures
  in columns whose header names one format ("| Model | FP16 | INT8 | INT4 |"), or beside
  a cell that names the row's format ("| 7B | FP16 | 14GB |"): `7B · bytes(fp16) ≈ 14 GB`,
  each figure at its stated precision, the count at its nominal one (`7B` is [6.5B,
  7.5B]: the model behind a nominal size may be 6.7B). Sure only when the header says
  the table holds weights (weights, parameters, model size) and the figure's column does
  not say it is what a run needs (VRAM, needed, total, overhead); else to confirm.
- A row or line led by a format with no count of its own ("FP16 | 2 | 140 GB", "- fp16:
  1.8gb", "BF16 16 bits / value ~140 GB"), of the count the text before names (a
  heading "## 70b", "a 70B model"): always to confirm (`carried.Carry`).
- The bytes a format's column header binds ("| Precision | Bytes/Param |" over "| FP32 |
  4 |"): `bytes(fp32) == 4`; the bits of one number stated after a format ("FP32 32
  bits / value"): `8 * bytes(fp32) == 32`.

A cache, activations, gradients or optimizer states (`memory_words.KV_SAID`, `memory_words.STATE_WORDS`)
are not weights: such rows read nothing here. Vocabulary: `words` (format headers).
"""

import re
from dataclasses import replace

from derivations.model_costs import DTYPE_BYTES as _BYTES
from ffnverify.scan import memory, memory_words
from ffnverify.scan.binding import dtypes, in_names, inside, nominal
from ffnverify.scan.figure import Term, bound, call, compare, range_ends, terms_of
from ffnverify.scan.numbers import BYTE_UNITS, literal
from ffnverify.scan.parts import Part
from ffnverify.scan.weights import _QUANTIZED, QUANT_OVERHEAD, _per_dtype

_LOWER_BYTES = re.compile(r"\s?([kmgt]i?b)\b")  # "1.8gb", "15 gb": informal, lower case


def byte_figures(toks, text) -> list:
    """`toks` with each figure followed by a byte unit in lower case ("1.8gb") made the
    byte figure it states ("1.8GB"; the tokens read only the units' own case)."""
    out = list(toks)
    for i, t in enumerate(toks):
        if t.kind != "NUM" or t.scale:
            continue
        m = _LOWER_BYTES.match(text, t.end)
        if not m:
            continue
        unit = m.group(1).upper().replace("IB", "iB")
        factor = BYTE_UNITS[unit]
        out[i] = replace(t, value=t.value * factor, unit=t.unit * factor, plain=False,
                         scale="bytes", text=t.text + unit)
    return out


def cells_of(text: str) -> list[tuple[int, int]]:
    """(start, end) of each cell of a row's text (its cells joined by " | ")."""
    out, start = [], 0
    for m in re.finditer(r"\|", text):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, len(text)))
    return out


def cell_of(cells, pos: int) -> int:
    return next(k for k, (s, e) in enumerate(cells) if s <= pos <= e)


def _one_format(text: str) -> str | None:
    """The format a text names, when all it names take the same bytes ("BF16/FP16",
    "FP8 / INT8"): the first; None when it names none or formats of different sizes."""
    found = dtypes(text)
    if not found or len({_BYTES[d] for _, _, d in found}) != 1:
        return None
    return found[0][2]


def _format_cell(text: str) -> str | None:
    """The format a cell names when the cell is that format and little else ("FP16",
    "BF16/FP16", "FP16 (full)"), else None."""
    fmt = _one_format(text)
    if fmt is None:
        return None
    rest = text
    for s, e, _ in reversed(dtypes(text)):
        rest = rest[:s] + rest[e:]
    return fmt if len(re.sub(r"[\s/(),·*-]|\bfull\b|\bprecision\b", "", rest, flags=re.I)) <= 3 \
        else None


def _count_cell(toks, text, cells, header, names) -> int | None:
    """The index of the row's parameter count: the only figure of a cell, a count scale
    (7B, 405B), under a header that names a size or a model."""
    found = []
    for k, (s, e) in enumerate(cells):
        inside = [i for i, t in enumerate(toks) if s <= t.start < e and t.kind != "SPACE"]
        nums = [i for i in inside if toks[i].kind == "NUM"]
        if len(nums) != 1 or len(inside) != 1:
            continue
        t = toks[nums[0]]
        if t.scale in memory.COUNT_SCALES and not t.ratio and not in_names(t, names) and \
                k < len(header) and memory_words.SIZE_COLUMN.search(header[k]):
            found.append(nums[0])
    return found[0] if len(found) == 1 else None


def _is_weights(text: str, about: str) -> bool:
    return not (memory_words.KV_SAID.search(text) or memory_words.KV_SAID.search(about)
                or memory_words.STATE_WORDS.search(about) or memory_words.MIXED.search(about))


# a row that sums the rows above it ("| Total | ~152 GB |", "| Sum |", "合计"): its figures
# are the column's total, not the weights alone
_SUM_LABEL = re.compile(r"\W*(?:total|sum|overall|combined|all|grand total|合计|总计|合計|"
                        r"총계|합계)\b", re.I)


def rows(toks, text, names, about: str = "", count: str = "") -> list[Part]:
    """A table row's weights figures (see the module docstring)."""
    if not about or "|" not in text or not _is_weights(text, about) or \
            memory_words.STATE_WORDS.search(text.split("|")[0]) or \
            _SUM_LABEL.match(text.split("|")[0]):
        return []
    header = about.split(" | ")
    cells = cells_of(text)
    toks = byte_figures(toks, text)
    if len(cells) != len(header):
        return []
    parts = _bytes_by_header(toks, text, cells, header)
    count_at = _count_cell(toks, text, cells, header, names)
    row_formats = [f for f in (_format_cell(text[s:e]) for s, e in cells) if f]
    row_format = row_formats[0] if len({_BYTES[f] for f in row_formats}) == 1 else None
    carried, named = None, None
    own = {n for s, _, n in names if s >= 0}  # named in the row itself, not around it
    if count_at is None and len(own) == 1 and len({n for _, _, n in names}) == 1:
        named = own.pop()  # "| Llama 2 7B | 13.5 GB | 6.7 GB |": the row's model
    elif count_at is None and len(names) == 1 and names[0][0] < 0:
        named = names[0][2]  # "| FP16 | ~14 GB |" under "### Mistral 7B VRAM": the model
        # its place names (`read_quantities` makes every such part one to confirm)
    elif count_at is None:
        if names or any(t.kind == "NUM" and t.scale in memory.COUNT_SCALES for t in toks):
            return parts
        carried = memory.carried_count(count)
        if carried is None:
            return parts
    claims_weights = bool(memory_words.WEIGHTS_WORDS.search(about) or memory_words.SIZE_COLUMN.search(about))
    for r in memory.result_figures(toks, text):
        k = cell_of(cells, toks[r].start)
        column = header[k]
        rng = range_ends(toks, r)
        if rng and rng[0] == r:
            continue
        fmt = _one_format(column) or (row_format if memory_words.MEMORY_HEADER.search(column) else None)
        if fmt is None or memory_words.KV_SAID.search(column) or cell_of(cells, toks[r].start) in (
                [cell_of(cells, toks[count_at].start)] if count_at is not None else []):
            continue
        res = toks[r]
        low = toks[rng[0]] if rng else None
        runtime = memory_words.RUNTIME.search(column) or memory_words.RUNTIME_ONLY.search(column)
        need = low is None and not bound(text, res) and \
            memory_words.REQUIREMENT.search(column) and not memory_words.WEIGHTS_ONLY.search(column)
        if named:
            factors = [_model_weights(toks, names, named, fmt)]
            strict, lenient = compare(factors, res, bound(text, res), low=low)
            if need:  # "| FP16 | 18 GB |" under "VRAM": what running it takes, at least
                lenient = f"({lenient} or {compare(factors, res, '<=')[1]})"  # the weights
            parts.append(Part(strict, lenient, bool(claims_weights and not runtime),
                              tuple(sorted((r, rng[0]) if rng else (r,))),
                              f"weights of {named} at {fmt}, the format "
                              + ("its column's header names" if _one_format(column)
                                 else "the row names")
                              + ("" if claims_weights and not runtime else
                                 " (the column may hold more than the weights: to confirm)")))
            continue
        size = toks[count_at] if count_at is not None else carried
        factors = [terms_of(size), [_per_dtype(fmt)]]
        strict, lenient = compare(factors, res, bound(text, res), low=low)
        if need:
            lenient = f"({lenient} or {compare(factors, res, '<=')[1]})"
        sure = count_at is not None and claims_weights and not runtime
        figures = (r, count_at) if count_at is not None else (r,)
        reading = f"{size.text} parameters × {fmt}, the format " + (
            "its column's header names" if _one_format(column) else "the row names")
        if count_at is None:
            reading += f" (the count {size.text} is named before the table, not in it: assumed)"
        elif not sure:
            reading += " (the column may hold more than the weights: to confirm)"
        parts.append(Part(strict, lenient, sure, tuple(sorted(figures + (rng[0],) if rng
                                                              else figures)), reading))
    return parts


def _model_weights(toks, names, name: str, fmt: str) -> list:
    """The readings of a named model's weights at a format: its real count (a quantized
    format with its allowance, as `weights` reads it) and, leniently, its nominal size
    (the figure a table may have multiplied)."""
    at = f"weight_bytes({name}, dtype={fmt})"
    choices = [Term(at, at, f"{QUANT_OVERHEAD} * {at}") if fmt in _QUANTIZED else call(at)]
    size = nominal(toks, names, name)
    if size is not None:
        rough = terms_of(size)[0]
        per = _per_dtype(fmt)
        choices.append(Term(f"{rough.text} * {per.text}", f"{rough.lo} * {per.lo}",
                            f"{rough.hi} * {per.hi}"))
    return choices


def _bytes_by_header(toks, text, cells, header) -> list[Part]:
    """"| Precision | Bytes/Param |" over "| FP32 | 4 |": the bytes of one number in the
    format the row names, bound by the column's header."""
    formats = [f for f in (_format_cell(text[s:e]) for s, e in cells) if f]
    if len({_BYTES[f] for f in formats}) != 1:
        return []
    parts = []
    for i, t in enumerate(toks):
        if t.kind != "NUM" or t.scale or not 0 < t.value <= 8:
            continue
        k = cell_of(cells, t.start)
        own = text[cells[k][0]:cells[k][1]].strip()
        if memory_words.BYTES_HEADER.search(header[k]) and own == t.text:
            parts.append(Part(f"bytes({formats[0]}) == {literal(t.value)}", sure=True,
                              figures=(i,), reading=f"bytes per number in {formats[0]}, "
                              "under its column's header"))
    return parts


_LEAD = re.compile(r"^\W{0,3}")


def lines(toks, text, names, about: str = "", count: str = "") -> list[Part]:
    """A line led by a format ("fp16: 1.8gb", "BF16 16 bits / value ~140 GB"): its one
    byte figure as the weights of the count named before it, to confirm; and the bits of
    one number in that format stated after it."""
    if about or "|" in text or names:
        return []
    found = dtypes(text)
    lead = _LEAD.match(text).end()
    if not found or found[0][0] != lead:
        return []
    fmt = _one_format(text[found[0][0]:_lead_end(text, found)])
    if fmt is None:
        return []
    parts = _bits(toks, text, fmt, found)
    toks = byte_figures(toks, text)
    results = memory.result_figures(toks, text)
    carried = memory.carried_count(count)
    if len(results) != 1 or carried is None or not _is_weights(text, "") or \
            any(t.kind == "NUM" and t.scale in memory.COUNT_SCALES for t in toks) or \
            memory_words.STATE_WORDS.search(text[:toks[results[0]].start]) or \
            memory_words.RUNTIME.search(text[:toks[results[0]].start]) or \
            toks[results[0]].start - found[0][1] > 40:
        return parts
    r = results[0]
    res = toks[r]
    strict, lenient = compare([terms_of(carried), [_per_dtype(fmt)]], res, bound(text, res))
    figures = tuple(sorted({r, *inside(toks, lead, _lead_end(text, found))}))
    parts.append(Part(strict, lenient, False, figures, f"{carried.text} parameters × {fmt} (the "
                      f"count {carried.text} is named before it, not in it: assumed)"))
    return parts


def _lead_end(text: str, found) -> int:
    """Where the run of formats that leads a line ends ("FP8 / INT8 8 bits": after INT8)."""
    end = found[0][1]
    for s, e, _ in found[1:]:
        if re.fullmatch(r"\s*[/,]\s*", text[end:s]):
            end = e
    return end


def _bits(toks, text, fmt, found) -> list[Part]:
    """"FP32 32 bits / value": the bits of one number in the format that leads the line."""
    end = _lead_end(text, found)
    for i, t in enumerate(toks):
        if t.kind == "NUM" and t.start >= end and not t.scale and \
                re.fullmatch(r"\s*", text[end:t.start]) and memory_words.BITS_AFTER.match(text, t.end):
            return [Part(f"8 * bytes({fmt}) == {literal(t.value)}", sure=True, figures=(i,),
                         reading=f"bits per number in {fmt}")]
    return []



_PER_BILLION = re.compile(r"[^.;]{0,24}?\b(?:per|for each|for every|a|each)\s+(?:(1|one)\s*(?:B|bn|"
                          r"billion)|billion)\s+param(?:eter)?s?\b", re.I)


def per_billion(toks, text, names, about: str = "", count: str = "") -> list[Part]:
    """"~2GB of VRAM per 1B parameters at FP16", "0.5 GB per billion parameters in
    INT4": a rule of thumb, the bytes of a billion parameters at the one format the
    sentence names. Sure only where the sentence says weights (not VRAM, which may hold
    more)."""
    toks = byte_figures(toks, text)
    formats = {d for _, _, d in dtypes(text)}
    if len(formats) != 1 or memory_words.KV_SAID.search(text) or memory_words.STATE_WORDS.search(text):
        return []
    fmt = formats.pop()
    parts = []
    for r in memory.result_figures(toks, text):
        m = _PER_BILLION.match(text, toks[r].end)
        if not m:
            continue
        billion = [terms_of(toks[i]) for i, t in enumerate(toks)
                   if t.kind == "NUM" and toks[r].end < t.start < toks[r].end + m.end()]
        strict, lenient = compare([[call("1000000000")], [_per_dtype(fmt)]], toks[r],
                                  bound(text, toks[r]))
        figures = [r] + [i for i, t in enumerate(toks) if t.kind == "NUM"
                         and toks[r].end < t.start < m.end()]
        sure = bool(memory_words.WEIGHTS_WORDS.search(text)) and not memory_words.RUNTIME.search(text) \
            and not billion[1:]
        parts.append(Part(strict, lenient, sure, tuple(sorted(figures)),
                          f"the bytes of a billion parameters at {fmt} (a rule of thumb)"))
    return parts
