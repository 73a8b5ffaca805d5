"""Expert MLPs as real MoE code stores them, hand-built in the shapes of the real classes
(transformers' MixtralExperts and DbrxExperts, litgpt's LLaMAMoE), for the default env;
tests/conformance/test_hf_classes.py runs the real transformers classes."""

import torch
import torch.nn.functional as F
from torch import nn

N_EXPERTS = 3


class MixtralExpertsCopy(nn.Module):
    """transformers' MixtralExperts: gate_up_proj (E, 2h, d), down_proj (E, d, h);
    forward(hidden_states, top_k_index, top_k_weights)."""

    def __init__(self, d, h, bias=False):
        super().__init__()
        self.num_experts = N_EXPERTS
        self.gate_up_proj = nn.Parameter(torch.randn(N_EXPERTS, 2 * h, d))
        self.down_proj = nn.Parameter(torch.randn(N_EXPERTS, d, h))

    def expert(self, e, x):
        gate, up = F.linear(x, self.gate_up_proj[e]).chunk(2, dim=-1)
        return F.linear(F.silu(gate) * up, self.down_proj[e])

    def forward(self, hidden_states, top_k_index, top_k_weights):
        out = torch.zeros_like(hidden_states)
        for e in range(self.num_experts):
            pos, token = torch.where(top_k_index.T == e)
            if token.numel():
                y = self.expert(e, hidden_states[token]) * top_k_weights[token, pos, None]
                out.index_add_(0, token, y)
        return out


class DbrxExpertsCopy(nn.Module):
    """transformers' DbrxExperts: mlp.w1, mlp.v1, mlp.w2 each (E·h, d); expert e uses
    x @ w1[e].T, x @ v1[e].T and hidden @ w2[e] (w2 stored h×d)."""

    def __init__(self, d, h, bias=False):
        super().__init__()
        self.h, self.d = h, d
        self.mlp = nn.Module()
        for name in ("w1", "v1", "w2"):
            setattr(self.mlp, name, nn.Parameter(torch.randn(N_EXPERTS * h, d)))

    def expert(self, e, x):
        w1, v1, w2 = (getattr(self.mlp, k).view(-1, self.h, self.d)[e]
                      for k in ("w1", "v1", "w2"))
        return (F.silu(x @ w1.T) * (x @ v1.T)) @ w2

    def forward(self, hidden_states, top_k_index, top_k_weights):
        batch = hidden_states.shape[0]
        flat = hidden_states.reshape(-1, self.d)
        out = torch.zeros_like(flat)
        for e in range(N_EXPERTS):
            pos, token = torch.where(top_k_index.T == e)
            if token.numel():
                out.index_add_(0, token, self.expert(e, flat[token])
                               * top_k_weights[token, pos, None])
        return out.view(batch, -1, self.d)


class DbrxW2Transposed(DbrxExpertsCopy):
    """A port that reads w2 as nn.Linear does (out×in): F.linear(hidden, w2[e]) =
    hidden @ w2[e].T where Dbrx computes hidden @ w2[e]."""

    def expert(self, e, x):
        w1, v1, w2 = (getattr(self.mlp, k).view(-1, self.h, self.d)[e]
                      for k in ("w1", "v1", "w2"))
        return F.linear(F.silu(x @ w1.T) * (x @ v1.T), w2)


class _LLaMAMLP(nn.Module):
    def __init__(self, d, h, bias):
        super().__init__()
        self.fc_1 = nn.Linear(d, h, bias=bias)
        self.fc_2 = nn.Linear(d, h, bias=bias)
        self.proj = nn.Linear(h, d, bias=bias)

    def forward(self, x):
        return self.proj(F.silu(self.fc_1(x)) * self.fc_2(x))


class LLaMAMoECopy(nn.Module):
    """litgpt's LLaMAMoE with one expert per token: router `gate`, experts.{e} (LLaMAMLP);
    forward takes (B, T, C) only."""

    def __init__(self, d, h, bias=False, n_expert=1):
        super().__init__()
        self.gate = nn.Linear(d, n_expert, bias=False)
        self.experts = nn.ModuleList(_LLaMAMLP(d, h, bias) for _ in range(n_expert))

    def forward(self, x):
        B, T, C = x.size()
        x = x.view(-1, C)
        probs, indices = torch.topk(self.gate(x), 1)
        probs = probs.softmax(dim=1, dtype=torch.float).to(dtype=x.dtype)
        masks = (indices.unsqueeze(-1) == torch.arange(len(self.experts))).permute(2, 0, 1)
        y = torch.zeros_like(x)
        for mask, expert in zip(masks, self.experts):
            token_idx, expert_idx = torch.where(mask)
            y[token_idx] += probs[token_idx, expert_idx, None] * expert(x[token_idx])
        return y.view(B, T, C)
