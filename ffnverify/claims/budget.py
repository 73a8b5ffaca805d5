"""The work and size budget: claims are evaluated in long-lived worker processes.

The size budget is enforced before anything is computed (parser limits on length,
literals and nesting; evaluate's limits on powers and intermediate numbers).

The time budget is counted in **CPU seconds of the worker** (user + system time of the
process evaluating the claim), not in wall-clock seconds: a claim needs the same CPU time
on an idle machine and on one where other processes compete for the cores, so its verdict
does not depend on the machine's load (as Lean's maxHeartbeats and Z3's rlimit count work
done rather than seconds). On POSIX the worker arms ITIMER_PROF for each claim; when the
budget is spent the kernel delivers SIGPROF, whose default action ends the worker even
inside a long C call; the claim gets `unknown` naming the budget and `--timeout`, and the
worker is replaced (a process that stopped mid-computation is never reused).

A wall-clock safety net, far above the budget (SAFETY_NET_FACTOR times it, at least
SAFETY_NET_MIN_S), catches a worker that makes no progress at all (blocked, not
computing); it never decides a verdict that the CPU budget would decide, and its
`unknown` says that it depends on the load. Where the platform has no ITIMER_PROF
(Windows), the budget falls back to wall-clock seconds and its message says so.

Workers are reused from claim to claim, so an audit pays for a process start only at the
beginning and after a budget is spent; each one warms up (imports, SymPy's first calls)
before its first claim, so the first claim pays no more than the others. Each worker also
runs under a memory limit (RLIMIT_AS, where the platform has it).

Workers come from a forkserver (Linux) or are spawned (elsewhere), never forked from a
process that may hold threads (torch, BLAS). As with any multiprocessing code, a script
that creates an Engine needs the `if __name__ == "__main__":` guard.
"""

import math
import multiprocessing
import os
import signal
import sys
import time
from multiprocessing.connection import wait

from ffnverify.claims.parser import MAX_CLAIM_CHARS

# CPU seconds per claim. The slowest bundled docs claim needs about 0.6 CPU s in a fresh
# worker (see tests/claims/test_budget_determinism.py for how it is measured), so the
# default leaves a margin of more than 3x for slower CPUs and cache effects.
DEFAULT_TIMEOUT = 2.0
UNIT = "CPU seconds"
SAFETY_NET_FACTOR = 20  # the wall-clock net: this many times the budget ...
SAFETY_NET_MIN_S = 60.0  # ... and never less than this
MEMORY_LIMIT = 4 * 2**30
STARTUP_TIMEOUT = 120
CPU_BUDGET = hasattr(signal, "setitimer") and hasattr(signal, "SIGPROF")
# claims a worker evaluates before it says it is ready: the lazy imports and SymPy's and
# mpmath's first calls are paid here, not by whichever claim happens to come first
WARM_UP = (("params(swiglu, d, 8/3*d) == params(relu, d, 4*d)", ()),
           ("match_width(relu, 4*d, swiglu, d) == 8/3*d", ()),
           ("d**2 >= 2*d", ("d >= 2",)), ("gelu(1) ≈ 0.8413", ()),
           ("diff(silu(z), z) == subs(diff(silu(z), z), z, z)", ()),
           ("params_total(llama-2-7b) ≈ 6.74B", ()))


def check_timeout(seconds) -> float:
    """`seconds` as a budget of CPU seconds: a finite number above zero, else ValueError."""
    try:
        value = float(seconds)
    except (TypeError, ValueError):
        raise ValueError(f"a timeout must be a number of {UNIT}, not {seconds!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"a timeout must be a finite number of {UNIT} above 0, "
                         f"not {seconds!r}")
    return value


def timeout_help(what="claim") -> str:
    """The --timeout help text, the same for every command that evaluates claims."""
    unit = UNIT if CPU_BUDGET else "seconds (wall clock on this platform)"
    return (f"budget per {what}, in {unit} of the evaluator (not wall-clock time, so a "
            f"verdict does not depend on the machine's load); a {what} past it is "
            f"`unknown` (default {DEFAULT_TIMEOUT:g})")


