"""The HTML audit report: content, escaping of untrusted claim text, no network, filters."""

import base64
import hashlib
import re
from html.parser import HTMLParser

import pytest

from ffnverify.claims import report_html

XSS = '</code><script>alert("pwned")</script><img src=x onerror=alert(1)>'


def claim(**kw):
    base = {"id": "c", "file": "docs/page.md", "line": 3, "col": 1, "expr": "1 == 1",
            "verdict": "true", "expect": "true", "ok": True, "value": "1", "detail": ""}
    return base | kw


def result(claims, summary=None):
    out = {"version": 1, "claims": claims}
    if summary is not None:
        out["summary"] = summary
    return out


class Page(HTMLParser):
    """Tags, attributes and text of a page, as a browser's parser would see them."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.tags, self.attrs, self.data, self.rows = [], [], [], []
        self._tag_stack = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.append((tag, dict(attrs)))
        if tag == "tr" and "data-verdict" in dict(attrs):
            self.rows.append(dict(attrs))
        self._tag_stack.append(tag)

    def handle_data(self, data):
        self.data.append((self._tag_stack[-1] if self._tag_stack else "", data))

    def text(self):
        return "".join(d for _, d in self.data)


def injected_markup(page_html: str) -> list[str]:
    """What a payload could have smuggled in: extra scripts, images, event handlers."""
    page = Page(page_html)
    problems = []
    if page.tags.count("script") != 1:
        problems.append(f"{page.tags.count('script')} <script> elements, expected 1 (ours)")
    if "img" in page.tags:
        problems.append("an <img> element")
    for tag, attrs in page.attrs:
        problems += [f"<{tag} {a}=...>" for a in attrs if a.startswith("on")]
    return problems


def test_summary_and_rows_carry_every_field():
    claims = [
        claim(id="a", verdict="true", value="8*d**2"),
        claim(id="b", file="docs/x.md", line=12, col=7, verdict="false", ok=False,
              expr="params(swiglu, d, 8/3*d) == 9*d**2", value="8*d**2 vs 9*d**2",
              detail="the two sides differ by d**2"),
        claim(id="c", verdict="error", ok=False, detail="line 1, col 5: unknown function"),
    ]
    summary = {"total": 3, "true": 1, "false": 1, "unknown": 0, "error": 1, "skipped": 0,
               "ok": 1, "failed": 2}
    page_html = report_html.render(result(claims, summary))
    page = Page(page_html)
    assert [r["data-verdict"] for r in page.rows] == ["true", "false", "error"]
    assert [r["data-ok"] for r in page.rows] == ["true", "false", "false"]
    text = page.text()
    for needle in ("docs/x.md:12:7", "params(swiglu, d, 8/3*d) == 9*d**2", "8*d**2 vs 9*d**2",
                   "the two sides differ by d**2", "line 1, col 5: unknown function",
                   "2 of 3 claims do not match their expectation"):
        assert needle in text, f"{needle!r} missing from the report text"
    cells = dict(re.findall(r'<td data-key="(\w+)">(\d+)</td>', page_html))
    assert cells == {k: str(v) for k, v in summary.items()}


def test_summary_is_computed_when_missing():
    claims = [claim(verdict="true"), claim(verdict="unknown", expect="true", ok=None),
              claim(verdict="skipped", expect="skipped", ok=None)]
    page_html = report_html.render(result(claims))
    cells = dict(re.findall(r'<td data-key="(\w+)">(\d+)</td>', page_html))
    assert cells["total"] == "3" and cells["unknown"] == "1" and cells["skipped"] == "1"
    assert cells["ok"] == "2" and cells["failed"] == "1"  # unknown != expected true


@pytest.mark.parametrize("field", ["expr", "id", "value", "detail", "file", "verdict", "quote"])
def test_untrusted_text_is_shown_as_text(field):
    page_html = report_html.render(result([claim(**{field: XSS})]))
    assert injected_markup(page_html) == []
    assert XSS in Page(page_html).text(), "the payload should be visible, as text"


def test_the_injection_check_catches_a_renderer_that_does_not_escape(monkeypatch):
    """Mutant: a renderer without escaping must be caught by injected_markup."""
    monkeypatch.setattr(report_html, "escape", lambda s, quote=True: s)
    page_html = report_html.render(result([claim(expr=XSS)]))
    problems = injected_markup(page_html)
    assert any("script" in p for p in problems) and any("img" in p for p in problems)


def test_nothing_is_fetched_and_the_policy_admits_only_our_inline_code():
    page_html = report_html.render(result([claim(), claim(verdict="false", ok=False)]))
    page = Page(page_html)
    loaded = [(t, a) for t, a in page.attrs if "src" in a or "href" in a]
    assert loaded == [], f"the report must load nothing: {loaded}"
    (csp,) = [a["content"] for t, a in page.attrs
              if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert "default-src 'none'" in csp
    for tag in ("style", "script"):
        body = re.search(rf"<{tag}>(.*?)</{tag}>", page_html, re.S)[1]
        digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in csp, f"the CSP does not admit our inline <{tag}>"


def test_one_filter_button_per_verdict_present():
    claims = [claim(verdict="true"), claim(verdict="false", ok=False), claim(verdict="false")]
    page = Page(report_html.render(result(claims)))
    filters = [a["data-filter"] for t, a in page.attrs if t == "button"]
    assert filters == ["all", "true", "false", "mismatch"]
    rows_ok = [r["data-ok"] for r in page.rows]
    assert rows_ok == ["true", "false", "true"]


def test_default_ids_are_not_repeated_but_own_ids_are_shown():
    page_html = report_html.render(result([claim(id="docs/page.md:3"), claim(id="swiglu-33pct")]))
    ids = re.findall(r"<td><code>([^<]*)</code></td><td class=\"expr\"", page_html)
    assert ids == ["", "swiglu-33pct"]


def test_an_empty_result_renders():
    page_html = report_html.render({"version": 1, "claims": []})
    assert "Every verdict matches its expectation." in page_html
    assert Page(page_html).rows == []
