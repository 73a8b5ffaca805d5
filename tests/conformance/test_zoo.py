"""The mutant zoo: every wrong FFN is rejected, by the check the zoo says."""

import pytest

torch = pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from ffnverify.testing import check_ffn  # noqa: E402
from ffnverify.testing.conformance import ConformanceFailure  # noqa: E402

from .zoo import MUTANTS, Fp8HiddenInLowPrecision, Nudged1e7, SwiGLU  # noqa: E402

pytestmark = pytest.mark.torch


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_mutant_is_rejected_by_its_check(mutant):
    _name, factory, variant, layout, bias, check, dtype = mutant
    with pytest.raises(ConformanceFailure) as info:
        check_ffn(factory, variant, layout, bias=bias, max_examples=10, shrink=False)
    failure = info.value
    assert (failure.check, failure.dtype) == (check, dtype), failure.report()
    text = failure.report()
    assert f"check '{check}'" in text and "reproduce:" in text and "d=" in text
    if check not in ("params", "flops"):  # numeric checks name a tensor and an element
        assert failure.tensor and failure.index is not None
        assert failure.error > failure.bound > 0


def test_nudge_needs_float64():
    """The 1e-7 nudge is below float32 resolution: only the float64 check can see it."""
    check_ffn(Nudged1e7, "swiglu", bias=False, dtypes=("float32",), max_examples=5)
    with pytest.raises(ConformanceFailure) as info:
        check_ffn(Nudged1e7, "swiglu", bias=False, dtypes=("float64",), max_examples=5)
    assert info.value.error < 1e-6  # tiny, and still far above the float64 bound
    assert info.value.error > 100 * info.value.bound


def test_low_precision_bound_is_not_an_atol_of_1e4():
    """float8 inside bfloat16 calls passes float64/float32 and fails the bfloat16 bound."""
    check_ffn(Fp8HiddenInLowPrecision, "swiglu", bias=False, dtypes=("float64", "float32"),
              max_examples=5)
    with pytest.raises(ConformanceFailure) as info:
        check_ffn(Fp8HiddenInLowPrecision, "swiglu", bias=False, dtypes=("bfloat16",),
                  max_examples=10, shrink=False)
    assert info.value.check == "forward" and info.value.bound < 1


# -- "compare two entry points of the same kernel with each other" proves nothing


def _buggy_kernel(x, w_gate, w_up, w_down):
    """One kernel, shared by both entry points: exact GELU where SiLU belongs."""
    return (torch.nn.functional.gelu(x @ w_gate.T) * (x @ w_up.T)) @ w_down.T


def swiglu_functional(x, w_gate, w_up, w_down):
    return _buggy_kernel(x, w_gate, w_up, w_down)


class KernelSwiGLU(SwiGLU):
    def forward(self, x):
        return _buggy_kernel(x, self.gate_proj.weight, self.up_proj.weight,
                             self.down_proj.weight)


def test_two_entry_points_agree_and_are_both_wrong():
    m = KernelSwiGLU(8, 12).double()
    x = torch.randn(5, 8, dtype=torch.float64)
    via_module = m(x)
    via_function = swiglu_functional(x, m.gate_proj.weight, m.up_proj.weight,
                                     m.down_proj.weight)
    torch.testing.assert_close(via_module, via_function, rtol=0, atol=0)  # "test passes"
    with pytest.raises(ConformanceFailure) as info:  # the independent reference disagrees
        check_ffn(KernelSwiGLU, "swiglu", bias=False, max_examples=5, shrink=False)
    assert info.value.check == "forward"