def safety_net(timeout: float) -> float:
    """Wall-clock seconds after which a claim is given up whatever its CPU time."""
    if not CPU_BUDGET:
        return timeout
    return max(SAFETY_NET_MIN_S, SAFETY_NET_FACTOR * timeout)


def budget_spent(timeout: float) -> dict:
    """The verdict of a claim whose CPU budget ran out."""
    unit = "CPU s" if CPU_BUDGET else "s (wall clock)"
    return {"verdict": "unknown", "value": "", "col": None,
            "detail": f"not decided within the time budget of {timeout:g} {unit}; "
                      f"raise it with --timeout (in {UNIT if CPU_BUDGET else 'seconds'})"}


def net_fired(timeout: float) -> dict:
    """The verdict of a claim stopped by the wall-clock safety net."""
    net = safety_net(timeout)
    return {"verdict": "unknown", "value": "", "col": None,
            "detail": f"stopped by the wall-clock safety net after {net:g} s, before its "
                      f"budget of {timeout:g} CPU s was spent (the evaluator was blocked or "
                      "starved of CPU: this depends on the machine's load, not on the "
                      "claim); --timeout raises both"}


def _limit_memory():
    try:
        import resource

        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = MEMORY_LIMIT if hard == resource.RLIM_INFINITY else min(MEMORY_LIMIT, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, ValueError, OSError):
        pass


def _arm(seconds: float):
    """Start (or with 0, stop) the CPU-time alarm: SIGPROF, default action, ends us."""
    if CPU_BUDGET:
        signal.setitimer(signal.ITIMER_PROF, seconds)


def _worker(conn):
    """Worker loop: receive (key, text, assume, budget), send back (key, result, CPU
    seconds)."""
    _limit_memory()
    if CPU_BUDGET:
        signal.signal(signal.SIGPROF, signal.SIG_DFL)  # the kernel's default: terminate
    from ffnverify.claims.evaluate import evaluate_claim

    for text, assume in WARM_UP:
        evaluate_claim(text, assume)
    conn.send("ready")  # the budget of the first claim starts after the warm-up
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if job is None:
            return
        key, text, assume, timeout = job
        start = time.process_time()
        _arm(timeout)
        result = evaluate_claim(text, assume)
        _arm(0)
        conn.send((key, result, time.process_time() - start))


def _context():
    if sys.platform.startswith("linux"):
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["ffnverify.claims.evaluate"])
        return ctx
    return multiprocessing.get_context("spawn")


class _Slot:
    """One worker process and the claim it is working on."""

    def __init__(self, ctx):
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker, args=(child,), daemon=True)
        self.proc.start()
        child.close()
        self.job: tuple | None = None  # (index, started, budget)
        if not (self.conn.poll(STARTUP_TIMEOUT) and self.conn.recv() == "ready"):
            self.kill()
            raise RuntimeError(f"the claim evaluator did not start within {STARTUP_TIMEOUT} s")

    def kill(self):
        self.proc.kill()
        self.proc.join(1)
        self.conn.close()

    def running(self) -> tuple:
        """(index, started, budget) of the claim this worker is on (one it must be on)."""
        if self.job is None:
            raise RuntimeError("the worker has no claim")
        return self.job

    def ended(self) -> dict:
        """The verdict of the claim whose worker ended before it answered."""
        self.proc.join(1)
        code = self.proc.exitcode
        self.kill()
        if CPU_BUDGET and code == -signal.SIGPROF:
            return budget_spent(self.running()[2])
        return {"verdict": "error", "value": "", "col": None,
                "detail": f"the evaluator process died (exit code {code}) on this claim"}


