"""SwiGLU forward+backward ratio_to_gemm of the built-in backends on both OpenBLAS kernels.

    python -m benchmarks.kernels [--repeats 3] [--rounds 10] [--json OUT.json]

Runs `ffnverify bench {numpy,torch} --variant swiglu --pass train` at the llm shape
(2048,1024,2816) and the small shape (256,256,704) under two OpenBLAS settings, in
interleaved order (kernel × target, then again, `--repeats` times), so both kernels see
the same spread of machine load:

- `haswell`: OPENBLAS_CORETYPE=Haswell OPENBLAS_L2_SIZE=512 (the setting the test and bench
  runs use; values already in the environment win);
- `auto`: both variables removed for that one command, so OpenBLAS picks its kernel itself.

Each command's kernel is read back with threadpoolctl (`threadpool_info()` 'architecture'
of the OpenBLAS libraries, in a process with the same environment), and the load average
(/proc/loadavg, 1 minute) is recorded before and after it. The summary gives, per shape ×
target × kernel, the median of the ratio_to_gemm (fastest rounds' ratio) over the repeats
and its range. torch's GEMMs are MKL's, not OpenBLAS's: for it the kernel setting changes
only the reference's neighbours, which the figures show.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

SHAPES = {"llm": "2048,1024,2816", "small": "256,256,704"}
TARGETS = ("numpy", "torch")
HASWELL = {"OPENBLAS_CORETYPE": "Haswell", "OPENBLAS_L2_SIZE": "512"}
KERNEL_VARS = tuple(HASWELL)
TARGET_RATIO = {"llm": 0.90, "small": 0.80}

ARCH_PROBE = ("import json; from threadpoolctl import threadpool_info; print(json.dumps("
              "sorted({i.get('architecture') for i in threadpool_info() "
              "if i.get('internal_api') == 'openblas'})))")


def kernel_env(kernel):
    env = dict(os.environ)
    if kernel == "haswell":
        for k, v in HASWELL.items():
            env.setdefault(k, v)
    else:
        for k in KERNEL_VARS:
            env.pop(k, None)
    return env


def architecture(env) -> list:
    import numpy  # noqa: F401  (so the probe loads the same BLAS as the bench does)

    out = subprocess.run([sys.executable, "-c", "import numpy, torch; " + ARCH_PROBE], env=env,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def load1() -> float:
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def bench_once(target, kernel, rounds, shapes):
    cmd = [sys.executable, "-m", "ffnverify", "bench", target, "--variant", "swiglu",
           "--pass", "train", "--rounds", str(rounds), "--format", "json",
           "--shape", *(SHAPES[s] for s in shapes)]
    before, t0 = load1(), time.time()
    out = subprocess.run(cmd, env=kernel_env(kernel), capture_output=True, text=True, check=True)
    after = load1()
    rows = json.loads(out.stdout)
    names = {v: k for k, v in SHAPES.items()}
    return [{"target": target, "kernel": kernel, "shape": names[f"{r['n']},{r['d']},{r['h']}"],
             "ratio_to_gemm": r["ratio_to_gemm"], "ratio_to_gemm_median": r["ratio_to_gemm_median"],
             "gflops": r["gflops"], "gemm_gflops": r["gemm_gflops"], "load_before": before,
             "load_after": after, "started": t0} for r in rows]


def summarise(records, archs) -> list[dict]:
    out = []
    keys = sorted({(r["shape"], r["target"], r["kernel"]) for r in records},
                  key=lambda k: (k[0] != "llm", k[1], k[2]))
    for shape, target, kernel in keys:
        rs = [r for r in records if (r["shape"], r["target"], r["kernel"]) == (shape, target, kernel)]
        ratios = [r["ratio_to_gemm"] for r in rs]
        loads = [x for r in rs for x in (r["load_before"], r["load_after"])]
        out.append({"shape": shape, "target": target, "kernel": kernel,
                    "architecture": "/".join(archs[kernel]), "repeats": len(rs),
                    "median": statistics.median(ratios), "min": min(ratios), "max": max(ratios),
                    "median_of_medians": statistics.median(r["ratio_to_gemm_median"] for r in rs),
                    "gemm_gflops": statistics.median(r["gemm_gflops"] for r in rs),
                    "load_min": min(loads), "load_max": max(loads),
                    "target_ratio": TARGET_RATIO[shape]})
    return out


def table(summary) -> str:
    lines = ["| shape | backend | kernel (threadpoolctl) | ratio_to_gemm median | range | "
             "median of medians | GEMM GFLOP/s | load 1 min | target |", "|" + "---|" * 9]
    for s in summary:
        ok = "yes" if s["median"] >= s["target_ratio"] else f"no (−{s['target_ratio'] - s['median']:.3f})"
        lines.append(f"| {s['shape']} | {s['target']} | {s['architecture']} | **{s['median']:.3f}** "
                     f"| {s['min']:.3f}–{s['max']:.3f} | {s['median_of_medians']:.3f} "
                     f"| {s['gemm_gflops']:.0f} | {s['load_min']:.2f}–{s['load_max']:.2f} "
                     f"| ≥ {s['target_ratio']:.2f}: {ok} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=list(SHAPES))
    ap.add_argument("--targets", nargs="+", default=list(TARGETS), choices=list(TARGETS))
    ap.add_argument("--json", help="write records and summary here")
    args = ap.parse_args(argv)
    kernels = ("haswell", "auto")
    archs = {k: architecture(kernel_env(k)) for k in kernels}
    records = []
    for rep in range(args.repeats):
        for kernel in kernels if rep % 2 == 0 else kernels[::-1]:
            for target in args.targets:
                for r in bench_once(target, kernel, args.rounds, args.shapes):
                    records.append({**r, "repeat": rep})
                print(f"repeat {rep} {kernel} {target}: " + ", ".join(
                    f"{r['shape']} {r['ratio_to_gemm']:.3f}" for r in records[-len(args.shapes):])
                    + f" (load {records[-1]['load_before']:.2f}→{records[-1]['load_after']:.2f})",
                    file=sys.stderr, flush=True)
    summary = summarise(records, archs)
    print(table(summary))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"architectures": archs, "env": {k: {v: kernel_env(k).get(v) for v in KERNEL_VARS}
                                                       for k in kernels},
                       "records": records, "summary": summary}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
