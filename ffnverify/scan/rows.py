"""Table rows read as model statements (docs/architecture.md §5.2, binding by column
header): `row_claims` (models per row with fields in the header, or fields per row with
models in the header; a size column repeating the row's model name is a name) and
`shape_counts` (a parameter table's `Shape | Number of parameters` row multiplied out).
"""

import re

from ffnverify.scan import memory_words, precision, structure, words
from ffnverify.scan.detect import models, other_names
from ffnverify.scan.fields import available, names_size, params_lhs, published_as
from ffnverify.scan.numbers import normalise, tokens
from ffnverify.scan.parts import Part

_WIDTH_HEADER = re.compile(r"(?:ffn|mlp|feed[- ]?forward|intermediate|d_?ff|ffn[ _]dim)", re.I)


def field_of(cell: str):
    """The field a header or label cell names; LaTeX subscripts written in it are read as
    plain (`n_{layer}` is n_layer), and a parenthesis is a qualifier, not the noun
    ("LayerNorms (per-block + final)" names no layers; "params (B)" names params)."""
    cell = normalise(re.sub(r"[{}$\\]", "", cell))  # (a CJK header in English words: `cjk`)
    cell = re.sub(r"\([^()]*\)", " ", cell).strip() or cell
    if _WIDTH_HEADER.fullmatch(cell.strip()):
        return "d_ff"  # a column headed "FFN", "MLP", "Intermediate": the FFN's width
    for pattern, func in words.FIELD_RES:
        if pattern.fullmatch(cell.strip().lower()) or pattern.search(cell.lower()):
            return func
    return None


def cell_offsets(text: str, cells) -> list[int]:
    out, cursor = [], 0
    for c in cells:
        at = text.find(c, cursor) if c else -1
        out.append(at if at >= 0 else cursor)
        cursor = (at if at >= 0 else cursor) + len(c)
    return out


def _memory_columns(header) -> bool:
    """Whether a column of the header holds memory (a KV cache, VRAM, bytes): then a
    context or batch column beside it is the setting that memory is computed at."""
    return any(memory_words.KV_SAID.search(h) or memory_words.KV_HEADER.match(h)
               or re.search(r"\bv?ram\b|\bmemory\b|\bspeicher|\bgi?b\b|\bbytes?\b", h, re.I)
               for h in header)


def row_claims(header, cells, text="", toks=(), subject=None, origin="",
               family="") -> tuple[list, list, set]:
    """A table row: models per row (header names the fields) or fields per row (header
    names the models). The header binds each column (sure); a size column that repeats
    the row's model name is a name. Also returns the figures that are names. A row that
    names no model, under a heading that names one (`subject`, named by `origin`), is
    read as said of it, its first cell naming the field: a reading to confirm. A row
    whose first cell is only a size ("124 M"), under a place that names a family
    (`family`, "GPT-2"), is that family's row of that size (`structure.family_member`):
    to confirm, and the size is its name."""
    parts, missing, name_figs = [], [], set()
    row_model = next((models(c)[0][2] for c in cells if models(c)), None)
    head_models = [(models(h)[0][2] if models(h) else None) for h in header]
    offsets = cell_offsets(text, cells)
    pairs = []
    sure = True
    whose = f"{subject}, the model named by {origin or 'the section'}"
    if not row_model and not any(head_models) and subject and cells \
            and field_of(cells[0]) and not other_names(text):
        row_model, sure = subject, False
        # "Layers | 80": the label names the field of the cells after it; a first cell
        # with a figure of its own ("12 blocks of attention | N · 4 d2 | 28.3 M") is no
        # label, and names the field of its own figure only
        labelled = not any(t.kind == "NUM" for t in tokens(normalise(cells[0])))
        header = (cells[0],) * (len(cells) if labelled else 1)
    elif not row_model and not any(head_models) and family and cells \
            and not other_names(text) and structure.parse_size(cells[0]) \
            and not structure.parse_size(cells[0])[0]:
        size = structure.parse_size(cells[0])[1]
        row_model = structure.family_member(family, size)
        sure = False
        whose = f"{row_model}, the {family} row of size {cells[0].strip()} ({family} named " \
            f"by {origin})"
        name_figs.update(k for k, t in enumerate(toks) if t.kind == "NUM"
                         and offsets[0] <= t.start < offsets[0] + len(cells[0]))
    if row_model:
        for j in range(len(cells)):
            func = field_of(header[j]) if j < len(header) else None
            pairs.append((row_model, func, j))
    elif any(head_models):
        func = field_of(cells[0]) if cells else None
        if func:
            for j in range(1, len(cells)):
                if j < len(head_models) and head_models[j]:
                    pairs.append((head_models[j], func, j))
    settings = _memory_columns(header)
    for model, func, j in pairs:
        cell = cells[j]
        if func == "context" and settings:
            continue  # "Model | Context | KV cache": the context a memory figure is at, a
            # setting of the row, not the model's context window
        cell_toks = [t for t in tokens(normalise(cell)) if t.kind == "NUM"]
        figs = tuple(k for k, t in enumerate(toks) if t.kind == "NUM"
                     and offsets[j] <= t.start < offsets[j] + len(cell))
        if len(cell_toks) != 1 or cell_toks[0].scale in ("%", "bytes") or not _a_value(
                cell, cell_toks[0]):
            continue  # a byte figure under "Weights" is memory, not a count of the field
        t = cell_toks[0]
        head = header[j] if j < len(header) else ""
        scale = _header_scale(head)
        if scale and t.scale == "" and t.unit:  # "params (B)" over "8.0303": 8.0303B
            scaled = [x for x in tokens(normalise(cell.strip() + scale)) if x.kind == "NUM"]
            if len(scaled) != 1 or scaled[0].scale == "":
                continue
            t = scaled[0]
        if names_size(t, model, cell=True) and ((func in (None, "params_total")
                                      and (words.SIZE_HEADER.match(head) or func is None))
                                      or (func in ("params_total", "params_active")
                                      and not sure)):
            name_figs.update(figs)  # the size column repeats the name: "70B"; so does
            continue  # "Total Parameters | 405B" under the heading "Llama 3.1 405B"
        if func is None or (func == "d_ff" and (t.scale or scale)):
            continue  # "FFN | 135M": the FFN's parameters, no width
        if not available(func):
            missing.append(func)
            continue
        if published_as(model, func, t.value):
            missing.append(f"{func} of {model}, {t.text}, as a primary source publishes it "
                           "(the config holds another: see the catalogue's note); not read")
            continue
        lhs_list, scope_clear = [f"{func}({model})"], True
        if func == "params_total":
            scope = words.scope(head)
            got = params_lhs(model, scope, bool(words.PER_LAYER.search(head)))
            if got is None:
                continue
            lhs_list, scope_clear = got
            if scope in ("ffn", "attention", "norms") and not words.PER_LAYER.search(head) \
                    and not words.ALL_LAYERS.search(head):  # "FFN params": one layer's too
                lhs_list = lhs_list + params_lhs(model, scope, True)[0]
        pairs_text = [(precision.strict(lhs, t), precision.lenient(
            lhs, t, binary=func in words.BINARY_FIELDS)) for lhs in lhs_list]
        loose = pairs_text[0][1] if len(pairs_text) == 1 else \
            "(" + " or ".join(p[1] for p in pairs_text) + ")"
        parts.append(Part(pairs_text[0][0], loose, scope_clear and sure, figs,
                          f"{func} of {model} from the column {head!r}" if sure else
                          f"{func} of {whose}, from the column {head!r}"))
    return parts, missing, name_figs


