"""ffnverify.bench.measure: structure, the exact FLOP and memory accounting, and the
convention match. Timings are only required to exist (the test machine is shared)."""

import numpy as np
import pytest

from derivations.flops import flops
from derivations.memory import activation_memory
from ffnverify.backends import numpy_ffn
from ffnverify.backends.variants import BACKEND_VARIANTS
from ffnverify.bench import measure
from ffnverify.bench.gemm import pass_gemms

FAST = {"rounds": 2, "warmup": 1}
N, D, H = 12, 8, 20


def _derived(variant, conv, n=N, d=D, h=H):
    return int(activation_memory(variant, d, h, n, convention=conv))


def _check_structure(results, target, variant, n, d, h, passes=measure.PASSES):
    assert [r.pass_ for r in results] == list(passes)
    for r in results:
        assert (r.target, r.variant, r.n, r.d, r.h) == (target, variant, n, d, h)
        assert r.flops == flops(variant, d, h, n, r.pass_)
        lay = "x@W" if target == "numpy" else "linear"  # nn.Linear stores W out×in
        assert r.gemms == [g.name for g in pass_gemms(variant, d, h, n, r.pass_, layout=lay)]
        assert 0 < r.seconds <= r.seconds_median and 0 < r.gemm_s <= r.gemm_median_s
        assert r.ratio_to_gemm == r.gemm_s / r.seconds
        assert r.gflops == r.flops / r.seconds / 1e9
        assert (r.memory is not None) == (r.pass_ == "train")
        row = r.as_dict()
        assert row["pass"] == r.pass_ and row["ratio_to_gemm"] == r.ratio_to_gemm


def test_numpy_target_structure_and_accounting():
    results = measure.bench("numpy", "swiglu", [(N, D, H)], **FAST)
    _check_structure(results, "numpy", "swiglu", N, D, H)
    m = results[1].memory
    assert m.derived_elements == {c: _derived("swiglu", c) for c in ("store", "recompute")}
    assert m.derived_elements["store"] == N * D + 4 * N * H  # x, z_gate, z_up, a, p
    assert m.derived_bytes == {c: 4 * e for c, e in m.derived_elements.items()}
    assert m.saved_elements == m.derived_elements["store"] and m.convention == "store"


@pytest.mark.parametrize("variant", sorted(BACKEND_VARIANTS))
def test_numpy_backend_saves_exactly_the_store_convention(variant):
    w = numpy_ffn.init_weights(variant, D, H, dtype=np.float32, rng=0)
    x = np.ones((N, D), dtype=np.float32)
    _, cache = numpy_ffn.forward(variant, w, x)
    saved = measure.numpy_saved_elements(cache)
    assert saved == _derived(variant, "store")
    assert measure.match_convention(variant, D, H, N, saved) == "store"


def test_saved_elements_count_each_buffer_once():
    a = np.zeros((4, 6))
    cache = {"x": a.reshape(2, 12), "a": a[:, :3], "z": np.zeros(5), "shape": (4, 6)}
    assert measure.numpy_saved_elements(cache) == 24 + 5


@pytest.mark.parametrize("variant", ["swiglu", "relu", "bilinear"])
def test_convention_match_is_exact(variant):
    store, recompute = _derived(variant, "store"), _derived(variant, "recompute")
    assert store != recompute
    assert measure.match_convention(variant, D, H, N, store) == "store"
    assert measure.match_convention(variant, D, H, N, recompute) == "recompute"
    for wrong in (store - 1, store + 1, recompute - 1, 0):
        assert measure.match_convention(variant, D, H, N, wrong) == "neither"


def test_bad_requests_are_bench_errors():
    with pytest.raises(measure.BenchError, match="unknown FFN variant"):
        measure.bench("numpy", "swishglu", [(N, D, H)], **FAST)
    with pytest.raises(measure.BenchError, match="float32 on the cpu only"):
        measure.bench("numpy", "swiglu", [(N, D, H)], dtype="bfloat16", **FAST)
    with pytest.raises(measure.BenchError, match="unknown pass"):
        measure.bench("numpy", "swiglu", [(N, D, H)], passes=("backward",), **FAST)
    with pytest.raises(measure.BenchError, match="cannot import"):
        measure.bench("no_such_module_xyz:f", "swiglu", [(N, D, H)], **FAST)


# ---------------------------------------------------------------- torch modules

torch_only = pytest.mark.torch


@torch_only
def test_torch_backend_saves_the_store_convention():
    pytest.importorskip("torch", reason="needs PyTorch")
    results = measure.bench("torch", "swiglu", [(N, D, H)], **FAST)
    _check_structure(results, "torch", "swiglu", N, D, H)
    m = results[1].memory
    assert m.saved_elements == _derived("swiglu", "store") and m.convention == "store"
    assert m.peak_extra_bytes > 0


# eager autograd differentiates these activations from their output: it keeps n·h less
OUTPUT_SAVERS = {"relu", "glu", "reglu", "tanhglu"}
# quick_gelu runs as z * sigmoid(1.702 z) op by op: autograd keeps z and the sigmoid's
# output (the product needs both; a scalar multiply keeps nothing), n·h more than "store"
EXTRA_SAVED = {"quick_gelu": 1}


