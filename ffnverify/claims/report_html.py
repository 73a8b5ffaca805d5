"""The audit result (docs/architecture.md §5 JSON dict) as one self-contained HTML page.

`render(result)` returns a page with a summary and a table of the claims (verdict,
expectation, source position file:line:col, expr, exact value, detail), filterable by
verdict with a few lines of inline JavaScript. Nothing is fetched: the CSS and the script
are inline, and a Content-Security-Policy allows exactly those two (by hash) and nothing
else. Claim text is untrusted input, so every value from the result is HTML-escaped;
a claim containing `<script>` shows as text, and control characters are written as
backslash escapes (`printable.visible`, the escape every format uses). A source position
breaks only after a `/`, never at a hyphen inside a file name.
"""

import base64
import hashlib
from html import escape

from ffnverify.claims.printable import visible

VERDICTS = ("true", "false", "unknown", "error", "skipped")

_CSS = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1b1b1b; }
h1 { font-size: 1.4em; margin: 0 0 .4em; }
.status { font-weight: 600; margin: .2em 0 1em; }
.status.ok { color: #1a7f37; } .status.failed { color: #cf222e; }
.summary { border-collapse: collapse; margin-bottom: 1em; }
.summary td, .summary th { border: 1px solid #d0d7de; padding: .2em .7em; text-align: right; }
.filters { margin: .6em 0; display: flex; flex-wrap: wrap; gap: .4em; }
.filters button { border: 1px solid #8c959f; background: #f6f8fa; border-radius: 1em;
  padding: .2em .9em; cursor: pointer; font: inherit; }
.filters button[aria-pressed="true"] { background: #0969da; color: #fff; border-color: #0969da; }
table.claims { border-collapse: collapse; width: 100%; }
table.claims th, table.claims td { border-bottom: 1px solid #d0d7de; padding: .3em .5em;
  vertical-align: top; text-align: left; }
table.claims th { background: #f6f8fa; position: sticky; top: 0; }
tr.mismatch { background: #fff1f0; }
code, pre { font-family: ui-monospace, monospace; font-size: 12.5px; }
pre { margin: 0; white-space: pre-wrap; word-break: break-word; }
.verdict { display: inline-block; border-radius: .3em; padding: 0 .45em; font-weight: 600; }
.v-true { background: #dafbe1; color: #116329; } .v-false { background: #ffebe9; color: #a40e26; }
.v-unknown { background: #fff8c5; color: #7d4e00; } .v-error { background: #f5e0ff; color: #6e2b99; }
.v-skipped { background: #eaeef2; color: #424a53; } .v-other { background: #eaeef2; }
.shown { color: #57606a; margin-left: .5em; }
.source .seg { white-space: nowrap; }
"""

_JS = """
(function () {
  var buttons = document.querySelectorAll('.filters button');
  var rows = document.querySelectorAll('table.claims tbody tr');
  var shown = document.getElementById('shown');
  function apply(filter) {
    var n = 0;
    rows.forEach(function (r) {
      var keep = filter === 'all' ||
        (filter === 'mismatch' ? r.dataset.ok === 'false' : r.dataset.verdict === filter);
      r.hidden = !keep;
      if (keep) { n += 1; }
    });
    buttons.forEach(function (b) {
      b.setAttribute('aria-pressed', String(b.dataset.filter === filter));
    });
    shown.textContent = n + ' of ' + rows.length + ' shown';
  }
  buttons.forEach(function (b) {
    b.addEventListener('click', function () { apply(b.dataset.filter); });
  });
  apply('all');
})();
"""


def _csp_hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def _text(value) -> str:
    """A result value as escaped text ('' for a missing value)."""
    return "" if value is None else escape(visible(value), quote=True)


def _position(claim: dict) -> str:
    """file:line:col as HTML: each path segment unbreakable (no break at its hyphens),
    a break allowed after each `/`."""
    parts = [str(claim[k]) for k in ("file", "line", "col") if claim.get(k) not in (None, "")]
    segments = ":".join(parts).split("/")
    return "/<wbr>".join(f'<span class="seg">{_text(seg)}</span>' for seg in segments)


def _own_id(claim: dict) -> str | None:
    """The claim's id, unless it is only the default file:line already shown as source."""
    default = f"{claim.get('file')}:{claim.get('line')}"
    return None if claim.get("id") == default else claim.get("id")


def _ok(claim: dict) -> bool | None:
    ok = claim.get("ok")
    if ok is None and claim.get("verdict") is not None:
        ok = str(claim.get("verdict")) == str(claim.get("expect", "true"))
    return ok


def _summary(claims: list[dict], given: dict | None) -> dict:
    counted = {v: 0 for v in VERDICTS}
    for c in claims:
        key = str(c.get("verdict"))
        counted[key] = counted.get(key, 0) + 1
    oks = [_ok(c) for c in claims]
    counted.update(total=len(claims), ok=oks.count(True), failed=oks.count(False))
    if given:
        counted.update({k: v for k, v in given.items() if isinstance(v, int)})
    return counted


def _row(index: int, claim: dict) -> str:
    verdict = str(claim.get("verdict", ""))
    ok = _ok(claim)
    badge = f"v-{verdict}" if verdict in VERDICTS else "v-other"
    ok_text = {True: "✓", False: "✗", None: ""}[ok]
    ok_attr = {True: "true", False: "false", None: ""}[ok]
    mismatch = ' class="mismatch"' if ok is False else ""
    quote = claim.get("quote")
    quote_html = f'<div class="quote">“{_text(quote)}”</div>' if quote else ""
    return (
        f'<tr data-verdict="{_text(verdict)}" data-ok="{ok_attr}"{mismatch}>'
        f"<td>{index}</td>"
        f'<td><span class="verdict {badge}">{_text(verdict)}</span></td>'
        f"<td>{_text(claim.get('expect', 'true'))}</td>"
        f'<td class="ok">{ok_text}</td>'
        f'<td class="source"><code>{_position(claim)}</code></td>'
        f"<td><code>{_text(_own_id(claim))}</code></td>"
        f'<td class="expr"><code>{_text(claim.get("expr"))}</code>{quote_html}</td>'
        f'<td class="value"><pre>{_text(claim.get("value"))}</pre></td>'
        f'<td class="detail"><pre>{_text(claim.get("detail"))}</pre></td>'
        "</tr>"
    )


def page(title: str, head: str, what: str, buttons: list[str], columns: list[str],
         rows: str) -> str:
    """The self-contained page both HTML reports share: the stylesheet and script inlined
    under a hash-pinned Content-Security-Policy, `head` (already escaped) above the filter
    buttons, and the table of `rows` (already escaped) under `columns`."""
    csp = (
        f"default-src 'none'; style-src {_csp_hash(_CSS)}; script-src {_csp_hash(_JS)}; "
        "base-uri 'none'; form-action 'none'"
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_text(title)}</title>
<style>{_CSS}</style>
</head>
<body>
<h1>{_text(title)}</h1>
{head}
<div class="filters" role="toolbar" aria-label="filter by {what}">{"".join(buttons)}<span class="shown" id="shown"></span></div>
<table class="claims">
<thead><tr>{"".join(f"<th>{c}</th>" for c in columns)}</tr></thead>
<tbody>
{rows}
</tbody>
</table>
<script>{_JS}</script>
</body>
</html>
"""


def render(result: dict, title: str = "ffnverify audit report") -> str:
    """A self-contained HTML page for an audit result shaped as docs/architecture.md §5's JSON."""
    claims = list(result.get("claims") or [])
    summary = _summary(claims, result.get("summary"))
    present = [v for v in VERDICTS if summary.get(v)] + sorted(
        {str(c.get("verdict")) for c in claims} - set(VERDICTS)
    )
    failed = summary.get("failed", 0)
    status = (
        '<p class="status ok">Every verdict matches its expectation.</p>'
        if not failed
        else f'<p class="status failed">{failed} of {summary["total"]} claims do not '
        "match their expectation.</p>"
    )
    heads = ["total", *VERDICTS, "ok", "failed"]
    summary_table = (
        '<table class="summary"><tr>'
        + "".join(f"<th>{h}</th>" for h in heads)
        + "</tr><tr>"
        + "".join(f'<td data-key="{h}">{_text(summary.get(h, 0))}</td>' for h in heads)
        + "</tr></table>"
    )
    buttons = [f'<button type="button" data-filter="all">all ({len(claims)})</button>']
    buttons += [
        f'<button type="button" data-filter="{_text(v)}">{_text(v)} ({summary.get(v, 0)})</button>'
        for v in present
    ]
    if failed:
        buttons.append(f'<button type="button" data-filter="mismatch">mismatch ({failed})</button>')
    columns = ["#", "verdict", "expect", "ok", "source", "id", "claim", "exact value", "detail"]
    rows = "\n".join(_row(i, c) for i, c in enumerate(claims, 1))
    return page(title, f"""<p>Report format version {_text(result.get("version", 1))}.</p>
{status}
{summary_table}""", "verdict", buttons, columns, rows)
