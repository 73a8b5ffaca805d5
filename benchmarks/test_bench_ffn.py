"""FFN forward and forward+backward, NumPy and PyTorch (CPU), float32, against the GEMM limit.

extra_info of each benchmark: flops (derived: derivations.flops, matmul count), gflops
(flops / fastest round), gemm_s (fastest round of the same pass's plain GEMMs, interleaved
with the benchmark's rounds), ratio_to_gemm (gemm_s / fastest round; 1.0 = nothing but
the matmuls), ratio_to_gemm_median (the same with medians).
"""

import numpy as np
import pytest

from benchmarks.conftest import PASSES, ROUNDS, SHAPES, case_info, run_against_gemms
from ffnverify.backends import numpy_ffn
from ffnverify.bench.gemm import numpy_operands, pass_gemms, torch_operands

VARIANTS = ("relu", "gelu", "swiglu")
params = pytest.mark.parametrize
cases = [
    pytest.param(shape, variant, label, id=f"{shape}-{variant}-{label}")
    for shape in SHAPES for label in PASSES for variant in VARIANTS
]


def _inputs(shape, seed=0):
    n, d, h = SHAPES[shape]
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d), dtype=np.float32)
    dy = rng.standard_normal((n, d), dtype=np.float32)
    return n, d, h, x, dy


@params("shape, variant, label", cases)
def test_numpy(benchmark, shape, variant, label):
    n, d, h, x, dy = _inputs(shape)
    benchmark.group = f"{shape} {label}"
    w = numpy_ffn.init_weights(variant, d, h, dtype=np.float32, rng=0)
    if label == "forward":
        run = lambda: numpy_ffn.forward(variant, w, x)
    else:
        run = lambda: numpy_ffn.backward(variant, w, numpy_ffn.forward(variant, w, x)[1], dy)
    gemms = pass_gemms(variant, d, h, n, PASSES[label], layout="x@W")
    run_against_gemms(benchmark, run, None, numpy_operands(gemms), np.matmul,
                      case_info("numpy", variant, label, shape), ROUNDS[shape])


@params("shape, variant, label", cases)
def test_torch(benchmark, shape, variant, label):
    torch = pytest.importorskip("torch", reason="the torch benchmarks need PyTorch")
    from ffnverify.backends.torch_ffn import FFN

    n, d, h, x_np, dy_np = _inputs(shape)
    benchmark.group = f"{shape} {label}"
    torch.manual_seed(0)
    m = FFN(variant, d, h, dtype=torch.float32)
    x = torch.from_numpy(x_np).requires_grad_()
    dy = torch.from_numpy(dy_np)

    def clear():
        m.zero_grad(set_to_none=True)
        x.grad = None

    if label == "forward":
        run = lambda: m(x)
    else:
        run = lambda: m(x).backward(dy)
    gemms = pass_gemms(variant, d, h, n, PASSES[label], layout="linear")
    run_against_gemms(benchmark, run, clear, torch_operands(gemms), torch.mm,
                      case_info("torch", variant, label, shape), ROUNDS[shape])