def oversized(text, assume=()) -> dict | None:
    """The verdict for a claim (or one of its assumptions) too long to send to a worker
    at all: however long a line of a file, only MAX_CLAIM_CHARS of it is ever parsed."""
    if isinstance(text, str) and len(text) > MAX_CLAIM_CHARS:
        return {"verdict": "error", "value": "", "col": 1,
                "detail": f"claim is {len(text):,} characters long; the limit is "
                          f"{MAX_CLAIM_CHARS:,}"}
    for a in assume:
        if isinstance(a, str) and len(a) > MAX_CLAIM_CHARS:
            return {"verdict": "error", "value": "", "col": None,
                    "detail": f"an assumption is {len(a):,} characters long; the limit is "
                              f"{MAX_CLAIM_CHARS:,}"}
    return None


def _complete(results: list[dict | None]) -> list[dict]:
    """The results, once every request has one (the loops of evaluate_many fill each)."""
    out = [r for r in results if r is not None]
    if len(out) != len(results):
        raise RuntimeError("a request was left without a result")
    return out


class Engine:
    """Evaluates claims under the budget (`timeout`, CPU seconds per claim).
    `isolate=False` evaluates in this process (no budget: for debugging only).
    After evaluate_many, `cpu_seconds[i]` is the CPU time claim i took (None when it was
    not evaluated in a worker, or its worker was stopped)."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT, jobs: int = 1, isolate: bool = True):
        self.timeout = check_timeout(timeout)
        self.jobs = max(1, jobs)
        self.isolate = isolate
        self.slots: list[_Slot] = []
        self.cpu_seconds: list[float | None] = []
        self._ctx = None

    def evaluate(self, text: str, assume=()) -> dict:
        return self.evaluate_many([(text, tuple(assume))])[0]

    def evaluate_many(self, requests, progress=None) -> list[dict]:
        """[(text, assume)] -> [result dict], in order. progress(done, total) if given."""
        requests = list(requests)
        results: list[dict | None] = [None] * len(requests)
        self.cpu_seconds = [None] * len(requests)
        pending = []
        for i, (text, assume) in enumerate(requests):
            results[i] = oversized(text, assume)
            if results[i] is None:
                pending.append(i)
        done = len(requests) - len(pending)
        if not self.isolate:
            from ffnverify.claims.evaluate import evaluate_claim

            for i in pending:
                results[i] = evaluate_claim(*requests[i])
                done += 1
                if progress:
                    progress(done, len(requests))
            return _complete(results)
        pending.reverse()
        net = safety_net(self.timeout)
        while pending or any(s.job for s in self.slots):
            self._fill(pending, requests)
            busy = [s for s in self.slots if s.job]
            now = time.monotonic()
            wait_for = max(0.0, min(s.running()[1] + net for s in busy) - now)
            ready = wait([s.conn for s in busy], timeout=wait_for)
            for slot in busy:
                index = slot.running()[0]
                if slot.conn in ready:
                    try:
                        _key, result, cpu = slot.conn.recv()
                    except (EOFError, OSError):
                        result = slot.ended()
                        self.slots.remove(slot)
                    else:
                        slot.job = None
                        self.cpu_seconds[index] = cpu
                elif time.monotonic() - slot.running()[1] >= net:
                    slot.kill()
                    self.slots.remove(slot)
                    result = net_fired(self.timeout) if CPU_BUDGET else \
                        budget_spent(self.timeout)
                else:
                    continue
                results[index] = result
                done += 1
                if progress:
                    progress(done, len(requests))
        return _complete(results)

    def _fill(self, pending, requests):
        while pending:
            idle = [s for s in self.slots if not s.job]
            if not idle:
                if len(self.slots) >= self.jobs:
                    return
                if self._ctx is None:
                    self._ctx = _context()
                self.slots.append(_Slot(self._ctx))
                continue
            slot = idle[0]
            index = pending.pop()
            text, assume = requests[index]
            slot.conn.send((index, text, tuple(assume), self.timeout))
            slot.job = (index, time.monotonic(), self.timeout)

    def close(self):
        for slot in self.slots:
            try:
                slot.conn.send(None)
            except (OSError, ValueError):
                pass
            slot.proc.join(0.5)
            if slot.proc.is_alive():
                slot.kill()
        self.slots = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def default_jobs() -> int:
    """Workers for an audit: two where there are two cores or more."""
    return 2 if (os.cpu_count() or 1) >= 2 else 1
