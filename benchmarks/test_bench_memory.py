"""Measured memory of forward + backward at the LLM shape against the derived activation memory.

Recorded in extra_info (bytes): derived (activation_memory × 4, float32), saved (left alive
by the forward), peak_extra (peak over forward + backward, less y and the gradients), and
their ratios to derived. Asserted: `saved` is the implementation's convention (within
1%), and where the backward consumes what the forward saved (numpy with free_cache, the
recompute variant) the peak stays within 1.1 × derived. Where it does not (numpy's default
backward, which must leave the caller's cache intact; eager autograd, whose gated-product
backward makes two (n, h) gradients before it frees its inputs) the peak is recorded,
with the 1.1 target's outcome, and checked against its own bound: derived + 2·n·h.
"""

import pytest

from benchmarks.conftest import SHAPES
from benchmarks.memory import numpy_memory, torch_memory

VARIANTS = ("relu", "gelu", "swiglu")
IMPLS = ("numpy", "numpy-free-cache", "numpy-recompute", "torch-eager")
TARGET = 1.1


def measure(impl, variant, n, d, h):
    if impl == "torch-eager":
        pytest.importorskip("torch", reason="the torch memory benchmark needs PyTorch")
        return torch_memory(variant, d, h, n)
    conv = "recompute" if impl == "numpy-recompute" else "store"
    return numpy_memory(variant, d, h, n, convention=conv, free_cache=impl != "numpy")


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_memory(benchmark, impl, variant):
    n, d, h = SHAPES["llm"]
    benchmark.group = "memory llm fwd+bwd"
    r = benchmark.pedantic(measure, args=(impl, variant, n, d, h), rounds=1, iterations=1)
    nh_bytes = n * h * 4
    expected_saved = r["derived"]
    if impl == "torch-eager" and variant == "relu":
        expected_saved -= nh_bytes  # autograd keeps relu's output, not its input
    consuming = impl in ("numpy-free-cache", "numpy-recompute")
    bound = r["derived"] * TARGET if consuming else (r["derived"] + 2 * nh_bytes) * TARGET
    benchmark.extra_info.update(
        impl=impl, variant=variant, shape="llm", n=n, d=d, h=h, **r,
        saved_ratio=r["saved"] / r["derived"], peak_ratio=r["peak_extra"] / r["derived"],
        meets_target=r["peak_extra"] <= TARGET * r["derived"])
    assert abs(r["saved"] - expected_saved) <= 0.01 * expected_saved, (
        f"{impl} {variant}: the forward left {r['saved']} bytes alive for the backward; "
        f"its convention says {expected_saved}")
    assert r["peak_extra"] <= bound, (
        f"{impl} {variant}: extra peak {r['peak_extra']} bytes > {bound:.0f} "
        f"({r['peak_extra'] / r['derived']:.3f} × derived {r['derived']})")
