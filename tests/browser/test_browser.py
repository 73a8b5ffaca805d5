"""Open the docs and the HTML audit report in headless Chromium at 1280 px and look at them.

Checked: the MathML renders natively (laid out as math, with non-zero boxes, fractions
stacked), every figure loads at its full size, nothing is fetched from the network, no
script errors, no code block scrolls sideways (long lines wrap, with a hanging indent),
the verdict filter hides the other rows, and claim text containing markup
is shown as text and never run. At 1280 px no page scrolls sideways, the closed-forms
tables fit their column (no cell's formula spills out of it) and a display formula too
wide for the column scrolls inside its own box. Screenshots go to FFNVERIFY_SCREENSHOTS
(default build/screenshots/).
"""

import pytest

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api", reason="Playwright is not installed "
                    "(pip install playwright; the browser tox env has it)")
pytest.importorskip("matplotlib", reason="matplotlib is in the docs extra: pip install -e .[docs]")

from docs_build import pages, plots  # noqa: E402
from ffnverify.claims import report_html  # noqa: E402

PAYLOAD = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'
MATH_BOXES = """() => [...document.querySelectorAll('math')].map(m => {
  const r = m.getBoundingClientRect();
  return {display: getComputedStyle(m).display, w: r.width, h: r.height,
          spec: m.dataset.formula};
})"""
FRACTIONS = """() => [...document.querySelectorAll('mfrac')].map(f => {
  const [num, den] = [...f.children].map(c => c.getBoundingClientRect());
  return {stacked: num.bottom <= den.top + 1, w: num.width, h: num.height};
})"""
VIEWPORT_WIDTH = 1280
PAGE_WIDTH = "() => document.documentElement.scrollWidth"
TABLE_FIT = """() => [...document.querySelectorAll('.formula-table')].map(w => {
  const col = w.closest('article, .md-content').getBoundingClientRect();
  const spill = [...w.querySelectorAll('td')].filter(td => {
    const c = td.getBoundingClientRect();
    return [...td.querySelectorAll('math')].some(m => {
      const r = m.getBoundingClientRect(); return r.left < c.left - 1 || r.right > c.right + 1; });
  }).length;
  const scroller = w.querySelector('.md-typeset__scrollwrap') || w;  // Material's scroll box
  return {heading: w.previousElementSibling && w.previousElementSibling.textContent.slice(0, 40),
          scroll: scroller.scrollWidth, client: scroller.clientWidth,
          ownOverflow: scroller === w ? 'n/a' : getComputedStyle(w).overflowX,
          inColumn: w.querySelector('table').getBoundingClientRect().right <= col.right + 1,
          spill: spill};
})"""
WIDE_FORMULAS = """() => [...document.querySelectorAll('.formula')].map(f => ({
  spec: f.querySelector('math').dataset.formula, scroll: f.scrollWidth, client: f.clientWidth,
  overflow: getComputedStyle(f).overflowX}))"""
CODE_OVERFLOW = """() => [...document.querySelectorAll('pre > code')]
  .filter(c => c.scrollWidth > c.clientWidth + 1)
  .map(c => ({scroll: c.scrollWidth, client: c.clientWidth, text: c.textContent.slice(0, 60)}))"""
WRAPPED_LINES = """() => [...document.querySelectorAll('pre > code > span[id^="__span-"]')]
  .filter(s => s.getClientRects().length && s.getBoundingClientRect().height > 1.5 *
               parseFloat(getComputedStyle(s).lineHeight))
  .map(s => ({indent: getComputedStyle(s).textIndent, pad: getComputedStyle(s).paddingLeft}))"""
VISIBLE_VERDICTS = """() => [...document.querySelectorAll('table.claims tbody tr')]
  .filter(r => r.getClientRects().length > 0).map(r => r.dataset.verdict)"""


def open_page(tab, path):
    tab.goto(path.resolve().as_uri())
    tab.wait_for_load_state("load")


