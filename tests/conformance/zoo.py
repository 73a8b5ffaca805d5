"""Test data for the conformance kit: correct FFNs in every layout, and a zoo of wrong ones.

CORRECT: (name, factory(variant) -> factory(d, h, bias), layout, variants, bias settings).
MUTANTS: (name, factory(d, h, bias), variant, layout, bias settings, the check that must
reject it, the dtype it is rejected in). Each mutant is a realistic bug; most keep every
shape right, which is why shape-only tests let them through.
"""

import math

import torch
import torch.nn.functional as F
from torch import nn

from ffnverify.backends.torch_ffn import TORCH_ACTIVATIONS
from ffnverify.backends.variants import lookup

GATED = ("glu", "bilinear", "reglu", "geglu", "geglu_tanh", "swiglu", "tanhglu")
PLAIN = ("relu", "gelu", "gelu_tanh", "silu", "relu2", "quick_gelu")


def _act(variant):
    return TORCH_ACTIVATIONS[lookup(variant)[0]]


# ---------------------------------------------------------------- correct, one per layout


class HF(nn.Module):
    """gate_proj / up_proj / down_proj (non-gated: up_proj / down_proj)."""

    def __init__(self, variant, d, h, bias):
        super().__init__()
        self.act, self.gated = _act(variant), lookup(variant)[1]
        if self.gated:
            self.gate_proj = nn.Linear(d, h, bias=bias)
        self.up_proj = nn.Linear(d, h, bias=bias)
        self.down_proj = nn.Linear(h, d, bias=bias)

    def forward(self, x):
        if self.gated:
            return self.down_proj(self.act(self.gate_proj(x)) * self.up_proj(x))
        return self.down_proj(self.act(self.up_proj(x)))


class Torchtune(nn.Module):
    """w1 gate, w3 up, w2 down (non-gated: w1, w2), as torchtune's FeedForward."""

    def __init__(self, variant, d, h, bias):
        super().__init__()
        self.act, gated = _act(variant), lookup(variant)[1]
        self.w1 = nn.Linear(d, h, bias=bias)
        self.w2 = nn.Linear(h, d, bias=bias)
        self.w3 = nn.Linear(d, h, bias=bias) if gated else None

    def forward(self, x):
        hidden = self.act(self.w1(x))
        if self.w3 is not None:
            hidden = hidden * self.w3(x)
        return self.w2(hidden)


class XformersPacked(nn.Module):
    """w12 = [gate; up] along the output dimension, w3 down (xformers SwiGLU)."""

    def __init__(self, variant, d, h, bias):
        super().__init__()
        self.act = _act(variant)
        self.w12 = nn.Linear(d, 2 * h, bias=bias)
        self.w3 = nn.Linear(h, d, bias=bias)

    def forward(self, x):
        x1, x2 = self.w12(x).chunk(2, dim=-1)
        return self.w3(self.act(x1) * x2)


class Phi3(nn.Module):
    """gate_up_proj = [gate; up], down_proj (transformers' Phi3MLP)."""

    def __init__(self, variant, d, h, bias):
        super().__init__()
        self.act = _act(variant)
        self.gate_up_proj = nn.Linear(d, 2 * h, bias=bias)
        self.down_proj = nn.Linear(h, d, bias=bias)

    def forward(self, x):
        gate, up = self.gate_up_proj(x).chunk(2, dim=-1)
        return self.down_proj(up * self.act(gate))


class TitanW13(nn.Module):
    """w13: gate and up rows interleaved (row 2i gate i, row 2i+1 up i), w2 down."""

    def __init__(self, variant, d, h, bias):
        super().__init__()
        self.act = _act(variant)
        self.w13 = nn.Linear(d, 2 * h, bias=bias)
        self.w2 = nn.Linear(h, d, bias=bias)

    def forward(self, x):
        z = self.w13(x).unflatten(-1, (-1, 2))
        return self.w2(self.act(z[..., 0]) * z[..., 1])


class Conv1D(nn.Module):
    """transformers' Conv1D: weight stored in×out, y = addmm(b, x, W)."""

    def __init__(self, nf, nx):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(nx, nf) * 0.02)
        self.bias = nn.Parameter(torch.zeros(nf))

    def forward(self, x):
        out = torch.addmm(self.bias, x.reshape(-1, x.size(-1)), self.weight)
        return out.reshape(*x.shape[:-1], -1)


class GPT2(nn.Module):
    """c_fc / c_proj Conv1D with bias (GPT-2's MLP); non-gated only."""

    def __init__(self, variant, d, h, bias):
        super().__init__()
        self.act = _act(variant)
        self.c_fc, self.c_proj = Conv1D(h, d), Conv1D(d, h)

    def forward(self, x):
        return self.c_proj(self.act(self.c_fc(x)))


