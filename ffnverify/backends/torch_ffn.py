"""FFN modules in PyTorch (CPU and CUDA; float64, float32, bfloat16), backward by autograd.

Written independently of `derivations`. The module uses Hugging Face LlamaMLP naming
(gate_proj, up_proj, down_proj: nn.Linear, weight shaped out×in), so the conformance kit's
`hf` layout reads it directly.
"""

import torch
import torch.nn.functional as F
from torch import nn

from ffnverify.backends.activations import QUICK_GELU_C
from ffnverify.backends.variants import lookup

TORCH_ACTIVATIONS = {
    "identity": lambda z: z,
    "relu": F.relu,
    "sigmoid": torch.sigmoid,
    "tanh": torch.tanh,
    "silu": F.silu,
    "gelu": lambda z: F.gelu(z, approximate="none"),
    "gelu_tanh": lambda z: F.gelu(z, approximate="tanh"),
    "relu2": lambda z: torch.square(F.relu(z)),
    "quick_gelu": lambda z: z * torch.sigmoid(QUICK_GELU_C * z),
}


class FFN(nn.Module):
    """down(act(gate(x)) * up(x)) for gated variants, down(act(up(x))) otherwise."""

    def __init__(self, variant, d, h, bias=False, device=None, dtype=None):
        super().__init__()
        act_name, self.gated = lookup(variant)
        self.variant = variant
        self.act = TORCH_ACTIVATIONS[act_name]
        kw = {"bias": bias, "device": device, "dtype": dtype}
        if self.gated:
            self.gate_proj = nn.Linear(d, h, **kw)
        self.up_proj = nn.Linear(d, h, **kw)
        self.down_proj = nn.Linear(h, d, **kw)

    def forward(self, x):
        if self.gated:
            return self.down_proj(self.act(self.gate_proj(x)) * self.up_proj(x))
        return self.down_proj(self.act(self.up_proj(x)))


def from_numpy_weights(variant, weights, device=None, dtype=torch.float64) -> FFN:
    """An FFN whose parameters are the NumPy backend's weights (x@W layout, transposed)."""
    d, h = weights["W_up"].shape
    m = FFN(variant, d, h, bias="b_up" in weights, device=device, dtype=dtype)
    with torch.no_grad():
        for name, arr in weights.items():
            kind, p = name.split("_", 1)
            lin = getattr(m, f"{p}_proj")
            t = torch.as_tensor(arr, dtype=dtype, device=device)
            if kind == "W":
                lin.weight.copy_(t.T)
            else:
                lin.bias.copy_(t)
    return m


def to_numpy_weights(module: FFN) -> dict:
    """The module's parameters in the NumPy backend's naming and layout (float64)."""
    out = {}
    for p in ("gate", "up", "down"):
        lin = getattr(module, f"{p}_proj", None)
        if lin is None:
            continue
        out[f"W_{p}"] = lin.weight.detach().to("cpu", torch.float64).numpy().T.copy()
        if lin.bias is not None:
            out[f"b_{p}"] = lin.bias.detach().to("cpu", torch.float64).numpy().copy()
    return out
