"""A table row that derives one of its cells: "KV attention heads | H_kv | 8 | H_total=64
/ GQA_ratio=8", "Per-head dimension | D | 128 | model_dim(8192) / H_total(64)". One cell
is arithmetic whose operands are numbers, each maybe named (`name=64`, `name(64)`); the
row's value is the one other cell that is a single number. The reading is the arithmetic
as written, `value ≈ expression` at the value's stated precision (`figure.compare`); which
cell is the value is inferred from the row, so it is a reading to confirm.

The operands are read from tokens and the expression built by `arithmetic.expression`;
nothing is evaluated as code.
"""

from ffnverify.scan.arithmetic import expression, is_op
from ffnverify.scan.figure import call, compare
from ffnverify.scan.numbers import normalise, tokens
from ffnverify.scan.parts import Part

_BINARY = ("+", "-", "×", "/", "^")


def _operands(cell: str):
    """The cell as arithmetic on numbers with their names dropped (`H_total=64 /
    GQA_ratio=8` → `64 / 8`), or None when it is anything else."""
    toks = list(tokens(normalise(cell)))
    out, i = [], 0
    while i < len(toks):
        t = toks[i]
        if t.kind == "WORD" and i + 1 < len(toks) and is_op(toks[i + 1], "=") and \
                i + 2 < len(toks) and toks[i + 2].kind == "NUM":
            i += 2  # "H_total=64": the number
            continue
        if t.kind == "WORD" and i + 3 < len(toks) and is_op(toks[i + 1], "(") and \
                toks[i + 2].kind == "NUM" and is_op(toks[i + 3], ")"):
            out.append(toks[i + 2])  # "model_dim(8192)": the number
            i += 4
            continue
        if (t.kind == "NUM" and not t.ratio) or (t.kind == "OP" and t.text in (*_BINARY, "(",
                                                                           ")")):
            out.append(t)
            i += 1
            continue
        return None
    nums = [t for t in out if t.kind == "NUM"]
    if len(nums) < 2 or not any(is_op(t, *_BINARY) for t in out):
        return None
    return out


def _single(cell: str):
    toks = [t for t in tokens(normalise(cell)) if t.kind != "OTHER"]
    return toks[0] if len(toks) == 1 and toks[0].kind == "NUM" and not toks[0].ratio else None


def derived_cells(header, cells, toks) -> list[Part]:
    """The part a row's derived cell states (see the module docstring)."""
    if not cells or len(cells) < 2:
        return []
    derived = [(j, got) for j, c in enumerate(cells) if (got := _operands(c)) is not None]
    values = [(j, t) for j, c in enumerate(cells) if (t := _single(c)) is not None]
    if len(derived) != 1 or len(values) != 1:
        return []
    (_, side), (_, value) = derived[0], values[0]
    expr = expression(side)
    if expr is None:
        return []
    strict, lenient = compare([[call(expr)]], value)
    wanted = {value.value} | {t.value for t in side if t.kind == "NUM"}
    figs = tuple(i for i, t in enumerate(toks) if t.kind == "NUM" and t.value in wanted)
    return [Part(strict, lenient, False, figs,
                 f"a cell derived in its row: {value.text} = {expr}")]
