"""Verdicts do not depend on the machine's load: the budget is CPU seconds of the worker.

The bundled docs' and examples' claims are decided on a (more or less) idle machine and
again beside two CPU hogs (busy loops started here, bounded in time and killed in a
`finally`), and every verdict must be the same. The slowest claim's CPU time must leave a
wide margin under the default budget. And a claim that needs more than its budget ends as
`unknown` by the CPU budget (naming --timeout and its unit) under load too, not by the
wall-clock safety net. Runs in the tox envs py311, py312 and py313 (marked slow: about
20 to 40 s on 2 shared cores).
"""

import contextlib
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ffnverify.claims import audit
from ffnverify.claims.budget import (
    DEFAULT_TIMEOUT,
    Engine,
    budget_spent,
    net_fired,
    safety_net,
)
from ffnverify.claims.files import collect

ROOT = Path(__file__).resolve().parents[2]
HOG_SECONDS = 180  # each hog ends by itself after this, even if the test is killed
MARGIN = 3  # the default budget is at least this many times the slowest claim's CPU time
SLOW_CLAIM = "(d + h + n + 1)**300 - (d + h + n)**300 >= 1"  # SymPy expands for long


@contextlib.contextmanager
def cpu_hogs(count: int, seconds: float = HOG_SECONDS):
    """`count` processes that spin on a core each, for at most `seconds`."""
    loop = f"import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end: pass"
    hogs = [subprocess.Popen([sys.executable, "-c", loop]) for _ in range(count)]
    try:
        time.sleep(0.3)  # let them reach their loops
        assert all(h.poll() is None for h in hogs), "a CPU hog did not start"
        yield hogs
    finally:
        for h in hogs:
            h.kill()
        for h in hogs:
            h.wait(10)


def _bundled():
    claims = collect([ROOT / "docs", ROOT / "examples"])
    requests = audit.requests(claims)
    keep = [i for i, r in enumerate(requests) if r is not None]
    return [claims[i] for i in keep], [requests[i] for i in keep]


def _decide(requests):
    with Engine(timeout=DEFAULT_TIMEOUT, jobs=2) as engine:
        t0 = time.monotonic()
        results = engine.evaluate_many(requests)
        wall = time.monotonic() - t0
        return results, list(engine.cpu_seconds), wall


@pytest.mark.slow
def test_bundled_verdicts_are_the_same_idle_and_beside_two_cpu_hogs():
    claims, requests = _bundled()
    assert len(requests) > 100, "the bundled docs and examples hold fewer claims than expected"
    idle, idle_cpu, idle_wall = _decide(requests)
    with cpu_hogs(2):
        loaded, loaded_cpu, loaded_wall = _decide(requests)
    print(f"\n{len(requests)} claims: idle {idle_wall:.1f} s wall, "
          f"{sum(c or 0 for c in idle_cpu):.2f} CPU s; beside 2 hogs {loaded_wall:.1f} s wall, "
          f"{sum(c or 0 for c in loaded_cpu):.2f} CPU s")
    differ = [(f"{c.file}:{c.line}", c.expr, a["verdict"], b["verdict"], b["detail"][:120])
              for c, a, b in zip(claims, idle, loaded) if a["verdict"] != b["verdict"]]
    assert not differ, f"verdicts changed under load: {differ}"
    assert not [r for r in idle if "budget" in r["detail"] or "safety net" in r["detail"]], \
        "a bundled claim was not decided within the default budget"
    worst = max(range(len(requests)), key=lambda i: max(idle_cpu[i] or 0, loaded_cpu[i] or 0))
    need = max(idle_cpu[worst] or 0, loaded_cpu[worst] or 0)
    print(f"slowest: {claims[worst].file}:{claims[worst].line} {need:.3f} CPU s "
          f"(default budget {DEFAULT_TIMEOUT:g} CPU s, margin {DEFAULT_TIMEOUT / need:.1f}x)")
    assert need * MARGIN <= DEFAULT_TIMEOUT, (
        f"{claims[worst].file}:{claims[worst].line} needs {need:.3f} CPU s: less than "
        f"{MARGIN}x under the default budget of {DEFAULT_TIMEOUT:g} CPU s")


@pytest.mark.slow
def test_a_claim_past_its_budget_is_stopped_by_the_cpu_budget_under_load_too():
    with cpu_hogs(2), Engine(timeout=0.4, jobs=1) as engine:
        t0 = time.monotonic()
        result = engine.evaluate(SLOW_CLAIM)
        wall = time.monotonic() - t0
        after = engine.evaluate("params(swiglu, 4, 8) == 96")
    # the CPU budget's verdict, not the safety net's (no wall-clock assertion: a loaded machine
    # stretches the wall clock without a bug)
    assert result == budget_spent(0.4), f"{result} after {wall:.1f} s"
    assert after["verdict"] == "true"  # the worker is replaced, the engine goes on


def test_the_budget_messages_name_the_unit_and_how_to_raise_it():
    spent = budget_spent(0.7)["detail"]
    assert "0.7 CPU s" in spent and "--timeout" in spent and "CPU seconds" in spent, spent
    net = net_fired(0.7)["detail"]
    assert "safety net" in net and "--timeout" in net and "machine" in net, net
    assert safety_net(0.7) >= 20 * 0.7 and safety_net(0.7) >= 60


def test_the_safety_net_stops_a_claim_only_when_its_wall_clock_runs_out(monkeypatch):
    from ffnverify.claims import budget

    monkeypatch.setattr(budget, "safety_net", lambda timeout: 0.5)  # a net below the budget
    with Engine(timeout=30, jobs=1) as engine:
        result = engine.evaluate(SLOW_CLAIM)
        after = engine.evaluate("1 + 1 == 2")
    assert result == net_fired(30), result
    assert "load" in result["detail"] or "machine" in result["detail"]
    assert after["verdict"] == "true"
