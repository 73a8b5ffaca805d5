"""The model a statement's place in its document gives (docs/architecture.md §5.2, binding by structure).

A statement that names no model may still be about one: a list item or key–value line
under a heading that names it ("## Llama 2 70B" over "- Layers: 80"), a table under such
a heading, a row of sizes under a title that names a family ("GPT-2" over "124 M  12  12
768"). `places(blocks, where)` walks a document's blocks (`blocks.Block`, headings with
their `level`) and gives each block the `Given` its place names, or None:

- the nearest heading above it (at its level or any level above) that names one model
  gives it; a heading naming two models, or a release the catalogue does not hold
  ("Mixtral 8x7B Instruct"), gives none, and neither does any heading above it;
- a family name with a size ("GPT-2 124M", a row "355 M" under a title "GPT-2") is the
  family's catalogue row whose parameter count the size rounds (`family_member`): a
  nominal size is a rounded name, within 5% of the count, with no other row of the family
  that close; the size is then that model's name, not a measurement (`Given.nominal`);
- a section whose text, up to the statement (its own block included), names another
  model or release (a catalogue row, a near miss, a name the catalogue does not hold)
  gives none: two models in one scope give none.

A model given by structure is only ever a reading to confirm (`suggested`), and the report
names where it came from (`Given.origin`: "the heading “GPT-3” (line 1)").
"""

import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from ffnverify.scan import words
from ffnverify.scan.binding import subjects
from ffnverify.scan.detect import (
    consistent,
    models,
    near_misses,
    other_names,
    size_of,
    squash,
    squashed_rows,
)
from ffnverify.scan.numbers import normalise

NOMINAL_SLACK = Fraction(1, 20)  # a nominal size is within 5% of the count it names
_SIZE = re.compile(r"^(.*?)[\s_-]*(\d+(?:\.\d+)?)\s?([MB])(?:\s*param(?:eter)?s?)?$", re.I)


@dataclass(frozen=True)
class Given:
    """What a place gives: a catalogue row (`model`), or only a family as written
    (`family`, "GPT-2"), where it came from (`origin`), and the size the row was identified
    by, which is its name (`nominal`)."""

    model: str = ""
    family: str = ""
    origin: str = ""
    nominal: Fraction | None = None
    guessed: bool = False  # only the model the document named before: to confirm, never FALSE


@dataclass(frozen=True)
class Field:
    """A field a heading names, and nothing else ("## vocab_size", "## Context length"):
    its claim function, the heading as written, and the figures the section's text (every
    block of it) says of other fields (`said`: value -> their claim functions), which are
    those fields' figures."""

    func: str
    heading: str
    said: dict = field(default_factory=dict, hash=False, compare=False)


_CONFLICT = Given(origin="conflict")


@lru_cache(maxsize=256)
def _count(row: str) -> int:
    from ffnverify.catalogue import params_total

    return params_total(row)


def family_rows(family: str) -> list[str]:
    """The catalogue rows of a family as written ("GPT-2": gpt2-small ... gpt2-xl)."""
    key = squash(family)
    if len(key) < 2:
        return []
    return sorted({row for name, row in squashed_rows() if name.startswith(key)})


def family_member(family: str, size: Fraction) -> str | None:
    """The one row of `family` whose parameter count `size` rounds (within 5%), or None."""
    if not size:
        return None
    near = [r for r in family_rows(family) if abs(_count(r) - size) <= NOMINAL_SLACK * size]
    return near[0] if len(near) == 1 else None


def parse_size(text: str) -> tuple[str, Fraction] | None:
    """(family text, size) of "GPT-2 124M", "124 M", "1.5B params"; None otherwise."""
    m = _SIZE.match(text.strip())
    if not m:
        return None
    scale = 10**6 if m.group(3).upper() == "M" else 10**9
    return m.group(1).strip(), Fraction(m.group(2)) * scale


