"""Scan reports: text (file:line:col), JSON, SARIF 2.1.0, GitHub annotations and HTML.

Each renderer takes the scan's JSON document (`scan.scan`) and returns a string. Document
text is untrusted: in text and GitHub output every control character (C0, C1, DEL) and
every bidirectional-override character is written as an escape (`\\x1b`, `\\u202e`), so
nothing raw reaches a terminal or a CI log; JSON escapes them itself; HTML escapes markup.
SARIF is written by the one SARIF writer (claims.sarif), GitHub output through
printable's annotation escapes, as the audit's reports are; the HTML page
reuses the audit page's stylesheet, script and Content-Security-Policy.
"""

import hashlib
import json
from html import escape

from ffnverify.claims.printable import annotation_data as _escape_data
from ffnverify.claims.printable import annotation_property as _escape_property
from ffnverify.claims.printable import visible as safe
from ffnverify.claims.report_html import page
from ffnverify.claims.sarif import artifact as _artifact
from ffnverify.claims.sarif import log as sarif_log

COLOURS = {"covered": "36", "checked": "32", "suggested": "33", "unchecked": "2",
           "false": "31"}
MAX_SHOWN = 160


def _short(s: str, n: int = MAX_SHOWN) -> str:
    return s if len(s) <= n else s[:n] + "…"


def summary_line(summary: dict) -> str:
    counts = ", ".join(f"{summary[s]} {s}" for s in ("covered", "checked", "suggested",
                                                      "unchecked"))
    if summary["total"] == 0:  # no coverage to speak of: "100%" of nothing misleads
        return "0 numeric statements: nothing was scanned (coverage n/a)"
    return (f"{summary['total']} numeric statements: {counts}; {summary['false']} false; "
            f"coverage {summary['coverage']:.0%} (covered + checked)")


def _label(r: dict, colour: bool) -> str:
    status = r["status"].upper()
    verdict = f" {r['verdict']}" if r.get("verdict") else ""
    text = status + verdict.upper()
    if colour:
        code = COLOURS["false"] if r.get("verdict") == "false" else COLOURS[r["status"]]
        text = f"\x1b[{code}m{text}\x1b[0m"
    return text


def text(result: dict, colour: bool = False) -> str:
    lines = []
    for r in result["statements"]:
        line = f"{safe(r['file'])}:{r['line']}:{r['col']}: {_label(r, colour)} " \
               f"“{safe(_short(r['text']))}”"
        if r.get("claim"):
            mark = "reading" if r["status"] == "suggested" else "claim"
            line += f"\n    {mark}: {safe(_short(r['claim'], 400))}"
        if r.get("detail"):
            line += f"\n    {safe(_short(r['detail'], 600))}"
        if r.get("unread"):
            line += f"\n    unread: {safe(_short(', '.join(r['unread']), 200))}"
        lines.append(line)
    for e in result.get("errors", []):
        lines.append(f"{safe(e['file'])}:{e['line']}:{e['col']}: ERROR {safe(e['message'])}")
    lines.append(summary_line(result["summary"]))
    return "\n".join(lines) + "\n"


def json_report(result: dict) -> str:
    return json.dumps(result, indent=2, ensure_ascii=False) + "\n"


RULES = {
    "false": ("error", "a statement the scan checked exactly is false"),
    "suggested-false": ("warning", "a reading of the statement (to confirm) is false"),
    "unchecked": ("note", "a numeric statement that no claim checks"),
    "partly-read": ("note", "a statement read in part: some of its figures are unread"),
    "input": ("error", "a document that cannot be read"),
}


def _kind(r: dict) -> str | None:
    if r["verdict"] == "false":
        return "false" if r["status"] == "checked" else "suggested-false"
    if r["status"] == "unchecked":
        return "unchecked"
    if r.get("unread"):
        return "partly-read"
    return None


def _fingerprint(*parts) -> str:
    return hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()[:32]


def _message(r: dict) -> str:
    msg = r["text"][:300]
    if r.get("claim"):
        msg += f" — read as {r['claim'][:300]}: {r['verdict']}"
    if r.get("unread"):
        msg += f" — unread: {', '.join(r['unread'])[:200]}"
    if r.get("detail"):
        msg += f" ({r['detail'][:300]})"
    return msg


