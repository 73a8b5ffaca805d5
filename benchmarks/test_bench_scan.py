"""`ffnverify scan` on 1 MB of Markdown: under 10 s, claims engine included.

The document is the project's docs pages and the scan's labelled corpus, copied until it
reaches 1 MB, with every number shifted by the copy's index so that no copy repeats a
statement (no cache helps, and every reading is a new claim for the engine). Recorded in
extra_info: the statements found, the claims decided, the process CPU time and the load
average at the start.
"""

import os
import re
import time
from pathlib import Path

from ffnverify.claims.budget import Engine
from ffnverify.scan.scan import scan

ROOT = Path(__file__).resolve().parents[1]
LIMIT_S = 10.0


def one_megabyte(path: Path) -> Path:
    sources = sorted((ROOT / "docs").glob("*.md")) + sorted(
        (ROOT / "tests" / "scan" / "corpus").glob("*.md"))
    base = "\n\n".join(p.read_text(encoding="utf-8").split("---\n", 2)[-1] for p in sources)
    out, n, i = [], 0, 0
    while n < 1_000_000:
        chunk = re.sub(r"\b(\d{2,})\b", lambda m, i=i: str(int(m.group()) + i), base)
        out.append(chunk)
        n += len(chunk.encode())
        i += 1
    path.write_text("".join(out), encoding="utf-8")
    return path


def test_scan_one_megabyte(benchmark, tmp_path):
    doc = one_megabyte(tmp_path / "big.md")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None

    def run():
        cpu = time.process_time()
        with Engine() as engine:
            result = scan([str(doc)], engine)
        return result, time.process_time() - cpu

    start = time.perf_counter()
    result, cpu = benchmark.pedantic(run, rounds=1, iterations=1)
    wall = time.perf_counter() - start
    s = result["summary"]
    benchmark.extra_info.update(statements=s["total"], read=s["checked"] + s["suggested"],
                                cpu_s=round(cpu, 2), load=load, bytes=doc.stat().st_size)
    assert s["total"] > 1000
    assert wall < LIMIT_S, f"{wall:.1f} s (CPU {cpu:.1f} s, load {load})"