def _given(text: str) -> Given | None:
    """What a heading's text names: one row, a family (no size), a conflict, or None."""
    clean = normalise(text)
    rows = {n for _, _, n in subjects(clean, models(clean))}
    if near_misses(clean):
        return _CONFLICT  # a release the catalogue does not hold
    found = set(rows)
    family, nominal = "", None
    for s, e in other_names(clean):
        written = clean[s:e]
        sized = parse_size(written)
        member = family_member(*sized) if sized and sized[0] else None
        if member:
            found.add(member)
            nominal = sized[1]
        elif not any(consistent(written, r) for r in rows):
            if rows or family:
                return _CONFLICT
            family = written
    if len(found) > 1 or (found and family and not any(consistent(family, r) for r in found)):
        return _CONFLICT
    if found:
        return Given(model=found.pop(), nominal=nominal)
    return Given(family=family) if family else None


# a model named by its size alone: "a 7B model", "70B-class", "13B models"
_SIZED = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?([MB])\b(?=[\s-]*(?:param(?:eter)?s?[\s-]+)?"
                    r"(?:models?\b|class\b|scale\b|llms?\b|dense\b))", re.I)


def _names(text: str, document: bool = False) -> tuple[set, list]:
    """The rows and the other names (as written) a block's text names; a size that names
    a model ("a 7B model") is kept as `#size`. With `document`, a model compared with is
    always passed over (a whole document's subject is not another model because one of its
    lines says "Tokenizer: same as Mistral 7B")."""
    clean = normalise(text)
    found = subjects(clean, models(clean))
    # a model compared with is passed over only beside the text's own model ("Mixtral 8x7B
    # outperforms Llama 2 70B"); "Compared with Falcon 40B, it is larger." over "Layers: 60"
    # may be giving Falcon's figures
    own = document or any(not _compared(clean, s) for s, _, _ in found)
    rows = {n for s, _, n in found if not (own and _compared(clean, s))}
    rows |= {"?" + n for s, _, n, _ in near_misses(clean)  # another release: never the row
             if not (own and _compared(clean, s))}
    taken = [(a, b) for a, b, _ in models(clean)] + [(a, b) for a, b, _, _ in
                                                     near_misses(clean)]
    sized = [f"#{m.group(1)}{m.group(2).upper()}" for m in _SIZED.finditer(clean)
             if not any(a <= m.start() < b for a, b in taken)
             and not (own and _compared(clean, _range_start(clean, m.start())))]
    return rows, [clean[s:e] for s, e in other_names(clean)
                  if not (own and _compared(clean, s))] + sized


def _range_start(text: str, start: int) -> int:
    """The start of a range a size ends ("~30B–40B dense models": the "~30B")."""
    m = re.search(r"[~≈]?\d+(?:\.\d+)?\s?[MB]?\s?[–-]\s?$", text[max(0, start - 16):start], re.I)
    return start - len(m.group()) if m else start


def _compared(text: str, start: int) -> bool:
    """Whether the name at `start` is what the text measures its model against."""
    return bool(words.COMPARED_WITH.search(text[max(0, start - 40):start]))


def _clashes(given: Given, rows: set, others: list) -> bool:
    """Whether a section's text names a model other than the one its heading gives (a row,
    a release, a name the catalogue does not hold, a size that is not its size)."""
    if given.model:
        size = size_of(given.model)
        return any(r != given.model for r in rows) or any(
            (o[1:] != _size_text(size) and not _size_names(o[1:], given))
            if o.startswith("#") else
            (not consistent(o, given.model) and not _same_member(o, given)) for o in others)
    if rows:
        return True
    return any(o.startswith("#") or (squash(o) != squash(given.family)
                                     and not squash(o).startswith(squash(given.family)))
               for o in others)


def _size_text(size) -> str:
    if size is None:
        return ""
    for scale, unit in ((10**9, "B"), (10**6, "M")):
        if size >= scale:
            v = Fraction(size, scale)
            return f"{v.numerator}{unit}" if v.denominator == 1 else f"{float(v):g}{unit}"
    return ""


