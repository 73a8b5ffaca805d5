"""What earlier units of a document state that a later unit leans on: the units just
before it ("that value will be × 3 = 98,304" carries the result of the sentence before;
"the formula yields ~124M" names a formula stated above) and the other rows of its table
(a share column is a share of the column's total).

`learn(text, context)` is called for every unit of a document in document order before
any unit is read (as `variants.learn` is); it records in `context.carried`, for each
unit's text, a `Before`: the texts of the units before it (nearest first, at most
`RECENT`) and, for a table row, the texts of every row of its table. `before(context,
text)` returns it, or None where the same text stands in two places with different
units before it (then nothing is carried: which one is read is not known).
"""

from dataclasses import dataclass, field

RECENT = 4  # units before a unit that it may lean on
MAX_ROWS = 200  # rows of one table carried (a longer table: its rows are read alone)
_AMBIGUOUS = "ambiguous"


@dataclass
class Before:
    recent: tuple = ()  # texts of the units before this one, nearest first
    table: list = field(default_factory=list)  # texts of the rows of its table, in order


def _cells(text: str) -> int:
    """How many cell boundaries a row's text has (its cells joined by " | "; an empty
    cell leaves "| |")."""
    return text.count(" |") if " | " in text or " |" in text else 0


def learn(text: str, context) -> None:
    state = context.carried.setdefault(_AMBIGUOUS, {"recent": (), "table": None, "cells": -1})
    cells = _cells(text)
    if cells and cells == state["cells"] and state["table"] is not None:
        table = state["table"]
    else:
        table = [] if cells else None
    if table is not None and len(table) < MAX_ROWS:
        table.append(text)
    here = Before(state["recent"], table if table is not None else [])
    old = context.carried.get(text)
    if old is not None and old != here:
        context.carried[text] = None
    elif text not in context.carried:
        context.carried[text] = here
    state.update(recent=(text, *state["recent"])[:RECENT], table=table,
                 cells=cells if table is not None else -1)


def before(context, text: str) -> Before | None:
    """What the units before `text` (and its table) state, or None (nothing learned)."""
    if context is None or text == _AMBIGUOUS:
        return None
    got = context.carried.get(text)
    return got if isinstance(got, Before) else None
