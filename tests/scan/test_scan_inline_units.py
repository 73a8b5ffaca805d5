"""Arithmetic in inline code with its units (`70B params × 0.6 bytes = 42 GB`) is read as
arithmetic written in prose; a call or a command in inline code stays code (found on
fresh10's half A; the text here is written for the tests)."""

import pytest

from ffnverify.scan.units import _is_arithmetic


@pytest.mark.parametrize("code", [
    "70B params × 0.6 bytes = 42 GB",
    "2 * 32 * 8 * 128 * 2 bytes = 128 KB",
    "7B × 2 bytes ≈ 14 GB",
    "4096 * 11008 * 3",
])
def test_arithmetic_with_its_units_is_prose(code):
    assert _is_arithmetic(code)


@pytest.mark.parametrize("code", [
    "pip install torch==2.1", "model.generate(max_new_tokens=512)",
    "torch.zeros(4096, 4096)", "7B × 2 bytes", "ls -la | head -5 = x",
    "tokens = tokenizer(text) * 2",
])
def test_code_stays_code(code):
    assert not _is_arithmetic(code)


@pytest.mark.parametrize("line, verdict", [
    ("`70B params × 0.6 bytes = 42 GB`", "true"),
    ("`70B params × 0.6 bytes = 35 GB`", "false"),
])
def test_inline_arithmetic_with_units_is_read(scan_text, line, verdict):
    got = scan_text(f"# Example\n\nAt 0.6 bytes per weight:\n{line}\n")["statements"]
    assert [s["verdict"] for s in got if s["verdict"]] == [verdict], got
