"""`ffnverify audit` of 1,000 mixed claims (benchmarks/audit_claims.py): under 10 s on the
project's 2-core machine (moved from tests/claims/test_audit_speed.py, which still checks
every verdict in the default envs). Recorded in extra_info: the process CPU time and the
load average at the start."""

import os
import time

from benchmarks.audit_claims import mixed_claims
from ffnverify.cli import main

LIMIT_S = 10.0


def test_audit_of_1000_mixed_claims(benchmark, tmp_path):
    path = tmp_path / "bench.toml"
    path.write_text("".join(f'[[claim]]\nexpr = "{e}"\nexpect = "{x}"\n\n'
                            for e, x in mixed_claims(1000)), encoding="utf-8")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None

    def run():
        cpu = time.process_time()
        code = main(["audit", str(path), "--format", "json",
                     "--output", str(tmp_path / "r.json")])
        return code, time.process_time() - cpu

    start = time.perf_counter()
    code, cpu = benchmark.pedantic(run, rounds=1, iterations=1)
    wall = time.perf_counter() - start
    benchmark.extra_info.update(cpu_s=round(cpu, 2), load=load)
    assert code == 0
    assert wall < LIMIT_S, f"{wall:.1f} s (CPU {cpu:.1f} s, load {load})"