@torch_only
@pytest.mark.parametrize("variant", sorted(BACKEND_VARIANTS))
def test_saved_tensor_hooks_count_what_eager_autograd_keeps(variant):
    torch = pytest.importorskip("torch", reason="needs PyTorch")
    from ffnverify.backends.torch_ffn import FFN

    x = torch.randn(N, D, requires_grad=True)
    _, saved = measure.torch_saved_elements(FFN(variant, D, H), x)
    less = N * H if variant in OUTPUT_SAVERS else 0
    more = EXTRA_SAVED.get(variant, 0) * N * H
    assert saved == _derived(variant, "store") - less + more
    expect = {"relu": "recompute"}.get(variant, "neither" if less or more else "store")
    assert measure.match_convention(variant, D, H, N, saved) == expect


@torch_only
def test_a_recompute_module_matches_recompute():
    pytest.importorskip("torch", reason="needs PyTorch")
    from ffnverify.testing import check_example

    from .recompute_module import RecomputeSwiGLU

    # it is a correct SwiGLU (so the count is of a real FFN), then: it keeps x, z_gate, z_up
    check_example(RecomputeSwiGLU, "swiglu", "hf", d=D, h=H, n=N, dtypes=("float64",))
    (r,) = measure.bench(RecomputeSwiGLU, "swiglu", [(N, D, H)], passes=("train",), **FAST)
    assert r.memory.saved_elements == N * D + 2 * N * H == _derived("swiglu", "recompute")
    assert r.memory.convention == "recompute"


@torch_only
def test_a_module_with_the_wrong_parameters_is_refused():
    pytest.importorskip("torch", reason="needs PyTorch")
    from .recompute_module import RecomputeSwiGLU

    with pytest.raises(measure.BenchError, match="no built-in non-gated layout fits"):
        measure.bench(RecomputeSwiGLU, "gelu", [(N, D, H)], **FAST)
    with pytest.raises(ValueError, match="layout 'nope'"):
        measure.bench(RecomputeSwiGLU, "swiglu", [(N, D, H)], layout="nope", **FAST)


@torch_only
def test_a_factory_that_fails_is_a_bench_error():
    pytest.importorskip("torch", reason="needs PyTorch")

    def broken(d, h, bias):
        raise RuntimeError("no weights today")

    with pytest.raises(measure.BenchError, match="raised RuntimeError: no weights today"):
        measure.bench(broken, "swiglu", [(N, D, H)], **FAST)
    with pytest.raises(measure.BenchError, match=r"returned dict, not a torch\.nn\.Module"):
        measure.bench(lambda d, h, bias: {}, "swiglu", [(N, D, H)], **FAST)


@pytest.mark.hf
@torch_only
def test_llama_mlp():
    pytest.importorskip("transformers", reason="needs transformers")
    from tests.conformance.real_modules import llama_mlp

    results = measure.bench(llama_mlp, "swiglu", [(N, D, H)], "hf", **FAST)
    _check_structure(results, "llama_mlp", "swiglu", N, D, H)
    assert results[1].memory.convention == "store"


@pytest.mark.hf
@torch_only
def test_torchtune_feedforward():
    pytest.importorskip("torchtune", reason="torchtune is not installed")
    from tests.conformance.real_modules import torchtune_feedforward

    results = measure.bench(torchtune_feedforward, "swiglu", [(N, D, H)], "torchtune", **FAST)
    _check_structure(results, "torchtune_feedforward", "swiglu", N, D, H)
    assert results[1].memory.convention == "store"


@pytest.mark.gpu
@torch_only
def test_cuda_events_and_peak_memory():
    pytest.importorskip("torch", reason="needs PyTorch")
    n, d, h = 512, 256, 704
    for dtype in ("float32", "bfloat16"):
        results = measure.bench("torch", "swiglu", [(n, d, h)], dtype=dtype, device="cuda",
                                **FAST)
        _check_structure(results, "torch", "swiglu", n, d, h)
        m = results[1].memory
        assert m.convention == "store"
        assert m.derived_bytes["store"] == m.derived_elements["store"] * measure.ITEMSIZE[dtype]
        assert m.peak_extra_bytes > 0


@torch_only
def test_cpu_peak_replays_the_allocator_events():
    torch = pytest.importorskip("torch", reason="needs PyTorch")
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        a = torch.empty(1000, dtype=torch.float32)
        b = torch.empty(250, dtype=torch.float64)
        del a
        c = torch.empty(200, dtype=torch.float32)
    assert measure._cpu_peak(prof) == 4000 + 2000
    del b, c


@torch_only
def test_bfloat16_counts_two_bytes_per_element():
    pytest.importorskip("torch", reason="needs PyTorch")
    (r,) = measure.bench("torch", "geglu", [(N, D, H)], dtype="bfloat16", passes=("train",),
                         **FAST)
    m = r.memory
    assert m.convention == "store" and m.saved_elements == _derived("geglu", "store")
    assert m.derived_bytes == {c: 2 * e for c, e in m.derived_elements.items()}