_HEADER_SCALE = re.compile(r"[(\[]\s*(?:in\s+)?(B|M|K|T|bn|billions?|millions?|thousands?)"
                           r"\s*[)\]]\s*$", re.I)
_SCALE_SUFFIX = {"b": "B", "bn": "B", "billion": "B", "billions": "B", "m": "M",
                 "million": "M", "millions": "M", "k": "K", "thousand": "K",
                 "thousands": "K", "t": "T"}


_SYMBOL_SET = re.compile(r"\s*[A-Za-z][A-Za-z_]{0,9}\s*=\s*~?\s*")


def _a_value(cell: str, t) -> bool:
    """Whether a cell states its figure as a value, not as a term of a formula
    ("N · 4 d2", "4d", "= 2 × d"): nothing around it computes."""
    text = normalise(cell)
    before = text[:t.start]
    if _SYMBOL_SET.fullmatch(before):  # "d = 16,384", "n_kv = 8": the field's symbol set
        before = ""  # to its value, under a label naming the field
    rest = before + " " + text[t.end:]
    glued = t.end < len(text) and text[t.end].isalpha() and not text[t.end:].lower().startswith(
        ("x ", "×"))
    return not re.search(r"[·×*^=+/]", rest) and not glued


def _header_scale(head: str) -> str:
    """The scale a column's header gives its plain figures ("Params (B)", "Size [M]",
    "parameters (in billions)"), as the suffix that writes it ("B"), or ""."""
    m = _HEADER_SCALE.search(head)
    return _SCALE_SUFFIX[m.group(1).lower()] if m else ""


_SHAPE_CELL = re.compile(r"^\s*[\(\[]\s*(\d+(?:\s*,\s*\d+)*)\s*,?\s*[\)\]]\s*$")


def shape_counts(header, cells, text, toks) -> list:
    """A parameter table's row (`Name | Shape | Number of parameters`): the product of
    the shape is the count. The header binds the columns, but a shape may be some other
    tensor's: a reading to confirm."""
    shapes = [j for j, h in enumerate(header) if words.SHAPE_HEADER.match(h)]
    counts = [j for j, h in enumerate(header) if words.COUNT_HEADER.match(h)]
    if len(shapes) < 1 or len(counts) != 1 or counts[0] >= len(cells):
        return []
    count = cells[counts[0]].replace(",", "").strip()
    m = _SHAPE_CELL.match(cells[shapes[0]]) if shapes[0] < len(cells) else None
    if not m or not count.isdigit():
        return []
    dims = [d.strip() for d in m.group(1).split(",")]
    offsets = cell_offsets(text, cells)
    figs = tuple(k for k, t in enumerate(toks) if t.kind == "NUM" and any(
        offsets[j] <= t.start < offsets[j] + len(cells[j]) for j in (*shapes, counts[0])
        if j < len(cells)))
    claim = f"{' * '.join(dims)} == {count}"
    return [Part(claim, claim, False, figs, f"the shape {cells[shapes[0]].strip()} multiplied "
                 f"out against the column {header[counts[0]]!r}")]
