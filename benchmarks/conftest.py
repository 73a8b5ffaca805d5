"""pytest-benchmark set-up: the shapes, the implementations under test, the machine record.

Each FFN benchmark runs through `run_against_gemms`: pytest-benchmark's pedantic mode,
whose per-round `setup` (not timed) runs one round of the pass's plain GEMMs, so the
GEMM limit is measured interleaved with the benchmark, under the same load.
"""

import os
import platform
import statistics
import subprocess

import numpy as np

from derivations.flops import flops
from ffnverify.bench.gemm import gemm_round

# name -> (n tokens, d, h); "llm" is a LLaMA-like width ratio 2.75 at d=1024
SHAPES = {"llm": (2048, 1024, 2816), "small": (256, 256, 704)}
ROUNDS = {"llm": 7, "small": 40}
PASSES = {"forward": "forward", "fwd+bwd": "train"}  # benchmark label -> derivations pass


def cpu_model() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
    except OSError:
        out = ""
    for line in out.splitlines():
        if line.startswith("Model name:"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def blas_info() -> list[dict]:
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return [{"note": "threadpoolctl not installed"}]
    keep = ("user_api", "internal_api", "prefix", "version", "num_threads", "architecture")
    return [{k: lib.get(k) for k in keep} for lib in threadpool_info()]


def pytest_benchmark_update_machine_info(config, machine_info):
    machine_info["cpu_model"] = cpu_model()
    machine_info["cores"] = os.cpu_count()
    machine_info["numpy"] = np.__version__
    try:
        import torch

        machine_info["torch"] = torch.__version__
        machine_info["torch_threads"] = torch.get_num_threads()
    except ImportError:
        machine_info["torch"] = None
    machine_info["blas"] = blas_info()
    machine_info["env"] = {k: v for k, v in os.environ.items() if k.startswith("OPENBLAS_")}


def run_against_gemms(benchmark, run, setup, operands, matmul, info, rounds):
    """Benchmark `run`; record GFLOP/s and ratio_to_gemm (GEMM-only time / run time)."""
    gemm_times = []

    def before_round():
        gemm_times.append(gemm_round(operands, matmul))
        if setup is not None:
            setup()

    benchmark.extra_info.update(info)
    benchmark.pedantic(run, setup=before_round, rounds=rounds, warmup_rounds=1)
    if benchmark.stats is None:  # --benchmark-disable: nothing was timed
        return
    st = benchmark.stats.stats
    f = info["flops"]
    benchmark.extra_info.update(
        gflops=f / st.min / 1e9,
        gemm_s=min(gemm_times),
        gemm_gflops=f / min(gemm_times) / 1e9,
        ratio_to_gemm=min(gemm_times) / st.min,
        ratio_to_gemm_median=statistics.median(gemm_times) / st.median,
    )


def case_info(backend, variant, pass_label, shape) -> dict:
    n, d, h = SHAPES[shape]
    return {"backend": backend, "variant": variant, "pass": pass_label, "shape": shape,
            "n": n, "d": d, "h": h, "dtype": "float32",
            "flops": int(flops(variant, d, h, n, pass_=PASSES[pass_label]))}
