"""ffnverify.bench.gemm: the GEMMs of a pass are exactly the derived matmul FLOPs, with the
operand layouts backprop implies, and one round of them runs and is timed."""

import numpy as np
import pytest

from derivations.flops import flops
from derivations.variants import VARIANTS
from ffnverify.bench import gemm

SHAPES = [(1, 1, 1), (6, 10, 7), (64, 176, 3)]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("layout", gemm.LAYOUTS)
def test_gemm_flops_are_the_derived_matmul_flops(variant, layout):
    for d, h, n in SHAPES:
        for pass_ in ("forward", "backward", "train"):
            for input_grad in (True, False):
                gs = gemm.pass_gemms(variant, d, h, n, pass_, input_grad, layout)
                assert gemm.total_flops(gs) == flops(variant, d, h, n, pass_,
                                                     input_grad=input_grad)


def test_a_missing_gemm_changes_the_count():
    gs = gemm.pass_gemms("swiglu", 6, 10, 7, "train")
    assert len(gs) == 9  # 3 forward, 3 weight gradients, 3 input gradients
    assert gemm.total_flops(gs[:-1]) != flops("swiglu", 6, 10, 7, "train")


@pytest.mark.parametrize("layout", gemm.LAYOUTS)
def test_operands_have_the_stated_shapes_and_transposes(layout):
    gs = gemm.pass_gemms("swiglu", 6, 10, 7, "train", layout=layout)
    for g, (a, b) in zip(gs, gemm.numpy_operands(gs), strict=True):
        assert a.shape == (g.m, g.k) and b.shape == (g.k, g.p)
        assert (not a.flags.c_contiguous) == g.trans_a  # a transposed view, not a copy
        assert (not b.flags.c_contiguous) == g.trans_b
        assert (a @ b).shape == (g.m, g.p)
    assert gemm.gemm_round(gemm.numpy_operands(gs), np.matmul) > 0


def test_torch_operands_match_the_numpy_ones():
    torch = pytest.importorskip("torch", reason="needs PyTorch")
    gs = gemm.pass_gemms("gelu", 5, 9, 4, "train", layout="linear")
    for g, (a, b) in zip(gs, gemm.torch_operands(gs), strict=True):
        assert tuple(a.shape) == (g.m, g.k) and tuple(b.shape) == (g.k, g.p)
        assert (not a.is_contiguous()) == g.trans_a and (not b.is_contiguous()) == g.trans_b
    assert gemm.gemm_round(gemm.torch_operands(gs), torch.mm) > 0


def test_unknown_layout_is_rejected():
    with pytest.raises(ValueError, match="unknown layout"):
        gemm.pass_gemms("relu", 2, 3, 4, layout="W@x")
