"""Small FFN modules to point `ffnverify check` at: one correct, some broken.

    ffnverify check examples.ffn_modules:swiglu --variant swiglu --layout hf
    ffnverify check examples.ffn_modules:swiglu_packed --variant swiglu --layout phi3
    ffnverify check examples.ffn_modules:swiglu_gate_up_swapped --variant swiglu
    ffnverify check examples.ffn_modules:swiglu_tanh_gelu_mixup --variant geglu_tanh

(run from the repository root, so that `examples` is importable.)
"""

import torch.nn.functional as F
from torch import nn


class SwiGLU(nn.Module):
    """down(silu(gate(x)) * up(x)), Hugging Face naming."""

    def __init__(self, d, h, bias=False):
        super().__init__()
        self.gate_proj = nn.Linear(d, h, bias=bias)
        self.up_proj = nn.Linear(d, h, bias=bias)
        self.down_proj = nn.Linear(h, d, bias=bias)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class PackedSwiGLU(nn.Module):
    """Phi-3 style: one projection to [gate; up], split in two."""

    def __init__(self, d, h, bias=False):
        super().__init__()
        self.gate_up_proj = nn.Linear(d, 2 * h, bias=bias)
        self.down_proj = nn.Linear(h, d, bias=bias)

    def forward(self, x):
        gate, up = self.gate_up_proj(x).chunk(2, dim=-1)
        return self.down_proj(F.silu(gate) * up)


class GateUpSwapped(SwiGLU):
    """BROKEN: silu applied to the up branch. Shapes agree, so shape tests cannot see it."""

    def forward(self, x):
        return self.down_proj(self.gate_proj(x) * F.silu(self.up_proj(x)))


class ExactGeluForTanh(SwiGLU):
    """BROKEN for geglu_tanh: exact-erf GELU where the tanh approximation is expected."""

    def forward(self, x):
        return self.down_proj(F.gelu(self.gate_proj(x)) * self.up_proj(x))


def swiglu(d, h, bias=False):
    return SwiGLU(d, h, bias)


def swiglu_packed(d, h, bias=False):
    return PackedSwiGLU(d, h, bias)


def swiglu_gate_up_swapped(d, h, bias=False):
    return GateUpSwapped(d, h, bias)


def swiglu_tanh_gelu_mixup(d, h, bias=False):
    return ExactGeluForTanh(d, h, bias)
