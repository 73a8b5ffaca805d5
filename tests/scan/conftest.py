"""Fixtures for the scan tests: an in-process engine (fast; the budget test uses real
workers) and a helper that scans text written to a temporary file."""

import pytest

from ffnverify.claims.budget import Engine
from ffnverify.scan.scan import scan


@pytest.fixture(scope="session")
def engine():
    return Engine(isolate=False)


@pytest.fixture
def scan_text(tmp_path, engine):
    def run(text: str, name: str = "doc.md", **kw) -> dict:
        path = tmp_path / name
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return scan([str(path)], engine, **kw)

    return run
