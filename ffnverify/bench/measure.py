"""Measure one FFN target: time against the GEMM limit, count what it saves for the backward.

A target is a torch module built by `factory(d, h, bias)` and read through a conformance-kit
layout (the kit checks its parameters against the derivation before anything is timed), or
one of the built-in backends: `numpy` (ffnverify.backends.numpy_ffn, float32) and `torch`
(ffnverify.backends.torch_ffn.FFN).

What each figure is:

- `flops`: the pass's matmul FLOPs from `derivations.flops` (exact integer); `gflops` is
  flops / the fastest round.
- `gemm_s`: the fastest round of exactly the weight GEMMs the pass needs
  (`ffnverify.bench.gemm.pass_gemms`), timed interleaved with the module's rounds, on the
  same device and dtype; `ratio_to_gemm` = gemm_s / the module's fastest round (1.0: the
  module costs nothing but its GEMMs). The medians' ratio is reported beside it. A torch
  forward runs under torch.no_grad(); "train" is forward + backward with the input's
  gradient, as the derived FLOPs count it.
  CPU rounds are timed with time.perf_counter, CUDA rounds with CUDA events.
- `saved_elements` (forward+backward only): the elements of the tensors autograd keeps for
  the backward, counted by torch's saved-tensor hooks (for the NumPy backend: the arrays of
  its cache), each storage once, weights left out. `convention` is "store" or
  "recompute" when the count equals `derivations.memory.activation_memory` under that
  convention, else "neither". This is an exact count, not a timing.
- `peak_extra_bytes`: the peak of live memory over one forward+backward above what was live
  before it (the input x is created inside), less the results that exist in any case (the
  output and the gradients). CUDA: torch.cuda.max_memory_allocated; CPU torch: the
  profiler's allocator events, replayed; NumPy: tracemalloc (every Python allocation of
  the process, so it is coarse at small shapes). It includes the backward's
  transient buffers, so it is compared with, not equated to, the derived bytes.
"""

import contextlib
import os
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field

import numpy as np

from derivations.flops import flops as derived_flops
from derivations.memory import CONVENTIONS, activation_memory
from ffnverify.bench.gemm import numpy_operands, pass_gemms, torch_operands

PASSES = ("forward", "train")
DTYPES = ("float32", "bfloat16")
ITEMSIZE = {"float32": 4, "bfloat16": 2}
DEFAULT_ROUNDS, DEFAULT_WARMUP = 10, 2


class BenchError(ValueError):
    """The target cannot be benchmarked as asked (bad target, layout, dtype or device)."""


@dataclass
class Memory:
    """What one forward+backward keeps and peaks at, against the two derived conventions."""

    saved_elements: int
    derived_elements: dict  # convention -> elements (derivations.memory)
    convention: str  # "store", "recompute" or "neither"
    peak_extra_bytes: int
    derived_bytes: dict  # convention -> bytes (elements × element size)


@dataclass
class Result:
    """One (target, shape, pass) measurement."""

    target: str
    variant: str
    layout: str
    device: str
    dtype: str
    n: int
    d: int
    h: int
    pass_: str
    flops: int
    rounds: int
    seconds: float  # fastest round of the module
    seconds_median: float
    gemm_s: float  # fastest round of the pass's plain GEMMs
    gemm_median_s: float
    memory: Memory | None = None
    gemms: list = field(default_factory=list)

    @property
    def gflops(self) -> float:
        return self.flops / self.seconds / 1e9

    @property
    def gemm_gflops(self) -> float:
        return self.flops / self.gemm_s / 1e9

    @property
    def ratio_to_gemm(self) -> float:
        return self.gemm_s / self.seconds

    @property
    def ratio_to_gemm_median(self) -> float:
        return self.gemm_median_s / self.seconds_median

    def as_dict(self) -> dict:
        out = asdict(self)
        out["pass"] = out.pop("pass_")
        out.update(gflops=self.gflops, gemm_gflops=self.gemm_gflops,
                   ratio_to_gemm=self.ratio_to_gemm,
                   ratio_to_gemm_median=self.ratio_to_gemm_median)
        return out


# ---------------------------------------------------------------- accounting (exact)


def match_convention(variant, d, h, n, saved_elements) -> str:
    """The convention whose derived activation memory equals `saved_elements`, or "neither"."""
    for conv in CONVENTIONS:
        if int(activation_memory(variant, d, h, n, convention=conv)) == saved_elements:
            return conv
    return "neither"


def _memory(variant, d, h, n, dtype, saved, peak_extra) -> Memory:
    elements = {c: int(activation_memory(variant, d, h, n, convention=c)) for c in CONVENTIONS}
    return Memory(saved, elements, match_convention(variant, d, h, n, saved), int(peak_extra),
                  {c: e * ITEMSIZE[dtype] for c, e in elements.items()})


