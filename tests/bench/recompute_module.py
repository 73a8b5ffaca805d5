"""A recompute-style SwiGLU (hf layout) for the convention check: its custom backward keeps
only x and the two pre-activations and recomputes silu and the product from them."""

import torch
from torch import nn


class _RecomputeSwiGLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w_gate, w_up, w_down):
        z_gate, z_up = x @ w_gate.T, x @ w_up.T
        ctx.save_for_backward(x, z_gate, z_up, w_gate, w_up, w_down)
        return (nn.functional.silu(z_gate) * z_up) @ w_down.T

    @staticmethod
    def backward(ctx, dy):
        x, z_gate, z_up, w_gate, w_up, w_down = ctx.saved_tensors
        s = torch.sigmoid(z_gate)
        a = z_gate * s
        p = a * z_up
        dp = dy @ w_down
        dz_up = dp * a
        dz_gate = dp * z_up * (s * (1 + z_gate * (1 - s)))
        return (dz_gate @ w_gate + dz_up @ w_up, dz_gate.T @ x, dz_up.T @ x, dy.T @ p)


class RecomputeSwiGLU(nn.Module):
    def __init__(self, d, h, bias=False):
        super().__init__()
        assert not bias, "no bias form"
        self.gate_proj = nn.Linear(d, h, bias=False)
        self.up_proj = nn.Linear(d, h, bias=False)
        self.down_proj = nn.Linear(h, d, bias=False)

    def forward(self, x):
        lead = x.shape[:-1]
        y = _RecomputeSwiGLU.apply(x.reshape(-1, x.shape[-1]), self.gate_proj.weight,
                                   self.up_proj.weight, self.down_proj.weight)
        return y.reshape(*lead, y.shape[-1])
