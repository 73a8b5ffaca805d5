"""Sparse MoE blocks in litgpt's LLaMAMoE shape (router `gate`, experts.{e}.fc_1/fc_2/proj,
(B, T, C) inputs), correct and broken the ways a router is broken, for
tests/conformance/test_moe.py. Top-level factories, so printed reproducers import them."""

import torch
import torch.nn.functional as F
from torch import nn

from .experts import _LLaMAMLP

N_EXPERT, TOP_K = 4, 2


class TopKMoE(nn.Module):
    """litgpt's LLaMAMoE generalised: `top_k` of `n_expert` experts; gates `renormalised`
    (softmax of the top-k logits, as litgpt and Mixtral) or `softmax` (over every expert,
    taken at the top k, as Qwen2-MoE and OLMoE)."""

    n_expert, top_k, gating = N_EXPERT, TOP_K, "renormalised"
    used_k = None  # experts actually used per token (a bug: top_k ± 1)
    power = 1  # the gate weight applied `power` times
    swap = None  # (i, j): the tokens routed to expert i get expert j, and the reverse

    def __init__(self, d, h, bias=False):
        super().__init__()
        self.gate = nn.Linear(d, self.n_expert, bias=False)
        self.experts = nn.ModuleList(_LLaMAMLP(d, h, bias) for _ in range(self.n_expert))

    def forward(self, x):
        B, T, C = x.size()
        x = x.reshape(-1, C)
        logits = self.gate(x)
        k = self.used_k or self.top_k
        if self.gating == "renormalised":
            probs, indices = torch.topk(logits, k)
            probs = probs.softmax(dim=1, dtype=torch.float).to(x.dtype)
        else:
            probs, indices = torch.topk(logits.softmax(dim=1, dtype=torch.float), k)
            probs = probs.to(x.dtype)
        probs = probs ** self.power
        order = list(range(self.n_expert))
        if self.swap is not None:
            i, j = self.swap
            order[i], order[j] = j, i
        y = torch.zeros_like(x)
        for e in range(self.n_expert):
            token, slot = torch.where(indices == e)
            if token.numel():
                y[token] += probs[token, slot, None] * self.experts[order[e]](x[token])
        return y.view(B, T, C)


class SoftmaxMoE(TopKMoE):
    gating = "softmax"


class TopKPlusOne(TopKMoE):
    used_k = TOP_K + 1


class TopKMinusOne(TopKMoE):
    used_k = TOP_K - 1


class ExpertsSwapped(TopKMoE):
    swap = (1, 2)


class GateTwice(TopKMoE):
    power = 2


class MixtralLikeMoE(TopKMoE):
    """Mixtral's order of operations: softmax over every expert in float32, the top k,
    renormalised by their sum (the same weights as the softmax of the top-k logits)."""

    def forward(self, x):
        B, T, C = x.size()
        x = x.reshape(-1, C)
        probs = F.softmax(self.gate(x).float(), dim=-1)
        top, indices = torch.topk(probs, self.top_k, dim=-1)
        top = top / top.sum(dim=-1, keepdim=True)
        y = torch.zeros_like(x)
        for e in range(self.n_expert):
            token, slot = torch.where(indices == e)
            if token.numel():
                out = self.experts[e](x[token]) * top[token, slot, None]
                y.index_add_(0, token, out.to(x.dtype))
        return y.view(B, T, C)


class _HotLinear(nn.Linear):
    def forward(self, x):
        return 1.001 * super().forward(x)


class RouterTemperature(TopKMoE):
    """The router's logits scaled by 1.001 before the softmax (a temperature): no routing
    hypothesis covers it; the bound is tight enough to reject it."""

    def __init__(self, d, h, bias=False):
        super().__init__(d, h, bias)
        self.gate = _HotLinear(d, self.n_expert, bias=False)