def numpy_saved_elements(cache) -> int:
    """Elements of the arrays a NumPy forward's cache keeps, each underlying buffer once."""
    bases = {}
    for a in cache.values():
        if isinstance(a, np.ndarray):
            while isinstance(a.base, np.ndarray):
                a = a.base
            bases[id(a)] = a.size
    return sum(bases.values())


def torch_saved_elements(module, x):
    """(output, elements autograd saved for the backward of module(x)), weights left out.

    Counted by torch.autograd.graph.saved_tensors_hooks: every tensor autograd stores passes
    the pack hook; each storage is counted once (views of one buffer share it), in elements
    of the saved tensor's dtype."""
    import torch

    weights = {p.untyped_storage().data_ptr() for p in module.parameters()}
    storages = {}

    def pack(t):
        s = t.untyped_storage()
        ptr = s.data_ptr()
        if ptr not in weights and s.nbytes():
            storages[ptr] = s.nbytes() // t.element_size()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        y = module(x)
    return y, sum(storages.values())


# ---------------------------------------------------------------- targets


def _load(target):
    from ffnverify.targets import TargetError, load_factory

    try:
        return load_factory(target)
    except TargetError as exc:
        raise BenchError(str(exc)) from exc


def build_module(factory, variant, layout, d, h, bias, target=None):
    """factory(d, h, bias), checked by the conformance kit (parameters against the
    derivation, every one read by the layout) and filled with its drawn weights (seed 0)."""
    import torch

    from ffnverify.testing import conformance

    where = target or getattr(factory, "__qualname__", "the factory")
    try:
        module = factory(d, h, bool(bias))
    except Exception as exc:  # the factory is user code: report, do not crash
        raise BenchError(f"{where}({d}, {h}, {bool(bias)}) raised {type(exc).__name__}: "
                         f"{exc}") from exc
    if not isinstance(module, torch.nn.Module):
        raise BenchError(f"{where} returned {type(module).__name__}, not a torch.nn.Module")
    module = module.eval().to("cpu", torch.float64)  # filled in float64, then cast
    case = conformance.Case(factory, variant, layout, bool(bias), d, h, 1, 0, "cpu", target)
    try:
        conformance.check_params(module, case)
    except conformance.ConformanceFailure as exc:  # not the variant's parameters
        raise BenchError(f"{where} is not a {variant} FFN in layout {layout!r}:\n"
                         f"{exc.report()}") from exc
    conformance.fill(module, case, np.random.default_rng(0))
    return module


def _torch_factory(variant):
    from ffnverify.backends.torch_ffn import FFN

    return lambda d, h, bias: FFN(variant, d, h, bias=bias)


# ---------------------------------------------------------------- timing


def _timer(device):
    if str(device).startswith("cuda"):
        import torch

        def timed(fn):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            end.synchronize()
            return start.elapsed_time(end) / 1e3
    else:
        def timed(fn):
            t0 = time.perf_counter()
            fn()
            return time.perf_counter() - t0
    return timed


def interleaved(run, gemm, timed, rounds, warmup, before=None):
    """([module seconds], [GEMM seconds]) over `rounds` rounds after `warmup` untimed ones;
    each round runs the GEMMs, then (after the untimed `before`) the module."""
    mod_s, gemm_s = [], []
    for r in range(warmup + rounds):
        g = timed(gemm)
        if before is not None:
            before()
        m = timed(run)
        if r >= warmup:
            mod_s.append(m)
            gemm_s.append(g)
    return mod_s, gemm_s


def _round(operands, matmul):
    def run():
        for a, b in operands:
            matmul(a, b)
    return run


# ---------------------------------------------------------------- one target


class _NumpyRunner:
    gemm_layout = "x@W"

    def __init__(self, variant, d, h, n, bias, dtype, device):
        if dtype != "float32" or device != "cpu":
            raise BenchError("the numpy target runs float32 on the cpu only")
        from ffnverify.backends import numpy_ffn

        self.ffn, self.variant = numpy_ffn, variant
        self.w = numpy_ffn.init_weights(variant, d, h, bias=bias, dtype=np.float32, rng=0)
        rng = np.random.default_rng(0)
        self.x = rng.standard_normal((n, d), dtype=np.float32)
        self.dy = rng.standard_normal((n, d), dtype=np.float32)
        # the buffers the backend reuses from call to call (counted in memory() below)
        self.ws = numpy_ffn.Workspace()

    def passes(self):
        f, v, w, ws = self.ffn, self.variant, self.w, self.ws
        return {"forward": (lambda: f.forward(v, w, self.x, workspace=ws), None),
                "train": (lambda: f.backward(v, w, f.forward(v, w, self.x, workspace=ws)[1],
                                             self.dy, workspace=ws), None)}

    def gemm(self, gemms):
        return _round(numpy_operands(gemms, np.float32), np.matmul)

    def memory(self):
        import tracemalloc

        f, v = self.ffn, self.variant
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            x = self.x.copy()
            ws = self.ffn.Workspace()  # a fresh one: every buffer it holds is counted
            y, cache = f.forward(v, self.w, x, workspace=ws)
            saved = numpy_saved_elements(cache)
            del x
            grads = f.backward(v, self.w, cache, self.dy, workspace=ws)
            del cache
            peak = tracemalloc.get_traced_memory()[1] - before
        finally:
            tracemalloc.stop()
        results = y.nbytes + sum(g.nbytes for g in grads.values())
        return saved, peak - results


