"""Skips that must not pass for green: the pytest side of tox's closing summary.

Two jobs, both driven by environment variables that tox.ini sets per env:

- FFNVERIFY_REQUIRE (comma-separated marker names, e.g. `browser` or `hf`): the tests of
  those groups are what the env is for. Under CI (CI=true/1/yes) a skipped test of such a
  group, or a skipped module that declares the marker in `pytestmark`, is a failure; locally
  it stays a skip, and the terminal summary prints a warning naming it.
- FFNVERIFY_SKIP_LOG (a file): every skip of the run is appended there as one JSON line
  {"reason", "count", "required"}, grouped by reason; tox's toxfile.py reads it to print
  the closing summary of the whole run.

conftest.py imports the hooks from here.
"""

import json
import os
import re
from collections import Counter
from pathlib import Path

import pytest

TRUE = ("1", "true", "yes", "on")


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in TRUE


def required_groups() -> set[str]:
    return {g.strip() for g in os.environ.get("FFNVERIFY_REQUIRE", "").split(",") if g.strip()}


def _reason(longrepr) -> str:
    text = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return text.removeprefix("Skipped: ").strip()


def _module_groups(path: Path) -> set[str]:
    """Markers a module declares in its `pytestmark` (read as text: it may not import)."""
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return set()
    found = set()
    for m in re.finditer(r"(?m)^pytestmark\s*=\s*(.+)$", source):
        found |= set(re.findall(r"mark\.(\w+)", m.group(1)))
    return found


def _must_run(groups: set[str]) -> set[str]:
    return groups & required_groups()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not report.skipped or hasattr(report, "wasxfail"):
        return
    groups = _must_run({m.name for m in item.iter_markers()})
    report.required_groups = sorted(groups)
    if groups and in_ci():
        report.outcome = "failed"
        report.skip_reason = _reason(report.longrepr)
        report.longrepr = (f"skipped under CI, but the {', '.join(sorted(groups))} tests must "
                           f"run in this env: {_reason(report.longrepr)}")


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    report = outcome.get_result()
    if report.outcome != "skipped" or not isinstance(collector, pytest.Module):
        return
    groups = _must_run(_module_groups(Path(collector.path)))
    report.required_groups = sorted(groups)
    if groups and in_ci():
        report.outcome = "failed"
        report.skip_reason = _reason(report.longrepr)
        report.longrepr = (f"skipped under CI, but the {', '.join(sorted(groups))} tests must "
                           f"run in this env: {_reason(report.longrepr)}")


def _skips(terminalreporter) -> list[dict]:
    """Skips grouped by reason; a required skip that CI turned into a failure counts too
    (marked "failed": true)."""
    counts: Counter = Counter()
    required: dict[tuple, list[str]] = {}
    stats = terminalreporter.stats
    turned = [r for key in ("failed", "error") for r in stats.get(key, [])
              if getattr(r, "skip_reason", None)]
    for report in [*stats.get("skipped", []), *turned]:
        failed = bool(getattr(report, "skip_reason", None))
        key = (report.skip_reason if failed else _reason(report.longrepr), failed)
        counts[key] += 1
        groups = getattr(report, "required_groups", [])
        required[key] = sorted(set(required.get(key, [])) | set(groups))
    return [{"reason": r, "count": n, "required": required[(r, f)], **({"failed": True} if f else {})}
            for (r, f), n in counts.items()]


def pytest_terminal_summary(terminalreporter):
    if hasattr(terminalreporter.config, "workerinput"):
        return  # an xdist worker: the controller sees every report and writes once
    skips = _skips(terminalreporter)
    log = os.environ.get("FFNVERIFY_SKIP_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as f:
            for s in skips:
                f.write(json.dumps(s) + "\n")
    should_run = [s for s in skips if s["required"] and not s.get("failed")]
    if should_run:
        terminalreporter.section("WARNING: tests this env is for were skipped", red=True)
        for s in should_run:
            terminalreporter.write_line(f"{s['count']} {', '.join(s['required'])} "
                                        f"test(s) skipped: {s['reason']}")
        terminalreporter.write_line("(under CI=true these are failures)")
