"""MoE blocks whose forward is right and whose backward is broken, and a Qwen3-MoE-like
block in transformers' layout, for tests/conformance/test_moe_grad.py. Top-level
factories, so printed reproducers import them."""

import torch
import torch.nn.functional as F
from torch import nn

from .moe_modules import N_EXPERT, TOP_K, TopKMoE


class SteppedMoE(TopKMoE):
    """litgpt's LLaMAMoE forward in steps a mutant overrides: the logits, the gate
    weights, one expert's output, the gating product. Correct as it stands."""

    def logits(self, x):
        return self.gate(x)

    def gates(self, probs):
        return probs

    def expert(self, e, xs):
        return self.experts[e](xs)

    def product(self, g, f):
        return g * f

    def forward(self, x):
        B, T, C = x.size()
        x = x.reshape(-1, C)
        probs, indices = torch.topk(self.logits(x), self.top_k)
        probs = self.gates(probs.softmax(dim=1, dtype=torch.float).to(x.dtype))
        y = torch.zeros_like(x)
        for e in range(self.n_expert):
            token, slot = torch.where(indices == e)
            if token.numel():
                y[token] += self.product(probs[token, slot, None], self.expert(e, x[token]))
        return y.view(B, T, C)


class GateDetached(SteppedMoE):
    """g.detach(): the gate weights carry no gradient to the router or the input."""

    def gates(self, probs):
        return probs.detach()


class RouterGradDropped(SteppedMoE):
    """The router weight detached in the logits: Wr gets no gradient (x still does)."""

    def logits(self, x):
        return F.linear(x, self.gate.weight.detach())


class RouterInputDetached(SteppedMoE):
    """The router reads x.detach(): ∂L/∂x misses the term through the logits."""

    def logits(self, x):
        return self.gate(x.detach())


class _TwiceBackward(torch.autograd.Function):
    """The identity whose backward returns 2× the incoming gradient."""

    @staticmethod
    def forward(ctx, t):
        return t.view_as(t)

    @staticmethod
    def backward(ctx, grad):
        return 2 * grad


class ExpertBackwardScaled(SteppedMoE):
    """Expert 1's output through a custom autograd.Function whose backward is 2×."""

    def expert(self, e, xs):
        out = self.experts[e](xs)
        return _TwiceBackward.apply(out) if e == 1 else out


class _GateProduct(torch.autograd.Function):
    """g·f whose backward for g forgets f: ∂L/∂g = Σ gy (not Σ gy·f)."""

    @staticmethod
    def forward(ctx, g, f):
        ctx.save_for_backward(g, f)
        return g * f

    @staticmethod
    def backward(ctx, grad):
        g, _f = ctx.saved_tensors
        return grad.sum(dim=-1, keepdim=True), grad * g


class GatingProductWrong(SteppedMoE):
    def product(self, g, f):
        return _GateProduct.apply(g, f)


class _Router(nn.Module):
    """transformers 5's Qwen3MoeTopKRouter: weight (E, d); softmax over every expert in
    float32, top k, divided by their sum in place when norm_topk_prob, cast back."""

    def __init__(self, d, norm):
        super().__init__()
        self.weight = nn.Parameter(torch.zeros(N_EXPERT, d))
        self.norm = norm

    def forward(self, x):
        logits = F.linear(x, self.weight)
        probs = F.softmax(logits, dtype=torch.float, dim=-1)
        top, index = torch.topk(probs, TOP_K, dim=-1)
        if self.norm:
            top /= top.sum(dim=-1, keepdim=True)
        return logits, top.to(logits.dtype), index


class _Experts(nn.Module):
    """transformers 5's MixtralExperts/Qwen3MoeExperts: gate_up_proj (E, 2h, d),
    down_proj (E, d, h); the routed tokens of each expert, index_add_ into the output."""

    def __init__(self, d, h):
        super().__init__()
        self.gate_up_proj = nn.Parameter(torch.zeros(N_EXPERT, 2 * h, d))
        self.down_proj = nn.Parameter(torch.zeros(N_EXPERT, d, h))

    def forward(self, x, index, weights):
        out = torch.zeros_like(x)
        for e in range(N_EXPERT):
            token, pos = torch.where(index == e)
            if token.numel():
                gate, up = F.linear(x[token], self.gate_up_proj[e]).chunk(2, dim=-1)
                y = F.linear(F.silu(gate) * up, self.down_proj[e])
                y = y * weights[token, pos, None]
                out.index_add_(0, token, y.to(out.dtype))
        return out


class Qwen3LikeMoE(nn.Module):
    """transformers 5's Qwen3MoeSparseMoeBlock (norm_topk_prob=False: gates "softmax")."""

    norm = False

    def __init__(self, d, h, bias=False):
        super().__init__()
        self.gate = _Router(d, self.norm)
        self.experts = _Experts(d, h)

    def forward(self, x):
        B, T, C = x.shape
        flat = x.reshape(-1, C)
        _, weights, index = self.gate(flat)
        return self.experts(flat, index, weights).reshape(B, T, C)


class Qwen3LikeNormMoE(Qwen3LikeMoE):
    """The same with norm_topk_prob=True (gates "renormalised")."""

    norm = True


class _SharedExpert(nn.Module):
    """transformers' Qwen2MoeMLP: gate_proj, up_proj, down_proj (no bias), SiLU."""

    def __init__(self, d, h):
        super().__init__()
        self.gate_proj = nn.Linear(d, h, bias=False)
        self.up_proj = nn.Linear(d, h, bias=False)
        self.down_proj = nn.Linear(h, d, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class Qwen2LikeMoE(Qwen3LikeMoE):
    """transformers 5's Qwen2MoeSparseMoeBlock: Qwen3's routed experts (gates "softmax")
    plus a shared expert every token gets, weighted by sigmoid(shared_expert_gate(x))."""

    def __init__(self, d, h, bias=False):
        super().__init__(d, h, bias)
        self.shared_expert = _SharedExpert(d, h)
        self.shared_expert_gate = nn.Linear(d, 1, bias=False)

    def forward(self, x):
        B, T, C = x.shape
        flat = x.reshape(-1, C)
        shared = self.shared_expert(flat)
        _, weights, index = self.gate(flat)
        out = self.experts(flat, index, weights)
        out += torch.sigmoid(self.shared_expert_gate(flat)) * shared
        return out.reshape(B, T, C)


class SharedGateDetached(Qwen2LikeMoE):
    """The shared expert's gate weight detached: its gradient is dropped."""

    def forward(self, x):
        B, T, C = x.shape
        flat = x.reshape(-1, C)
        _, weights, index = self.gate(flat)
        out = self.experts(flat, index, weights)
        gate = torch.sigmoid(F.linear(flat, self.shared_expert_gate.weight.detach()))
        return (out + gate * self.shared_expert(flat)).reshape(B, T, C)