def assert_math_rendered(tab, expected_count=None):
    boxes = tab.evaluate(MATH_BOXES)
    assert boxes, "no <math> elements on the page"
    if expected_count is not None:
        assert len(boxes) == expected_count
    flat = [b for b in boxes if not (b["w"] > 0 and b["h"] > 0)]
    assert flat == [], f"math with an empty box: {flat[:3]}"
    not_math = [b for b in boxes if not b["display"].endswith("math")]
    assert not_math == [], f"not laid out as MathML (display): {not_math[:3]}"
    fractions = tab.evaluate(FRACTIONS)
    unstacked = [f for f in fractions if not f["stacked"]]
    assert unstacked == [], f"fractions whose numerator is not above the denominator: {unstacked}"
    return boxes, fractions


def assert_offline_and_clean(tab, context):
    assert context.blocked == [], f"the page tried the network: {context.blocked}"
    assert tab.errors == [], f"errors in the page: {tab.errors}"


def test_docs_index_math_and_figures(page, browser_context, site_dir, shoot):
    open_page(page, site_dir / "index.html")
    boxes, fractions = assert_math_rendered(page)
    assert len(boxes) >= 4 and fractions, "the home page shows closed forms with a fraction"
    images = page.evaluate("""() => [...document.querySelectorAll('img')].map(i => ({
        src: i.getAttribute('src'), done: i.complete, w: i.naturalWidth, h: i.naturalHeight}))""")
    assert sorted(i["src"] for i in images) == sorted(f"plots/{n}.png" for n in plots.PLOTS)
    for image in images:
        assert image["done"] and image["w"] > 0, f"figure did not load: {image}"
        assert (image["w"], image["h"]) == plots.pixels(image["src"][6:-4]), image
    assert_offline_and_clean(page, browser_context)
    shoot(page, "docs-index")


def test_docs_closed_forms_page(page, browser_context, site_dir, shoot):
    open_page(page, site_dir / "closed-forms.html")
    boxes, _ = assert_math_rendered(page, expected_count=len(pages.all_specs()))
    assert [b["spec"] for b in boxes] == pages.all_specs()
    assert_offline_and_clean(page, browser_context)
    shoot(page, "docs-closed-forms", full_page=False)


def test_closed_forms_tables_fit_at_1280_px(page, site_dir, shoot):
    assert page.viewport_size["width"] == VIEWPORT_WIDTH
    open_page(page, site_dir / "closed-forms.html")
    assert page.evaluate(PAGE_WIDTH) <= VIEWPORT_WIDTH, "the page scrolls sideways"
    tables = page.evaluate(TABLE_FIT)
    assert len(tables) == len([s for s in pages.sections() if s[0] not in pages.LONG])
    for t in tables:
        assert t["scroll"] <= t["client"] + 1, f"table wider than its column: {t}"
        assert t["inColumn"] and t["spill"] == 0, t
        assert t["ownOverflow"] in ("visible", "n/a"), f"a second scroll box: {t}"
    for f in page.evaluate(WIDE_FORMULAS):  # too wide: it scrolls in its own box
        assert f["scroll"] <= f["client"] + 1 or f["overflow"] in ("auto", "scroll"), f
    shoot(page, "docs-closed-forms-1280-full")


def hand_built_result():
    """Every verdict, a mismatch, and a claim whose text is markup."""
    def claim(i, verdict, expect="true", expr="params(relu, d, 4*d) == 8*d**2", **kw):
        return {"id": f"c{i}", "file": "docs/page.md", "line": 10 + i, "col": 1, "expr": expr,
                "verdict": verdict, "expect": expect, "ok": verdict == expect,
                "value": kw.get("value", "8*d**2"), "detail": kw.get("detail", "")}
    claims = [
        claim(1, "true"), claim(2, "true"), claim(3, "false", expr=PAYLOAD, value=PAYLOAD),
        claim(4, "false", expect="false"), claim(5, "unknown", detail="budget exhausted"),
        claim(6, "error", detail="line 1, col 3: unexpected token"),
        claim(7, "skipped", expect="skipped"),
    ]
    summary = {"total": 7, "true": 2, "false": 2, "unknown": 1, "error": 1, "skipped": 1,
               "ok": 4, "failed": 3}
    return {"version": 1, "claims": claims, "summary": summary}