class T5Like(nn.Module):
    """wi_0 gate, wi_1 up, wo down (read through an explicit mapping)."""

    def __init__(self, variant, d, h, bias):
        super().__init__()
        self.act = _act(variant)
        self.wi_0 = nn.Linear(d, h, bias=bias)
        self.wi_1 = nn.Linear(d, h, bias=bias)
        self.wo = nn.Linear(h, d, bias=bias)

    def forward(self, x):
        return self.wo(self.act(self.wi_0(x)) * self.wi_1(x))


# ---------------------------------------------------------------- activations op by op
# (what transformers' activations.py writes: every tensor operation rounds to the dtype)


def new_gelu(x):  # transformers NewGELUActivation (gelu_new: GPT-2, GPT-J, CodeGen, Phi)
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi)
                                       * (x + 0.044715 * torch.pow(x, 3.0))))


def fast_gelu(x):  # transformers FastGELUActivation
    return 0.5 * x * (1.0 + torch.tanh(x * 0.7978845608 * (1.0 + 0.044715 * x * x)))


def silu_op_by_op(x):
    return x * torch.sigmoid(x)


def quick_gelu_op_by_op(x):  # transformers QuickGELUActivation (CLIP)
    return x * torch.sigmoid(1.702 * x)


def gelu_op_by_op(x):  # transformers GELUActivation's Python form
    return x * 0.5 * (1.0 + torch.erf(x / math.sqrt(2.0)))


OP_BY_OP = {"gelu_tanh": {"new_gelu": new_gelu, "fast_gelu": fast_gelu},
            "silu": {"x*sigmoid(x)": silu_op_by_op},
            "quick_gelu": {"x*sigmoid(1.702x)": quick_gelu_op_by_op},
            "gelu": {"0.5x(1+erf(x/sqrt2))": gelu_op_by_op}}


def op_by_op(variant, name):
    """factory(d, h, bias) of an HF-layout non-gated FFN with that op-by-op activation."""
    act = OP_BY_OP[variant][name]

    def factory(d, h, bias=False):
        m = HF(variant, d, h, bias)
        m.act = act
        return m
    factory.__qualname__ = f"op_by_op[{variant}, {name}]"
    return factory


class _ScaledIn(nn.Module):
    """Multiplies the wrapped FFN's output by `factor` only when it runs in `dtype`."""

    def __init__(self, inner, dtype, factor):
        super().__init__()
        self.inner, self.dtype, self.factor = inner, dtype, factor

    def forward(self, x):
        y = self.inner(x)
        return y * self.factor if x.dtype == self.dtype else y


def scaled_in(dtype, factor, variant="gelu_tanh", act=new_gelu):
    """An op-by-op GELU FFN whose output is off by `factor` in `dtype` only."""
    def factory(d, h, bias=False):
        m = HF(variant, d, h, bias)
        m.act = act
        return _ScaledIn(m, dtype, factor)
    factory.__qualname__ = f"scaled_in[{dtype}, {factor}]"
    return factory


SCALED_IN_MAPPING = {
    "W_up": ("inner.up_proj.weight", "T"), "b_up": ("inner.up_proj.bias", "id"),
    "W_down": ("inner.down_proj.weight", "T"), "b_down": ("inner.down_proj.bias", "id"),
}


T5_MAPPING = {
    "W_gate": ("wi_0.weight", "T"), "b_gate": ("wi_0.bias", "id"),
    "W_up": ("wi_1.weight", "T"), "b_up": ("wi_1.bias", "id"),
    "W_down": ("wo.weight", "T"), "b_down": ("wo.bias", "id"),
}


def correct(cls, variant):
    """factory(d, h, bias) building `cls` for `variant`."""
    def factory(d, h, bias=False):
        return cls(variant, d, h, bias)
    factory.__qualname__ = f"{cls.__name__}[{variant}]"
    return factory


CORRECT = [
    # (name, class, layout, variants, bias settings)
    ("hf", HF, "hf", GATED + PLAIN, (False, True)),
    ("torchtune", Torchtune, "torchtune", GATED + PLAIN, (False, True)),
    ("xformers-packed", XformersPacked, "xformers-packed", GATED, (False, True)),
    ("phi3", Phi3, "phi3", GATED, (False, True)),
    ("torchtitan-w13", TitanW13, "torchtitan-w13", GATED, (False, True)),
    ("gpt2", GPT2, "gpt2", PLAIN, (True,)),
    ("mapping", T5Like, T5_MAPPING, GATED, (False, True)),
]


