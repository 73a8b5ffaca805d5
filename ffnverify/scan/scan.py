"""Documents in, statement records out (the JSON document of `ffnverify scan`).

`scan(paths, engine)` reads every document under `paths`, finds its numeric statements,
and gives each one status:

- `covered`: a claim fence right after its paragraph (list, table), or a claim under the
  scanned paths whose `source` is its file:line or whose `quote` is its text;
- `checked` / `suggested`: the scan read it as claims (`read.reading`) and the claims
  engine decided them, each under the audit's budget (`budget.Engine`: time limit per
  claim, memory limit, a fresh worker after a timeout). The statement's verdict is true
  when every part is true, false when one is false (its value and detail are given),
  `unknown` otherwise; a part the engine rejects makes the statement `unchecked`
  (the reading was wrong, not the document);
- `unchecked`: a numeric statement that nothing covers and the scan cannot read.

Input problems (an unreadable file, not UTF-8, a malformed notebook) are listed under
`errors` with file:line:col; the other files are still scanned.
"""

import os
import re
from pathlib import Path

from ffnverify.claims.files import SKIP_DIRS, collect, display_path, read_bounded
from ffnverify.scan import readers, units
from ffnverify.scan.detect import is_statement, models
from ffnverify.scan.numbers import normalise
from ffnverify.scan.read import Context, learn, reading

_ANAPHORA = re.compile(r"\W*(?:it|its|it's|this model|the model|this network|they|their)\b",
                       re.I)
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
    for block in doc.blocks:
        if block.kind == "heading":
            continue  # a title names a topic; the statements are in the text below it
        for unit in units.split(block, shown, doc.where):
            probe = unit.probe or unit.text
            if unit.cells:
                probe = " ".join(f"{h} {c}" for h, c in zip(unit.header, unit.cells)) \
                    if unit.header else unit.text
            if is_statement(normalise(probe), heading=unit.kind == "heading"):
                found.append(unit)
    problems = [_error(shown, line, col, msg) for line, col, msg in doc.problems]
    return found, doc.covered_groups, problems


def _squash(s: str) -> str:
    return " ".join(re.sub(r"[*_`$\\]", "", s).split()).lower()


class Coverage:
    """Which statements existing claims name, by `source` (file:line) or `quote`."""

    def __init__(self, claims):
        self.sources = {}
        self.quotes = []
        for c in claims:
            if c.source:
                m = re.fullmatch(r"(.+?):(\d+)(?::\d+)?", c.source.strip())
                if m:
                    self.sources.setdefault((m.group(1), int(m.group(2))), c)
            if c.quote and len(c.quote.strip()) >= 12:
                self.quotes.append((_squash(c.quote), c))

    def claim_for(self, unit):
        for line in range(unit.line, unit.end_line + 1):
            c = self.sources.get((unit.file, line))
            if c is not None:
                return c
        text = _squash(unit.text)
        for quote, c in self.quotes:
            if quote in text or (len(text) >= 12 and text in quote):
                return c
        return None


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
        except Exception as e:  # noqa: BLE001 — a parser failing on odd input is an input error
            errors.append(_error(shown, 1, 1, f"cannot parse the document: "
                                              f"{type(e).__name__}: {e}"[:300]))
            continue
        errors.extend(problems)
        context = Context()
        for unit in found:
            learn(unit.probe or unit.text, context)
        subjects = {}  # block -> the model its last statement named
        for unit in found:
            named = models(normalise(unit.probe or unit.text))
            subject = subjects.get(unit.group) if _ANAPHORA.match(unit.text) else None
            if named:
                subjects[unit.group] = named[-1][2]
            record = {"file": unit.file, "line": unit.line, "col": unit.col,
                      "end_line": unit.end_line, "text": _shorten(unit.text),
                      "status": "unchecked", "claim": None, "verdict": None, "detail": ""}
            claim = coverage.claim_for(unit)
            if any(g in covered_groups for g in unit.group):
                record.update(status="covered", detail="a claim fence follows its paragraph")
            elif claim is not None:
                record.update(status="covered", detail=f"claim {claim.id} names it")
            else:
                r = reading(unit.probe or unit.text, context, unit.header, unit.cells,
                            None if named else subject)
                if r is not None:
                    pending.append((record, r))
                elif unit.kind == "row":
                    record["detail"] = "a table row the scan cannot read"
            records.append(record)
    _decide(pending, engine)
    return {"version": 1, "statements": records, "summary": summary(records),
            **({"errors": errors} if errors else {})}


def _ask(engine, texts) -> dict:
    texts = list(dict.fromkeys(texts))
    return dict(zip(texts, engine.evaluate_many([(t, ()) for t in texts]))) if texts else {}


def _decide(pending, engine):
    """Each statement's claim goes to the engine once, as the conjunction of its parts;
    only where that is not true are the parts asked one by one (to say which part)."""
    whole = {id(r): " and ".join(r.parts) for _, r in pending}
    results = _ask(engine, [whole[id(r)] for _, r in pending] + [p for _, r in pending
                                                                  for p in r.other])
    again = [p for _, r in pending if len(r.parts) > 1
             and results[whole[id(r)]]["verdict"] != "true" for p in r.parts]
    results.update(_ask(engine, [p for p in again if p not in results]))
    for record, r in pending:
        claim = whole[id(r)]
        overall = results[claim]
        got = [(p, results[p]) for p in r.parts] if overall["verdict"] != "true" and len(
            r.parts) > 1 else [(claim, overall)]
        verdicts = [res["verdict"] for _, res in got]
        if "error" in verdicts:
            p, res = next(x for x in got if x[1]["verdict"] == "error")
            record["detail"] = f"read as {p!r}, which the engine rejects: {res['detail']}"
            continue
        if "false" in verdicts:
            verdict = "false"
        elif all(v == "true" for v in verdicts):
            verdict = "true"
        else:
            verdict = "unknown"
        details = []
        for p, res in got:
            if res["verdict"] != "true" or len(got) == 1:
                details.append(f"{p}: {res['verdict']}" + "".join(
                    f"; {x}" for x in (res["value"], res["detail"]) if x))
        if not r.sure:
            details.insert(0, "a reading to confirm")
        details += r.notes
        for p in r.other:
            details.append(f"read at equal width h instead: {p}: {results[p]['verdict']}")
        record.update(status="checked" if r.sure else "suggested", claim=claim,
                      verdict=verdict, detail=" — ".join(details))


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
