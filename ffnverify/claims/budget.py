"""The time and size budget: claims are evaluated in long-lived worker processes.

The size budget is enforced before anything is computed (parser limits on length,
literals and nesting; evaluate's limits on powers and intermediate numbers). The time
budget is a wall-clock deadline per claim: a worker that misses it is killed and
restarted, and the claim gets `unknown`. Workers are reused from claim to claim, so an
audit pays for a process start only at the beginning and after a timeout. Each worker
also runs under a memory limit (RLIMIT_AS, where the platform has it).

Workers come from a forkserver (Linux) or are spawned (elsewhere), never forked from a
process that may hold threads (torch, BLAS). As with any multiprocessing code, a script
that creates an Engine needs the `if __name__ == "__main__":` guard.
"""

import math
import multiprocessing
import os
import sys
import time
from multiprocessing.connection import wait

from ffnverify.claims.parser import MAX_CLAIM_CHARS

DEFAULT_TIMEOUT = 1.5  # seconds per claim; a killed worker is replaced well within 2 s
MEMORY_LIMIT = 4 * 2**30
STARTUP_TIMEOUT = 120


def check_timeout(seconds) -> float:
    """`seconds` as a time budget: a finite number above zero, else ValueError."""
    try:
        value = float(seconds)
    except (TypeError, ValueError):
        raise ValueError(f"a timeout must be a number of seconds, not {seconds!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"a timeout must be a finite number of seconds above 0, not {seconds!r}")
    return value


def _limit_memory():
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = MEMORY_LIMIT if hard == resource.RLIM_INFINITY else min(MEMORY_LIMIT, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, ValueError, OSError):
        pass


def _worker(conn):
    """Worker loop: receive (key, text, assume), send back (key, result)."""
    _limit_memory()
    from ffnverify.claims.evaluate import evaluate_claim

    conn.send("ready")  # the deadline of the first claim starts after the imports
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if job is None:
            return
        key, text, assume = job
        conn.send((key, evaluate_claim(text, assume)))


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
        self.job = None  # (index, started)
        if not (self.conn.poll(STARTUP_TIMEOUT) and self.conn.recv() == "ready"):
            self.kill()
            raise RuntimeError(f"the claim evaluator did not start within {STARTUP_TIMEOUT} s")

    def kill(self):
        self.proc.kill()
        self.proc.join(1)
        self.conn.close()


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


class Engine:
    """Evaluates claims under the budget. `isolate=False` evaluates in this process
    (no time limit: for debugging only)."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT, jobs: int = 1, isolate: bool = True):
        self.timeout = check_timeout(timeout)
        self.jobs = max(1, jobs)
        self.isolate = isolate
        self.slots: list[_Slot] = []
        self._ctx = None

    def evaluate(self, text: str, assume=()) -> dict:
        return self.evaluate_many([(text, tuple(assume))])[0]

    def evaluate_many(self, requests, progress=None) -> list[dict]:
        """[(text, assume)] -> [result dict], in order. progress(done, total) if given."""
        requests = list(requests)
        results: list[dict | None] = [None] * len(requests)
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
            return results
        pending.reverse()
        while pending or any(s.job for s in self.slots):
            self._fill(pending, requests)
            busy = [s for s in self.slots if s.job]
            now = time.monotonic()
            wait_for = max(0.0, min(s.job[1] + self.timeout for s in busy) - now)
            ready = wait([s.conn for s in busy], timeout=wait_for)
            for slot in busy:
                index = slot.job[0]
                if slot.conn in ready:
                    try:
                        key, result = slot.conn.recv()
                    except (EOFError, OSError):
                        code = slot.proc.exitcode
                        slot.kill()
                        self.slots.remove(slot)
                        result = {"verdict": "error", "value": "", "col": None,
                                  "detail": f"the evaluator process died (exit code {code}) "
                                            "on this claim"}
                    else:
                        slot.job = None
                elif time.monotonic() - slot.job[1] >= self.timeout:
                    slot.kill()
                    self.slots.remove(slot)
                    result = {"verdict": "unknown", "value": "", "col": None,
                              "detail": f"not decided within the time budget of "
                                        f"{self.timeout:g} s"}
                else:
                    continue
                results[index] = result
                done += 1
                if progress:
                    progress(done, len(requests))
        return results

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
            slot.conn.send((index, text, tuple(assume)))
            slot.job = (index, time.monotonic())

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
