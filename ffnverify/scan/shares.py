"""Shares of a whole, read as arithmetic as written: a percentage stated of two figures
("38M which is 58% of a total of 65M", "58% of 65M (38M)") and a table's share column
beside a count column ("Key | 14,495,514,624 | 8.3%", the share of the column's total).

- `percent_of(toks, text, names)`: X / Y ≈ P, with X, Y and P each at its stated precision
  (`figure.compare`: 38M is [37.5M, 38.5M], 58% is [57.5%, 58.5%]; a hedge looser). The
  words tie the three figures ("which is P% of", "P% of Y is X"), so the part is sure.
- `table_shares(header, cells, rows)`: in a table whose share column sums to 100% (within
  the rounding of its entries) or whose total row says 100%, each row's count over the
  column's total (the total row's count, else the sum of the counts) against its share.
  The whole is inferred from the table, so the part is a reading to confirm.

Every figure is read from tokens; nothing is evaluated as code.
"""

import re
from fractions import Fraction
from functools import lru_cache

from ffnverify.scan.figure import Term, alternatives, call, compare, range_ends, terms_of
from ffnverify.scan.numbers import literal, normalise, tokens
from ffnverify.scan.parts import Part

_LINKS = {"which", "that", "is", "are", "was", "were", "makes", "make", "up", "represents",
          "represent", "accounts", "account", "for", "or", "i.e", "ie", "comprises",
          "amounts", "to", "being", "about", "roughly", "around", "approximately", "nearly",
          "almost", "just", "exactly", "some",
          # the noun of the figure: "6.7B parameters, which is 10% of 67B"
          "parameters", "params", "weights", "tokens", "bytes", "flops", "values", "elements"}
_FILLERS = {"a", "an", "the", "total", "of", "all", "its", "their", "our", "overall",
            "whole", "entire", "model's", "grand"}
_AFTER_Y = {"is", "are", "=", "gives", "give", "comes", "to", "i.e", "ie", "or", "("}
MAX_LINK = 4  # words between a figure and the percentage it is


def _figure(t) -> bool:
    """A count or size a share may be of: a number, not a percentage, a ratio or money."""
    return t.kind == "NUM" and t.scale != "%" and not t.ratio and t.value > 0


def _percent(t) -> bool:
    return t.kind == "NUM" and t.scale == "%" and 0 < t.value <= 1 and not t.ratio


def _same_kind(x, y) -> bool:
    """Figures of one kind, written alike: both bytes, both FLOPs, both money, and both
    scaled or both plain ("66.6, which is 95% of the 70B's 79.5" shares no 66.6 of 70B)."""
    return (x.scale == "bytes") == (y.scale == "bytes") and (x.scale == "flops") == (
        y.scale == "flops") and x.money == y.money and bool(x.scale) == bool(y.scale)


def _link(toks, a, b, allowed) -> bool:
    """Tokens strictly between a and b are all link words or punctuation (a few)."""
    between = toks[a + 1:b]
    if len(between) > MAX_LINK:
        return False
    for t in between:
        if t.kind == "WORD" and t.lower.rstrip(".") in allowed:
            continue
        if t.kind == "OP" and t.text in (",", "(", "=", "~", "≈", ":"):
            continue
        return False
    return True


def _part(toks, x, y, p, what) -> Part:
    strict, lenient = compare([terms_of(toks[x]), terms_of(toks[y], divide=True)], toks[p])
    return Part(strict, lenient, True, tuple(sorted((x, y, p))), what)


def percent_of(toks, text, names, about: str = "") -> list[Part]:
    """"X which is P% of Y" and "P% of Y is X" as X / Y ≈ P (see the module docstring)."""
    from ffnverify.scan.binding import in_names

    parts = []
    if not re.search(r"%\s*of\b", text):
        return parts
    nums = [i for i, t in enumerate(toks) if t.kind == "NUM" and not in_names(t, names)
            and range_ends(toks, i) is None]  # a range is no one figure
    for p in nums:
        if not _percent(toks[p]) or p + 1 >= len(toks) or toks[p + 1].lower != "of":
            continue
        y = next((k for k in range(p + 2, min(len(toks), p + 2 + MAX_LINK + 1))
                  if toks[k].kind == "NUM"), None)
        whole = _OF_THE_TOTAL.match(text, toks[p + 1].end)
        if whole and len({n[2] for n in names}) == 1 and (y is None or toks[y].start > whole.end()):
            parts += _of_the_models_total(toks, nums, p, names[0][2])
            continue
        if y is None or y not in nums or not _figure(toks[y]) or not _link(
                toks, p + 1, y, _FILLERS):
            continue
        x = next((k for k in reversed(nums) if k < p), None)
        if x is not None and _figure(toks[x]) and _same_kind(toks[x], toks[y]) and (
                toks[x].value <= toks[y].value) and _link(toks, x, p, _LINKS):
            parts.append(_part(toks, x, y, p, f"a share: {toks[x].text} is {toks[p].text} "
                                              f"of {toks[y].text}"))
            continue
        x = next((k for k in nums if k > y), None)
        if x is not None and _figure(toks[x]) and _same_kind(toks[x], toks[y]) and (
                toks[x].value <= toks[y].value) and _link(toks, y, x, _AFTER_Y) and \
                x - y > 1 and not (x + 1 < len(toks) and toks[x + 1].kind == "OP"
                                   and toks[x + 1].text in ("×", "/", "+", "-", "^")):
            parts.append(_part(toks, x, y, p, f"a share: {toks[p].text} of {toks[y].text} "
                                              f"is {toks[x].text}"))
    return parts


