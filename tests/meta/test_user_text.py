"""User-facing text stands on its own: it never cites the internal "SPEC §" sections (that
file is not shipped), and every install hint works from where the user installed (names a
real package, `pip install torch`, or this checkout's extra, `pip install -e .[docs]`;
never `pip install ffnverify...`, which is not on an index)."""

import ast
import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INTERNAL = re.compile(r"SPEC\s*§")
# a hint that installs this project by name from an index, where it is not published
BAD_HINT = re.compile(r"pip install\s+['\"]?ffnverify\b|pypi\.org/project/ffnverify")

# Lines in files other helpers own that still break the rules; fixed when merged (the list
# only shrinks: a stale entry fails the test).
PENDING: set = set()


def prose_files() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
             *sorted((ROOT / "examples").rglob("*.md")), *sorted((ROOT / "examples").rglob("*.toml"))]
    return [f for f in files if f.is_file()]


def docstring_nodes(tree) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


@functools.cache
def code_strings() -> list[tuple[Path, int, str]]:
    """String literals of the shipped code and the docs build that are not docstrings:
    messages, help text, generated page text (parsed once per process: every test here
    reads the same files)."""
    out = []
    for folder in ("ffnverify", "derivations", "docs_build"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            skip = docstring_nodes(tree)
            for node in ast.walk(tree):
                if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                        and id(node) not in skip):
                    out.append((path, node.lineno, node.value))
    return out


def violations(pattern) -> set[tuple[str, str]]:
    found = set()
    for path in prose_files():
        for line in path.read_text(encoding="utf-8").splitlines():
            if pattern.search(line):
                found.add((path.relative_to(ROOT).as_posix(), line.strip()))
    for path, _, text in code_strings():
        if pattern.search(text):
            found.add((path.relative_to(ROOT).as_posix(), text.strip()))
    return found


def pending_hits(found):
    return {(f, text) for f, text in found for pf, frag in PENDING if f == pf and frag in text}


@pytest.mark.parametrize("pattern", [INTERNAL, BAD_HINT], ids=["no-SPEC-section", "install-hints"])
def test_user_facing_text(pattern):
    found = violations(pattern)
    assert found - pending_hits(found) == set()


def test_pending_list_is_not_stale():
    if not PENDING:
        return  # nothing pending, nothing to find stale (the search would find no entry)
    found = violations(INTERNAL) | violations(BAD_HINT)
    still = {(pf, frag) for pf, frag in PENDING
             if any(f == pf and frag in text for f, text in found)}
    assert still == PENDING, f"fixed now, drop from PENDING: {PENDING - still}"


def test_the_generated_closed_forms_page_has_no_internal_reference():
    pytest.importorskip("sympy")
    from docs_build import pages

    assert not INTERNAL.search(pages.closed_forms_page())


def test_skip_reasons_name_installable_packages():
    """pytest skip reasons in tests/ are hints too."""
    bad = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.name == Path(__file__).name:
            continue  # this file names the bad hints to find them
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if BAD_HINT.search(line):
                bad.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert bad == []


def test_no_source_file_cites_the_spec_file():
    """Docstrings and comments cite docs/architecture.md's sections, not a SPEC file the
    repository does not hold (this file names the pattern, and is left out)."""
    found = []
    for folder in ("ffnverify", "derivations", "docs_build", "tests", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name == "test_user_text.py":
                continue
            for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if INTERNAL.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{k}")
    assert found == [], found
