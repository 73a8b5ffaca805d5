"""A table row whose cell is a formula in symbols, next to the figure it gives, under
prose that set the symbols' values (docs/architecture.md §5.2, tables and arithmetic that
leans on the text around it): "V = 50,257 … d = 768" over "| Token embedding | V · d |
38.6 M |" reads `50257 * 768 ≈ 38.6M`. The formula's own figures ("N · 4 d²"'s 4) are read
with it. Always a reading to confirm: the values come from the text before the table
(`carried.Before.given`, a symbol set to two values there is not given), and a symbol with
no value leaves the row unread.
"""

import re

from ffnverify.scan.anaphora import _base, _formula, _substituted, _symbol
from ffnverify.scan.arithmetic import expression
from ffnverify.scan.figure import call, compare
from ffnverify.scan.numbers import normalise, tokens
from ffnverify.scan.parts import Part

_SPACED_SCALE = re.compile(r"^\s*(~?\s*\d[\d,.]*)\s+([KMBT])\b")


def _value_cell(cell: str):
    """The figure a value cell states: its one number, with a scale letter written apart
    ("38.6 M") read as its scale; None when the cell holds anything else before a note in
    parentheses."""
    text = _SPACED_SCALE.sub(lambda m: m.group(1) + m.group(2), normalise(cell))
    text = re.sub(r"\s*\([^()]*\)\s*$", "", text).strip()
    toks = [t for t in tokens(text) if t.kind != "SPACE"]
    return toks[0] if len(toks) == 1 and toks[0].kind == "NUM" else None


def formula_cells(toks, text, cells, before) -> list[Part]:
    """"| Token embedding | V · d | 38.6 M |" under prose that set "V = 50,257" and "d =
    768": a row's cell that is a formula in symbols, evaluated at the values the prose
    before the table gives them (`carried.Before.given`), compared with the figure in the
    cell after it. A reading to confirm: the symbols' values come from elsewhere."""
    if before is None or not before.given or len(cells) < 2:
        return []
    given = {s: v for s, v in before.given}
    at = 0
    parts = []
    spans = []
    for c in cells:  # where each cell lies in the row's text (cells joined by " | ")
        k = text.find(c.strip(), at) if c.strip() else -1
        spans.append((k, k + len(c.strip())) if k >= 0 else None)
        at = k + len(c.strip()) if k >= 0 else at
    for j in range(len(cells) - 1):
        body = _formula(cells[j])
        if body is None or spans[j + 1] is None or len(body) != len(
                [t for t in tokens(normalise(cells[j])) if t.kind != "SPACE"]):
            continue  # "N · 4 d2": the formula must be the whole cell
        values = {}
        for t in body:
            if _symbol(t) and t.text in given:
                v = tokens(given[t.text])[0]
                values[t.text] = v
        side = _substituted(body, values)
        expr = expression(side) if side else None
        if expr is None:
            continue
        a, b = spans[j + 1]
        figs = [i for i, t in enumerate(toks) if t.kind == "NUM" and a <= t.start < b]
        result = _value_cell(cells[j + 1])
        if len(figs) != 1 or result is None or not _base(result):
            continue
        strict, lenient = compare([[call(expr)]], result)
        formula_figs = [i for i, t in enumerate(toks) if t.kind == "NUM"
                        and spans[j] is not None and spans[j][0] <= t.start < spans[j][1]]
        used = sorted({t.text for t in body if _symbol(t)})
        parts.append(Part(strict, lenient, False, tuple(sorted(figs + formula_figs)),
                          f"the formula {cells[j].strip()} at "
                          + ", ".join(f"{s}={given[s]}" for s in used)
                          + " (the values set in the text before the table: assumed)"))
    return parts
