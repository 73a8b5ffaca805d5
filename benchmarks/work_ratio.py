"""NumPy backend against its GEMMs in CPU time on one thread: the ratio of the work done.

    OPENBLAS_NUM_THREADS=1 python -m benchmarks.work_ratio SHAPE [ROUNDS] [--variant V]
                                                            [--baseline OLD_numpy_ffn.py]

On a shared machine wall-clock rounds measure the scheduler as much as the code (at a load
average of 15 on 2 cores a round waits for its turn many times over). This measures the
thread's CPU time instead (time.thread_time: time spent running, not waiting), with one
BLAS thread so that all the work is the measuring thread's: the pass's plain GEMMs
(ffnverify.bench.gemm, as `ffnverify bench` runs them), the current backend's
forward+backward and, with --baseline, an older numpy_ffn.py, interleaved round by round.
It prints the fastest and the median rounds and the ratios GEMM / pass. Page faults and
kernel time on behalf of the thread count (they are work the pass causes); a co-runner
sharing the core's caches still slows both sides. It is not the figure of the targets
(2 threads, wall clock): it says how much work the backend adds to its GEMMs.
"""

import argparse
import importlib.util
import statistics
import time

import numpy as np

from ffnverify.backends import numpy_ffn
from ffnverify.bench.gemm import numpy_operands, pass_gemms

SHAPES = {"llm": (2048, 1024, 2816), "small": (256, 256, 704)}


def _load(path):
    spec = importlib.util.spec_from_file_location("numpy_ffn_baseline", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def cpu_seconds(fn) -> float:
    t0 = time.thread_time()
    fn()
    return time.thread_time() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("shape", choices=list(SHAPES))
    ap.add_argument("rounds", nargs="?", type=int, default=10)
    ap.add_argument("--variant", default="swiglu")
    ap.add_argument("--baseline", help="an older numpy_ffn.py to measure beside the current one")
    args = ap.parse_args(argv)
    n, d, h = SHAPES[args.shape]
    v = args.variant
    w = numpy_ffn.init_weights(v, d, h, dtype=np.float32, rng=0)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, d), dtype=np.float32)
    dy = rng.standard_normal((n, d), dtype=np.float32)
    ops = numpy_operands(pass_gemms(v, d, h, n, "train", layout="x@W"))

    def gemms():
        for a, b in ops:
            np.matmul(a, b)

    def pass_of(mod):
        return lambda: mod.backward(v, w, mod.forward(v, w, x)[1], dy)

    runs = {"gemm": gemms, "current": pass_of(numpy_ffn)}
    if args.baseline:
        runs["baseline"] = pass_of(_load(args.baseline))
    times = {k: [] for k in runs}
    with open("/proc/loadavg") as f:
        load0 = f.read().split()[0]
    for i in range(args.rounds + 1):  # the first round warms up
        for k, fn in runs.items():
            t = cpu_seconds(fn)
            if i:
                times[k].append(t)
    with open("/proc/loadavg") as f:
        load1 = f.read().split()[0]
    mn = {k: min(t) for k, t in times.items()}
    md = {k: statistics.median(t) for k, t in times.items()}
    print(f"{args.shape} {v} CPU ms (min / median): "
          + ", ".join(f"{k} {mn[k] * 1e3:.2f} / {md[k] * 1e3:.2f}" for k in runs))
    print("ratio GEMM/pass (min, median): " + ", ".join(
        f"{k} {mn['gemm'] / mn[k]:.3f}, {md['gemm'] / md[k]:.3f}" for k in runs if k != "gemm")
        + f"; load {load0} -> {load1}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
