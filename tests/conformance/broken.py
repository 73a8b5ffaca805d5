"""Modules broken the ways a reviewer diagnoses, in the shapes of real code (LlamaMLP's
gate_proj/up_proj/down_proj, Phi3's fused gate_up_proj, GPT-2's NewGELU, FalconH1's
mlp_multipliers), and the diagnosis each must get.

BROKEN: (name, factory, variant, layout, bias, kind of the diagnosis, words it must say).
Importable at top level, so every printed reproducer runs as it stands.
"""

import math

import torch
import torch.nn.functional as F

from .zoo import HF, ExactGeluForTanh, GateUpSwapped, PackedHalvesSwapped, SwiGLU


class DownBiasUnused(SwiGLU):
    """mlp_bias=True, but the down projection is applied as a bare matmul."""

    def forward(self, x):
        hidden = F.silu(self.gate_proj(x)) * self.up_proj(x)
        return hidden @ self.down_proj.weight.T


class UpBiasTwice(SwiGLU):
    def forward(self, x):
        up = self.up_proj(x) + self.up_proj.bias  # nn.Linear added it already
        return self.down_proj(F.silu(self.gate_proj(x)) * up)


def new_gelu_0044(x):
    """transformers' NewGELUActivation with 0.044 for 0.044715."""
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044 * x**3)))


class GeluConstantOff(HF):
    def __init__(self, d, h, bias=False):
        super().__init__("gelu_tanh", d, h, bias)

    def forward(self, x):
        return self.down_proj(new_gelu_0044(self.up_proj(x)))


class QuickGeluConstantOff(HF):
    def __init__(self, d, h, bias=False):
        super().__init__("quick_gelu", d, h, bias)

    def forward(self, x):
        z = self.up_proj(x)
        return self.down_proj(z * torch.sigmoid(1.7 * z))


class FalconH1Like(SwiGLU):
    """FalconH1MLP: `down_proj(up_proj(x) * act(gate_proj(x) * gate_multiplier)) *
    down_multiplier`, mlp_multipliers = (gate_multiplier, down_multiplier)."""

    gate_multiplier, down_multiplier = 0.5, 2.25

    def forward(self, x):
        y = self.up_proj(x) * F.silu(self.gate_proj(x) * self.gate_multiplier)
        return self.down_proj(y) * self.down_multiplier


class InputScaled(SwiGLU):
    def forward(self, x):
        return super().forward(x * 0.125)


class OutputScaled(SwiGLU):
    def forward(self, x):
        return super().forward(x) * 1.001


class GateWeightTransposed(SwiGLU):
    """x @ W instead of x @ W.T: runs only where d == h."""

    def forward(self, x):
        gate = x @ self.gate_proj.weight
        if self.gate_proj.bias is not None:
            gate = gate + self.gate_proj.bias
        return self.down_proj(F.silu(gate) * self.up_proj(x))


class ResidualInside(SwiGLU):
    def forward(self, x):
        return x + super().forward(x)


class SigmoidGate(SwiGLU):
    def forward(self, x):
        return self.down_proj(torch.sigmoid(self.gate_proj(x)) * self.up_proj(x))


BROKEN = [
    ("gate and up swapped", GateUpSwapped, "swiglu", "hf", False, "swap",
     "gate and up swapped: act(up_proj(x)) * gate_proj(x)"),
    ("fused halves in the other order", PackedHalvesSwapped, "swiglu", "phi3", False, "swap",
     "the other chunk order of gate_up_proj.weight: the gate is the second chunk (layout "
     "phi3-gate-second)"),
    ("down bias never added", DownBiasUnused, "swiglu", "hf", True, "bias",
     "the down projection's bias (down_proj.bias) never added"),
    ("up bias added twice", UpBiasTwice, "swiglu", "hf", True, "bias",
     "the up projection's bias (up_proj.bias) added twice"),
    ("tanh-GELU with 0.044", GeluConstantOff, "gelu_tanh", "hf", False, "constant",
     "the gelu_tanh constant c = 0.044 (correct 0.044715)"),
    ("quick-GELU with 1.7", QuickGeluConstantOff, "quick_gelu", "hf", False, "constant",
     "the quick_gelu constant alpha = 1.7 (correct 1.702)"),
    ("FalconH1 mlp_multipliers, with biases", FalconH1Like, "swiglu", "hf", True, "scale",
     "the gate's pre-activation scaled by 0.5 and the output scaled by 2.25"),
    ("input scaled", InputScaled, "swiglu", "hf", True, "scale",
     "the input scaled by 0.125"),
    ("output scaled", OutputScaled, "swiglu", "hf", False, "scale",
     "the output scaled by 1.001"),
    ("gate weight transposed", GateWeightTransposed, "swiglu", "hf", False, "transposed",
     "gate_proj.weight used transposed"),
    ("exact GELU for tanh", ExactGeluForTanh, "geglu_tanh", "hf", False, "activation",
     "the activation gelu (the variant geglu), not gelu_tanh"),
    ("sigmoid for SiLU", SigmoidGate, "swiglu", "hf", False, "activation",
     "the activation sigmoid (the variant glu), not silu"),
    ("residual added inside", ResidualInside, "swiglu", "hf", False, "residual",
     "the residual added inside"),
]


# ---------------------------------------------------------------- for the reproducer tests
# (each needs an option: a call adapter, extra parameters, shape rules, a per-projection bias)


class MegatronScaled(torch.nn.Module):
    """megatron-core's MLP shape: linear_fc1 = [gate; up], linear_fc2, forward returning
    (output, output_bias); the output scaled by 1.01."""

    def __init__(self, d, h, bias=False):
        super().__init__()
        self.linear_fc1 = torch.nn.Linear(d, 2 * h, bias=bias)
        self.linear_fc2 = torch.nn.Linear(h, d, bias=bias)

    def forward(self, x):
        gate, up = self.linear_fc1(x).chunk(2, dim=-1)
        return self.linear_fc2(F.silu(gate) * up) * 1.01, None


def first_output(module, x):
    """call= adapter: the first item of the (output, bias) pair."""
    return module(x)[0]


class WithNormGeluOff(GeluConstantOff):
    """A norm outside the FFN (extra_params "norm.*") and tanh-GELU with 0.044."""

    def __init__(self, d, h, bias=False):
        super().__init__(d, h, bias)
        self.norm = torch.nn.LayerNorm(d)


class PickyResidual(ResidualInside):
    """A config that validates widths (4 heads divide d; h = 3d) and adds the residual."""

    def __init__(self, d, h, bias=False):
        if d % 4 or h != 3 * d:
            raise ValueError(f"d={d} must be a multiple of 4 heads and h={h} must be 3d")
        super().__init__(d, h, bias)


class UpBiasOnlyScaled(HF):
    """timm's bias=(True, False) form: up has a bias, down none; the output scaled."""

    def __init__(self, d, h, bias):
        super().__init__("gelu", d, h, False)
        if bias.get("up"):
            self.up_proj = torch.nn.Linear(d, h, bias=True)

    def forward(self, x):
        return super().forward(x) * 0.5
