"""Claim fences annotated with the verdicts of an audit run at build time.

`run_audit(docs_dir)` runs `python -m ffnverify audit DOCS --format json` (the public
command line and its JSON, so this does not depend on the claims engine's internals) and indexes the
claims by (page path relative to docs_dir, line). `annotate(markdown, verdicts)` puts a
small verdict table under each ```claim fence. `misses(index)` lists every claim whose
verdict is not its expectation (`unknown` and `error` included): the build fails on any
(hooks.on_pre_build), as it does when the audit gives no JSON at all (run_audit returns
None then). With FFNVERIFY_DOCS_VERDICTS=0 the audit is not run and the fences stay plain
code blocks.
"""

import json
import os
import subprocess
import sys
from html import escape
from pathlib import Path

from ffnverify.claims.files import claim_fence_spans
from ffnverify.claims.printable import visible

AUDIT_TIMEOUT_S = 600


def run_audit(docs_dir, cwd=None) -> tuple[dict[str, dict[int, dict]] | None, str]:
    """({relative page path: {line: claim}}, a one-line status message); the index is
    None when the audit gave no JSON (it could not run, or ran past AUDIT_TIMEOUT_S)."""
    if os.environ.get("FFNVERIFY_DOCS_VERDICTS", "1") == "0":
        return {}, "verdicts off (FFNVERIFY_DOCS_VERDICTS=0)"
    docs_dir = Path(docs_dir).resolve()
    command = [sys.executable, "-m", "ffnverify", "audit", str(docs_dir), "--format", "json"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, cwd=cwd,
                              timeout=AUDIT_TIMEOUT_S, check=False)
        result = json.loads(done.stdout)
    except (OSError, subprocess.TimeoutExpired, json.JSONDecodeError) as exc:
        return None, f"no verdicts: `ffnverify audit --format json` gave no JSON ({exc!r:.200})"
    index: dict[str, dict[int, dict]] = {}
    for claim in result.get("claims", []):
        path = Path(str(claim.get("file", "")))
        path = path if path.is_absolute() else (Path(cwd or ".") / path)
        try:
            rel = path.resolve().relative_to(docs_dir).as_posix()
        except ValueError:
            continue
        if isinstance(claim.get("line"), int):
            index.setdefault(rel, {})[claim["line"]] = claim
    summary = result.get("summary", {})
    return index, f"verdicts from the audit: {summary}"


def misses(index: dict[str, dict[int, dict]]) -> list[str]:
    """`page:line: verdict, expected E (detail)` for each claim not as expected."""
    out = []
    for page in sorted(index):
        for line in sorted(index[page]):
            c = index[page][line]
            if c.get("ok") is not True:
                detail = visible(str(c.get("detail") or ""))[:200]
                out.append(visible(f"{page}:{line}: {c.get('verdict')}, expected "
                                   f"{c.get('expect', 'true')}") + (f" ({detail})" if detail else ""))
    return out


def _expectation(claim: dict) -> str:
    expect = escape(str(claim.get("expect", "true")))
    if claim.get("ok") is False:
        return f"✗ expected {expect}"
    return "" if expect == "true" else f"as expected ({expect})"


def _table(claims: list[dict]) -> str:
    rows = "".join(
        f'<tr><td>line {c["line"]}</td>'
        f'<td><span class="verdict v-{escape(str(c.get("verdict")), quote=True)}">'
        f'{escape(str(c.get("verdict")))}</span></td>'
        f"<td>{_expectation(c)}</td>"
        f'<td><code>{escape(str(c.get("value") or ""))}</code></td></tr>'
        for c in claims
    )
    return (f'<div class="claim-verdicts"><table class="verdict-table"><tbody>{rows}</tbody>'
            "</table></div>")


def annotate(markdown: str, verdicts: dict[int, dict]) -> str:
    """Insert, after each claim fence (as the audit reads them: files.claim_fence_spans), the
    verdicts of the claims on its lines (1-based)."""
    if not verdicts:
        return markdown
    lines = markdown.split("\n")
    out, done = [], 0
    for first, end in claim_fence_spans(markdown):
        out += lines[done:end]
        done = end
        found = [verdicts[n] for n in range(first + 1, end + 1) if n in verdicts]
        if found:
            out += ["", _table(found), ""]
    return "\n".join(out + lines[done:])
