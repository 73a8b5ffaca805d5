"""`ffnverify bench` on torch CPU: the profiler's native `USDT:` notices never reach stderr.

kineto writes "USDT:... profiler_start" / "profiler_stop" to file descriptor 2 from C++ on
every profile (whatever KINETO_LOG_LEVEL says), so the test runs bench in a child process
and reads the real fd 2; a warning that is not a profiler notice still gets through.
"""

import subprocess
import sys

import pytest

pytest.importorskip("torch", reason="needs PyTorch")

RUN = ["-m", "ffnverify", "bench", "torch", "--variant", "gelu", "--shape", "8,4,6",
       "--pass", "train", "--rounds", "1", "--warmup", "0"]


def test_bench_stderr_has_no_profiler_notices():
    done = subprocess.run([sys.executable, *RUN], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "matches" in done.stdout, done.stdout  # the memory row, measured by the profiler
    assert "USDT:" not in done.stderr and "USDT:" not in done.stdout, done.stderr


def test_other_native_stderr_lines_still_get_through(capfd):
    import os

    from ffnverify.bench.measure import _native_notices_dropped

    with _native_notices_dropped():
        os.write(2, b"USDT:2026 1:1 SyncActivityProfilerHandler.cpp:52] profiler_start\n")
        os.write(2, b"a real warning\n")
    err = capfd.readouterr().err
    assert "a real warning" in err and "USDT:" not in err, err
