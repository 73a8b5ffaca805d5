"""check-counter meets a counter that ends its process, is interrupted, or returns an
integer too long to print, as the audit meets hostile files: a report or one clear error
line naming the call, exit 2 (1 for a wrong count), no traceback, and nothing from the
user's code reaches the terminal raw."""

import sys
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ffnverify.cli import main
from ffnverify.testing import counters

COUNTERS = '''
import os, signal, sys

def exits_0(d, h):
    sys.exit(0)

def exits_text(d, h):
    sys.exit("done\\x1b[2J")

def hard_exit_0(d, h):
    os._exit(0)

def hard_exit_7(d, h):
    if d > 1:
        os._exit(7)
    return 2 * d * h

def killed(d, h):
    os.kill(os.getpid(), signal.SIGKILL)

def interrupted(d, h):
    raise KeyboardInterrupt

def huge(d, h):
    return 10**5000 + d

def negative_huge(d, h):
    return -(7**9000)

class Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no")

def unprintable(d, h):
    raise Unprintable()

def control(d, h):
    raise ValueError("bad \\x1b[31mred\\nsecond line \\u202e")

def right(d, h):
    return 2 * d * h
'''

CASES = {  # counter: (exit code, words the output must hold)
    "exits_0": (2, ["SystemExit(0)", "sys.exit", "exits_0(d="]),
    "exits_text": (2, ["SystemExit(", "exits_text(d="]),
    "hard_exit_0": (2, ["exited with status 0", "os._exit", "hard_exit_0(d="]),
    "hard_exit_7": (2, ["exited with status 7", "hard_exit_7(d="]),
    "killed": (2, ["killed by signal SIGKILL", "killed(d="]),
    "interrupted": (2, ["KeyboardInterrupt", "interrupted(d="]),
    "huge": (1, ["DISAGREES", "(an integer of 5,001 digits)"]),
    "negative_huge": (1, ["DISAGREES", "digits)"]),
    "unprintable": (2, ["Unprintable", "unprintable(d="]),
    "control": (2, ["ValueError", "\\x1b[31m", "\\n"]),
    "right": (0, ["agrees"]),
}


@pytest.fixture
def module(tmp_path, monkeypatch):
    (tmp_path / "hostile_counters.py").write_text(COUNTERS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return "hostile_counters"


RUNS = [(name, "text") for name in sorted(CASES)] + [
    (name, "json") for name in ("hard_exit_0", "exits_0", "huge", "control", "right")]


@pytest.mark.parametrize("name,fmt", RUNS)
def test_a_counter_that_ends_or_breaks_its_process_gets_a_verdict(module, capfd, name, fmt):
    if name == "killed" and sys.platform == "win32":
        pytest.skip("no SIGKILL on Windows")
    rc = main(["check-counter", f"{module}:{name}", "--quantity", "params", "--variant",
               "relu", "--max-examples", "5", "--format", fmt, "--no-progress"])
    out, err = capfd.readouterr()  # fd level: the child's output too
    both = out + err
    code, words = CASES[name]
    assert rc == code, both
    assert both.strip(), "no output at all"
    assert "Traceback" not in both, both
    for word in words:
        if fmt == "json" and (word.startswith("\\") or word.lower() in ("agrees",
                                                                         "disagrees")):
            continue  # JSON has no verdict word, and escapes its own way (\u001b)
        assert word in both, (word, both)
    assert not any(ch in both for ch in "\x1b\u202e"), both
    assert "\nsecond line" not in both  # a newline from the counter never starts a line


@given(st.integers(min_value=4301, max_value=30_000), st.booleans(), st.integers(1, 9),
       st.sampled_from([0, 12345, -1]))
def test_an_integer_of_any_length_is_shown_by_its_digits_without_str(digits, negative, lead,
                                                                     tail):
    value = lead * 10 ** (digits - 1) + tail
    if value < 10 ** (digits - 1):  # 10**k - 1: one digit fewer, all nines
        digits, lead = digits - 1, 9
    value = -value if negative else value
    shown = counters._num(value)
    assert f"an integer of {digits:,} digits" in shown, shown
    assert shown.startswith(f"{'-' if negative else ''}{lead}."), shown
    assert len(shown) < 80
    assert counters._num(Fraction(value, 3)).count("digits") == 1


@given(st.integers(min_value=-10**100, max_value=10**100))
def test_an_integer_short_enough_is_shown_exactly(value):
    assert counters._num(value) == str(value)
    assert counters._num(Fraction(value)) == str(value)


def test_sys_exit_and_keyboard_interrupt_in_the_api_are_error_results():
    def exits(d, h):
        sys.exit(3)

    def interrupted(d, h):
        raise KeyboardInterrupt

    for fn, word in ((exits, "SystemExit(3)"), (interrupted, "KeyboardInterrupt")):
        result = counters.check_counter(fn, "params", "relu", max_examples=5)
        assert not result.ok and result.error and word in result.error, result.error
        assert "in the call" in result.error