def sarif(result: dict) -> str:
    rules = [{"id": f"ffnverify-scan/{k}", "name": f"statement-{k}",
              "shortDescription": {"text": desc},
              "defaultConfiguration": {"level": level}} for k, (level, desc) in RULES.items()]
    index = {k: i for i, k in enumerate(RULES)}
    results = []
    items = [(r, _kind(r)) for r in result["statements"]]
    items += [({"file": e["file"], "line": e["line"], "col": e["col"], "text": e["message"],
                "status": "error", "claim": None, "verdict": None, "detail": ""}, "input")
              for e in result.get("errors", [])]
    for r, kind in items:
        if kind is None:
            continue
        results.append({
            "ruleId": f"ffnverify-scan/{kind}", "ruleIndex": index[kind],
            "level": RULES[kind][0],
            "message": {"text": _message(r)},
            "locations": [{"physicalLocation": {
                "artifactLocation": _artifact(r["file"]),
                "region": {"startLine": max(1, r["line"]), "startColumn": max(1, r["col"]),
                           **({"endLine": r["end_line"]} if r.get("end_line") else {})},
            }}],
            "partialFingerprints": {"statementHash/v1": _fingerprint(r["file"], r["text"])},
            "properties": {"status": r["status"], "verdict": r["verdict"],
                           "claim": r["claim"], "unread": r.get("unread", [])},
        })
    return sarif_log("ffnverify-scan", rules, results)


def github(result: dict) -> str:
    """GitHub workflow commands: an annotation per false or unchecked statement."""
    lines = []
    for r in result["statements"]:
        kind = _kind(r)
        if kind is None:
            continue
        level = {"false": "error", "suggested-false": "warning", "unchecked": "notice",
                 "partly-read": "notice"}[kind]
        title = _escape_property(f"ffnverify scan: {kind}")
        msg = _escape_data(safe(_message(r)))
        lines.append(f"::{level} file={_escape_property(safe(r['file']))},line={r['line']},"
                     f"col={r['col']},title={title}::{msg}")
    for e in result.get("errors", []):
        lines.append(f"::error file={_escape_property(safe(e['file']))},line={e['line']},"
                     f"col={e['col']},title=ffnverify scan%3A input::"
                     f"{_escape_data(safe(e['message']))}")
    lines.append(summary_line(result["summary"]))
    return "\n".join(lines) + "\n"


def _e(value) -> str:
    return "" if value is None else escape(str(value), quote=True)


def _cell(summary: dict, key: str):
    """A summary cell as the text report writes it: coverage as a percentage."""
    if key == "coverage":
        return f"{summary[key]:.0%}" if summary.get("total") else "n/a"
    return summary.get(key)


def html(result: dict, title: str = "ffnverify scan report") -> str:
    """One self-contained page (no fetches; inline CSS and script allowed by hash)."""
    s = result["summary"]
    heads = ["total", "covered", "checked", "suggested", "unchecked", "false", "coverage"]
    table = ('<table class="summary"><tr>' + "".join(f"<th>{h}</th>" for h in heads)
             + "</tr><tr>" + "".join(f'<td data-key="{h}">{_e(_cell(s, h))}</td>' for h in heads)
             + "</tr></table>")
    rows = []
    for i, r in enumerate(result["statements"], 1):
        verdict = r.get("verdict") or ""
        badge = {"true": "v-true", "false": "v-false"}.get(verdict, "v-skipped")
        ok = "false" if verdict == "false" else "true"
        mismatch = ' class="mismatch"' if verdict == "false" else ""
        rows.append(
            f'<tr data-verdict="{_e(r["status"])}" data-ok="{ok}"{mismatch}>'
            f"<td>{i}</td><td>{_e(r['status'])}</td>"
            f'<td><span class="verdict {badge}">{_e(verdict)}</span></td>'
            f"<td><code>{_e(r['file'])}:{r['line']}:{r['col']}</code></td>"
            f"<td>{_e(r['text'])}</td><td><code>{_e(r.get('claim'))}</code></td>"
            f"<td>{_e(', '.join(r.get('unread') or ()))}</td>"
            f"<td><pre>{_e(r.get('detail'))}</pre></td></tr>")
    present = [k for k in ("covered", "checked", "suggested", "unchecked") if s.get(k)]
    buttons = [f'<button type="button" data-filter="all">all ({s["total"]})</button>']
    buttons += [f'<button type="button" data-filter="{k}">{k} ({s[k]})</button>'
                for k in present]
    if s.get("false"):
        buttons.append(f'<button type="button" data-filter="mismatch">false ({s["false"]})'
                       "</button>")
    errors = "".join(f"<li><code>{_e(e['file'])}:{e['line']}:{e['col']}</code> "
                     f"{_e(e['message'])}</li>" for e in result.get("errors", []))
    columns = ["#", "status", "verdict", "source", "statement", "claim", "unread", "detail"]
    head = (f'<p class="status">{_e(summary_line(s))}</p>\n{table}\n'
            + (f'<ul class="errors">{errors}</ul>' if errors else ""))
    return page(title, head, "status", buttons, columns, chr(10).join(rows))


RENDERERS = {"text": text, "json": lambda r, colour=False: json_report(r),
             "sarif": lambda r, colour=False: sarif(r),
             "github": lambda r, colour=False: github(r),
             "html": lambda r, colour=False: html(r)}
