"""Documents in, statement records out (the JSON document of `ffnverify scan`).

`scan(paths, engine)` reads every document under `paths`, finds its numeric statements,
and gives each one status:

- `covered`: a claim fence right after its paragraph (list, table) that mentions one of
  its figures, or a claim under the scanned paths whose `source` is its file:line
  or whose `quote` is its whole text (a claim with a `quote` of anything else covers
  nothing), and that states its figures;
- `checked` / `suggested`: the scan read it as parts (`read.reading`) and the claims
  engine decided each part's strict and lenient readings, each under the audit's budget
  (`budget.Engine`: time limit per claim, memory limit, a fresh worker after a timeout).
  `settle` combines them by statcheck's rule: a part is true or false when both readings
  agree, and holds only on the reading named when they differ (then the statement is
  `suggested`). `checked` needs every part sure and agreed and every figure read; the
  rest is `suggested`, with the reading, its verdict, what would make it true and the
  unread figures. A part the engine rejects makes the statement `unchecked` (the reading
  was wrong, not the document);
- `unchecked`: a numeric statement that nothing covers and the scan cannot read.

Input problems (an unreadable file, not UTF-8, a malformed notebook) are listed under
`errors` with file:line:col; the other files are still scanned.
"""

import itertools
import os
import re
from bisect import bisect_left
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from ffnverify.claims.files import SKIP_DIRS, collect, display_path, read_bounded
from ffnverify.scan import carried, numbers, readers, structure, units
from ffnverify.scan.detect import heading_states, is_statement, meaningful_numbers, models
from ffnverify.scan.fields import AMONG, NEARNESS
from ffnverify.scan.numbers import normalise, tokens
from ffnverify.scan.read import AS_WRITTEN, Context, learn, reading, why_unread

# a statement about the model the sentence before named: "It has ...", "With GQA, it fits"
# ("With a 131,072-token window, it …": a figure's separators are no clause's end)
_ANAPHORA = re.compile(r"\W*(?:(?:with|in|at|for|under|on)\b(?:[^,.;]|(?<=\d)[,.](?=\d)){0,40},\s*|"
                       r"(?:in|at|with|under)\s+[\w.-]{1,12}\s+)?"  # "In int8 it needs 13 GB"
                       r"(?:it|its|it's|this model|the model|this network|they|their)\b", re.I)
STATUSES = ("covered", "checked", "suggested", "unchecked")
MAX_FILE_BYTES = 16 * 2**20
MAX_TEXT = 500


def _walk(folder: Path):
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS
                         and not d.endswith(".egg-info"))
        for name in sorted(files):
            if readers.format_of(name):
                yield Path(root) / name


def documents(paths):
    """(path, format or None, problem or None) for every document under `paths`."""
    for path in paths:
        p = Path(path)
        if p.is_dir():
            for f in _walk(p):
                yield f, readers.format_of(f), None
        elif p.exists():
            fmt = readers.format_of(p)
            yield p, fmt, None if fmt else (
                "not a document the scan reads (.md .txt .rst .html .ipynb)")
        else:
            yield p, None, "no such file or folder"


def _error(file, line, col, message):
    return {"file": file, "line": line, "col": col, "message": message}