# ---------------------------------------------------------------- mutants


class SwiGLU(HF):
    def __init__(self, d, h, bias=False):
        super().__init__("swiglu", d, h, bias)


class GateUpSwapped(SwiGLU):
    def forward(self, x):
        return self.down_proj(self.gate_proj(x) * F.silu(self.up_proj(x)))


class SigmoidForSilu(SwiGLU):
    def forward(self, x):
        return self.down_proj(torch.sigmoid(self.gate_proj(x)) * self.up_proj(x))


class GeluForSilu(SwiGLU):
    def forward(self, x):
        return self.down_proj(F.gelu(self.gate_proj(x)) * self.up_proj(x))


class ActivationAfterProduct(SwiGLU):
    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x) * self.up_proj(x)))


class Scaled1001(SwiGLU):
    def forward(self, x):
        return super().forward(x) * 1.001


class Nudged1e7(SwiGLU):
    """Off by 1e-7 relative: invisible in float32, must be caught in float64."""

    def forward(self, x):
        y = super().forward(x)
        return y + 1e-7 * y.detach().abs().amax()


class DetachedGate(SwiGLU):
    def forward(self, x):
        gate = F.silu(self.gate_proj(x)).detach()
        return self.down_proj(gate * self.up_proj(x))


class _SiluWrongBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z):
        ctx.save_for_backward(z)
        return F.silu(z)

    @staticmethod
    def backward(ctx, g):
        (z,) = ctx.saved_tensors
        return g * torch.sigmoid(z)  # drops the z·σ(z)(1 − σ(z)) term


class WrongCustomBackward(SwiGLU):
    def forward(self, x):
        return self.down_proj(_SiluWrongBackward.apply(self.gate_proj(x)) * self.up_proj(x))


class HiddenBfloat16(SwiGLU):
    """Computes in bfloat16 whatever it is given, and hands back the caller's dtype."""

    def forward(self, x):
        lo = torch.bfloat16

        def lin(m, t):
            b = None if m.bias is None else m.bias.to(lo)
            return F.linear(t, m.weight.to(lo), b)

        xl = x.to(lo)
        hidden = F.silu(lin(self.gate_proj, xl)) * lin(self.up_proj, xl)
        return lin(self.down_proj, hidden).to(x.dtype)


class ExtraParameter(SwiGLU):
    def __init__(self, d, h, bias=False):
        super().__init__(d, h, bias)
        self.scale = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return super().forward(x) * self.scale


class BiasNotAdded(SwiGLU):
    def forward(self, x):
        hidden = F.silu(self.gate_proj(x)) * self.up_proj(x)
        return F.linear(hidden, self.down_proj.weight)  # down_proj.bias exists, never added


class TokenMixing(SwiGLU):
    """Leaks 1% of the other tokens into each one (a norm over the wrong axis, say)."""

    def forward(self, x):
        y = super().forward(x)
        return y + 0.01 * (y - y.mean(dim=-2, keepdim=True))


class PackedHalvesSwapped(Phi3):
    def __init__(self, d, h, bias=False):
        super().__init__("swiglu", d, h, bias)

    def forward(self, x):
        up, gate = self.gate_up_proj(x).chunk(2, dim=-1)  # [gate; up] read as [up; gate]
        return self.down_proj(up * F.silu(gate))


class ExactGeluForTanh(HF):
    def __init__(self, d, h, bias=False):
        super().__init__("geglu_tanh", d, h, bias)

    def forward(self, x):
        return self.down_proj(F.gelu(self.gate_proj(x)) * self.up_proj(x))


class XformersIssue1165(SwiGLU):
    """The right shape, the wrong values: the output replaced by x * x."""

    def forward(self, x):
        return x * x


class ClampedGate(SwiGLU):
    """Clamps the gate to ±10 'for stability': right everywhere |gate| < 10."""

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x).clamp(-10, 10)) * self.up_proj(x))


class NaiveSilu(SwiGLU):
    """silu(z) = z / (1 + exp(-z)): exp overflows in the tail, the gradient becomes NaN."""

    def forward(self, x):
        z = self.gate_proj(x)
        return self.down_proj(z / (1 + torch.exp(-z)) * self.up_proj(x))


class RedundantMatmul(SwiGLU):
    """Right values, 4/3 of the forward matmul work: up projected twice."""

    def forward(self, x):
        up = 0.5 * self.up_proj(x) + 0.5 * self.up_proj(x)
        return self.down_proj(F.silu(self.gate_proj(x)) * up)


