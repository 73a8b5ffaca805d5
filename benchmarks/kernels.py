"""SwiGLU forward+backward ratio_to_gemm of the built-in backends on both OpenBLAS kernels.

    python -m benchmarks.kernels [--repeats 5] [--rounds N] [--json OUT.json]
                                 [--baseline OLD_numpy_ffn.py]

Measures what `ffnverify bench {numpy,torch} --variant swiglu --pass train` measures (the
same function, ffnverify.bench.measure.bench, with the memory count left out) at the llm
shape (2048,1024,2816) and the small shape (256,256,704) under two OpenBLAS settings. One
worker process per setting (OpenBLAS reads its settings when it loads) takes the
measurements in turn — kernel, target, shape, then the other kernel — `--repeats` times,
so both kernels and every target see the same spread of machine load:

- `haswell`: OPENBLAS_CORETYPE=Haswell OPENBLAS_L2_SIZE=512 (the setting the test and bench
  runs use; values already in the environment win);
- `auto`: both variables removed for that one command, so OpenBLAS picks its kernel itself.

Each command's kernel is read back with threadpoolctl (`threadpool_info()` 'architecture'
of the OpenBLAS libraries, in a process with the same environment), and the load average
(/proc/loadavg, 1 minute) is recorded before and after each measurement. The summary gives, per shape ×
target × kernel, the median of the ratio_to_gemm (fastest rounds' ratio) over the repeats
and its range. torch's GEMMs are MKL's, not OpenBLAS's: for it the kernel setting changes
nothing in its pass (torch's own figures on both are two samples of one thing).
`--baseline FILE` adds the target `numpy-baseline`: the same measurement with FILE (an
older numpy_ffn.py, e.g. `git show REV:ffnverify/backends/numpy_ffn.py > old.py`) as the
NumPy backend, interleaved with the current one.
"""

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys

SHAPES = {"llm": (2048, 1024, 2816), "small": (256, 256, 704)}
TARGETS = ("numpy", "torch")
HASWELL = {"OPENBLAS_CORETYPE": "Haswell", "OPENBLAS_L2_SIZE": "512"}
KERNEL_VARS = tuple(HASWELL)
KERNELS = ("haswell", "auto")
TARGET_RATIO = {("swiglu", "llm"): 0.90, ("swiglu", "small"): 0.80, ("gelu", "llm"): 0.85}
ROUNDS = {"llm": 6, "small": 40}  # timed rounds per measurement (after 2 warm-up rounds)


def kernel_env(kernel):
    env = dict(os.environ)
    if kernel == "haswell":
        for k, v in HASWELL.items():
            env.setdefault(k, v)
    else:
        for k in KERNEL_VARS:
            env.pop(k, None)
    return env


def load1() -> float:
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


# ------------------------------------------------------------------ the worker process


def _architectures() -> list:
    import numpy  # noqa: F401  (loads OpenBLAS, so threadpoolctl sees it)
    from threadpoolctl import threadpool_info

    return sorted({i.get("architecture") for i in threadpool_info()
                   if i.get("internal_api") == "openblas"})


