"""`ffnverify check` of a tanh-GELU wrong at every shape (constant 0.044), the CLI's
defaults: the failure is reported under 30 s on the project's 2-core machine (it took
3m52s before the smallest shapes ran first). Moved from
tests/conformance/test_fast_failure.py, which still checks the exit code and the report
of the smallest case in the default envs. Recorded in extra_info: the process CPU time and
the load average at the start."""

import os
import pathlib
import sys
import time

import pytest

pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from ffnverify.cli import main

LIMIT_S = 30.0
TESTS = pathlib.Path(__file__).resolve().parent.parent / "tests"


def test_failure_at_every_shape_reported_in_seconds(benchmark, capsys):
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
    from conformance import broken

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None

    def run():
        cpu = time.process_time()
        code = main(["check", f"{broken.__name__}:GeluConstantOff", "--variant", "gelu_tanh"])
        return code, time.process_time() - cpu

    start = time.perf_counter()
    code, cpu = benchmark.pedantic(run, rounds=1, iterations=1)
    wall = time.perf_counter() - start
    out = capsys.readouterr().out
    benchmark.extra_info.update(cpu_s=round(cpu, 2), load=load)
    assert code == 1, out
    assert "drawn:     d=1 h=1 n=1" in out
    assert wall < LIMIT_S, f"{wall:.1f} s (CPU {cpu:.1f} s, load {load})"
