"""Counters that run real work: timeouts, errors, shape constraints, max-dim, budget, progress."""

import io
import math

import pytest

from ffnverify.cli import main
from ffnverify.cli.check_counter import Progress
from ffnverify.testing.counters import check_counter


def macs(d, h, n):
    return 2 * n * d * h


def test_recovery_respects_max_dim():
    seen = []

    def spy(d, h, n):
        if isinstance(d, int):
            seen.append((d, h, n))
        return 4 * n * d * h  # FLOPs, where MACs are asked: a disagreement, then recovery

    result = check_counter(spy, "macs", "relu", max_examples=100, max_dim=64)
    assert not result.ok and result.yours.expr is not None, result.report()
    assert max(max(p) for p in seen) <= 64, max(seen)


def test_a_slow_call_times_out_as_an_error_naming_the_call():
    import time

    def slow(d, h, n):
        if d > 3:
            time.sleep(5)
        return 2 * n * d * h

    result = check_counter(slow, "macs", "relu", max_examples=20, max_dim=8, timeout=0.2)
    assert result.error is not None and not result.ok, result.report()
    assert "ran past the 0.2 s timeout" in result.error
    assert "in the call slow(d=" in result.error
    assert result.calls < 40  # no shrinking loop re-running the slow call


@pytest.mark.parametrize("fail, message", [
    (lambda: (_ for _ in ()).throw(MemoryError("cannot allocate 16 GB")), "MemoryError"),
    (lambda: None, "returned None"),
])
def test_memory_error_and_none_are_error_verdicts(fail, message):
    def counter(d, h, n):
        if n > 2:
            return fail()
        return 2 * n * d * h

    result = check_counter(counter, "macs", "relu", max_examples=30, max_dim=16)
    assert not result.ok and message in (result.error or ""), result.report()
    assert "in the call counter(d=" in result.error


def test_cli_memory_error_exits_2_without_a_traceback(tmp_path, monkeypatch, capsys):
    (tmp_path / "oom_counter.py").write_text(
        "def f(d, h, n):\n    if d > 2:\n        raise MemoryError('16 GB')\n    return 2*n*d*h\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    rc = main(["check-counter", "oom_counter:f", "--quantity", "macs", "--variant", "relu",
               "--max-examples", "20", "--max-dim", "8"])
    captured = capsys.readouterr()
    assert rc == 2
    assert "error: your function raised MemoryError: 16 GB in the call f(d=" in captured.out
    assert "Traceback" not in captured.out + captured.err


def test_even_token_count_constraint():
    def paired(d, h, n):
        if n % 2:
            raise ValueError("needs an even token count")
        return 2 * n * d * h

    result = check_counter(paired, "macs", "relu", max_examples=30, max_dim=64,
                           tokens_multiple_of=2)
    assert result.ok, result.report()
    bad = check_counter(paired, "macs", "relu", max_examples=30, max_dim=64)
    assert bad.error is not None


def test_batch_times_seq_split():
    seen = []

    def per_batch(d, h, batch, seq):
        seen.append((batch, seq))
        return 2 * batch * seq * d * h

    result = check_counter(per_batch, "macs", "relu", max_examples=30, max_dim=32)
    assert result.ok, result.report()
    assert all(b * s <= 32 for b, s in seen) and any(s > 1 for _, s in seen)
    assert "batch" in result.derived.free_symbols.__repr__()


def test_seq_dropped_is_named_and_confirmed():
    result = check_counter(lambda d, h, batch, seq: 2 * batch * d * h, "macs", "relu",
                           max_examples=30, max_dim=32)
    assert result.explanation.key == "seq_dropped", result.report()


def test_max_examples_bounds_the_calls_after_a_failure():
    calls = []

    def wrong(d, h, n):
        calls.append(1)
        return 4 * n * d * h + d

    result = check_counter(wrong, "macs", "relu", max_examples=10, max_dim=1000)
    assert not result.ok
    failed_at = result.checked  # all points are distinct calls here
    # the recovery lattice first (20 shapes of degree 3 in d, h, n), the search, the budget
    # after the failure (+ the symbolic call)
    lattice = math.comb(3 + 3, 3)
    assert result.calls <= lattice + 2 * 10 + 7 + 2, result.report()
    symbolic = 1 if result.yours.method == "symbolic" else 0  # the call with SymPy symbols
    assert failed_at + symbolic == result.calls == len(calls), result.report()


def test_progress_prints_only_once_a_run_is_slow():
    stream = io.StringIO()
    p = Progress(stream, after=1.5, every_plain=2.0)
    p("search", 3, 0.5)
    assert stream.getvalue() == ""
    p("search", 10, 1.6)
    p("search", 11, 2.0)  # too soon after the last line
    p("evidence", 40, 3.7)
    p("done", 41, 3.8)
    lines = stream.getvalue().splitlines()
    assert lines == ["check-counter: searching: 10 calls, 1.6 s",
                     "check-counter: testing the explanations: 40 calls, 3.7 s"]
    assert "\x1b" not in stream.getvalue()  # no control characters off a terminal


def test_progress_from_the_command_line(tmp_path, monkeypatch, capsys):
    (tmp_path / "slow_counter.py").write_text(
        "import time\ndef f(d, h, n):\n    time.sleep(0.05)\n    return 2*n*d*h\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    rc = main(["check-counter", "slow_counter:f", "--quantity", "macs", "--variant", "relu",
               "--max-examples", "40", "--max-dim", "8"])
    captured = capsys.readouterr()
    assert rc == 0, captured.out
    assert "check-counter: searching:" in captured.err


def test_cli_timeout_is_an_error_verdict(tmp_path, monkeypatch, capsys):
    (tmp_path / "hang_counter.py").write_text(
        "import time\ndef f(d, h, n):\n    if d > 2:\n        time.sleep(30)\n    return 2*n*d*h\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    rc = main(["check-counter", "hang_counter:f", "--quantity", "macs", "--variant", "relu",
               "--max-examples", "20", "--max-dim", "8", "--timeout", "0.3",
               "--format", "json"])
    import json

    data = json.loads(capsys.readouterr().out)
    assert rc == 2 and data["ok"] is False
    assert "ran past the 0.3 s timeout in the call f(d=" in data["error"]
