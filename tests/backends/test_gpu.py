"""CUDA cross-checks (marked `gpu`; skipped with a reason where there is no CUDA device).

- torch on CUDA in float32 (TF32 off) and bfloat16 against the NumPy float64 reference,
  forward and backward, within per-element bounds from tests/tolerance.py: u = 2^-24 for
  float32; for bfloat16, u = 2^-8 for every stored tensor and float32 accumulation inside
  the matmuls (reduced-precision reductions are switched off for the test).
- FlopCounterMode on CUDA counts what the derivation says.
The check bodies take the device as an argument: the unmarked CPU tests at the end run
the same checks (float32 and bfloat16 on CPU) in every tox run, so the GPU checks' logic
and bounds are exercised even where no GPU is.
"""

import contextlib
import math

import numpy as np
import pytest
from tolerance import assert_within, ffn_bounds, unit_roundoff

from derivations.flops import PASSES, flops
from derivations.variants import VARIANTS
from ffnverify.backends import numpy_ffn

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch)")
from ffnverify.backends import torch_ffn  # noqa: E402

CASES = [(v, b) for v in VARIANTS for b in (False, True)]


@contextlib.contextmanager
def full_precision_matmuls():
    """TF32 off, and no reduced-precision (bf16/fp16) reductions inside matmuls."""
    m = torch.backends.cuda.matmul
    saved = (m.allow_tf32, torch.backends.cudnn.allow_tf32,
             m.allow_bf16_reduced_precision_reduction, m.allow_fp16_reduced_precision_reduction)
    m.allow_tf32 = torch.backends.cudnn.allow_tf32 = False
    m.allow_bf16_reduced_precision_reduction = m.allow_fp16_reduced_precision_reduction = False
    try:
        yield
    finally:
        (m.allow_tf32, torch.backends.cudnn.allow_tf32,
         m.allow_bf16_reduced_precision_reduction, m.allow_fp16_reduced_precision_reduction) = saved


def representable(variant, d, h, bias, shape, dtype, seed):
    """Weights, input and upstream gradient already rounded to `dtype` (as float64 arrays)."""
    rng = np.random.default_rng(seed)
    w = numpy_ffn.init_weights(variant, d, h, bias, rng=rng)
    x, dy = rng.standard_normal((*shape, d)), rng.standard_normal((*shape, d))

    def rnd(a):
        return torch.from_numpy(a).to(dtype).to(torch.float64).numpy()

    return {k: rnd(v) for k, v in w.items()}, rnd(x), rnd(dy)


def check_device_against_reference(variant, bias, device, dtype, seed=0, d=24, h=40,
                                   shape=(2, 5)):
    name = str(dtype).removeprefix("torch.")
    w, x, dy = representable(variant, d, h, bias, shape, dtype, seed)
    u_acc = unit_roundoff("float32") if dtype == torch.bfloat16 else None
    y_ref, g_ref = ffn_bounds(variant, w, x, dy, dtype=name, u_acc=u_acc)
    _, g64 = ffn_bounds(variant, w, x, dy, dtype="float64")
    y64, _ = ffn_bounds(variant, w, x, dtype="float64")

    module = torch_ffn.from_numpy_weights(variant, w, device=device, dtype=dtype)
    xt = torch.from_numpy(x).to(device, dtype).requires_grad_(True)
    with full_precision_matmuls():
        y = module(xt)
        y.backward(torch.from_numpy(dy).to(device, dtype))
    assert y.dtype == dtype and y.device.type == torch.device(device).type
    y_np = y.detach().to("cpu", torch.float64).numpy().reshape(y_ref.value.shape)
    assert_within(y_np, y_ref.value, y_ref.err + y64.err, f"{variant} {name} {device} forward")
    got = {"x": xt.grad}
    for key in w:
        kind, p = key.split("_", 1)
        lin = getattr(module, f"{p}_proj")
        got[key] = lin.weight.grad.T if kind == "W" else lin.bias.grad
    for key, t in got.items():
        arr = t.detach().to("cpu", torch.float64).numpy()
        ref, ref64 = g_ref[key], g64[key]
        assert_within(arr.reshape(ref.value.shape), ref.value, ref.err + ref64.err,
                      f"{variant} {name} {device} d{key}")
    return float(np.linalg.norm(y_ref.err) / np.linalg.norm(y_ref.value))


def check_flops_on(device, variant, bias, shape=(2, 3), d=8, h=12):
    from torch.utils.flop_counter import FlopCounterMode

    module = torch_ffn.FFN(variant, d, h, bias=bias, device=device, dtype=torch.float32)
    x = torch.randn(*shape, d, device=device, requires_grad=True)
    with FlopCounterMode(display=False) as fwd:
        module(x)
    with FlopCounterMode(display=False) as both:
        y = module(x)
        y.backward(torch.ones_like(y))
    n = math.prod(shape)
    counted = {"forward": fwd.get_total_flops(), "train": both.get_total_flops()}
    counted["backward"] = counted["train"] - counted["forward"]
    for p in PASSES:
        assert counted[p] == flops(variant, d, h, n, pass_=p, bias=bias), (variant, p, counted)


@pytest.mark.gpu
@pytest.mark.parametrize(("variant", "bias"), CASES)
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=["float32", "bfloat16"])
def test_cuda_matches_float64_reference(variant, bias, dtype):
    for seed in range(3):
        check_device_against_reference(variant, bias, "cuda", dtype, seed)


@pytest.mark.gpu
@pytest.mark.parametrize(("variant", "bias"), CASES)
def test_cuda_flop_counter(variant, bias):
    check_flops_on("cuda", variant, bias)


@pytest.mark.parametrize("variant", ["swiglu", "geglu_tanh", "relu", "glu", "bilinear"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=["float32", "bfloat16"])
def test_cpu_low_precision_matches_reference(variant, dtype):
    relative_bound = check_device_against_reference(variant, True, "cpu", dtype)
    # informative: the bound is a small fraction of |y| (bfloat16 keeps ~3 digits)
    assert relative_bound < 1e4 * unit_roundoff(str(dtype).removeprefix("torch.")) or (
        dtype == torch.bfloat16 and relative_bound < 0.5), relative_bound
