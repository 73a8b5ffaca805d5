"""What the text before a unit gives it: one module for what is carried over.

Two walks over a document, in document order, share it:

- `Carry` (while the units are cut): the nominal parameter count the document spoke of
  ("Full-precision weights for a 7B model consume 28 GB. BF16 halves that to ~14 GB": the
  second sentence's 14 GB is about the 7B model), whether the document is about the KV
  cache (its title or the section's heading says so), and the context the paragraph over
  a table states; `Carry.state()` gives a unit its `Around`. A heading sets the count it
  names (one count) and forgets any other; a sentence, list item or row that names
  exactly one count makes it the count of the units after it; one that names two counts,
  or a catalogue model, forgets it (which model the next sentence speaks of is then not
  clear). A count carried over is only ever a reading to confirm: a reader that uses it
  returns `sure=False` parts whose `reading` says so (docs/architecture.md §5.2: a model
  given only by the sentence before or a heading is `suggested` at most).
- `learn(text, context)` (before any unit is read, as `variants.learn` is): the texts of
  the units just before each unit ("that value will be × 3 = 98,304" carries the result
  of the sentence before; "the formula yields ~124M" names a formula stated above) and
  the other rows of its table (a share column is a share of the column's total), kept in
  `context.carried`; `before(context, text)` gives a unit its `Before`, or None where the
  same text stands in two places with different units before it (then nothing is
  carried: which one is read is not known).
"""

import re
from dataclasses import dataclass, field

from ffnverify.scan import memory, memory_words
from ffnverify.scan.binding import dtypes
from ffnverify.scan.detect import models
from ffnverify.scan.numbers import normalise, tokens

# a quick test before the tokens: a size with a count noun within a word of it
_SIZED = re.compile(r"\d\s*(?:[BMT]|billion|million|trillion|bn)\b[\s-]*(?:[\w-]+[\s-]+)?"
                    r"(?:param|model|weight)", re.I)


def counts_named(text: str) -> list[str]:
    """The distinct parameter counts a text gives a model by its noun ("a 7B model",
    "7B-parameter", "7 billion parameters"), as written, left to right."""
    if _SIZED.search(text):
        clean = normalise(text)
    elif text.rstrip().endswith((":", "：")):  # a glossed intro to a list: "Ein Modell mit 7
        clean = re.sub(r"\s+", " ", normalise(text))  # Milliarden Parametern benötigt:"
        if not _SIZED.search(clean):
            return []
    else:
        return []
    toks = tokens(clean)
    out = {}
    for i in memory.counts(toks, models(clean)):
        out.setdefault(toks[i].value, toks[i].text)
    return list(out.values())


def size_only(text: str) -> list[str]:
    """A heading that is a parameter count and nothing else ("## 70b", "7B"): that count."""
    clean = normalise(text).strip()
    lower = re.fullmatch(r"(\d{1,4}(?:\.\d{1,2})?)\s?([bmt])", clean)  # "## 1b", "## 350m"
    if lower:
        clean = lower.group(1) + lower.group(2).upper()
    toks = tokens(clean)
    if len(toks) == 1 and toks[0].kind == "NUM" and toks[0].scale in memory.COUNT_SCALES \
            and toks[0].end - toks[0].start == len(clean):
        return [toks[0].text]
    return []


@dataclass(frozen=True)
class Around:
    """What the text before a unit gives it: the nominal count, whether the document is
    about the KV cache, and the context the paragraph over a table states (rows only)."""

    count: str = ""
    kv_topic: bool = False
    context: str = ""
    dtype: str = ""  # the one number format the paragraph over a table names (rows only)


def context_named(text: str) -> str:
    """The one context length a text states ("at 128K context", "4096 tokens"), or ""."""
    clean = normalise(text)
    toks = tokens(clean)
    found = {toks[i].value: toks[i].text for i in memory.contexts(toks, clean)
             if not any(s <= toks[i].start < e for s, e, _ in models(clean))}
    return next(iter(found.values())) if len(found) == 1 else ""


