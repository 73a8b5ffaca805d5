"""The scan in pytest: `pytest --ffnverify-scan docs/` adds one test item per document
(.md .txt .rst .html .ipynb) that fails when a statement the scan checked is false, and,
with `--ffnverify-scan-strict`, when a statement is unchecked. Off by default, so the
claim items of the plugin are unchanged. Registered from `ffnverify.pytest_plugin`.
"""

import atexit

import pytest

from ffnverify.claims.budget import DEFAULT_TIMEOUT, Engine
from ffnverify.scan import readers
from ffnverify.scan.report import safe
from ffnverify.scan.scan import exit_code, scan

_ENGINE: list = []


def pytest_addoption(parser):
    group = parser.getgroup("ffnverify")
    group.addoption("--ffnverify-scan", action="store_true", default=False,
                    help="scan documents for numeric statements (ffnverify scan)")
    group.addoption("--ffnverify-scan-strict", action="store_true", default=False,
                    help="with --ffnverify-scan: fail on unchecked statements too")


def _engine() -> Engine:
    if not _ENGINE:
        _ENGINE.append(Engine(timeout=DEFAULT_TIMEOUT))
        atexit.register(_ENGINE[0].close)
    return _ENGINE[0]


def pytest_collect_file(file_path, parent):
    if not parent.config.getoption("ffnverify_scan", default=False):
        return None
    if readers.format_of(file_path) is None:
        return None
    return ScanFile.from_parent(parent, path=file_path, name=f"{file_path.name}::scan")


class ScanFile(pytest.File):
    def collect(self):
        yield ScanItem.from_parent(self, name="scan")


class ScanFailure(Exception):
    """Statements that the scan found false (or, strict, unchecked)."""


class ScanItem(pytest.Item):
    def runtest(self):
        result = scan([str(self.path)], _engine(), claims=[])
        strict = self.config.getoption("ffnverify_scan_strict")
        self.user_properties.append(("summary", result["summary"]))
        if exit_code(result, strict):
            bad = [r for r in result["statements"]
                   if (r["status"] == "checked" and r["verdict"] == "false")
                   or (strict and r["status"] == "unchecked")]
            raise ScanFailure(result, bad)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScanFailure):
            result, bad = excinfo.value.args
            lines = [f"{safe(r['file'])}:{r['line']}:{r['col']}: {r['status']} "
                     f"{r['verdict'] or ''} “{safe(r['text'][:160])}”"
                     + (f"\n    claim: {safe(r['claim'])}" if r["claim"] else "")
                     for r in bad]
            lines += [f"{safe(e['file'])}:{e['line']}:{e['col']}: {safe(e['message'])}"
                      for e in result.get("errors", [])]
            return "\n".join(lines)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, 0, f"scan {self.path.name}"