def _swap_numpy_backend(path):
    """Make `import ffnverify.backends.numpy_ffn` (as measure does) give the module at path."""
    import ffnverify.backends as pkg

    spec = importlib.util.spec_from_file_location("numpy_ffn_baseline", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    if not hasattr(mod, "Workspace"):  # an older backend: the bench's workspace is ignored
        mod = _without_workspace(mod)
    current = pkg.numpy_ffn
    return mod, current


def _without_workspace(mod):
    """`mod` (a numpy_ffn from before the Workspace) behind the current call signature."""
    import types

    shim = types.SimpleNamespace(**vars(mod))
    shim.Workspace = lambda: None
    shim.forward = lambda v, w, x, workspace=None: mod.forward(v, w, x)
    shim.backward = lambda v, w, c, dy, workspace=None, **kw: mod.backward(v, w, c, dy, **kw)
    return shim


def worker(baseline=None):
    """Read {target, shape, rounds} lines on stdin, answer one JSON line each."""
    import ffnverify.backends as pkg
    from ffnverify.backends import numpy_ffn
    from ffnverify.bench import measure

    base = _swap_numpy_backend(baseline)[0] if baseline else None
    print(json.dumps({"architecture": _architectures()}), flush=True)
    for line in sys.stdin:
        job = json.loads(line)
        target = job["target"]
        pkg.numpy_ffn = base if target == "numpy-baseline" else numpy_ffn
        before = load1()
        (r,) = measure.bench("numpy" if target == "numpy-baseline" else target, job["variant"],
                             [tuple(job["shape"])], passes=("train",), rounds=job["rounds"],
                             warmup=2, memory=False)
        pkg.numpy_ffn = numpy_ffn
        print(json.dumps({"ratio_to_gemm": r.ratio_to_gemm,
                          "ratio_to_gemm_median": r.ratio_to_gemm_median, "gflops": r.gflops,
                          "gemm_gflops": r.gemm_gflops, "seconds": r.seconds,
                          "load_before": before, "load_after": load1()}), flush=True)


# ------------------------------------------------------------------ the driver


def summarise(records, archs) -> list[dict]:
    """Median and range per variant × shape × target × kernel (records from before the
    variants were measured are SwiGLU's)."""
    records = [{"variant": "swiglu", **r} for r in records]
    out = []
    keys = sorted({(r["variant"], r["shape"], r["target"], r["kernel"]) for r in records},
                  key=lambda k: (k[0], k[1] != "llm", k[2], k[3]))
    for variant, shape, target, kernel in keys:
        rs = [r for r in records
              if (r["variant"], r["shape"], r["target"], r["kernel"]) == (variant, shape, target, kernel)]
        ratios = [r["ratio_to_gemm"] for r in rs]
        loads = [x for r in rs for x in (r["load_before"], r["load_after"])]
        out.append({"variant": variant, "shape": shape, "target": target, "kernel": kernel,
                    "architecture": "/".join(archs[kernel]), "repeats": len(rs),
                    "median": statistics.median(ratios), "min": min(ratios), "max": max(ratios),
                    "median_of_medians": statistics.median(r["ratio_to_gemm_median"] for r in rs),
                    "gemm_gflops": statistics.median(r["gemm_gflops"] for r in rs),
                    "load_min": min(loads), "load_max": max(loads),
                    "target_ratio": TARGET_RATIO.get((variant, shape))})
    return out


def table(summary) -> str:
    lines = ["| variant | shape | backend | kernel (threadpoolctl) | ratio_to_gemm median | range | "
             "median of medians | GEMM GFLOP/s | load 1 min | target |", "|" + "---|" * 10]
    for s in summary:
        if s["target_ratio"] is None:
            ok = "(none stated)"
        else:
            gap = s["target_ratio"] - s["median"]
            ok = f"≥ {s['target_ratio']:.2f}: " + ("yes" if gap <= 0 else f"no (−{gap:.3f})")
        lines.append(f"| {s['variant']} | {s['shape']} | {s['target']} | {s['architecture']} "
                     f"| **{s['median']:.3f}** "
                     f"| {s['min']:.3f}–{s['max']:.3f} | {s['median_of_medians']:.3f} "
                     f"| {s['gemm_gflops']:.0f} | {s['load_min']:.1f}–{s['load_max']:.1f} "
                     f"| {ok} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--rounds", type=int, help=f"timed rounds per measurement (default {ROUNDS})")
    ap.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=list(SHAPES))
    ap.add_argument("--targets", nargs="+", default=list(TARGETS), choices=list(TARGETS))
    ap.add_argument("--variants", nargs="+", default=["swiglu"],
                    help="FFN variants to measure (default swiglu; gelu has a target too)")
    ap.add_argument("--baseline", help="an older numpy_ffn.py, measured as numpy-baseline")
    ap.add_argument("--json", help="write the records and the summary here")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker(args.baseline)
        return 0
    targets = list(args.targets) + (["numpy-baseline"] if args.baseline else [])
    cmd = [sys.executable, "-m", "benchmarks.kernels", "--worker"]
    cmd += ["--baseline", os.path.abspath(args.baseline)] if args.baseline else []
    procs = {k: subprocess.Popen(cmd, env=kernel_env(k), stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True) for k in KERNELS}
    archs = {k: json.loads(p.stdout.readline())["architecture"] for k, p in procs.items()}
    records = []
    try:
        for rep in range(args.repeats):
            for variant, shape in [(v, sh) for v in args.variants for sh in args.shapes]:
                for target in targets:
                    for kernel in KERNELS if rep % 2 == 0 else KERNELS[::-1]:
                        p = procs[kernel]
                        p.stdin.write(json.dumps({"target": target, "variant": variant,
                                                  "shape": SHAPES[shape],
                                                  "rounds": args.rounds or ROUNDS[shape]})
                                  + "\n")
                        p.stdin.flush()
                        r = json.loads(p.stdout.readline())
                        records.append({**r, "target": target, "kernel": kernel, "shape": shape,
                                        "variant": variant, "repeat": rep})
                        print(f"repeat {rep} {variant} {shape} {target} {kernel}: "
                              f"{r['ratio_to_gemm']:.3f} "
                              f"(load {r['load_before']:.1f}->{r['load_after']:.1f})",
                              file=sys.stderr, flush=True)
    finally:
        for p in procs.values():
            p.stdin.close()
            p.wait()
    summary = summarise(records, archs)
    print(table(summary))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"architectures": archs,
                       "env": {k: {v: kernel_env(k).get(v) for v in KERNEL_VARS} for k in KERNELS},
                       "rounds": args.rounds or ROUNDS, "records": records, "summary": summary}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