def _decode(path: Path, shown: str):
    data = read_bounded(path, MAX_FILE_BYTES)  # the audit's reader: no FIFO, device, or excess
    if isinstance(data, str):
        return None, _error(shown, 1, 1, data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        return None, _error(shown, line, col, f"not UTF-8 text (byte {e.start}: {e.reason})")
    return text.removeprefix("\ufeff"), None


def statements_of(text: str, fmt: str, shown: str):
    """(statement units, covered group ids, problems) of one document."""
    doc = readers.read(text, fmt)
    found = []
    lead = ""  # the model the text just before a table names: "Llama-3-8B (L=32, ...)"
    led = ""  # the model a paragraph ending with ":" names, for the rows under the header
    sizes_of = ""  # the family such a paragraph names, whose sizes may head the columns
    parents = {}  # list item's enclosing ids -> the one model its text names ("" if not one)
    intro = ""  # the model a paragraph ending with ":" names: the next block speaks of it
    intro_list = None  # (list, model): a list the intro opened, whose items all speak of it
    given = structure.places(doc.blocks, doc.where)  # the model each block's place names
    headed = structure.fields(doc.blocks)  # the field each block's heading names
    carry = carried.Carry()  # the count and topic the text before a unit gives it
    too_long = []  # units left out for a figure past numbers.MAX_DIGITS: said, never lost
    heads = _header_rows(doc.blocks)
    heads_of = {}  # plain text: paragraph -> (the one model its first line names, its line)
    table = ((), False)  # the header of the table being read, and whether a row stated
    for k, (block, place, field) in enumerate(zip(doc.blocks, given, headed)):
        named = models(normalise(block.text)) if block.kind != "row" else ()
        if block.kind == "heading":
            carry.heading(block.text)
            lead = led = intro = sizes_of = ""
            if not heading_states(normalise(block.text)):
                continue  # a title names a topic; the statements are in the text below it
            for unit in units.split(block, shown, doc.where):  # "… overcounts by ~8x"
                unit.around = carry.state()
                found.append(unit)
            continue
        one = named[0][2] if len({n[2] for n in named}) == 1 else ""
        around, origin = (lead or (led if block.header else ""), "the text before the table") \
            if block.kind == "row" \
            else (intro, "the paragraph before it") if intro \
            else (_parent_item(block, parents), "the list item it is under")
        if block.kind == "line":  # plain text: "Llama-3-8B (L=32, d=128)" heading
            # its paragraph's lines ("4K tokens 0.5 GB"): they speak of it
            carry.line(block.text, block.group)  # and "Context KV cache" over them
            if block.group not in heads_of:
                heads_of[block.group] = (one, doc.where(block.offset(0))[0]) \
                    if len(block.text) <= 80 else ("", 0)
            elif not around and not named and heads_of[block.group][0]:
                around = heads_of[block.group][0]
                origin = f"the line heading its paragraph (line {heads_of[block.group][1]})"
        guessed = not around and place is not None and place.guessed
        if not around and place is not None:
            around, origin = place.model, place.origin
        if block.kind == "item" and intro and intro_list is None:
            intro_list = (block.group[:-2], intro)  # "For Llama-3-8B:" over a list
        intro = ""  # "The GPT-3 175B model has ...:" over "nparams = 175.0B, nlayers = 96"
        if block.kind != "row":
            lead = one if structure.leads(block, named) else ""
            # "… for Llama 3.1 70B at BF16:" gives the table's rows its model, not the
            # header row (whose figures name the columns: "| Context | 8 users |")
            led = one if not lead and structure.introduces(block, named) else ""
            sizes_of = structure.family_introduced(block) if not named else ""
            intro = lead if block.text.rstrip().endswith(":") else ""
        if intro or block.kind != "item" or named or intro_list is None \
                or intro_list[0] != block.group[:-2]:
            intro_list = None  # the list ends, or an item names its own model
        if intro_list is not None:
            intro = intro_list[1]  # the next item of the same list speaks of it too
        if block.kind == "item":  # "- GPT2-small:" over "- n_layers = 12": its sub-items
            parents[block.group[:-1]] = one
        for unit in units.split(block, shown, doc.where):
            if block.kind == "row" and sizes_of and unit.header:
                unit.header = structure.sized_header(unit.header, sizes_of)
                unit.sized = unit.header != block.header
            unit.section = around
            unit.field = field
            unit.origin = origin if around else ""
            unit.guessed = guessed
            if place is not None and around == place.model:
                unit.nominal = place.nominal
            if place is not None and not place.model:
                unit.family, unit.origin = place.family, place.origin
            unit.around = carry.state(row=block.kind == "row")
            carry.after(unit.probe or unit.text, row=block.kind == "row")
            probe = unit.probe or unit.text
            if unit.cells:
                probe = " ".join(f"{h} {c}" for h, c in zip(unit.header, unit.cells)) \
                    if unit.header else unit.text
            if k in heads:
                continue  # a table's header names its columns; its rows are the statements
            if block.kind == "row" and block.header != table[0]:
                table = (block.header, False)
            if is_statement(normalise(_names_kept(unit.text, probe)),
                            heading=unit.kind == "heading"):
                found.append(unit)
                if block.kind == "row":
                    table = (block.header, True)
            elif block.kind == "row" and table[1] and _scaled(probe):
                found.append(unit)  # "Total | ≈ 124.4 M" under rows of parameter counts
            elif _TOO_LONG.search(probe):
                too_long.append(_error(shown, unit.line, unit.col, (
                    f"a figure of more than {numbers.MAX_DIGITS} digits, past what the "
                    "scan reads: this text is not read")))
    problems = [_error(shown, line, col, msg) for line, col, msg in doc.problems] + too_long
    return found, doc.covered_groups, problems


_TOO_LONG = re.compile(rf"\d{{{numbers.MAX_DIGITS + 1},}}")


_IDENTIFIER = re.compile(r"`?[a-z][a-z0-9]*(?:_[a-z0-9]+)+`?")  # a snake_case field name
# a formula in symbols with no space (`4h^2`, `kv_heads/attn_heads*2h^2`): a count stated
_SYMBOLIC = re.compile(r"`?(?=[^`]*\d)(?=[^`]*[*^+])[A-Za-z0-9_*/^+()-]+`?")  # no path


def _names_kept(text: str, probe: str) -> str:
    """The probe with the inline code that is one snake_case name (`hidden_size`,
    `n_kv_heads`; not `MemoryError`, not a command) or a formula in symbols (`4h^2`) put
    back: a field's name says what the figure beside it is, though code is not
    read ("The `hidden_size` is 4096" is listed, and stays unchecked)."""
    if len(text) != len(probe) or text == probe:
        return probe
    out, i = list(probe), 0
    while i < len(text):
        if probe[i] == " " and text[i] != " ":
            j = i  # the blanked run, over the spaces inside it (`ffnverify models`)
            while j < len(text) and probe[j] == " " and (
                    text[j] != " " or (j + 1 < len(text) and probe[j + 1] == " "
                                       and text[j + 1] != " ")):
                j += 1
            if _IDENTIFIER.fullmatch(text[i:j]) or _SYMBOLIC.fullmatch(text[i:j]):
                out[i:j] = text[i:j]
            i = j
        else:
            i += 1
    return "".join(out)


def _scaled(text: str) -> bool:
    """Whether a row holds a figure with a scale or unit ("≈ 124.4 M", "1.25 GB")."""
    clean = normalise(text)
    return any(t.scale or _UNIT_AFTER.match(clean, t.end) for t in meaningful_numbers(clean))


_UNIT_AFTER = re.compile(r"\s?(?:[KMBT]|[KMGT]i?B|bytes?|FLOPs?)\b")


def _header_rows(blocks) -> set:
    """Indexes of the header rows of tables that have rows under them ("Model Size | 1k
    tokens | 16k tokens" over "7B | 0.5 GB | 8 GB"): a header names the columns, and the
    rows under it, read with it, are the statements. A table of one row stays a row."""
    return {k for k, (b, nxt) in enumerate(itertools.pairwise(blocks))
            if b.kind == "row" and not b.header and b.cells and nxt.kind == "row"
            and nxt.header == b.cells}


def _parent_item(block, parents) -> str:
    """The model the nearest list item enclosing `block` names (one model, or "")."""
    for k in range(len(block.group) - 2, 0, -1):
        if block.group[:k] in parents:
            return parents[block.group[:k]]
    return ""


def _squash(s: str) -> str:
    return " ".join(re.sub(r"[*_`$\\]", "", s).split()).lower().rstrip(" .;:")


def figures(text: str, row: bool = False) -> list:
    """(value, half a unit) of the claim-making figures of a statement (names, years and
    references left out: `detect.meaningful_numbers`). In a table row (`row`), a size
    cell that repeats the size in the row's model name ("Llama 2 70B | 70B") is the name,
    no measurement, and is left out too."""
    clean = normalise(text)
    nums = meaningful_numbers(clean)
    if row:
        named = {t.value for s, e, *_ in models(clean) for t in tokens(clean[s:e])
                 if t.kind == "NUM" and t.scale}
        nums = [t for t in nums if not (t.scale and t.value in named)]
    return [(t.value, (t.unit or 0) / 2, _mantissa(t)) for t in nums]


def _mantissa(t):
    """The digits a figure is written with, without its scale (`13.5 GB`: 13.5), which a
    claim that divides the scale out states (`weight_bytes(m) / 10**9 ≈ 13.5`)."""
    m = re.match(r"\d[\d,]*(?:\.\d+)?", t.text)
    try:
        return Fraction(m.group().replace(",", "")) if m and t.scale else None
    except (ValueError, ZeroDivisionError):
        return None


def _mentions(claim_texts, text: str, row: bool = False, every: bool = True) -> bool:
    """Whether every (or, with every=False, some) figure of the statement appears in one
    of the claim texts, as a number of the claim language (`11,008` as `11008`, `6.7B` as
    `6.7B` or 6700000000) or as a finer number that rounds to it (`−0.278` in a claim of
    `-0.2785`). A statement with no figure is mentioned by any claim."""
    wanted = figures(text, row)
    if not wanted:
        return True
    have = {t.value for c in claim_texts for t in tokens(normalise(c)) if t.kind == "NUM"}

    def stated(value, half, mantissa):  # the claim states the figure, at its precision
        return value in have or mantissa in have or any(  # or finer, or without its scale
            abs(h - value) <= half for h in have)

    return (all if every else any)(stated(*w) for w in wanted)


class Coverage:
    """Which statements existing claims name: by `source` (file:line) or by `quote`
    (the whole statement, whitespace squashed, not a piece of it); either way only when
    the statement's figures appear in the claim or its quote."""

    def __init__(self, claims):
        self.sources = {}
        self.quotes = {}
        self.by_file = {}
        for c in claims:
            if c.source:
                m = re.fullmatch(r"(.+?):(\d+)(?::\d+)?", c.source.strip())
                if m:
                    self.sources.setdefault((m.group(1), int(m.group(2))), []).append(c)
            if c.quote and c.quote.strip():
                self.quotes.setdefault(_squash(c.quote), []).append(c)
            self.by_file.setdefault(c.file, []).append(c)

    def claim_for(self, unit):
        found = []
        for line in range(unit.line, unit.end_line + 1):
            found += self.sources.get((unit.file, line), [])
        found += self.quotes.get(_squash(unit.text), [])
        whole = _squash(unit.text)
        for c in found:
            if c.quote and c.quote.strip() and _squash(c.quote) != whole:
                continue  # a quote of a piece of the statement, or of another one
            if _mentions([c.expr, c.quote or ""], unit.probe or unit.text,
                         unit.kind == "row"):
                return c
        return None

    def fence_covers(self, unit, source_lines, table_text: str = "") -> bool:
        # source_lines: the document's claim fences (`fences`), None where unknown
        """A claim fence right after the unit's paragraph covers it only when the fence
        mentions one of the unit's figures: a paragraph's fence checks some of its
        sentences, and a sentence it says nothing of is not covered. A table is one
        statement of figures: a fence after it covers its rows when it mentions a figure
        of the table (`table_text`). The fence is read from the document's lines.
        (Stricter, every figure of the unit, is what issue 27 asks; the docs' own fences
        do not yet state every figure of their paragraphs, 45 statements.)"""
        fence = _fence_after(source_lines, unit.end_line) if source_lines is not None else None
        if fence is None:
            return True  # a format whose fences the scan cannot place (notebook cells)
        return _mentions(fence, table_text or unit.probe or unit.text, every=False)


_FENCE_OPEN = re.compile(r"^\s{0,3}(`{3,}|~{3,})\s*claim\b")


def fences(lines) -> list[tuple[int, list]]:
    """(0-based line, body lines) of every claim fence of a document's lines."""
    out, k = [], 0
    while k < len(lines):
        m = _FENCE_OPEN.match(lines[k])
        if not m:
            k += 1
            continue
        body, j = [], k + 1
        while j < len(lines) and not lines[j].strip().startswith(m.group(1)[:3]):
            body.append(lines[j])
            j += 1
        out.append((k, body))
        k = j + 1
    return out


def _fence_after(found, end_line: int):
    """The body of the first claim fence after line `end_line` (1-based), or None."""
    k = bisect_left(found, (end_line, []))
    return found[k][1] if k < len(found) else None


def _shorten(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + "…"


def scan(paths, engine, claims=None) -> dict:
    """The scan's JSON document for `paths`; `engine` decides the claims read."""
    records, errors, pending = [], [], []
    coverage = Coverage(collect(paths) if claims is None else claims)
    for path, fmt, problem in documents(paths):
        shown = display_path(path)
        if problem:
            errors.append(_error(shown, 1, 1, problem))
            continue
        text, err = _decode(path, shown)
        if err:
            errors.append(err)
            continue
        try:
            found, covered_groups, problems = statements_of(text, fmt, shown)
        except Exception as e:  # a parser failing on odd input is an input error
            errors.append(_error(shown, 1, 1, f"cannot parse the document: "
                                              f"{type(e).__name__}: {e}"[:300]))
            continue
        errors.extend(problems)
        lines = fences(text.split("\n")) if fmt in ("markdown", "text", "rst") else None
        tables = {}
        for unit in found:
            if unit.kind == "row":
                tables.setdefault(unit.group, []).append(unit.text)
        context = Context()
        for unit in found:
            learn(unit.probe or unit.text, context)
        subjects = {}  # block -> the model its last statement named
        for unit in found:
            named = models(normalise(unit.probe or unit.text))
            subject = subjects.get(unit.group) if _ANAPHORA.match(unit.text) else None
            origin = "the sentence before it" if subject else unit.origin
            subject = subject or unit.section or None  # "Context window | 33K" under
            # a "Mixtral 8x7B" heading: said of it (a reading to confirm)
            guessed = subject if unit.guessed and subject == unit.section and not named else ""
            if named:
                subjects[unit.group] = named[-1][2]
            record = {"file": unit.file, "line": unit.line, "col": unit.col,
                      "end_line": unit.end_line, "text": _shorten(unit.text),
                      "status": "unchecked", "claim": None, "verdict": None, "detail": "",
                      "unread": []}
            claim = coverage.claim_for(unit)
            if any(g in covered_groups for g in unit.group) and coverage.fence_covers(
                    unit, lines, " | ".join(tables.get(unit.group, ())) if unit.kind == "row"
                    else ""):
                record.update(status="covered", detail="a claim fence follows its paragraph")
            elif claim is not None:
                record.update(status="covered", detail=f"claim {claim.id} names it")
            else:
                restored = numbers.lost_superscripts(unit.probe or unit.text)
                r = reading(restored or unit.probe or unit.text, context, unit.header,
                            unit.cells, None if named else subject, origin=origin,
                            family=unit.family,
                            nominal=unit.nominal if subject == unit.section else None,
                            field=unit.field, around=unit.around, sized=unit.sized,
                            assumed=bool(guessed))
                if restored and r is not None:  # "70×109" read as 70×10⁹: to confirm
                    r = replace(r, parts=[replace(p, sure=False) for p in r.parts], notes=[
                        *r.notes, "read with ×10N as 10 to the power N (a superscript lost "
                        "in copying: \"70×109\" as 70×10⁹): to confirm"])
                if r is not None and r.parts:
                    pending.append((record, replace(r, guessed=guessed, parts=[
                        replace(p, sure=False) if f"({guessed}" in p.strict else p
                        for p in r.parts]) if guessed else r))
                elif r is not None:
                    record["detail"] = " — ".join(r.notes)
                elif unit.kind == "row":
                    record["detail"] = "a table row the scan cannot read"
                else:  # "'Falcon 180B' is not in the catalogue …"
                    record["detail"] = why_unread(unit.probe or unit.text, subject,
                                                  origin if guessed else "")
            records.append(record)
    _decide(pending, engine)
    return {"version": 1, "statements": records, "summary": summary(records),
            **({"errors": errors} if errors else {})}


def _ask(engine, texts) -> dict:
    texts = list(dict.fromkeys(texts))
    return dict(zip(texts, engine.evaluate_many([(t, ()) for t in texts]))) if texts else {}


def _decide(pending, engine):
    """Every part's strict reading goes to the engine (each claim once), then the lenient
    reading of each part whose strict one is not true (a lenient reading is implied by
    its strict one, so it holds where that holds)."""
    results = _ask(engine, [p.strict for _, r in pending for p in r.parts]
                   + [t for _, r in pending for t in r.other])
    results.update(_ask(engine, [p.lenient for _, r in pending for p in r.parts
                                 if p.lenient not in results
                                 and results[p.strict]["verdict"] != "true"]))
    for record, r in pending:
        settle(record, r, results)


def _said(text, res) -> str:
    return f"{text}: {res['verdict']}" + "".join(f"; {x}" for x in (res["value"],
                                                                        res["detail"]) if x)


def _would_hold(res) -> str:
    left = (res.get("value") or "").split(" vs ")[0].strip()
    return f" (it would hold with the figure {left})" if left and len(left) < 60 else ""




def settle(record: dict, r, results: dict):
    """A statement's status and verdict from its parts' strict and lenient verdicts
    (statcheck's rule): a part is TRUE or FALSE when both readings agree; when they
    differ it holds only on the reading named, and the statement is `suggested`.
    `checked` needs every part sure and agreed and every figure read; a part both
    readings refute makes a sure, whole statement FALSE whatever the others say."""
    outcomes = []
    for p in r.parts:
        s = results[p.strict]
        le = results.get(p.lenient, s) if s["verdict"] == "true" else results[p.lenient]
        if "error" in (s["verdict"], le["verdict"]):
            bad = p.strict if s["verdict"] == "error" else p.lenient
            res = s if s["verdict"] == "error" else le
            record["detail"] = f"read as {bad!r}, which the engine rejects: {res['detail']}"
            return
        if s["verdict"] == le["verdict"]:
            outcomes.append((p, s["verdict"], True, p.strict, s))
        elif p.family:  # true of some of the family's models, not of every one
            outcomes.append((p, "unknown", False, p.strict, s))
        elif "true" in (s["verdict"], le["verdict"]) and "unknown" not in (
                s["verdict"], le["verdict"]):
            holds = p.strict if s["verdict"] == "true" else p.lenient
            outcomes.append((p, "true", False, holds, s if holds == p.strict else le))
        else:
            outcomes.append((p, "unknown", False, p.strict, s))
    verdicts = [v for _, v, _, _, _ in outcomes]
    verdict = "false" if "false" in verdicts else "true" if all(
        v == "true" for v in verdicts) else "unknown"
    whole = not r.unread and all(p.sure for p in r.parts)
    certain_false = any(v == "false" and agree for _, v, agree, _, _ in outcomes)
    checked = whole and (all(agree for _, _, agree, _, _ in outcomes)
                         or (verdict == "false" and certain_false))
    details = [] if checked else ["a reading to confirm"]
    for p, v, agree, holds, res in outcomes:
        if agree and v == "true" and len(outcomes) > 1 and checked:
            continue
        if agree:
            line = _said(p.strict, res)
            if v == "false":
                line += _would_hold(res)
        elif v == "true":
            line = (f"holds only as {holds}: true (as written, {p.strict}: "
                    f"{results[p.strict]['verdict']}); confirm that reading, or state the "
                    "figure exactly")
        else:
            line = _said(p.strict, res) + f"; read leniently, {p.lenient}: " \
                f"{results[p.lenient]['verdict']}"
        if p.reading and not p.reading.startswith("arithmetic") and not checked:
            line = f"{p.reading}: {line}"
        details.append(line)
    if r.unread:
        details.append("unread figures: " + ", ".join(r.unread)
                       + " (checked only when every figure is read)")
    details += r.notes
    for p in r.other:
        details.append(f"read at equal width h instead: {p}: {results[p]['verdict']}")
    claim = " and ".join(holds for _, _, _, holds, _ in outcomes)
    if verdict == "false" and r.glossary and any(
            v == "false" and not p.reading.startswith(AS_WRITTEN) for p, v, _, _, _ in outcomes):
        # a reading through a glossary may have bound a figure to the wrong noun: a FALSE
        # from it is never a flag, only a lead (arithmetic as written needs no words)
        record.update(detail="read through a glossary (`cjk`, `european`), it would be "
                      f"false ({claim}); not flagged, since the scan does not parse the "
                      "language's grammar: check it by hand — "
                      + " — ".join(details[1:] if details[:1] == ["a reading to confirm"]
                                   else details), unread=list(r.unread))
        return
    near = [p.reading for p, v, _, _, _ in outcomes if v == "false" and (
        NEARNESS in p.reading or AMONG in p.reading)]
    if verdict == "false" and near:
        # a figure paired with a field by nearness only (no noun, subject or header binds
        # it): "selects from 8 groups of parameters" is no parameter count of 8; or with the
        # nearest of several models named ("A vs B: 32 vs 40 layers"): a FALSE from such a
        # pairing is a misreading more often than an error of the text
        what = "a field" if any(NEARNESS in x for x in near) else "the nearest model named"
        record.update(detail=f"paired with {what} by nearness only, it would be false "
                      f"({claim}); not flagged, since no word binds the figure to it "
                      "— " + " — ".join(details[1:] if details[:1] == ["a reading to confirm"]
                                        else details), unread=list(r.unread))
        return
    if verdict == "false" and r.guessed and any(
            v == "false" and f"({r.guessed}" in p.strict for p, v, _, _, _ in outcomes):
        # said of the only model the document named before, which the statement itself
        # does not name: it may speak of another (a model in general, one it compares)
        record.update(detail=f"read as said of {r.guessed}, a model named before it, it "
                      f"would be false ({claim}); not flagged, since the statement does not "
                      "name its model — " + " — ".join(
                          details[1:] if details[:1] == ["a reading to confirm"] else details),
                      unread=list(r.unread))
        return
    if verdict == "unknown" and all(p.family for p, v, _, _, _ in outcomes if v == "unknown"):
        # true of some of a family's models only: which one the name means decides it
        record.update(detail="true of some of the family's models, not of every one (name "
                      "the model to check it) — " + " — ".join(details[1:]),
                      unread=list(r.unread))
        return
    record.update(status="checked" if checked else "suggested", claim=claim,
                  verdict=verdict, detail=" — ".join(details), unread=list(r.unread))


def summary(records) -> dict:
    out = {"total": len(records)}
    for s in STATUSES:
        out[s] = sum(r["status"] == s for r in records)
    out["false"] = sum(r["verdict"] == "false" for r in records)
    done = out["covered"] + out["checked"]
    out["coverage"] = round(done / len(records), 4) if records else 1.0
    return out


def exit_code(result: dict, strict: bool = False) -> int:
    """2: input errors; 1: a checked statement is false (with `strict`, or any statement
    unchecked); else 0."""
    if result.get("errors"):
        return 2
    statements = result["statements"]
    if any(r["status"] == "checked" and r["verdict"] == "false" for r in statements):
        return 1
    if strict and any(r["status"] == "unchecked" for r in statements):
        return 1
    return 0
