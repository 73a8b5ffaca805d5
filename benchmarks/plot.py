"""Plot and tabulate a pytest-benchmark JSON of the matmul-core benchmarks.

    python -m benchmarks.plot [RUN.json] [--storage .benchmarks] [--output ffn_bench.png]
                              [--kernels KERNELS.json] [--readme README.md]

Without RUN.json, reads the newest JSON under --storage (what --benchmark-autosave
wrote). Writes a PNG (GFLOP/s and ratio_to_gemm per shape, variant, pass and backend;
matplotlib's Agg backend, no display needed) and prints Markdown tables: the FFN
benchmarks, the memory measurements, the fused gate+up comparison, and the machine.
--kernels adds the output of `python -m benchmarks.kernels --json` (SwiGLU fwd+bwd on
both OpenBLAS kernels, Haswell and the one OpenBLAS picks itself): a row of panels with
each kernel's median ratio_to_gemm and its range over the repeats, and its table. With
--kernels and no pytest-benchmark JSON, the PNG holds that row alone.
--readme rewrites the README's section between the bench markers with a summary.
"""

import argparse
import json
import re
import sys
from pathlib import Path

TARGET_RATIO = 0.90
MARKERS = ("<!-- bench:start -->", "<!-- bench:end -->")


def latest_json(storage) -> Path:
    files = sorted(Path(storage).rglob("*.json"), key=lambda p: p.stat().st_mtime)
    if not files:
        raise FileNotFoundError(f"no benchmark JSON under {storage}; run `tox -e bench` first")
    return files[-1]


def rows(data, key):
    """extra_info of the benchmarks that have `key`, with the timing stats merged in."""
    out = []
    for b in data.get("benchmarks", []):
        e = b.get("extra_info", {})
        if key in e:
            out.append({**e, "min_s": b["stats"]["min"], "median_s": b["stats"]["median"],
                        "rounds": b["stats"]["rounds"]})
    return out


def ffn_table(ffn) -> str:
    lines = ["| shape | backend | variant | pass | min ms | median ms | GFLOP/s | GEMM GFLOP/s "
             "| ratio_to_gemm | (medians) |", "|" + "---|" * 10]
    for r in sorted(ffn, key=lambda r: (r["shape"], r["pass"], r["variant"], r["backend"])):
        lines.append(
            f"| {r['shape']} | {r['backend']} | {r['variant']} | {r['pass']} "
            f"| {r['min_s'] * 1e3:.2f} | {r['median_s'] * 1e3:.2f} | {r['gflops']:.1f} "
            f"| {r['gemm_gflops']:.1f} | **{r['ratio_to_gemm']:.3f}** "
            f"| {r['ratio_to_gemm_median']:.3f} |")
    return "\n".join(lines)


def memory_table(mem) -> str:
    mib = 2 ** 20
    lines = ["| impl | variant | derived MiB | saved MiB | saved/derived | extra peak MiB "
             "| peak/derived | ≤ 1.1 |", "|" + "---|" * 8]
    for r in mem:
        lines.append(
            f"| {r['impl']} | {r['variant']} | {r['derived'] / mib:.1f} | {r['saved'] / mib:.1f} "
            f"| {r['saved_ratio']:.3f} | {r['peak_extra'] / mib:.1f} | {r['peak_ratio']:.3f} "
            f"| {'yes' if r['meets_target'] else 'no'} |")
    return "\n".join(lines)


def fused_table(fused) -> str:
    lines = ["| backend | stage | separate ms | fused ms | separate/fused |", "|" + "---|" * 5]
    for r in fused:
        lines.append(f"| {r['backend']} | {r['stage']} | {r['separate_s'] * 1e3:.1f} "
                     f"| {r['fused_s'] * 1e3:.1f} | {r['fused_speedup']:.3f} |")
    return "\n".join(lines)


def machine_lines(data) -> str:
    m = data.get("machine_info", {})
    blas = "; ".join(f"{b.get('internal_api')} {b.get('version')} ({b.get('architecture')}, "
                     f"{b.get('num_threads')} threads, {b.get('prefix')})"
                     for b in m.get("blas", []) if b.get("user_api") == "blas")
    return (f"CPU {m.get('cpu_model')} ({m.get('cores')} cores), Python {m.get('python_version')}, "
            f"numpy {m.get('numpy')}, torch {m.get('torch')} ({m.get('torch_threads')} threads), "
            f"BLAS: {blas}; env {m.get('env')}; run {data.get('datetime', '?')}")


