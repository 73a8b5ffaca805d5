"""The same checks on a CUDA device, in float32 (TF32 off), bfloat16 and float16 (tox -e gpu)."""

import pytest

torch = pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from ffnverify.testing import check_ffn  # noqa: E402
from ffnverify.testing.conformance import ConformanceFailure  # noqa: E402

from .zoo import CORRECT, MUTANTS, correct  # noqa: E402

pytestmark = [pytest.mark.gpu, pytest.mark.torch]
GPU_DTYPES = ("float32", "bfloat16", "float16")
# mutants that stay visible without float64: wrong activation, swapped branches, x*x, ...
GPU_MUTANTS = [m for m in MUTANTS if m[6] != "float64" or m[0] in (
    "gate and up swapped", "sigmoid instead of SiLU", "GELU instead of SiLU",
    "activation after the product", "output scaled by 1.001", "detached gate branch",
    "custom backward with a wrong derivative", "bias exists but is not added", "token mixing",
    "swapped halves of a packed weight", "exact GELU where tanh is expected",
    "xformers #1165: output replaced by x*x", "gate clamped to ±10")]


@pytest.mark.parametrize("case", [(n, c, lay, v, b) for n, c, lay, vs, b in CORRECT
                                  for v in vs[:3]], ids=lambda c: f"{c[0]}-{c[3]}")
def test_correct_on_cuda(case):
    _name, cls, layout, variant, bias = case
    report = check_ffn(correct(cls, variant), variant, layout, bias=bias, device="cuda",
                       dtypes=GPU_DTYPES, max_examples=10)
    assert all(k == 10 for k in report.examples.values())


def test_tf32_is_off_during_the_check_and_restored():
    before = torch.backends.cuda.matmul.allow_tf32
    seen = []

    def factory(d, h, bias=False):
        seen.append(torch.backends.cuda.matmul.allow_tf32)
        return correct(CORRECT[0][1], "swiglu")(d, h, bias)

    check_ffn(factory, "swiglu", device="cuda", dtypes=("float32",), max_examples=3)
    assert seen and not any(seen)
    assert torch.backends.cuda.matmul.allow_tf32 == before


@pytest.mark.parametrize("mutant", GPU_MUTANTS, ids=[m[0] for m in GPU_MUTANTS])
def test_mutants_rejected_on_cuda(mutant):
    _name, factory, variant, layout, bias, check, _dtype = mutant
    with pytest.raises(ConformanceFailure) as info:
        check_ffn(factory, variant, layout, bias=bias, device="cuda", dtypes=GPU_DTYPES,
                  max_examples=20, shrink=False)
    assert info.value.check in (check, "forward", "backward", "saturation")
