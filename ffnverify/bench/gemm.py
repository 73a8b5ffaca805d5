"""The GEMM limit of a pass: exactly the weight matmuls it needs, timed alone as plain GEMMs.

`pass_gemms` lists them from the derivations (`derivations.flops.forward_matmuls`): the
forward C = A @ W of each projection, and for the backward dW = Aᵀ @ dC and dA = dC @ Wᵀ
(dA skipped for the input x when input_grad is false). Each entry carries the operand
layout backprop implies for the x @ W convention (Aᵀ and Wᵀ are transposed views, as BLAS
reads them, not copies), so the reference runs the same GEMM kernels the implementations
can at best run. `gemm_round` times one round of them on fresh same-shaped operands; the
ratio of the fastest round to the benchmark's fastest round is `ratio_to_gemm`.
"""

import time
from typing import NamedTuple

import numpy as np

from derivations.flops import forward_matmuls

LAYOUTS = ("x@W", "linear")  # NumPy backend: W stored in×out; nn.Linear: W stored out×in


class Gemm(NamedTuple):
    """C (m×p) = op(A) (m×k) @ op(B) (k×p); trans_a: A is stored k×m; trans_b: B is stored p×k."""

    name: str
    m: int
    k: int
    p: int
    trans_a: bool = False
    trans_b: bool = False

    @property
    def flops(self) -> int:
        return 2 * self.m * self.k * self.p


def pass_gemms(variant, d, h, n, pass_="train", input_grad=True, layout="x@W") -> list[Gemm]:
    """The weight GEMMs of one pass ("forward", "backward" or "train") over n tokens.

    layout "x@W" stores each weight in×out (C = A@W, dW = Aᵀ@dC, dA = dC@Wᵀ); "linear"
    stores it out×in as nn.Linear does (C = A@Wᵀ, dW = dCᵀ@A, dA = dC@W).
    """
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; expected one of {LAYOUTS}")
    linear = layout == "linear"
    fwd, bwd = [], []
    for name, left, (m, k, p) in forward_matmuls(variant, d, h, n):
        m, k, p = int(m), int(k), int(p)
        w = name.split("@")[1]
        fwd.append(Gemm(name, m, k, p, trans_b=linear))
        if linear:
            bwd.append(Gemm(f"d{w} = d({name})ᵀ@{left}", p, m, k, trans_a=True))
        else:
            bwd.append(Gemm(f"d{w} = {left}ᵀ@d({name})", k, m, p, trans_a=True))
        if left != "x" or input_grad:
            bwd.append(Gemm(f"d{left} += d({name})@{w}ᵀ", m, p, k, trans_b=not linear))
    return {"forward": fwd, "backward": bwd, "train": fwd + bwd}[pass_]


def total_flops(gemms) -> int:
    return sum(g.flops for g in gemms)


def numpy_operands(gemms, dtype=np.float32, seed=0):
    """Fresh operands, as (A, B) views with the layout each Gemm names."""
    rng = np.random.default_rng(seed)
    ops = []
    for g in gemms:
        a = rng.standard_normal((g.k, g.m) if g.trans_a else (g.m, g.k), dtype=np.float32)
        b = rng.standard_normal((g.p, g.k) if g.trans_b else (g.k, g.p), dtype=np.float32)
        a, b = a.astype(dtype, copy=False), b.astype(dtype, copy=False)
        ops.append((a.T if g.trans_a else a, b.T if g.trans_b else b))
    return ops


def torch_operands(gemms, dtype=None, device="cpu", seed=0):
    """The same for torch tensors (transposes are strided views, as nn.Linear's are)."""
    import torch

    dtype = dtype or torch.float32
    gen = torch.Generator(device=device).manual_seed(seed)
    kw = {"generator": gen, "device": device, "dtype": dtype}
    ops = []
    for g in gemms:
        a = torch.randn((g.k, g.m) if g.trans_a else (g.m, g.k), **kw)
        b = torch.randn((g.p, g.k) if g.trans_b else (g.k, g.p), **kw)
        ops.append((a.t() if g.trans_a else a, b.t() if g.trans_b else b))
    return ops


def gemm_round(operands, matmul, sync=None) -> float:
    """Seconds for one round of the GEMMs, run back to back (each allocating its output)."""
    t0 = time.perf_counter()
    for a, b in operands:
        matmul(a, b)
    if sync is not None:
        sync()
    return time.perf_counter() - t0
