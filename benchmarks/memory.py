"""Measured memory of forward + backward against derivations.memory.activation_memory.

Two figures per run, both in bytes and both counted from inside the pass (x is created
inside the measurement, since the convention counts it as kept for the backward):

- `saved`: what the forward leaves alive for the backward (all live memory after the
  forward, less the output y). This is the quantity the derivation models.
- `peak_extra`: the peak of live memory over forward + backward, less the results that
  exist in any case (the output y and the gradients, counted only once they exist). It
  adds the backward's transient buffers to `saved`, so it is >= saved.

NumPy: tracemalloc (NumPy reports its buffers to it). The peak is sampled line by line
in the implementation's forward/backward (sys.settrace): for each line, the peak while it
ran less the results alive when it ended, so gradients count as results from the moment
they are made and not before. PyTorch (CPU): the profiler's allocator events
(profile_memory=True): every allocation and free with its address, replayed in order;
results are the allocations whose addresses y, the parameters' .grad and x.grad hold at
the end (their last allocation). Both are exact byte counts of the allocator's requests,
not RSS samples.
"""

import json
import os
import sys
import tempfile
import tracemalloc

import numpy as np

from benchmarks import recompute_ffn
from derivations.memory import activation_memory
from ffnverify.backends import numpy_ffn

ITEMSIZE = {"float32": 4, "float64": 8, "bfloat16": 2}


def derived_bytes(variant, d, h, n, convention="store", dtype="float32") -> int:
    """The derived activation memory in bytes (elements × element size)."""
    return int(activation_memory(variant, d, h, n, convention=convention)) * ITEMSIZE[dtype]


def _unique_nbytes(arrays) -> int:
    bases = {}
    for a in arrays:
        if isinstance(a, np.ndarray):
            base = a
            while isinstance(base.base, np.ndarray):
                base = base.base
            bases[id(base)] = base.nbytes
    return sum(bases.values())


def _frame_results(frame) -> int:
    """Bytes of results held by a forward/backward frame: y, the gradients, dx."""
    f_locals = frame.f_locals
    arrays = [f_locals.get("y"), f_locals.get("dx")]
    grads = f_locals.get("grads")
    if isinstance(grads, dict):
        arrays += list(grads.values())
    return _unique_nbytes(arrays)


def _numpy_buffer_bytes() -> int:
    """Live bytes of NumPy data buffers (NumPy traces them in its own tracemalloc domain).

    Counting that domain alone keeps allocations of other threads out, such as
    pytest-xdist's message thread, which would otherwise land in `saved` at random."""
    numpy_only = tracemalloc.DomainFilter(inclusive=True, domain=np.lib.tracemalloc_domain)
    snapshot = tracemalloc.take_snapshot().filter_traces([numpy_only])
    return sum(stat.size for stat in snapshot.statistics("filename"))


class _LinePeaks:
    """Sample tracemalloc's peak, less the frame's results, at every line of `codes`."""

    def __init__(self, codes):
        self.codes, self.worst = set(codes), 0

    def _local(self, frame, event, arg):
        if event in ("line", "return"):
            peak = tracemalloc.get_traced_memory()[1]
            self.worst = max(self.worst, peak - _frame_results(frame))
            tracemalloc.reset_peak()
        return self._local

    def _global(self, frame, event, arg):
        return self._local if frame.f_code in self.codes else None

    def __enter__(self):
        tracemalloc.reset_peak()
        sys.settrace(self._global)
        return self

    def __exit__(self, *exc):
        sys.settrace(None)


def numpy_memory(variant, d, h, n, convention="store", free_cache=True, dtype=np.float32, seed=0,
                 impl=None):
    """{'saved', 'peak_extra', 'derived'} in bytes for one NumPy forward + backward.

    convention "store" runs ffnverify.backends.numpy_ffn (free_cache: the backward may reuse the
    cache, as autograd frees saved tensors); "recompute" runs benchmarks/recompute_ffn.
    `impl` (anything with forward/backward of numpy_ffn's signatures) replaces either.
    """
    if impl is None:
        impl = numpy_ffn if convention == "store" else recompute_ffn
    kw = {"free_cache": free_cache} if convention == "store" else {}
    rng = np.random.default_rng(seed)
    w = numpy_ffn.init_weights(variant, d, h, dtype=dtype, rng=seed)
    x0 = rng.standard_normal((n, d)).astype(dtype)
    dy = rng.standard_normal((n, d)).astype(dtype)
    codes = (impl.forward.__code__, impl.backward.__code__)
    # One untraced pass first: first-call allocations (lazy imports, ufunc caches) are no
    # part of the activation memory, and would otherwise be counted by whichever test
    # happens to run first in its process.
    _, warm = impl.forward(variant, w, x0.copy())
    impl.backward(variant, w, warm, dy, **kw)
    del warm
    tracemalloc.start()
    try:
        with _LinePeaks(codes) as lines:
            x = x0.copy()
            y, cache = impl.forward(variant, w, x)
            del x
            saved = _numpy_buffer_bytes() - y.nbytes
            del y  # the loss has consumed it; dy is given
            tracemalloc.reset_peak()
            grads = impl.backward(variant, w, cache, dy, **kw)
            del cache
    finally:
        tracemalloc.stop()
    assert "x" in grads
    name = np.dtype(dtype).name
    return {"saved": saved, "peak_extra": max(lines.worst, saved),
            "derived": derived_bytes(variant, d, h, n, convention, name)}


def _memory_events(prof):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "trace.json")
        prof.export_chrome_trace(path)
        with open(path) as f:
            trace = json.load(f)["traceEvents"]
    mem = [e for e in trace if e.get("name") == "[memory]"]
    mem.sort(key=lambda e: (e["ts"], e["args"].get("Ev Idx", 0)))
    marks = {e["name"]: e["ts"] + e.get("dur", 0) for e in trace if e.get("ph") == "X"}
    return mem, marks


def torch_memory(variant, d, h, n, dtype="float32", seed=0):
    """{'saved', 'peak_extra', 'derived'} in bytes for one eager torch forward + backward (CPU)."""
    import torch
    from torch.profiler import ProfilerActivity, profile, record_function

    from ffnverify.backends.torch_ffn import FFN

    torch.manual_seed(seed)
    tdtype = getattr(torch, dtype)
    m = FFN(variant, d, h, dtype=tdtype)
    x0, dy = torch.randn(n, d, dtype=tdtype), torch.randn(n, d, dtype=tdtype)
    m.zero_grad(set_to_none=True)
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        with record_function("ffn_forward"):
            x = x0.clone().requires_grad_()
            y = m(x)
        y_ptr, y_bytes = y.data_ptr(), y.numel() * y.element_size()
        y.backward(dy)
    results = [y_ptr, x.grad.data_ptr()] + [p.grad.data_ptr() for p in m.parameters()]
    mem, marks = _memory_events(prof)
    last_alloc = {}
    for i, e in enumerate(mem):
        if e["args"]["Bytes"] > 0:
            last_alloc[e["args"]["Addr"]] = i
    result_events = {last_alloc[p] for p in results if p in last_alloc}
    cur = res = worst = 0
    saved = None
    for i, e in enumerate(mem):
        if saved is None and e["ts"] > marks["ffn_forward"]:
            saved = cur - y_bytes
        cur += e["args"]["Bytes"]
        if i in result_events:
            res += e["args"]["Bytes"]
        worst = max(worst, cur - res)
    return {"saved": saved, "peak_extra": worst,
            "derived": derived_bytes(variant, d, h, n, "store", dtype)}