class _TorchRunner:
    gemm_layout = "linear"

    def __init__(self, module, d, n, dtype, device):
        import torch

        self.torch, self.device = torch, device
        self.dtype = getattr(torch, dtype)
        self.m = module.to(device, self.dtype)
        gen = torch.Generator().manual_seed(0)
        self.x = torch.randn(n, d, generator=gen).to(device, self.dtype)
        self.dy = torch.randn(n, d, generator=gen).to(device, self.dtype)
        self.xg = self.x.clone().requires_grad_(True)

    def _clear(self):
        self.m.zero_grad(set_to_none=True)
        self.xg.grad = None

    def passes(self):
        torch = self.torch

        def forward():
            with torch.no_grad():
                self.m(self.x)

        return {"forward": (forward, None),
                "train": (lambda: self.m(self.xg).backward(self.dy), self._clear)}

    def gemm(self, gemms):
        return _round(torch_operands(gemms, self.dtype, self.device), self.torch.mm)

    def _results(self, y, x):
        grads = [p.grad for p in self.m.parameters() if p.grad is not None] + [x.grad]
        return sum(t.numel() * t.element_size() for t in [y, *grads] if t is not None)

    def memory(self):
        torch = self.torch
        self._clear()
        if str(self.device).startswith("cuda"):
            torch.cuda.synchronize()
            before = torch.cuda.memory_allocated()
            torch.cuda.reset_peak_memory_stats()
            x = self.x.clone().requires_grad_(True)
            y, saved = torch_saved_elements(self.m, x)
            y.backward(self.dy)
            torch.cuda.synchronize()
            peak = torch.cuda.max_memory_allocated() - before
        else:
            from torch.profiler import ProfilerActivity, profile

            with _native_notices_dropped(), \
                    profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
                x = self.x.clone().requires_grad_(True)
                y, saved = torch_saved_elements(self.m, x)
                y.backward(self.dy)
            peak = _cpu_peak(prof)
        extra = peak - self._results(y, x)
        self._clear()
        return saved, extra


# what the profiler's C++ side (kineto) writes to fd 2 on every start and stop, whatever
# KINETO_LOG_LEVEL says: "USDT:<time> <pid>:<tid> SyncActivityProfilerHandler.cpp:52]
# profiler_start", and "STAGE:" lines at some log levels
_NATIVE_NOTICES = ("USDT:", "STAGE:")


@contextlib.contextmanager
def _native_notices_dropped():
    """Run the block with fd 2 sent to a temporary file, then pass on every line of it
    except the profiler's own notices (a real warning or error still reaches stderr)."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            kept = [line for line in sink.read().decode(errors="replace").splitlines(True)
                    if not line.startswith(_NATIVE_NOTICES)]
            if kept:
                sys.stderr.write("".join(kept))
                sys.stderr.flush()


def _cpu_peak(prof) -> int:
    """Peak of live bytes above the start, replaying the profiler's allocator events."""
    import json
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "trace.json")
        prof.export_chrome_trace(path)
        with open(path) as f:
            events = [e for e in json.load(f)["traceEvents"] if e.get("name") == "[memory]"]
    events.sort(key=lambda e: (e["ts"], e["args"].get("Ev Idx", 0)))
    cur = peak = 0
    for e in events:
        cur += e["args"]["Bytes"]
        peak = max(peak, cur)
    return peak


def make_runner(target, variant, layout, n, d, h, bias=False, dtype="float32", device="cpu"):
    """The runner of one target and shape: `.passes()` -> {pass: (run, untimed set-up)},
    `.gemm(gemms)` -> one round of plain GEMMs, `.memory()` -> (saved elements, peak extra)."""
    if target == "numpy":
        return _NumpyRunner(variant, d, h, n, bias, dtype, device)
    if callable(target):
        factory, name = target, None
    elif target == "torch":
        factory, name, layout = _torch_factory(variant), None, "hf"
    else:
        factory, name = _load(target), target
    module = build_module(factory, variant, layout, d, h, bias, name)
    return _TorchRunner(module, d, n, dtype, device)