def summary(data, ffn, mem) -> str:
    """The README's summary: the llm shape (ratio and GFLOP/s) and the memory check."""
    lines = [f"Latest `tox -e bench` run ({data.get('datetime', '?')[:16]} UTC) on: "
             f"{machine_lines(data).split('; run')[0]}.", "",
             "LLM shape (n=2048, d=1024, h=2816, float32): GFLOP/s from the derived matmul "
             "FLOPs, and `ratio_to_gemm` (time of the pass's GEMMs alone / time of the pass; "
             f"target ≥ {TARGET_RATIO:.2f} for SwiGLU fwd+bwd).", "",
             "| variant | pass | numpy GFLOP/s | numpy ratio | torch GFLOP/s | torch ratio |",
             "|---|---|---|---|---|---|"]
    llm = {(r["backend"], r["variant"], r["pass"]): r for r in ffn if r["shape"] == "llm"}
    for v, p in sorted({(k[1], k[2]) for k in llm}, key=lambda vp: (vp[1] != "forward", vp[0])):
        cells = []
        for b in ("numpy", "torch"):
            r = llm.get((b, v, p))
            cells += [f"{r['gflops']:.0f}", f"{r['ratio_to_gemm']:.3f}"] if r else ["–", "–"]
        lines.append(f"| {v} | {p} | " + " | ".join(cells) + " |")
    if mem:
        lines += ["", "Memory of fwd+bwd at the LLM shape against "
                  "`derivations.memory.activation_memory` × 4 bytes (target: extra peak ≤ 1.1×):",
                  "", "| implementation | variant | saved / derived | extra peak / derived |",
                  "|---|---|---|---|"]
        lines += [f"| {r['impl']} | {r['variant']} | {r['saved_ratio']:.3f} "
                  f"| {r['peak_ratio']:.3f} |" for r in mem]
        lines += ["", "numpy-recompute is measured against the recompute convention, the others "
                  "against store; numpy-free-cache is `backward(..., free_cache=True)`; eager "
                  "autograd keeps relu's output rather than its input (n·h less than store) and "
                  "its backward peaks at derived + n·h (relu, gelu) or + 2·n·h (swiglu)."]
    lines += ["", "Method, all figures, run-to-run variation and the GPU script: "
              "[benchmarks/RESULTS.md](benchmarks/RESULTS.md); plot: "
              "[benchmarks/ffn_bench.png](benchmarks/ffn_bench.png)."]
    return "\n".join(lines)


def write_readme(path, text):
    readme = Path(path).read_text()
    start, end = (re.escape(m) for m in MARKERS)
    new, count = re.subn(f"{start}.*?{end}", lambda _: f"{MARKERS[0]}\n{text}\n{MARKERS[1]}",
                         readme, flags=re.S)
    if count != 1:
        raise ValueError(f"{path}: expected one {MARKERS[0]} ... {MARKERS[1]} section")
    Path(path).write_text(new)


def kernel_panels(axes, summary):
    """One panel per shape: SwiGLU fwd+bwd ratio_to_gemm per backend, one bar per OpenBLAS
    kernel (median over the repeats, the range as an error bar), the shape's target."""
    shapes = sorted({s["shape"] for s in summary})
    kernels = sorted({s["architecture"] for s in summary})
    for col, shape in enumerate(shapes):
        ax = axes[col]
        sub = [s for s in summary if s["shape"] == shape]
        targets = sorted({s["target"] for s in sub})
        width = 0.8 / len(kernels)
        for i, kernel in enumerate(kernels):
            got = {s["target"]: s for s in sub if s["architecture"] == kernel}
            xs = [j + i * width for j in range(len(targets))]
            med = [got[t]["median"] if t in got else 0 for t in targets]
            lo = [got[t]["median"] - got[t]["min"] if t in got else 0 for t in targets]
            hi = [got[t]["max"] - got[t]["median"] if t in got else 0 for t in targets]
            ax.bar(xs, med, width, yerr=[lo, hi], capsize=3, label=f"OpenBLAS {kernel}")
        loads = [x for s in sub for x in (s["load_min"], s["load_max"])]
        ax.axhline(sub[0]["target_ratio"], color="red", linestyle="--",
                   label=f"target {sub[0]['target_ratio']:.2f}")
        ax.set_xticks([j + 0.4 - width / 2 for j in range(len(targets))], targets, fontsize=8)
        ax.set_ylim(0, 1.2)
        ax.set_ylabel("ratio_to_gemm (median, range)")
        ax.set_title(f"{shape}: swiglu fwd+bwd by OpenBLAS kernel "
                     f"(load {min(loads):.1f}–{max(loads):.1f})", fontsize=9)
        ax.legend(fontsize=8)


