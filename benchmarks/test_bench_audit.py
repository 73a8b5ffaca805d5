"""`ffnverify audit` of 1,000 mixed claims (benchmarks/audit_claims.py): under 10 s on the
project's 2-core machine (moved from tests/claims/test_audit_speed.py, which still checks
every verdict in the default envs); and of 10,000 garbage lines and random bytes: under
60 s (moved from tests/claims/test_audit_cmd.py, which still checks that every one is an
error, never a traceback). Recorded in extra_info: the process CPU time and the load
average at the start."""

import os
import random
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


GARBAGE_LIMIT_S = 60.0


def test_audit_of_10000_garbage_lines_and_random_bytes(benchmark, tmp_path):
    rng = random.Random(3)  # the inputs of test_random_bytes_and_garbage_give_errors_not_...

    def random_lines(n):
        return b"\n".join(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60)))
                           .replace(b"\n", b"") for _ in range(n))

    (tmp_path / "bytes.md").write_bytes(random_lines(10_000))
    (tmp_path / "bytes.toml").write_bytes(random_lines(10_000))
    lines = ["".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0x80, 0x2000)]))
                     for _ in range(rng.randrange(1, 80))).replace("`", "'")
             for _ in range(10_000)]
    (tmp_path / "garbage.md").write_text("```claim\n" + "\n".join(lines) + "\n```\n")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None

    def run():
        cpu = time.process_time()
        code = main(["audit", *(str(tmp_path / n) for n in ("bytes.md", "bytes.toml",
                                                            "garbage.md")),
                     "--format", "json", "--output", str(tmp_path / "r.json")])
        return code, time.process_time() - cpu

    start = time.perf_counter()
    code, cpu = benchmark.pedantic(run, rounds=1, iterations=1)
    wall = time.perf_counter() - start
    benchmark.extra_info.update(cpu_s=round(cpu, 2), load=load)
    assert code == 2  # every line an error, none a traceback
    assert wall < GARBAGE_LIMIT_S, f"{wall:.1f} s (CPU {cpu:.1f} s, load {load})"