# "… 131M parameters, about 2% of the total": a share of the one named model's count
_OF_THE_TOTAL = re.compile(r"\s+(?:the\s+|its\s+|all\s+)?(?:model's\s+)?(?:total\b(?:\s+(?:parameter\s+)?"
                           r"(?:count|parameters|params))?|(?:the\s+)?parameters\b|params\b|"
                           r"the\s+model\b|the\s+whole\s+model\b)", re.I)


def _of_the_models_total(toks, nums, p, model: str) -> list[Part]:
    """X, P% of the total: X / params_total(model) ≈ P, where X is the count linked just
    before the percentage; to confirm (the whole may be counted another way)."""
    x = next((k for k in reversed(nums) if k < p), None)
    if x is None or not _figure(toks[x]) or toks[x].scale in ("bytes", "flops", "%") or \
            toks[x].money or not _link(toks, x, p, _LINKS):
        return []
    strict, lenient = compare([terms_of(toks[x]), [call(f"params_total({model})", True)]],
                              toks[p])
    return [Part(strict, lenient, False, tuple(sorted((x, p))),
                 f"a share: {toks[x].text} is {toks[p].text} of {model}'s parameters")]


_SHARE_HEADER = re.compile(r"%|\b(?:share|percent(?:age)?|proportion|fraction|of total)\b",
                           re.I)
_TOTAL_ROW = re.compile(r"^\W*(?:total|sum|all|overall)\b", re.I)


def _one_number(cell: str):
    """The single number a cell states, or None."""
    nums = [t for t in tokens(normalise(cell)) if t.kind == "NUM"]
    return nums[0] if len(nums) == 1 and not nums[0].ratio and not nums[0].money else None


@lru_cache(maxsize=256)
def _columns(header, rows):
    """(count column, share column) of a table (its rows as tuples of cells), or None when
    they are not both clear."""
    width = len(header)
    cols = [[r[j] if j < len(r) else "" for r in rows] for j in range(width)]
    shares, counts = [], []
    for j, col in enumerate(cols):
        filled = [c for c in col if c.strip()]
        if not filled:
            continue
        got = [_one_number(c) for c in filled]
        if any(t is None for t in got):
            continue
        if all(t.scale == "%" for t in got) or (_SHARE_HEADER.search(header[j]) and all(
                t.scale in ("%", "") and t.value <= 100 for t in got)):
            shares.append(j)
        elif all(_figure(t) for t in got):
            counts.append(j)
    if len(shares) != 1 or len(counts) != 1:
        return None
    return counts[0], shares[0]


def _share_value(t) -> Fraction:
    return t.value if t.scale == "%" else t.value / 100


def _tolerance(t) -> Fraction:
    tol = alternatives(t)[0][1]
    return tol if t.scale == "%" else tol / 100


def table_shares(header, cells, rows, toks) -> list[Part]:
    """The share a row states against its count over the column's total (see the module
    docstring). `rows`: the texts of every row of the table (`carried.Before.table`)."""
    if not header or not cells or len(rows) < 2:
        return []
    split = [[c.strip() for c in r.split("|")] for r in rows]
    cells = [c.strip() for c in cells]
    if any(len(r) != len(header) for r in split) or cells not in split:
        return []
    got = _columns(tuple(header), tuple(tuple(r) for r in split))
    if got is None:
        return []
    c, s = got
    total_rows = [r for r in split if _TOTAL_ROW.match(r[0])]
    body = [r for r in split if not _TOTAL_ROW.match(r[0])]
    if _TOTAL_ROW.match(cells[0]) or len(total_rows) > 1:
        return []
    stated_total = _one_number(total_rows[0][c]) if total_rows and total_rows[0][c].strip() \
        else None
    share_total = _one_number(total_rows[0][s]) if total_rows and total_rows[0][s].strip() \
        else None
    shares = [_one_number(r[s]) for r in body if r[s].strip()]
    whole = share_total is not None and _share_value(share_total) == 1
    if not whole and shares:
        low = sum(_share_value(t) - _tolerance(t) for t in shares)
        high = sum(_share_value(t) + _tolerance(t) for t in shares)
        whole = low <= 1 <= high
    if not whole:
        return []
    mine_count, mine_share = _one_number(cells[c]), _one_number(cells[s])
    if mine_count is None or mine_share is None:
        return []
    if stated_total is not None:
        denominator = terms_of(stated_total, divide=True)[:1]
        where = f"the total row's {stated_total.text}"
    else:
        counts = [_one_number(r[c]) for r in body if r[c].strip()]
        if len(counts) < 2:
            return []
        readings = [alternatives(t)[0] for t in counts]
        value = sum(v for v, _ in readings)
        lo, hi = sum(v - e for v, e in readings), sum(v + e for v, e in readings)
        denominator = [Term(literal(value), literal(lo), literal(hi), True)]
        where = f"the sum of the column, {literal(value)}"
    share = mine_share if mine_share.scale == "%" else _as_percent(mine_share)
    strict, lenient = compare([terms_of(mine_count), denominator], share)
    figs = tuple(i for i, t in enumerate(toks) if t.kind == "NUM" and t.value in (
        mine_count.value, mine_share.value))
    return [Part(strict, lenient, False, figs,
                 f"a share of the table's total: {cells[c]} / ({where}) against "
                 f"{cells[s]}")]


def _as_percent(t):
    from dataclasses import replace

    return replace(t, value=t.value / 100, unit=t.unit / 100, scale="%")
