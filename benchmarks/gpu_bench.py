"""GPU benchmark, bfloat16: FFN forward+backward against its plain GEMMs, eager and compiled.

    python -m benchmarks.gpu_bench [--variants swiglu,gelu] [--n 8192 --d 4096 --h 11008]
                                   [--reps 20] [--no-compile] [--json FILE]

Run from the repository root (it imports derivations and ffnverify from there). For each
variant: the pass's weight GEMMs alone (ffnverify.bench.gemm, nn.Linear layout) and the
FFN's forward+backward, eager and under torch.compile, timed with CUDA events (median and
min of --reps after warm-up); ratio_to_gemm = GEMM time / FFN time (target >= 0.85), and
the CUDA allocator's peak over the step against the derived activation memory (× 2 bytes).
Without CUDA it says so and exits 0.
"""

import argparse
import json
import statistics
import sys

TARGET = 0.85


def cuda_times(fn, reps, warmup=3):
    import torch

    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    return min(times), statistics.median(times)


def gemm_times(gemms, reps):
    import torch

    from ffnverify.bench.gemm import torch_operands

    ops = torch_operands(gemms, torch.bfloat16, "cuda")
    return cuda_times(lambda: [torch.mm(a, b) for a, b in ops], reps)


def bench_variant(variant, n, d, h, reps, compile_too):
    import torch

    from derivations.flops import flops
    from derivations.memory import activation_memory
    from ffnverify.backends.torch_ffn import FFN
    from ffnverify.bench.gemm import pass_gemms

    dev, bf16 = "cuda", torch.bfloat16
    gemm_min, gemm_med = gemm_times(pass_gemms(variant, d, h, n, "train", layout="linear"), reps)
    f = int(flops(variant, d, h, n, pass_="train"))
    torch.manual_seed(0)
    m = FFN(variant, d, h, device=dev, dtype=bf16)
    x = torch.randn(n, d, device=dev, dtype=bf16, requires_grad=True)
    dy = torch.randn(n, d, device=dev, dtype=bf16)
    out = {"variant": variant, "n": n, "d": d, "h": h, "dtype": "bfloat16", "flops": f,
           "gemm_s": gemm_min, "gemm_tflops": f / gemm_min / 1e12}
    modes = {"eager": m}
    if compile_too:
        modes["compiled"] = torch.compile(m)
    for mode, mod in modes.items():

        def step(mod=mod):
            m.zero_grad(set_to_none=True)
            x.grad = None
            mod(x).backward(dy)

        t_min, t_med = cuda_times(step, reps)
        m.zero_grad(set_to_none=True)
        x.grad = None
        torch.cuda.synchronize()
        base = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        step()
        torch.cuda.synchronize()
        grads = sum(p.grad.numel() * 2 for p in m.parameters()) + x.grad.numel() * 2
        out[mode] = {
            "min_s": t_min, "median_s": t_med, "tflops": f / t_min / 1e12,
            "ratio_to_gemm": gemm_min / t_min, "ratio_to_gemm_median": gemm_med / t_med,
            "meets_target": gemm_min / t_min >= TARGET,
            "peak_over_base_bytes": torch.cuda.max_memory_allocated() - base,
            "grad_bytes": grads,
        }
    out["derived_activation_bytes"] = int(activation_memory(variant, d, h, n)) * 2
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="swiglu,gelu")
    ap.add_argument("--n", type=int, default=8192)
    ap.add_argument("--d", type=int, default=4096)
    ap.add_argument("--h", type=int, default=11008)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--json", help="also write the results here")
    args = ap.parse_args(argv)
    try:
        import torch
    except ImportError:
        print("gpu_bench: PyTorch is not installed; nothing to measure")
        return 0
    if not torch.cuda.is_available():
        print("gpu_bench: no CUDA device; nothing to measure (run it on a GPU machine)")
        return 0
    info = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
            "cuda": torch.version.cuda, "results": []}
    print(f"# {info['device']}, torch {info['torch']}, CUDA {info['cuda']}")
    print("| variant | mode | median ms | min ms | TFLOP/s | GEMM TFLOP/s | ratio_to_gemm "
          "| (medians) | >= 0.85 | peak-grads MiB | derived MiB |")
    print("|" + "---|" * 11)
    for variant in args.variants.split(","):
        r = bench_variant(variant, args.n, args.d, args.h, args.reps, not args.no_compile)
        info["results"].append(r)
        for mode in ("eager", "compiled"):
            if mode in r:
                s = r[mode]
                print(f"| {variant} | {mode} | {s['median_s'] * 1e3:.2f} | {s['min_s'] * 1e3:.2f} "
                      f"| {s['tflops']:.0f} | {r['gemm_tflops']:.0f} | {s['ratio_to_gemm']:.3f} "
                      f"| {s['ratio_to_gemm_median']:.3f} | {'yes' if s['meets_target'] else 'no'} "
                      f"| {(s['peak_over_base_bytes'] - s['grad_bytes']) / 2**20:.0f} "
                      f"| {r['derived_activation_bytes'] / 2**20:.0f} |", flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(info, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