class Carry:
    """The count and the topic carried to the next unit (see the module docstring)."""

    def __init__(self):
        self.count = ""
        self.title_kv = False  # the document's first heading names the KV cache
        self.section_kv = False  # the current heading names it
        self._headings = 0
        self._paragraph = (None, False)  # plain text: (paragraph, a line of it names the cache)
        self._before = ""  # the last unit that is no row: its context is a table's
        # (text, its context, its dtype, whether it names the KV cache), worked out once,
        # when a row asks
        self._context = ("", "", "", False)

    def state(self, row: bool = False) -> Around:
        if not row:
            return Around(self.count, self.kv)
        if self._context[0] != self._before:
            found = context_named(self._before) if re.search(r"\d", self._before) else ""
            named = {d for _, _, d in dtypes(normalise(self._before))}
            self._context = (self._before, found, named.pop() if len(named) == 1 else "",
                             bool(memory_words.KV_CACHE.search(self._before)))
        return Around(self.count, self.kv or self._context[3], self._context[1],
                      self._context[2])

    @property
    def kv(self) -> bool:
        return self.title_kv or self.section_kv or self._paragraph[1]

    def line(self, text: str, paragraph):
        """A line of plain text, in `paragraph`: a short one naming the KV cache ("Context
        KV cache", a table's header flattened into text) makes the cache the topic of the
        lines after it in that paragraph."""
        said = self._paragraph[1] if self._paragraph[0] == paragraph else False
        self._paragraph = (paragraph, said or (len(text) <= 40 and not re.search(r"\d", text)
                                               and bool(memory_words.KV_CACHE.search(text))))

    def heading(self, text: str):
        named = counts_named(text) or size_only(text)
        self.count = named[0] if len(named) == 1 and not models(normalise(text)) else ""
        self.section_kv = bool(memory_words.KV_CACHE.search(text))
        self._before = ""
        if self._headings == 0:
            self.title_kv = self.section_kv
        self._headings += 1

    def after(self, text: str, row: bool = False):
        """Update after a unit: its own count is carried on, or nothing when unclear; a
        unit that is no table row sets the context its table rows may use."""
        if not row:
            self._before = text
        named = counts_named(text)
        if not self.count and not named:
            return  # nothing carried, nothing to carry
        if len(named) > 1 or models(normalise(text)):
            self.count = ""
        elif named:
            self.count = named[0]


# ---- the units before a unit, and its table (`learn`, `before`) -------------------

RECENT = 4  # units before a unit that it may lean on
MAX_ROWS = 200  # rows of one table carried (a longer table: its rows are read alone)
_WALK = ("carried", "walk")  # the key of the walk's own state: no unit's text


@dataclass
class Before:
    recent: tuple = ()  # texts of the units before this one, nearest first
    table: list = field(default_factory=list)  # texts of the rows of its table, in order
    given: tuple = ()  # (symbol, its number's text) the prose before binds ("d = 768"), a
    # symbol bound to two values dropped


_BINDING = re.compile(r"(?<![\w.])([A-Za-z](?:_[A-Za-z]{1,10})?)\s*=\s*(\d{1,3}(?:,\d{3})+|\d{1,7})"
                      r"(?!\d|\.\d|\s*[×*·/+^-]|,\d)")
MAX_GIVEN = 24


def _given(text: str, given: dict) -> None:
    """Add the symbols a unit of prose sets to a plain number ("d = 768", "V = 50,257");
    a symbol set to another value than before is no longer given (None)."""
    if "=" not in text:
        return
    for m in _BINDING.finditer(text):
        sym, value = m.group(1), m.group(2).replace(",", "")
        if sym in given and given[sym] != value:
            given[sym] = None
        elif len(given) < MAX_GIVEN:
            given[sym] = value


def _cells(text: str) -> int:
    """How many cell boundaries a row's text has (its cells joined by " | "; an empty
    cell leaves "| |")."""
    return text.count(" |") if " | " in text or " |" in text else 0


def learn(text: str, context) -> None:
    state = context.carried.setdefault(_WALK, {"recent": (), "table": None, "cells": -1,
                                               "given": {}})
    cells = _cells(text)
    if not cells:
        _given(text, state["given"])
    if cells and cells == state["cells"] and state["table"] is not None:
        table = state["table"]
    else:
        table = [] if cells else None
    if table is not None and len(table) < MAX_ROWS:
        table.append(text)
    here = Before(state["recent"], table if table is not None else [],
                  tuple((k, v) for k, v in state["given"].items() if v is not None))
    old = context.carried.get(text)
    if old is not None and old != here:
        context.carried[text] = None
    elif text not in context.carried:
        context.carried[text] = here
    state.update(recent=(text, *state["recent"])[:RECENT], table=table,
                 cells=cells if table is not None else -1)


def before(context, text: str) -> Before | None:
    """What the units before `text` (and its table) state, or None (nothing learned)."""
    if context is None:
        return None
    got = context.carried.get(text)
    return got if isinstance(got, Before) else None
