"""numpy_ffn shares the row blocks of its elementwise passes out to threads, bit for bit.

Arrays of at least PARALLEL_ELEMENTS elements have their row blocks shared out to THREADS
threads (each takes the next block not yet taken), each thread with its own scratch. Every element gets the same operations
in the same order as in one thread, so forward and backward must be bit for bit the
one-thread results (which tests/test_backend_speed_paths.py ties to np_activations). Here
the threshold is lowered so small arrays take the threaded path, with blocks that cut rows
in odd places and thread counts that do not divide the blocks.
"""

import threading

import numpy as np
import pytest

from ffnverify.backends import numpy_ffn

VARIANTS = ["swiglu", "geglu", "gelu", "gelu_tanh", "relu", "bilinear", "quick_gelu", "tanhglu"]


def _case(variant, dtype, bias=False, n=53, d=7, h=24):
    rng = np.random.default_rng(21)
    w = numpy_ffn.init_weights(variant, d, h, bias=bias, dtype=dtype, rng=22)
    x = (rng.standard_normal((n, d)) * np.where(rng.random((n, d)) < 0.1, 1e3, 3)).astype(dtype)
    dy = rng.standard_normal((n, d)).astype(dtype)
    return w, x, dy


def _run(variant, w, x, dy, ws=None, free_cache=False):
    with np.errstate(all="ignore"):
        y, cache = numpy_ffn.forward(variant, w, x, workspace=ws)
        y = y.copy()
        g = numpy_ffn.backward(variant, w, cache, dy, free_cache=free_cache, workspace=ws)
    return y, {k: v.copy() for k, v in g.items()}


@pytest.fixture
def small_blocks(monkeypatch):
    monkeypatch.setattr(numpy_ffn, "BLOCK_ELEMENTS", 100)  # 4 rows of 24 per block


@pytest.mark.parametrize("threads", [2, 3])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("variant", VARIANTS)
def test_threaded_blocks_are_bitwise_one_thread(variant, dtype, threads, small_blocks,
                                                monkeypatch):
    w, x, dy = _case(variant, dtype, bias=variant == "swiglu")
    monkeypatch.setattr(numpy_ffn, "THREADS", 1)
    y0, g0 = _run(variant, w, x, dy)
    monkeypatch.setattr(numpy_ffn, "THREADS", threads)
    monkeypatch.setattr(numpy_ffn, "PARALLEL_ELEMENTS", 0)
    for ws in (None, numpy_ffn.Workspace()):
        for free_cache in (False, True):
            y1, g1 = _run(variant, w, x, dy, ws, free_cache)
            assert np.array_equal(y0, y1, equal_nan=True), (variant, threads)
            assert set(g1) == set(g0)
            for k in g0:
                assert np.array_equal(g0[k], g1[k], equal_nan=True), (variant, threads, k)


def test_workers_take_blocks_beside_the_caller_each_block_once(small_blocks):
    shape = (53, 24)  # 14 blocks, the last one short
    seen, lock, helped = [], threading.Lock(), threading.Event()

    def job(r, t):
        with lock:
            seen.append((r.start, t, threading.get_ident()))
        if t:
            helped.set()
        else:  # the caller waits (at most 10 s) until a worker has taken a block
            helped.wait(10)

    numpy_ffn._for_blocks_shared(job, shape, 3)
    assert sorted(s for s, _, _ in seen) == [r.start for r in numpy_ffn._blocks(*shape)]
    idents = {}
    for _, t, ident in seen:
        idents.setdefault(t, set()).add(ident)
    assert idents[0] == {threading.get_ident()}  # t = 0 is the caller
    assert set(idents) - {0}, "no worker took a block"
    for t in set(idents) - {0}:  # each worker index is one other thread
        assert len(idents[t]) == 1 and idents[t] != idents[0]


def test_a_worker_that_never_starts_is_not_waited_for(small_blocks, monkeypatch):
    class Idle:  # a pool whose workers never get a CPU
        def submit(self, fn, *args):
            return None

    monkeypatch.setattr(numpy_ffn, "_pool", lambda: Idle())
    seen = []
    numpy_ffn._for_blocks_shared(lambda r, t: seen.append((r.start, t)), (53, 24), 2)
    assert seen == [(r.start, 0) for r in numpy_ffn._blocks(53, 24)]


