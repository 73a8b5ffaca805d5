"""The `megatron` layout reads gate and up where megatron-core's MLP keeps them.

megatron-core's `MLP` with `gated_linear_unit=True` (megatron/core/transformer/mlp.py)
projects with one `linear_fc1` of 2h outputs and applies

    def glu(x):
        x = torch.chunk(x, 2, dim=-1)
        return self.config.activation_func(x[0]) * x[1]

so the first half of fc1's rows is the gate and the second the up projection; the
forward returns `(output, output_bias)`. The stand-in below is that code on plain
`nn.Linear`s (megatron-core itself needs a parallel state; tests/conformance/
hf_modules.py runs the real class where it is installed). Swapping gate and up changes
what a SwiGLU computes (silu(up)·gate is another function), so a layout that read them the
other way round must fail the kit on this module, and the gate-second layout must fail
where megatron's order is kept.
"""

import pytest

torch = pytest.importorskip("torch", reason="the conformance kit needs PyTorch")
F = torch.nn.functional

from ffnverify.testing import ConformanceFailure, check_ffn, layouts, megatron_call  # noqa: E402

pytestmark = pytest.mark.torch


class MegatronGatedMLP(torch.nn.Module):
    """megatron-core's gated MLP forward: fc1 = [gate; up], glu, fc2, (out, bias)."""

    def __init__(self, d, h, bias=False, gate_first=True):
        super().__init__()
        self.linear_fc1 = torch.nn.Linear(d, 2 * h, bias=bias)
        self.linear_fc2 = torch.nn.Linear(h, d, bias=bias)
        self.gate_first = gate_first

    def forward(self, x):
        a, b = torch.chunk(self.linear_fc1(x), 2, dim=-1)
        gate, up = (a, b) if self.gate_first else (b, a)
        return self.linear_fc2(F.silu(gate) * up), None


def test_the_layout_reads_the_first_half_as_the_gate():
    m = MegatronGatedMLP(3, 5, bias=True).double()
    w = layouts.read(m, layouts.mapping(True, "megatron"))
    x = torch.randn(4, 3, dtype=torch.float64)
    gate, up = torch.chunk(m.linear_fc1(x), 2, dim=-1)
    xn = x.numpy()
    assert abs(xn @ w["W_gate"] + w["b_gate"] - gate.detach().numpy()).max() < 1e-12
    assert abs(xn @ w["W_up"] + w["b_up"] - up.detach().numpy()).max() < 1e-12


@pytest.mark.parametrize("gate_first,right,wrong", [
    (True, "megatron", "megatron-gate-second"),
    (False, "megatron-gate-second", "megatron"),
])
def test_the_kit_accepts_the_right_order_and_rejects_the_swap(gate_first, right, wrong):
    def factory(d, h, bias):
        return MegatronGatedMLP(d, h, bias, gate_first)

    kw = dict(bias=(False,), dtypes=("float64",), max_examples=2, shrink=False,
              call=megatron_call)
    check_ffn(factory, "swiglu", layout=right, **kw)
    with pytest.raises(ConformanceFailure):
        check_ffn(factory, "swiglu", layout=wrong, **kw)