def detect_layout(target, variant, bias) -> str:
    """The built-in layout the module's parameters fit, as `ffnverify check` detects it."""
    factory = _load(target) if isinstance(target, str) else target  # "cannot import" first
    try:
        from ffnverify.testing import conformance
    except ImportError as exc:
        raise BenchError(f"{exc.name} is required: pip install {exc.name}") from exc
    try:
        layout, _ = conformance.resolve_layout(factory, variant, bool(bias),
                                               target=target if isinstance(target, str) else None)
    except conformance.ConformanceFailure as exc:
        raise BenchError(exc.report()) from exc
    return layout


def bench(target, variant, shapes, layout="auto", dtype="float32", device="cpu",
          passes=PASSES, bias=False, rounds=DEFAULT_ROUNDS, warmup=DEFAULT_WARMUP,
          memory=True) -> list[Result]:
    """Measure `target` ("numpy", "torch", "package.module:factory" or a factory callable)
    for each (n, d, h) in `shapes` and each pass; memory is measured for "train"."""
    from ffnverify.backends.variants import lookup

    try:
        lookup(variant)
    except KeyError as exc:
        raise BenchError(str(exc).strip("'\"")) from exc
    if dtype not in DTYPES:
        raise BenchError(f"unknown dtype {dtype!r}; choose from {', '.join(DTYPES)}")
    bad = [p for p in passes if p not in PASSES]
    if bad:
        raise BenchError(f"unknown pass(es) {bad}; choose from {', '.join(PASSES)}")
    if target == "numpy" and (device != "cpu" or dtype != "float32"):
        raise BenchError("the numpy target runs float32 on the cpu only")
    if str(device).startswith("cuda"):
        import torch

        if not torch.cuda.is_available():
            raise BenchError("--device cuda but torch sees no CUDA device")
    label = target if isinstance(target, str) else getattr(target, "__qualname__", "factory")
    if layout == "auto" and target not in ("numpy", "torch"):
        layout = detect_layout(target, variant, bias)
    out = []
    for n, d, h in shapes:
        if min(n, d, h) < 1:
            raise BenchError(f"shape n={n} d={d} h={h}: every size must be >= 1")
        runner = make_runner(target, variant, layout, n, d, h, bias, dtype, device)
        timed, todo = _timer(device), runner.passes()
        lay = "x@W" if target == "numpy" else ("hf" if target == "torch" else layout)
        for p in passes:
            gemms = pass_gemms(variant, d, h, n, p, layout=runner.gemm_layout)
            run, before = todo[p]
            mod_s, gemm_s = interleaved(run, runner.gemm(gemms), timed, rounds, warmup, before)
            res = Result(label, variant, lay if isinstance(lay, str) else "mapping", str(device),
                         dtype, n, d, h, p, int(derived_flops(variant, d, h, n, p)), rounds,
                         min(mod_s), statistics.median(mod_s), min(gemm_s),
                         statistics.median(gemm_s), gemms=[g.name for g in gemms])
            if p == "train" and memory:
                res.memory = _memory(variant, d, h, n, dtype, *runner.memory())
            out.append(res)
    return out


def format_text(results) -> str:
    """A table: one line per measurement, then the memory lines of the train passes."""
    head = (f"{'target':<24} {'variant':<10} {'n,d,h':<16} {'pass':<8} {'GFLOP/s':>9} "
            f"{'GEMM GFLOP/s':>12} {'ratio_to_gemm':>13} {'(median)':>8}")
    lines = [head, "-" * len(head)]
    for r in results:
        lines.append(f"{r.target[:24]:<24} {r.variant:<10} {f'{r.n},{r.d},{r.h}':<16} "
                     f"{r.pass_:<8} {r.gflops:>9.2f} {r.gemm_gflops:>12.2f} "
                     f"{r.ratio_to_gemm:>13.3f} {r.ratio_to_gemm_median:>8.3f}")
    mem = [r for r in results if r.memory is not None]
    if mem:
        lines.append("")
        lines.append("forward+backward memory (elements saved for the backward; bytes at "
                     f"{results[0].dtype}):")
    for r in mem:
        m = r.memory
        conv = ", ".join(f"{c} {m.derived_elements[c]}" for c in CONVENTIONS)
        ratio = ", ".join(f"{m.peak_extra_bytes / b:.2f}× {c}" if b else f"- {c}"
                          for c, b in m.derived_bytes.items())
        lines.append(f"  {r.target[:24]} {r.variant} n={r.n} d={r.d} h={r.h}: saved "
                     f"{m.saved_elements} elements (derived: {conv}) -> matches {m.convention}; "
                     f"peak extra {m.peak_extra_bytes} B ({ratio})")
    return "\n".join(lines)