def test_a_worker_that_starts_late_does_nothing(small_blocks, monkeypatch):
    late = []

    class Late:  # runs the worker only after the caller is done
        def submit(self, fn, *args):
            late.append((fn, args))

    monkeypatch.setattr(numpy_ffn, "_pool", lambda: Late())
    seen = []
    numpy_ffn._for_blocks_shared(lambda r, t: seen.append(t), (53, 24), 2)
    assert late
    for fn, args in late:
        fn(*args)
    assert seen == [0] * len(numpy_ffn._blocks(53, 24))


def test_more_threads_than_blocks_run_every_block_once(small_blocks):
    seen = []
    numpy_ffn._for_blocks_shared(lambda r, t: seen.append(r.start), (5, 24), 4)  # 2 blocks
    assert sorted(seen) == [0, 4]


def test_an_error_in_a_worker_thread_is_raised_in_the_caller(small_blocks):
    done, started = [], threading.Event()

    def job(r, t):
        if t:
            started.set()
            raise FloatingPointError(f"in block {r.start}")
        started.wait(10)  # the caller's first block waits for the worker's
        done.append(r.start)

    with pytest.raises(FloatingPointError, match="in block"):
        numpy_ffn._for_blocks_shared(job, (53, 24), 2)
    assert len(done) == len(numpy_ffn._blocks(53, 24)) - 1  # the caller did the rest


def test_each_thread_has_its_own_scratch_counted_in_the_workspace(small_blocks, monkeypatch):
    monkeypatch.setattr(numpy_ffn, "PARALLEL_ELEMENTS", 0)
    w, x, dy = _case("gelu", np.float32)
    sizes = {}
    for threads in (1, 2, 3):
        monkeypatch.setattr(numpy_ffn, "THREADS", threads)
        ws = numpy_ffn.Workspace()
        _run("gelu", w, x, dy, ws)
        bufs = dict(ws._bufs)
        _run("gelu", w, x, dy, ws)
        assert {k: id(b) for k, b in ws._bufs.items()} == {k: id(b) for k, b in bufs.items()}
        sizes[threads] = ws.nbytes
        scratch = [b for k, b in bufs.items() if "narrow" in k or "wide" in k]
        assert len({id(b) for b in scratch}) == len(scratch)  # no two threads share one
    per_thread = sizes[2] - sizes[1]
    assert per_thread > 0 and sizes[3] - sizes[2] == per_thread


def test_small_arrays_stay_in_one_thread(monkeypatch):
    monkeypatch.setattr(numpy_ffn, "THREADS", 2)
    assert numpy_ffn._threads_for(numpy_ffn.PARALLEL_ELEMENTS - 1) == 1
    assert numpy_ffn._threads_for(numpy_ffn.PARALLEL_ELEMENTS) == 2


@pytest.mark.parametrize("env, want", [("1", 1), ("3", 3), ("0", 1)])
def test_ffnverify_threads_sets_the_count(env, want, monkeypatch):
    monkeypatch.setenv("FFNVERIFY_THREADS", env)
    assert numpy_ffn._default_threads() == want


def test_sharing_is_opt_in(monkeypatch):
    monkeypatch.delenv("FFNVERIFY_THREADS", raising=False)
    assert numpy_ffn._default_threads() == 1


@pytest.mark.parametrize("ws", [None, "workspace"])
def test_no_two_threads_get_overlapping_scratch(ws, small_blocks):
    """A race needs luck to show in the bitwise test: this states the property directly."""
    like = np.empty((53, 24), dtype=np.float32)
    s = numpy_ffn._Scratch(like, 2, 2, numpy_ffn.Workspace() if ws else None, "t ", threads=3)
    r = numpy_ffn._blocks(53, 24)[0]
    sets = [[b for bufs in s.get(r, 53, t) for b in bufs] for t in range(3)]
    for t in range(3):
        for u in range(t + 1, 3):
            assert not any(np.shares_memory(a, b) for a in sets[t] for b in sets[u]), (t, u)
