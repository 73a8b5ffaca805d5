"""The arithmetic recogniser that detection uses (ffnverify/scan/recognise.py): it agrees
with the reader on what is written arithmetic, and detection no longer imports the reader
(the detect ↔ read cycle of issue 25 §2)."""

import ast
from pathlib import Path

import pytest

from ffnverify.scan.numbers import tokens
from ffnverify.scan.read import arithmetic
from ffnverify.scan.recognise import writes_arithmetic

WRITTEN = ["3 × 32 = 96", "8,192 × 8,192 = 67.1M", "8/3 × 4096 ≈ 10923", "2^12 = 4096",
           "(768 × 4 = 3072)", "4096² = 16,777,216", "2 + 2 = 5", "12 × 768 < 10000"]
NOT_WRITTEN = ["d = 4", "32 = 32", "layers: 32", "3 (2+4) = 18", "× 4 =", "the year 2023",
               "512 × 64", "32 layers and 32 heads", "= 5"]


@pytest.mark.parametrize("text", WRITTEN)
def test_written_arithmetic_is_recognised(text):
    assert writes_arithmetic(tokens(text))
    assert bool(arithmetic(tokens(text))[0])


@pytest.mark.parametrize("text", NOT_WRITTEN)
def test_no_arithmetic_is_recognised_where_none_is_written(text):
    assert writes_arithmetic(tokens(text)) == bool(arithmetic(tokens(text))[0])
    assert not writes_arithmetic(tokens(text))


def test_recogniser_agrees_with_reader_on_the_corpus():
    root = Path(__file__).parent / "corpus_v3" / "dev"
    seen = 0
    for f in sorted(root.rglob("*")):
        if not f.is_file():
            continue
        for line in f.read_text(errors="ignore").splitlines():
            if not any(c.isdigit() for c in line):
                continue
            toks = tokens(line)
            seen += 1
            assert writes_arithmetic(toks) == bool(arithmetic(toks)[0]), line
    assert seen > 100


def _imports(path: Path) -> set:
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_detect_and_recognise_do_not_import_the_reader():
    pkg = Path(__file__).resolve().parents[2] / "ffnverify" / "scan"
    for name in ("detect.py", "recognise.py"):
        assert "ffnverify.scan.read" not in _imports(pkg / name), name