def _size_names(written: str, given: Given) -> bool:
    """Whether a written size ("124M") is the size `given`'s model was identified by."""
    sized = parse_size(written)
    return bool(sized and given.nominal is not None and sized[1] == given.nominal)


def _same_member(written: str, given: Given) -> bool:
    sized = parse_size(written)
    return bool(sized and sized[0] and family_member(*sized) == given.model)


@dataclass
class _Section:
    level: int
    given: Given | None
    rows: set = field(default_factory=set)
    others: list = field(default_factory=list)
    started: bool = False  # whether a block of its text was seen
    lead: Given | None = None  # the one model its first paragraph names, for the blocks
    # after it in the section (not its subsections)


_COMPARING = re.compile(r"\bcompar|\bunlike\b|\bversus\b|\bvs\b|\bthan\b|\blike\b", re.I)


def leads(block, named) -> bool:
    """Whether a block introduces what follows it as one model's: a paragraph (not a list
    item) that opens with the one model it names and compares it with nothing
    ("Llama-3-8B (L=32, H=8 KV heads, d=128)"). `named`: `detect.models` of its text."""
    return block.kind in ("para", "line") and len({n[2] for n in named}) == 1 \
        and named[0][0] <= 4 and not _COMPARING.search(block.text)


def family_introduced(block) -> str:
    """The family a paragraph ending with a colon names, with no size and no other name
    ("Llama 2 comes in three main sizes:"): the table after it may head its columns with
    the family's sizes alone ("| Parameter | 7B | 13B | 70B |"). "" where it names none."""
    if block.kind not in ("para", "line") or not block.text.rstrip().endswith(":") or \
            _COMPARING.search(block.text):
        return ""
    got = _given(block.text)
    return got.family if got is not None and got is not _CONFLICT and not got.model else ""


def sized_header(header, family: str) -> tuple:
    """A table's header with each cell that is a size alone ("7B") named as the family's
    row of that size ("llama-2-7b"), where the family has exactly one row that size rounds;
    other cells as they are."""
    out = []
    for cell in header:
        size = parse_size(cell)
        member = family_member(family, size[1]) if family and size and not size[0] else None
        out.append(member or cell)
    return tuple(out)


def introduces(block, named) -> bool:
    """Whether a paragraph that ends with a colon names the one model the table or list
    after it speaks of ("Here is how the cache grows for Llama 3.1 70B at BF16:"), and
    compares it with nothing: what follows is read as said of it, to confirm."""
    return block.kind in ("para", "line") and len({n[2] for n in named}) == 1 \
        and block.text.rstrip().endswith(":") and not _COMPARING.search(block.text)


def _quote(text: str) -> str:
    text = " ".join(text.split())
    return "“" + (text if len(text) <= 60 else text[:57] + "...") + "”"


def heading_field(text: str) -> str | None:
    """The field a heading names when it names nothing else: it is one field's name as a
    whole ("vocab_size", "n_heads", "Context length"), not a phrase that mentions one
    ("Where the parameters live")."""
    clean = re.sub(r"[*_`#:]+$|^[*_`#\s]+", "", text.strip()).strip().lower()
    if len(clean) > 40:
        return None
    for written in (clean, clean.replace("_", " ")):
        for pattern, func in words.FIELD_RES:
            if pattern.fullmatch(written):  # a parameter count is of some scope or other:
                return None if func == "params_total" else func  # no heading gives it
    return None


def fields(blocks) -> list:
    """For each block, the `Field` the nearest heading over it names (its own section's
    heading only: a field heading speaks for its own text), or None."""
    out, current, sections = [], None, []
    for block in blocks:
        if block.kind == "heading":
            func = heading_field(block.text)
            current = [func, block.text, []] if func else None
            if current:
                sections.append(current)
            out.append(None)
            continue
        if current:
            current[2].append(block.text)
        out.append(current)
    frozen = {id(c): Field(c[0], c[1], _said(c[2], c[0])) for c in sections}
    return [frozen[id(c)] if c else None for c in out]


