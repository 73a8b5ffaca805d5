"""Audit reports: text, JSON (docs/architecture.md §5), SARIF 2.1.0 and GitHub workflow annotations.

Every renderer takes the docs/architecture.md §5 document (`audit.result_dict`) and returns a string.
SARIF: one rule per verdict kind that can fail a claim (stable ids `ffnverify/false`,
`ffnverify/true`, `ffnverify/unknown`, `ffnverify/error`, `ffnverify/skipped` — named after
the verdict that missed its expectation), a partialFingerprint from the file, the claim
text and its id (stable when lines move), relative URIs under %SRCROOT%, and startLine.

Every string from the claim files is untrusted: the text and GitHub formats write it
through `printable.visible` (no line break, escape sequence or other control character
is ever printed raw, and no output line can start with `::` unless this module wrote it),
JSON and SARIF through `printable.json_text` (the same characters as JSON escapes). The
SARIF document itself is `claims.sarif`'s, the one writer the scan's report uses too.
"""

import hashlib

from ffnverify.claims import sarif as sarif_log
from ffnverify.claims.audit import is_input_error
from ffnverify.claims.printable import (
    annotation_data,
    annotation_property,
    json_text,
    line_lead,
    visible,
)

COLOURS = {"true": "32", "false": "31", "unknown": "33", "error": "35", "skipped": "36"}
RULES = {
    "false": "the claim is false, and was expected to hold",
    "true": "the claim holds, but was expected to be false (or unknown)",
    "unknown": "the claim could not be decided within the budget",
    "error": "the claim is malformed or unsupported, or its file cannot be read",
    "skipped": "the claim was skipped (marked empirical) but an exact verdict was expected",
}
MAX_TEXT_EXPR = 160


def _short(expr: str) -> str:
    return expr if len(expr) <= MAX_TEXT_EXPR else expr[:MAX_TEXT_EXPR] + "…"


def _message(r: dict) -> str:
    parts = [p for p in (r["value"], r["detail"]) if p]
    msg = "; ".join(parts)
    if r["expect"] != "true" and not (r["ok"] and r["expect"] == "skipped"):
        msg += f" [expected {r['expect']}]"
    return msg


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def summary_line(summary: dict, bad: int = 0) -> str:
    """The closing line; `bad` of the records are files that could not be read."""
    shown = {**summary, "error": summary["error"] - bad}
    counts = ", ".join(f"{shown[v]} {v}" for v in COLOURS)
    claims, failed = summary["total"] - bad, summary["failed"] - bad
    files = f"; {plural(bad, 'file')} could not be read" if bad else ""
    if claims == 0:
        return f"0 claims: {counts} — nothing was checked{files}"
    status = "all as expected" if failed == 0 else f"{failed} FAILED"
    return f"{plural(claims, 'claim')}: {counts} — {summary['ok']} ok, {status}{files}"


def text(result: dict, colour: bool = False, quiet: bool = False) -> str:
    """One line per claim (with `quiet`, per claim that missed its expectation), then
    the summary."""
    lines = []
    for r in result["claims"]:
        if quiet and r["ok"]:
            continue
        verdict = visible(r["verdict"]).upper()
        mark = "" if r["ok"] else " ✗"
        if colour:
            verdict = f"\x1b[{COLOURS.get(r['verdict'], '0')}m{verdict}\x1b[0m"
            if not r["ok"]:
                mark = " \x1b[1;31m✗\x1b[0m"
        msg = visible(_message(r))
        where = f"{r['line']}:{r['col']}: "
        if r["verdict"] == "error" and msg.startswith(where):
            msg = msg[len(where):]  # the position leads the line already
        expr = visible(_short(r["expr"]))
        lines.append(f"{line_lead(visible(r['file']))}:{r['line']}:{r['col']}: {verdict}{mark}"
                     + (f" {expr}" if expr else "") + (f" — {msg}" if msg else ""))
    lines.append(summary_line(result["summary"],
                              sum(is_input_error(r) for r in result["claims"])))
    return "\n".join(lines) + "\n"


def json_report(result: dict) -> str:
    return json_text(result) + "\n"


def _fingerprint(r: dict) -> str:
    key = "\x00".join((r["file"], r["id"] if not r["id"].startswith(r["file"] + ":")
                       else "", r["expr"]))
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def sarif(result: dict) -> str:
    rules = [{"id": f"ffnverify/{kind}", "name": f"claim-{kind}",
              "shortDescription": {"text": desc},
              "defaultConfiguration": {"level": "warning" if kind in ("unknown", "skipped")
                                       else "error"}}
             for kind, desc in RULES.items()]
    index = {kind: i for i, kind in enumerate(RULES)}
    results = []
    for r in result["claims"]:
        if r["ok"]:
            continue
        kind = r["verdict"]
        results.append({
            "ruleId": f"ffnverify/{kind}",
            "ruleIndex": index[kind],
            "level": "warning" if kind in ("unknown", "skipped") else "error",
            "message": {"text": f"{kind.upper()}: {r['expr'][:500]} — {_message(r)}"},
            "locations": [{"physicalLocation": {
                "artifactLocation": sarif_log.artifact(r["file"]),
                "region": {"startLine": max(1, r["line"]), "startColumn": max(1, r["col"])},
            }}],
            "partialFingerprints": {"claimHash/v1": _fingerprint(r)},
            "properties": {"claimId": r["id"], "expect": r["expect"], "verdict": kind},
        })
    return sarif_log.log("ffnverify", rules, results)


TITLES = {  # the annotation's title: what is wrong with the claim
    "false": "ffnverify: the claim is false",
    "true": "ffnverify: the claim holds, against its expectation",
    "unknown": "ffnverify: the claim could not be decided",
    "error": "ffnverify: the claim cannot be checked",
    "skipped": "ffnverify: the claim was skipped (empirical), against its expectation",
}


def github(result: dict) -> str:
    """GitHub Actions workflow commands: an annotation per claim that missed."""
    lines = []
    for r in result["claims"]:
        if r["ok"]:
            continue
        level = "warning" if r["verdict"] in ("unknown", "skipped") else "error"
        title = annotation_property(TITLES.get(r["verdict"], "ffnverify: claim"))
        msg = annotation_data(f"{_short(r['expr'])} — {_message(r)}")
        lines.append(f"::{level} file={annotation_property(r['file'])},line={r['line']},"
                     f"col={r['col']},title={title}::{msg}")
    lines.append(summary_line(result["summary"],
                              sum(is_input_error(r) for r in result["claims"])))
    return "\n".join(lines) + "\n"
