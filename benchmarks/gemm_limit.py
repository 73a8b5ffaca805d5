"""The GEMM limit of a pass: moved into the package as `ffnverify.bench.gemm` (re-exported here
for the benchmark suite)."""

from ffnverify.bench.gemm import (  # noqa: F401
    LAYOUTS,
    Gemm,
    gemm_round,
    numpy_operands,
    pass_gemms,
    torch_operands,
    total_flops,
)