class Fp8HiddenInLowPrecision(SwiGLU):
    """Exact in float64/float32; in bfloat16 squeezes the hidden through float8 e4m3."""

    def forward(self, x):
        hidden = F.silu(self.gate_proj(x)) * self.up_proj(x)
        if x.dtype == torch.bfloat16:
            hidden = hidden.to(torch.float8_e4m3fn).to(x.dtype)
        return self.down_proj(hidden)


MUTANTS = [
    # (name, factory, variant, layout, bias settings, rejecting check, dtype)
    ("gate and up swapped", GateUpSwapped, "swiglu", "hf", (False, True), "forward", "float64"),
    ("sigmoid instead of SiLU", SigmoidForSilu, "swiglu", "hf", (False,), "forward", "float64"),
    ("GELU instead of SiLU", GeluForSilu, "swiglu", "hf", (False,), "forward", "float64"),
    ("activation after the product", ActivationAfterProduct, "swiglu", "hf", (False,),
     "forward", "float64"),
    ("output scaled by 1.001", Scaled1001, "swiglu", "hf", (False,), "forward", "float64"),
    ("output nudged by 1e-7 of its magnitude", Nudged1e7, "swiglu", "hf", (False,), "forward",
     "float64"),
    ("detached gate branch", DetachedGate, "swiglu", "hf", (False,), "backward", "float64"),
    ("custom backward with a wrong derivative", WrongCustomBackward, "swiglu", "hf", (False,),
     "backward", "float64"),
    ("hidden bfloat16 compute in a float64 call", HiddenBfloat16, "swiglu", "hf", (False,),
     "forward", "float64"),
    ("an extra parameter", ExtraParameter, "swiglu", "hf", (False,), "params", None),
    ("bias exists but is not added", BiasNotAdded, "swiglu", "hf", (True,), "forward",
     "float64"),
    ("token mixing", TokenMixing, "swiglu", "hf", (False,), "independence", "float64"),
    ("swapped halves of a packed weight", PackedHalvesSwapped, "swiglu", "phi3", (False,),
     "forward", "float64"),
    ("exact GELU where tanh is expected", ExactGeluForTanh, "geglu_tanh", "hf", (False,),
     "forward", "float64"),
    ("xformers #1165: output replaced by x*x", XformersIssue1165, "swiglu", "hf", (False,),
     "forward", "float64"),
    ("gate clamped to ±10", ClampedGate, "swiglu", "hf", (False,), "saturation", "float64"),
    ("naive z/(1+exp(-z)) SiLU", NaiveSilu, "swiglu", "hf", (False,), "saturation", "float16"),
    ("redundant matmul", RedundantMatmul, "swiglu", "hf", (False,), "flops", None),
    ("float8 hidden in bfloat16 calls", Fp8HiddenInLowPrecision, "swiglu", "hf", (False,),
     "forward", "bfloat16"),
]


# ---------------------------------------------------------------- any built-in layout


class TableFFN(nn.Module):
    """A correct FFN whose parameters sit where a layout table says (nested modules built
    from the attribute paths); the forward reads its weights back through the table."""

    def __init__(self, variant, table, d, h, bias):
        super().__init__()
        self.act, self.gated = _act(variant), lookup(variant)[1]
        self.table = table
        ours = {"W_gate": (d, h), "W_up": (d, h), "W_down": (h, d), "b_gate": (h,),
                "b_up": (h,), "b_down": (d,)}
        names = [k for k in ours if (k[2:] != "gate" or self.gated)
                 and (k.startswith("W_") or bias)]
        made = {}
        for name in names:
            path, transform = table[name]
            shape = ours[name]
            if transform.endswith(".T") or transform == "T":
                shape = shape[::-1]
            if transform.split(".")[0] in ("half0", "half1", "even", "odd"):
                shape = (2 * shape[0],) + shape[1:]
            if path not in made:
                made[path] = nn.Parameter(torch.randn(shape) * 0.1)
                parent = self
                *mods, leaf = path.split(".")
                for m in mods:
                    if not hasattr(parent, m) or not isinstance(getattr(parent, m), nn.Module):
                        parent.add_module(m, nn.Module())
                    parent = getattr(parent, m)
                parent.register_parameter(leaf, made[path])
        self.names = names

    def _get(self, name):
        from ffnverify.testing.layouts import apply_transform, resolve

        path, transform = self.table[name]
        return apply_transform(transform, resolve(self, path))

    def _lin(self, x, p):
        out = x @ self._get(f"W_{p}")
        return out + self._get(f"b_{p}") if f"b_{p}" in self.names else out

    def forward(self, x):
        z = self.act(self._lin(x, "gate")) * self._lin(x, "up") if self.gated \
            else self.act(self._lin(x, "up"))
        return self._lin(z, "down")


