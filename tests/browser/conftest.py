"""Headless Chromium for the browser tests, and the pages they open.

Chromium is the system's (Debian's `chromium` package), driven by Playwright with
`executable_path`: no browser is ever downloaded. Without Playwright or Chromium the tests
skip with the reason. Every request other than file:, data:, blob: and about: is blocked
and recorded, so a page that reaches for the network fails its test.

Inputs (all optional): FFNVERIFY_SITE (a built site; default: build one now),
FFNVERIFY_REPORT (an `ffnverify audit --format html` page; default: make one now),
FFNVERIFY_CHROMIUM (the browser binary), FFNVERIFY_SCREENSHOTS (default build/screenshots).
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
LOCAL_SCHEMES = ("file:", "data:", "blob:", "about:")
SCREENSHOTS: list[Path] = []


def chromium_path() -> str | None:
    """FFNVERIFY_CHROMIUM if set (even if wrong: no silent fallback), else the system's."""
    given = os.environ.get("FFNVERIFY_CHROMIUM")
    candidates = [given] if given else ["/usr/bin/chromium", shutil.which("chromium"),
                                        shutil.which("chromium-browser")]
    return next((c for c in candidates if c and Path(c).is_file()), None)


@pytest.fixture(scope="session")
def browser_context(tmp_path_factory):
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (pip install playwright; "
        "the browser tox env has it)")
    executable = chromium_path()
    if executable is None:
        where = os.environ.get("FFNVERIFY_CHROMIUM") or "/usr/bin/chromium or on PATH"
        pytest.skip(f"no Chromium installed ({where}); Debian: apt-get install -y chromium, "
                    "or set FFNVERIFY_CHROMIUM to the browser binary")
    profile = tmp_path_factory.mktemp("chromium-profile")  # a fresh --user-data-dir
    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(profile), executable_path=executable, headless=True, args=CHROMIUM_FLAGS,
            viewport={"width": 1280, "height": 900})
        context.blocked = []

        def guard(route):
            url = route.request.url
            if url.startswith(LOCAL_SCHEMES):
                route.continue_()
            else:
                context.blocked.append(url)
                route.abort()

        context.route("**/*", guard)
        yield context
        context.close()


@pytest.fixture
def page(browser_context):
    """A fresh tab that records console errors and uncaught exceptions."""
    tab = browser_context.new_page()
    tab.errors = []
    tab.on("pageerror", lambda exc: tab.errors.append(f"uncaught: {exc}"))
    tab.on("console", lambda m: tab.errors.append(f"console: {m.text}")
           if m.type == "error" else None)
    browser_context.blocked.clear()
    yield tab
    tab.close()


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory) -> Path:
    given = os.environ.get("FFNVERIFY_SITE")
    if given:
        path = Path(given)
        assert (path / "index.html").is_file(), f"FFNVERIFY_SITE={given} has no index.html"
        return path
    pytest.importorskip("mkdocs", reason="MkDocs is not installed (pip install -e .[docs])")
    out = tmp_path_factory.mktemp("site")
    env = os.environ | {"FFNVERIFY_DOCS_VERDICTS": "0", "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"docs build failed:\n{done.stdout}\n{done.stderr}"
    return out


@pytest.fixture(scope="session")
def audit_report(tmp_path_factory) -> Path:
    """The report of a real audit of docs/ (FFNVERIFY_REPORT, or one made now)."""
    given = os.environ.get("FFNVERIFY_REPORT")
    if given:
        path = Path(given)
        assert path.is_file(), (f"FFNVERIFY_REPORT={given} does not exist: did "
                                "`ffnverify audit docs --format html -o report.html` run?")
        return path
    path = tmp_path_factory.mktemp("report") / "report.html"
    done = subprocess.run([sys.executable, "-m", "ffnverify", "audit", "docs", "--format",
                           "html", "--output", str(path)],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    if not path.is_file():
        pytest.skip("`ffnverify audit --format html` wrote no report (exit "
                    f"{done.returncode}): {done.stderr.strip()[-300:]}")
    return path


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    folder = Path(os.environ.get("FFNVERIFY_SCREENSHOTS", ROOT / "build" / "screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def shoot(screenshot_dir):
    def take(tab, name, full_page=True):
        path = screenshot_dir / f"{name}.png"
        tab.screenshot(path=str(path), full_page=full_page)
        assert path.stat().st_size > 0
        SCREENSHOTS.append(path.resolve())
        print(f"screenshot: {path.resolve()}")
        return path
    return take


def pytest_terminal_summary(terminalreporter):
    if SCREENSHOTS:
        terminalreporter.section("browser screenshots")
        for path in SCREENSHOTS:
            terminalreporter.write_line(str(path))
