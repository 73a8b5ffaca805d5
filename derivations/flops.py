"""FLOP counts, derived from the symbolic matmul shapes of each pass.

Conventions (docs/architecture.md §3):
- a matmul (m×k)@(k×p) costs 2·m·k·p FLOPs (one multiply-add = 2 FLOPs = 1 MAC), as
  torch.utils.flop_counter.FlopCounterMode counts it;
- backward of C = A@B needs dB = Aᵀ@dC and dA = dC@Bᵀ, each as costly as the forward
  matmul; dA for the input x is skipped when `input_grad=False`;
- `count="all"` adds the elementwise work, priced by ELEMENTWISE_COST below.
"""

import sympy as sp

from derivations import variants
from derivations.symbols import d as D
from derivations.symbols import h as H
from derivations.symbols import n as N

PASSES = ("forward", "backward", "train")
COUNTS = ("matmul", "all")

# FLOPs per element, counting each add, multiply, divide, max, exp, erf and tanh as one
# (each entry is written out step by step, and checked to compute it, in tests/derivations/test_cost_table.py).
# forward: act(z).  backward: dL/dz = g·act'(z) from the saved z and the incoming g,
# including the multiply by g (identity needs none: the gradient passes through).
ELEMENTWISE_COST = {
    #  activation: (forward, backward)
    "identity": (0, 0),
    "relu": (1, 1),  # max(0, z) | select g where z > 0
    "sigmoid": (4, 7),  # neg, exp, add, div | σ again (4), 1−σ, ·σ, ·g
    "tanh": (1, 4),  # tanh | tanh, square, 1−t², ·g
    "silu": (5, 9),  # σ (4), ·z | σ (4), 1−σ, ·z, 1+, ·σ, ·g
    "gelu": (5, 11),  # /√2, erf, 1+, ·z, ·½ | Φ (4), z², ·(−½), exp, ·1/√(2π), ·z, +, ·g
    "gelu_tanh": (9, 15),  # z³ (2), ·c, +z, ·√(2/π), tanh, 1+, ·z, ·½ | u = z·(k₁ + k₂z²) (4),
    # tanh, 1+t, t², 1−t², u' = k₁ + 3k₂z² (2), z·(1−t²), ·u', +(1+t), ·½, ·g  (k: constants)
    "relu2": (2, 3),  # max(0, z), square | max(0, z), ·2, ·g
    "quick_gelu": (6, 10),  # ·1.702, σ (4), ·z | ·1.702, σ (4), 1−σ, ·1.702z, 1+, ·σ, ·g
}
GATE_MULTIPLY_COST = (1, 2)  # p = a ⊙ u | da = dp ⊙ u, du = dp ⊙ a
BIAS_COST = (1, 1)  # add the bias | sum dL/dy over tokens into db


def forward_matmuls(variant: str, d=D, h=H, n=N) -> list[tuple[str, str, tuple]]:
    """[(name, left operand, (m, k, p))] for every weight matmul of one forward pass."""
    d, h, n = sp.sympify(d), sp.sympify(h), sp.sympify(n)
    v = variants.get(variant)
    mm = [(f"x@W_{p}", "x", (n, d, h)) for p in v.projections if p != "down"]
    mm.append(("a@W_down" if not v.gated else "p@W_down", "hidden", (n, h, d)))
    return mm


def matmul_flops(variant, d=D, h=H, n=N, pass_="forward", input_grad=True) -> sp.Expr:
    """Matmul FLOPs of `pass_` ("forward", "backward" or "train")."""
    _check(pass_, PASSES, "pass")
    fwd = bwd = sp.Integer(0)
    for _name, left, (m, k, p) in forward_matmuls(variant, d, h, n):
        cost = 2 * m * k * p
        fwd += cost
        bwd += cost  # dW = leftᵀ @ dC
        if left != "x" or input_grad:
            bwd += cost  # d(left) = dC @ Wᵀ
    return sp.expand({"forward": fwd, "backward": bwd, "train": fwd + bwd}[pass_])


def elementwise_flops(variant, d=D, h=H, n=N, pass_="forward", bias=False) -> sp.Expr:
    """Non-matmul FLOPs of `pass_`: bias adds, the activation and the gating multiply."""
    _check(pass_, PASSES, "pass")
    d, h, n = sp.sympify(d), sp.sympify(h), sp.sympify(n)
    v = variants.get(variant)
    act_f, act_b = ELEMENTWISE_COST[v.activation]
    fwd, bwd = act_f * n * h, act_b * n * h
    if v.gated:
        fwd += GATE_MULTIPLY_COST[0] * n * h
        bwd += GATE_MULTIPLY_COST[1] * n * h
    if bias:
        outputs = [h] * (len(v.projections) - 1) + [d]
        fwd += BIAS_COST[0] * n * sum(outputs)
        bwd += BIAS_COST[1] * n * sum(outputs)
    return sp.expand({"forward": fwd, "backward": bwd, "train": fwd + bwd}[pass_])


def flops(variant, d=D, h=H, n=N, pass_="forward", count="matmul", input_grad=True, bias=False):
    """FLOPs (2 per multiply-add) of one pass over n tokens."""
    _check(count, COUNTS, "count")
    total = matmul_flops(variant, d, h, n, pass_, input_grad)
    if count == "all":
        total += elementwise_flops(variant, d, h, n, pass_, bias)
    return sp.expand(total)


def macs(variant, d=D, h=H, n=N, pass_="forward", count="matmul", input_grad=True, bias=False):
    """Multiply-accumulates: FLOPs / 2. With count="matmul" this is what fvcore reports as
    "flops" and thop as MACs; torchinfo's "mult-adds" agree only on a 2-D input without
    bias (it adds 1 per bias parameter per token and, on a 3-D input, multiplies by the
    batch dimension alone)."""
    return sp.expand(flops(variant, d, h, n, pass_, count, input_grad, bias) / 2)


def _check(value, allowed, what):
    if value not in allowed:
        raise ValueError(f"unknown {what} {value!r}; expected one of {', '.join(allowed)}")
