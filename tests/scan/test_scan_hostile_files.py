"""The scan meets hostile files as the audit does: one bounded reader for both (a FIFO
named *.md, a symlink to /dev/zero, a file over the limit are errors with a position,
never a hang or an unbounded read), and `scan --timeout` refuses nan, inf and 1e309 as a
usage error (exit 2), as `audit --timeout` does."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ffnverify.claims import files
from ffnverify.cli import main
from ffnverify.cli.options import timeout_arg
from ffnverify.scan import scan as scan_mod

ROOT = Path(__file__).resolve().parents[2]
GOOD = "Llama 2 7B has 32 layers.\n"
posix_only = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX FIFOs")


def _run(*args, timeout=120):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "ffnverify", *args], capture_output=True,
                          text=True, timeout=timeout, env=env, cwd=ROOT)
    return done, time.monotonic() - t0


@posix_only
def test_a_fifo_a_device_and_an_oversized_file_are_errors_and_the_rest_is_scanned(tmp_path):
    os.mkfifo(tmp_path / "pipe.md")  # nobody ever writes to it: a read would block forever
    (tmp_path / "zero.md").symlink_to("/dev/zero")  # a read would never end
    with open(tmp_path / "big.md", "wb") as f:  # sparse: st_size over the limit
        f.truncate(scan_mod.MAX_FILE_BYTES + 1)
    (tmp_path / "good.md").write_text(GOOD, encoding="utf-8")
    done, seconds = _run("scan", str(tmp_path), "--format", "json")
    assert "Traceback" not in done.stderr, done.stderr
    result = json.loads(done.stdout)
    errors = {Path(e["file"]).name: e for e in result["errors"]}
    assert set(errors) == {"pipe.md", "zero.md", "big.md"}, errors
    assert "FIFO" in errors["pipe.md"]["message"]
    assert "character device" in errors["zero.md"]["message"]
    assert f"{scan_mod.MAX_FILE_BYTES:,}" in errors["big.md"]["message"]
    assert all((e["line"], e["col"]) == (1, 1) for e in errors.values())
    assert result["summary"]["total"] >= 1  # good.md was still read
    print(f"the scan took {seconds:.1f} s")  # a hang fails by _run's timeout, not by a bound here


@posix_only
def test_scan_and_audit_refuse_the_same_files_with_the_same_words(tmp_path):
    os.mkfifo(tmp_path / "pipe.md")
    (tmp_path / "zero.md").symlink_to("/dev/zero")
    for name in ("pipe.md", "zero.md"):
        path = tmp_path / name
        text, problem = scan_mod._decode(path, name)
        assert text is None
        assert problem["message"] == files.read_bounded(path, scan_mod.MAX_FILE_BYTES)
        (claim,) = files.load(path)
        assert claim.problem and problem["message"] in claim.problem


def test_the_limit_is_the_callers_and_no_byte_past_it_is_returned(tmp_path):
    path = tmp_path / "a.md"
    path.write_bytes(b"x" * 1000)
    assert files.read_bounded(path, 1000) == b"x" * 1000
    refused = files.read_bounded(path, 999)
    assert isinstance(refused, str) and "999" in refused


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e309", "0", "-1", "abc", "",
                                   "0x10", "1.5\x1b[2J"])
@pytest.mark.parametrize("command", ["scan", "audit"])
def test_a_bad_timeout_is_a_usage_error_for_scan_as_for_audit(tmp_path, capsys, command,
                                                             value):
    (tmp_path / "a.md").write_text(GOOD, encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        main([command, str(tmp_path / "a.md"), f"--timeout={value}"])  # = : -inf is a value
    err = capsys.readouterr().err
    assert stop.value.code == 2, err
    assert "CPU seconds" in err and "--timeout" in err, err
    assert "\x1b" not in err  # the value is echoed escaped


def test_scan_timeout_from_the_command_line_needs_no_traceback():
    done, _ = _run("scan", "README.md", "--timeout", "1e309")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr


@given(st.one_of(st.text(max_size=12), st.floats().map(repr), st.integers().map(str)))
def test_timeout_arg_accepts_exactly_the_finite_positive_numbers(text):
    import argparse
    import math

    try:
        number = float(text)
    except ValueError:
        number = None
    if number is not None and math.isfinite(number) and number > 0:
        assert timeout_arg(text) == number
    else:
        with pytest.raises(argparse.ArgumentTypeError):
            timeout_arg(text)


def test_the_help_names_the_budget_and_its_unit(capsys):
    for command in ("scan", "audit"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = " ".join(capsys.readouterr().out.split())
        assert "CPU seconds" in out and "not wall-clock" in out, out


@pytest.mark.parametrize("digits", [61, 400, 5000])
def test_a_figure_too_long_to_read_is_said_never_dropped(scan_text, digits):
    # a statement whose figure has more digits than numbers.MAX_DIGITS was silently left
    # out of the report: it is an input error at its position, and the rest is scanned
    got = scan_text("Llama 2 7B has " + "9" * digits + " layers.\n\n" + GOOD)
    assert [(s["line"], s["verdict"]) for s in got["statements"]] == [(3, "true")]
    assert got["errors"] and all(e["line"] == 1 and "digits" in e["message"]
                                 for e in got["errors"]), got["errors"]


def test_a_figure_at_the_digit_limit_is_read(scan_text):
    got = scan_text("Llama 2 7B has " + "9" * scan_mod.numbers.MAX_DIGITS + " layers.\n")
    assert [s["verdict"] for s in got["statements"]] == ["false"] and not got.get("errors")