@pytest.fixture(scope="session")
def hand_built_report(tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "hand-built-report.html"
    path.write_text(report_html.render(hand_built_result()), encoding="utf-8")
    return path


def test_report_filter_and_escaping(page, browser_context, hand_built_report, shoot):
    open_page(page, hand_built_report)
    expected = [c["verdict"] for c in hand_built_result()["claims"]]
    assert page.evaluate(VISIBLE_VERDICTS) == expected
    shoot(page, "report-hand-built")
    for verdict in ("true", "false", "unknown", "error", "skipped"):
        page.click(f'button[data-filter="{verdict}"]')
        assert page.evaluate(VISIBLE_VERDICTS) == [v for v in expected if v == verdict]
        assert page.get_attribute(f'button[data-filter="{verdict}"]', "aria-pressed") == "true"
    page.click('button[data-filter="false"]')
    shoot(page, "report-filtered-false")
    page.click('button[data-filter="mismatch"]')
    assert page.evaluate(VISIBLE_VERDICTS) == ["false", "unknown", "error"]
    page.click('button[data-filter="all"]')
    assert page.evaluate(VISIBLE_VERDICTS) == expected
    # the markup in the claim is text on the page, and it never ran
    assert page.evaluate("window.__pwned") is None
    cells = page.locator("td.expr code").all_text_contents()
    assert PAYLOAD in cells
    assert_offline_and_clean(page, browser_context)


def test_report_of_the_docs_audit(page, browser_context, audit_report, shoot):
    open_page(page, audit_report)
    assert page.evaluate(PAGE_WIDTH) <= VIEWPORT_WIDTH, "the report scrolls sideways at 1280 px"
    verdicts = page.evaluate(VISIBLE_VERDICTS)
    assert verdicts, "the audit report lists no claims"
    for verdict in sorted(set(verdicts)):
        page.click(f'button[data-filter="{verdict}"]')
        assert page.evaluate(VISIBLE_VERDICTS) == [v for v in verdicts if v == verdict]
    page.click('button[data-filter="all"]')
    assert page.evaluate(VISIBLE_VERDICTS) == verdicts
    shoot(page, "report-docs-audit", full_page=False)
    if page.locator('button[data-filter="mismatch"]').count():
        page.click('button[data-filter="mismatch"]')
        mismatched = page.evaluate("""() => [...document.querySelectorAll('table.claims tbody tr')]
            .filter(r => r.getClientRects().length > 0).map(r => r.dataset.ok)""")
        assert mismatched and set(mismatched) == {"false"}
        shoot(page, "report-docs-audit-mismatch")
    assert_offline_and_clean(page, browser_context)


def test_every_docs_page_renders_offline(page, browser_context, site_dir, shoot):
    """Each built page at 1280 px: no network, no script errors, no sideways scrolling,
    math laid out, images loaded; a screenshot of its first screen."""
    built = sorted(p for p in site_dir.glob("*.html") if p.name != "404.html")
    assert len(built) >= 2
    for path in built:
        open_page(page, path)
        assert page.evaluate(PAGE_WIDTH) <= VIEWPORT_WIDTH, f"{path.name} scrolls sideways"
        if page.locator("math").count():
            assert_math_rendered(page)
        broken = page.evaluate("""() => [...document.querySelectorAll('img')]
            .filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)""")
        assert broken == [], f"{path.name}: images that did not load: {broken}"
        assert page.evaluate(CODE_OVERFLOW) == [], f"{path.name}: code wider than its block"
        for line in page.evaluate(WRAPPED_LINES):  # a wrapped line: a hanging indent
            assert line["indent"].startswith("-") and line["pad"] != "0px", (path.name, line)
        assert_offline_and_clean(page, browser_context)
        shoot(page, f"docs-page-{path.stem}", full_page=False)


def test_params_page_code_wraps_at_1280_px(page, site_dir, shoot):
    """The params page has claim lines longer than its column: they wrap inside the block
    (no sideways scroll) and each line stays one line of the source."""
    open_page(page, site_dir / "params.html")
    assert page.evaluate(CODE_OVERFLOW) == []
    wrapped = page.evaluate(WRAPPED_LINES)
    assert wrapped, "no line long enough to wrap on the params page at 1280 px"
    lines = page.evaluate("""() => [...document.querySelectorAll('pre > code')].map(c =>
        [c.textContent.split('\\n').filter(Boolean).length,
         c.querySelectorAll('span[id^="__span-"]').length])""")
    assert lines and all(text == spans for text, spans in lines), lines
    page.locator("pre > code").nth(0).scroll_into_view_if_needed()
    shoot(page, "docs-params-code-1280", full_page=True)
