"""MoE blocks whose outputs and gradients are right and whose compute is not routed, for
tests/conformance/test_moe_flops.py. Top-level factories, so printed reproducers import
them."""

import torch

from .moe_modules import TopKMoE


class DenseMoE(TopKMoE):
    """Every expert runs on every token; the outputs of the experts a token was not routed
    to are multiplied by a zero weight (dense compute, then masked): litgpt's result, E/k
    times its matmul FLOPs."""

    def forward(self, x):
        B, T, C = x.size()
        x = x.reshape(-1, C)
        probs, indices = torch.topk(self.gate(x), self.top_k)
        probs = probs.softmax(dim=1, dtype=torch.float).to(x.dtype)
        weights = torch.zeros(x.shape[0], self.n_expert, dtype=x.dtype, device=x.device)
        weights = weights.scatter(1, indices, probs)
        y = torch.zeros_like(x)
        for e in range(self.n_expert):
            y = y + weights[:, e, None] * self.experts[e](x)
        return y.view(B, T, C)


class ExpertRunTwice(TopKMoE):
    """Expert 0 computed twice on its tokens, the first result thrown away (a leftover
    debug line): right values, more FLOPs, but not dense compute."""

    def forward(self, x):
        _B, _T, C = x.size()
        flat = x.reshape(-1, C)
        _, indices = torch.topk(self.gate(flat), self.top_k)
        token = torch.where(indices == 0)[0]
        if token.numel():
            self.experts[0](flat[token])
        return super().forward(x)