def table_ffn(variant, layout):
    from ffnverify.testing.layouts import mapping

    table = mapping(lookup(variant)[1], layout)

    def factory(d, h, bias=False):
        return TableFFN(variant, table, d, h, bias)
    factory.__qualname__ = f"table_ffn[{variant}, {layout}]"
    return factory


# ---------------------------------------------------------------- aimed at single checks
# (tests/conformance/test_tolerance_properties.py: each violates exactly one check)


class Input3dDiffers(SwiGLU):
    """Right on (n, d); off by 1e-3 relative on a (1, n, d) input (a reshape bug)."""

    def forward(self, x):
        y = super().forward(x)
        return y * 1.001 if x.dim() == 3 and x.shape[0] == 1 else y


class BatchOf2Differs(SwiGLU):
    """Right on (n, d) and (1, n, d); wrong on (b, s, d) with b > 1 (a batch-axis bug)."""

    def forward(self, x):
        y = super().forward(x)
        return y * 1.001 if x.dim() == 3 and x.shape[0] > 1 else y


class AloneDiffers(SwiGLU):
    """Right in a batch; off when it sees a single token (a special case for n = 1)."""

    def forward(self, x):
        y = super().forward(x)
        return y * 1.001 if x.shape[-2] == 1 else y


class LastTokenLeaks(SwiGLU):
    """Token i gets 1% of token n−1 added when perturbing changes it: y_i += 0.01·y_{n−1}."""

    def forward(self, x):
        y = super().forward(x)
        return y + 0.01 * y[..., -1:, :] if x.shape[-2] > 1 else y


class TrainDiffers(SwiGLU):
    """A training-only code path that scales the output."""

    def forward(self, x):
        y = super().forward(x)
        return y * 1.001 if self.training else y


class WithDropouts(SwiGLU):
    """Correct, with an nn.Dropout and a functional dropout rate (resid_pdrop): the kit
    sets both to 0 in train mode and must give them back."""

    def __init__(self, d, h, bias=False):
        super().__init__(d, h, bias)
        self.drop = nn.Dropout(0.5)
        self.resid_pdrop = 0.5

    def forward(self, x):
        y = super().forward(self.drop(x))
        return F.dropout(y, self.resid_pdrop, self.training)


class _ScaleGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t, factor):
        ctx.factor = factor
        return t.view_as(t)

    @staticmethod
    def backward(ctx, g):
        return g * ctx.factor, None


def grad_scaled(name, factor=1.001):
    """A SwiGLU whose parameter `name` (e.g. "down_proj.bias") gets its gradient scaled."""
    class GradScaled(SwiGLU):
        def forward(self, x):
            mod, attr = name.rsplit(".", 1)
            lin = getattr(self, mod)
            w, b = lin.weight, lin.bias
            if attr == "weight":
                w = _ScaleGrad.apply(w, factor)
            else:
                b = _ScaleGrad.apply(b, factor)
            saved = {m: getattr(self, m) for m in ("gate_proj", "up_proj", "down_proj")}
            out = {m: (lambda t, m=m: F.linear(t, saved[m].weight, saved[m].bias))
                   for m in saved}
            out[mod] = lambda t: F.linear(t, w, b)
            return out["down_proj"](F.silu(out["gate_proj"](x)) * out["up_proj"](x))
    GradScaled.__qualname__ = f"grad_scaled[{name}]"
    return GradScaled


class InputGradScaled(SwiGLU):
    def forward(self, x):
        return super().forward(_ScaleGrad.apply(x, 1.001))


class _ExtraBackwardMatmul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t, w):
        ctx.save_for_backward(w)
        return t.view_as(t)

    @staticmethod
    def backward(ctx, g):
        (w,) = ctx.saved_tensors
        waste = g @ w.T @ w  # a backward-only matmul whose result is not used
        return g + 0 * waste, None


class ExtraBackwardMatmul(SwiGLU):
    """Right values and forward FLOPs; the backward does two matmuls more."""

    def forward(self, x):
        return super().forward(_ExtraBackwardMatmul.apply(x, self.up_proj.weight.detach()))


class ReturnsTuple(SwiGLU):
    def forward(self, x):
        return super().forward(x), torch.zeros(1)


class OutputTransposedShape(SwiGLU):
    """Right values for d == n only: returns the output with its last two axes swapped."""

    def forward(self, x):
        return super().forward(x).transpose(-1, -2)