def _said(texts, func: str) -> dict:
    """value -> the other fields whose nouns a figure of that value stands next to."""
    from ffnverify.scan.fields import fields_in
    from ffnverify.scan.numbers import tokens

    out: dict = {}
    for text in texts:
        clean = normalise(text)
        found = [f for f in fields_in(clean) if f[2] != func]
        if not found:
            continue
        for t in tokens(clean):
            if t.kind == "NUM" and any(0 <= t.start - e <= 24 or 0 <= s - t.end <= 24
                                       for s, e, _ in found):
                out.setdefault(t.value, set()).update(
                    f for s, e, f in found if 0 <= t.start - e <= 24 or 0 <= s - t.end <= 24)
    return out


def _document(blocks, where) -> Given | None:
    """The model a whole document is about: the one model its headings name, when its
    text and headings together name no other (the widest scope: a section that names
    none, after a sibling that names it, still speaks of it). None otherwise."""
    headed, rows, others = [], set(), []
    for block in blocks:
        r, o = _names(block.text, document=True)
        if block.kind == "heading" or block.level:
            headed += [(block, x) for x in r]
        rows |= r
        others += o
    if len({x for _, x in headed}) != 1 or headed[0][1].startswith("?"):
        return None
    block, model = headed[0]
    if _clashes(Given(model), rows, others):
        return None
    what = "title" if block.kind != "heading" else "heading"
    return Given(model, origin=f"the document as a whole (its {what} "
                 f"{_quote(block.text)}, line {where(block.offset(0))[0]}, names no other "
                 "model, nor does its text)")


def _sized_member(text: str, stack) -> Given | None:
    """A heading that is a size alone ("## 8B") under one that names a family ("# Llama
    3.1"): the family's row of that size (`family_member`), the size its name."""
    sized = parse_size(normalise(text))
    family = next((sec.given.family for sec in reversed(stack)
                   if sec.given is not None and sec.given.family), "")
    member = family_member(family, sized[1]) if sized and not sized[0] and family else None
    return Given(member, nominal=sized[1]) if member else None


def places(blocks, where) -> list:
    """For each block, the `Given` its place in the document names, or None (headings:
    None). `where(offset) -> (line, col)` names the heading's line in `origin`."""
    stack: list[_Section] = [_Section(0, _document(blocks, where))]
    out = []
    before = _Before()
    for block in blocks:
        if block.kind == "heading" or block.level:
            level = block.level or 1
            while len(stack) > 1 and stack[-1].level >= level:
                stack.pop()
            got = _given(block.text) or _sized_member(block.text, stack)
            if got is not None and got is not _CONFLICT:
                line = where(block.offset(0))[0] if block.length else 0
                what = "title" if block.kind != "heading" else "heading"
                sized = f", whose size rounds {got.model}'s parameter count" \
                    if got.nominal is not None else ""
                got = Given(got.model, got.family, f"the {what} {_quote(block.text)} (line "
                            f"{line}){sized}", got.nominal)
            before.learn(block, *_names(block.text, document=True), _names(block.text)[0])
            if block.kind == "heading":
                stack.append(_Section(level, got))
                out.append(None)
                continue
            stack.append(_Section(level, got))  # a plain-text title line is also text
        rows, others = _names(block.text)
        here = stack[-1]
        got = _place(stack, rows, others, _listed(block))
        headed = any(sec.given is not None for sec in stack)  # a heading names a model
        out.append(got if got is not None or rows or others
                   else before.only(where) or (None if headed else before.last(where)))
        before.learn(block, *_names(block.text, document=True), rows)  # the first paragraph's
        # own sentences: by their words, or "It ..." after the sentence naming the model
        if not here.started:
            here.started = True  # the section's first paragraph: one model names its text
            if len(rows) == 1 and not others and not block.level \
                    and leads(block, models(normalise(block.text))):
                line = where(block.offset(0))[0] if block.length else 0
                here.lead = Given(next(iter(rows)), origin=f"the section's first paragraph "
                                  f"(line {line})")
        here.rows |= rows
        here.others += others
    return out


