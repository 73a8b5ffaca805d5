"""The suite has one import mode (tests/conftest.py says which): no test file edits sys.path,
except the few places that must, each with its reason here."""

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]

EDITS = re.compile(r"sys\.path\.(insert|append|extend)|sys\.path\s*[+]?=")

# file -> why it may edit sys.path
ALLOWED = {
    "conftest.py": "the repository root, once, for docs_build/, benchmarks/ and examples/",
    # a second package `thop` (ultralytics-thop) imported from the folder it was installed
    # into, beside the installed thop: no import mode reaches it
    "counters/real_tools.py": "ultralytics-thop's folder; and the checkout when run as a script",
}


def _editors() -> set[str]:
    return {p.relative_to(TESTS).as_posix() for p in TESTS.rglob("*.py")
            if EDITS.search(p.read_text(encoding="utf-8", errors="replace"))}


def test_no_test_file_edits_sys_path_but_the_allowed_ones():
    assert _editors() <= set(ALLOWED), sorted(_editors() - set(ALLOWED))


def test_the_folders_named_like_the_projects_packages_are_not_packages():
    for name in ("derivations", "testing", "backends"):
        assert not (TESTS / name / "__init__.py").exists(), name
