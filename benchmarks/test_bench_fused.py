"""Gate and up projections: two GEMMs against one GEMM on the stacked [gate; up] weight.

Each benchmark times the two separate GEMMs (what ffnverify's backends run) and, in the
untimed per-round setup, the fused alternative, so both see the same load. extra_info:
fused_s (fastest fused round), separate_s, fused_speedup = separate_s / fused_s (> 1: fusing
is faster). Forward is measured twice: with the weights stacked beforehand (a layout that
stores them stacked) and with the stacking copy paid per call (the backends' dict layout).
"""

import time

import numpy as np
import pytest

from benchmarks.conftest import SHAPES

STAGES = ("forward", "forward+stack", "weight-grad", "input-grad")


def _numpy_case(stage, n, d, h):
    rng = np.random.default_rng(0)
    f32 = lambda *s: rng.standard_normal(s, dtype=np.float32)
    x, wg, wu, dz = f32(n, d), f32(d, h), f32(d, h), f32(n, 2 * h)
    wgu = np.concatenate([wg, wu], axis=1)
    dzg, dzu = np.ascontiguousarray(dz[:, :h]), np.ascontiguousarray(dz[:, h:])

    def dx_separate():
        dx = dzg @ wg.T
        dx += dzu @ wu.T
        return dx

    return {
        "forward": (lambda: (x @ wg, x @ wu), lambda: x @ wgu),
        "forward+stack": (lambda: (x @ wg, x @ wu), lambda: x @ np.concatenate([wg, wu], axis=1)),
        "weight-grad": (lambda: (x.T @ dzg, x.T @ dzu), lambda: x.T @ dz),
        "input-grad": (dx_separate, lambda: dz @ wgu.T),
    }[stage]


def _torch_case(stage, n, d, h):
    import torch
    import torch.nn.functional as F

    g = torch.Generator().manual_seed(0)
    r = lambda *s: torch.randn(s, generator=g)
    x, wg, wu, dz = r(n, d), r(h, d), r(h, d), r(n, 2 * h)  # nn.Linear layout: out×in
    wgu = torch.cat([wg, wu])
    dzg, dzu = dz[:, :h].contiguous(), dz[:, h:].contiguous()
    return {
        "forward": (lambda: (F.linear(x, wg), F.linear(x, wu)), lambda: F.linear(x, wgu)),
        "forward+stack": (lambda: (F.linear(x, wg), F.linear(x, wu)),
                          lambda: F.linear(x, torch.cat([wg, wu]))),
        "weight-grad": (lambda: (dzg.t() @ x, dzu.t() @ x), lambda: dz.t() @ x),
        "input-grad": (lambda: torch.addmm(dzg @ wg, dzu, wu), lambda: dz @ wgu),
    }[stage]


@pytest.mark.parametrize("backend", ("numpy", "torch"))
@pytest.mark.parametrize("stage", STAGES)
def test_fused_gate_up(benchmark, backend, stage):
    n, d, h = SHAPES["llm"]
    if backend == "torch":
        pytest.importorskip("torch", reason="the torch comparison needs PyTorch")
        separate, fused = _torch_case(stage, n, d, h)
    else:
        separate, fused = _numpy_case(stage, n, d, h)
    benchmark.group = f"fused gate+up {backend} llm"
    fused_times = []

    def time_fused():
        t0 = time.perf_counter()
        fused()
        fused_times.append(time.perf_counter() - t0)

    benchmark.pedantic(separate, setup=time_fused, rounds=7, warmup_rounds=1)
    if benchmark.stats is None:
        return
    sep = benchmark.stats.stats.min
    benchmark.extra_info.update(backend=backend, stage=stage, shape="llm", separate_s=sep,
                                fused_s=min(fused_times), fused_speedup=sep / min(fused_times))