class _Before:
    """The models a document has named so far, in every block: while that is one catalogue
    row, named in its opening (its title or first paragraph: the model it is about, not
    one it mentions later "for comparison"), and nothing else (no other name, no near
    miss, no bare size), a block naming none most likely speaks of it: a `Given` to
    confirm, never to accuse (`Given.guessed`)."""

    OPENING = 2  # blocks: a title and the first paragraph

    def __init__(self):
        self.rows, self.others, self.line, self.seen = set(), False, 0, 0
        self.previous = None  # the block just before, when it is prose naming one row

    def learn(self, block, rows, others, named=frozenset()):
        """`rows`, `others`: the block's own names; `named`: every row it names, a model
        compared with too ("smaller than Llama 2 7B"), which is another model named."""
        if rows - self.rows and not self.rows:
            self.line = block
        late = self.seen >= self.OPENING and bool(rows - self.rows)
        self.seen += 1
        self.rows |= rows
        self.others = self.others or bool(others) or bool(set(named) - rows) or late
        one = len(rows) == 1 and not others and not set(named) - rows \
            and not next(iter(rows)).startswith("?")
        self.previous = (block, next(iter(rows))) if one and block.kind in ("para", "item") \
            else None

    def last(self, where) -> Given | None:
        """The one model the paragraph just before names (no heading between): "Mixtral
        8x7B operates as a sparse MoE." then "While the total is 46.7 billion, …". A
        `Given` to confirm, never to accuse (`Given.guessed`)."""
        if self.previous is None:
            return None
        block, model = self.previous
        line = where(block.offset(0))[0] if block.length else 0
        return Given(model, origin=f"the paragraph before it (line {line}), which names "
                     "no other model", guessed=True)

    def only(self, where) -> Given | None:
        if len(self.rows) != 1 or self.others or next(iter(self.rows)).startswith("?"):
            return None
        line = where(self.line.offset(0))[0] if self.line.length else 0
        return Given(next(iter(self.rows)), origin="the only model the document names "
                     f"before it (line {line})", guessed=True)


_KEY_VALUE = re.compile(r"^\W{0,3}[A-Za-z][^:.!?]{0,48}:\s*\S")


def _listed(block) -> bool:
    """Whether a block is listed data (a list item, a table row, a `Key: value` line),
    which a section's first paragraph introduces; prose after it speaks for itself."""
    return block.kind in ("item", "row") or bool(_KEY_VALUE.match(block.text))


def _place(stack, rows, others, listed=True) -> Given | None:
    """The Given of the nearest heading that gives one, unless it or a section between
    it and the block (the block's own text included) names another model. A heading that
    names only a family ("GPT-2 Architecture") under one that names a row of it ("GPT-2
    124M") gives that row."""
    seen_rows, seen_others = set(rows), list(others)
    here = stack[-1]
    if here.lead is not None and listed:  # its first paragraph's model, for its own data
        pool = (seen_rows | here.rows, seen_others + here.others)
        heads = [sec.given for sec in stack if sec.given is not None]
        if any(g is _CONFLICT or (g.model and g.model != here.lead.model)
               or (g.family and not consistent(g.family, here.lead.model)) for g in heads):
            return None  # the heading over it names another model
        return None if _clashes(here.lead, *pool) else here.lead
    family = None
    for section in reversed(stack):
        if section.given is _CONFLICT:
            return None
        seen_rows |= section.rows
        seen_others += section.others
        given = section.given
        if given is None:
            continue
        if not given.model and family is None:
            family = given  # look further up for the row of this family
            continue
        if given.model and family is not None and not consistent(family.family, given.model):
            return None
        if given.model:
            return None if _clashes(given, seen_rows, seen_others) else given
    if family is not None:
        return None if _clashes(family, seen_rows, seen_others) else family
    return None