def plot(ffn, output, kernels=None):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shapes = sorted({r["shape"] for r in ffn})
    backends = sorted({r["backend"] for r in ffn})
    k_shapes = sorted({s["shape"] for s in kernels or []})
    n_rows = (2 if ffn else 0) + (1 if k_shapes else 0)
    n_cols = max(len(shapes), len(k_shapes), 1)
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(6 * n_cols, 3.5 * n_rows), squeeze=False)
    if k_shapes:
        kernel_panels(axes[-1], kernels)
    for col, shape in enumerate(shapes):
        sub = [r for r in ffn if r["shape"] == shape]
        cases = sorted({(r["pass"], r["variant"]) for r in sub}, reverse=True)
        width = 0.8 / len(backends)
        for i, backend in enumerate(backends):
            by_case = {(r["pass"], r["variant"]): r for r in sub if r["backend"] == backend}
            xs = [j + i * width for j in range(len(cases))]
            got = [by_case.get(c) for c in cases]
            axes[0][col].bar(xs, [r["gflops"] if r else 0 for r in got], width, label=backend)
            axes[0][col].scatter(xs, [r["gemm_gflops"] if r else 0 for r in got], marker="_",
                                 s=200, color="black", zorder=3,
                                 label="GEMM limit" if i == 0 else None)
            axes[1][col].bar(xs, [r["ratio_to_gemm"] if r else 0 for r in got], width, label=backend)
        n, d, h = sub[0]["n"], sub[0]["d"], sub[0]["h"]
        labels = [f"{v}\n{p}" for p, v in cases]
        ticks = [j + 0.4 - width / 2 for j in range(len(cases))]
        axes[0][col].set_title(f"{shape}: n={n}, d={d}, h={h}, float32")
        axes[0][col].set_ylabel("GFLOP/s (derived matmul FLOPs / fastest round)")
        axes[1][col].axhline(TARGET_RATIO, color="red", linestyle="--", label="target 0.90")
        axes[1][col].set_ylabel("ratio_to_gemm")
        axes[1][col].set_ylim(0, 1.2)
        for ax in (axes[0][col], axes[1][col]):
            ax.set_xticks(ticks, labels, fontsize=8)
            ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(output, dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", nargs="?", help="a pytest-benchmark JSON (default: newest in --storage)")
    ap.add_argument("--storage", default=".benchmarks")
    ap.add_argument("--output", default=".benchmarks/ffn_bench.png")
    ap.add_argument("--kernels", help="output of `python -m benchmarks.kernels --json`")
    ap.add_argument("--readme", help="rewrite this README's bench section with a summary")
    args = ap.parse_args(argv)
    kernels = json.loads(Path(args.kernels).read_text())["summary"] if args.kernels else None
    if args.json or not kernels:
        path = Path(args.json) if args.json else latest_json(args.storage)
        data = json.loads(path.read_text())
        print(f"<!-- from {path} -->\n{machine_lines(data)}\n")
    else:
        data = {}
    ffn, mem, fused = rows(data, "ratio_to_gemm"), rows(data, "peak_ratio"), rows(data, "fused_speedup")
    if ffn or kernels:
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
        plot(ffn, args.output, kernels)
    if ffn:
        print(ffn_table(ffn), "\n")
    if kernels:
        from benchmarks.kernels import table as kernel_table

        print(kernel_table(kernels), "\n")
    for table, found in ((memory_table, mem), (fused_table, fused)):
        if found:
            print(table(found), "\n")
    if args.readme and data:
        write_readme(args.readme, summary(data, ffn, mem))
    print(f"plot: {args.output if ffn or kernels else '(no FFN benchmarks in this run)'}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
