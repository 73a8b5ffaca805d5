"""Build the site in strict mode and look at what came out: math, figures, nav, offline.

FFNVERIFY_SITE names a site already built in strict mode (`tox -e docs` builds it once, for
these tests and the browser tests); without it the site is built here.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mkdocs", reason="MkDocs is in the docs extra: pip install -e .[docs]")
pytest.importorskip("material", reason="mkdocs-material is in the docs extra")
pytest.importorskip("matplotlib", reason="matplotlib is in the docs extra")

from docs_build import hooks, pages, plots

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    given = os.environ.get("FFNVERIFY_SITE")
    if given:
        path = Path(given)
        assert (path / "index.html").is_file(), f"FFNVERIFY_SITE={given} has no index.html"
        return path
    out = tmp_path_factory.mktemp("site")
    env = os.environ | {"FFNVERIFY_DOCS_VERDICTS": "0", "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"strict build failed:\n{done.stdout}\n{done.stderr}"
    return out


def test_home_page_shows_math_and_every_figure(site):
    index = (site / "index.html").read_text()
    assert index.count("<math ") >= 4
    images = re.findall(r'<img [^>]*src="([^"]+)"', index)
    assert sorted(images) == sorted(f"plots/{n}.png" for n in plots.PLOTS)
    for src in images:
        assert (site / src).stat().st_size > 10_000


def test_closed_forms_page_has_every_formula(site):
    html = (site / "closed-forms.html").read_text()
    assert html.count("<math ") == len(pages.all_specs())


def test_nav_lists_every_page_of_docs(site):
    index = (site / "index.html").read_text()
    sources = [p.relative_to(ROOT / "docs").as_posix()
               for p in (ROOT / "docs").rglob("*.md")] + [pages.PAGE]
    for src in sources:
        assert f'href="{src[:-3]}.html"' in index or src == "index.md", f"{src} not in nav"


def test_nothing_is_loaded_from_the_network(site):
    for page in site.glob("*.html"):
        html = page.read_text()
        remote = re.findall(r'<(?:script|link|img)[^>]*(?:src|href)="(?:https?:)?//[^"]*"', html)
        assert remote == [], f"{page.name} loads from the network: {remote}"


def test_nav_order_puts_known_pages_first():
    class F:
        def __init__(self, src):
            self.src_uri = src

    class Files:
        def documentation_pages(self):
            return [F(s) for s in ("zeta.md", "flops.md", "index.md", "alpha.md", "params.md")]

    assert hooks.nav_from(Files()) == [{"Home": "index.md"}, "params.md", "flops.md", "alpha.md",
                                       "zeta.md"]
