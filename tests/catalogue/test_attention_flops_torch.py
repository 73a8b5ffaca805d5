"""Attention and whole-model FLOPs (derivations.attention, derivations.model_costs) against
torch.utils.flop_counter.FlopCounterMode on small torch modules written here: an attention
block (MHA and GQA, with a cache of past keys), a decoder layer, a decoder with an LM head,
and a mixture of experts with a shared expert. The modules are plain torch; the counts
come from the derivations; the two sides share no code.

FlopCounterMode counts matmuls only (mm, bmm, addmm, and SDPA's math backend); softmax and
norms are free on both sides. The CPU flash kernel of scaled_dot_product_attention is not
counted by FlopCounterMode (it reports 0), so the blocks here multiply explicitly, as
transformers' eager attention does.
"""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations import attention, model_costs, transformer

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch)")
from torch import nn  # noqa: E402
from torch.utils.flop_counter import FlopCounterMode  # noqa: E402


class Attention(nn.Module):
    def __init__(self, d, heads, kv_heads, head_dim, bias=False):
        super().__init__()
        self.h, self.k, self.hd = heads, kv_heads, head_dim
        self.q_proj = nn.Linear(d, heads * head_dim, bias=bias)
        self.k_proj = nn.Linear(d, kv_heads * head_dim, bias=bias)
        self.v_proj = nn.Linear(d, kv_heads * head_dim, bias=bias)
        self.o_proj = nn.Linear(heads * head_dim, d, bias=False)

    def forward(self, x, past=None):
        b, s, _ = x.shape
        q = self.q_proj(x).view(b, s, self.h, self.hd).transpose(1, 2)
        k = self.k_proj(x).view(b, s, self.k, self.hd).transpose(1, 2)
        v = self.v_proj(x).view(b, s, self.k, self.hd).transpose(1, 2)
        if past is not None:  # cached keys and values of earlier positions
            k, v = torch.cat([past[0], k], dim=2), torch.cat([past[1], v], dim=2)
        group = self.h // self.k
        k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
        a = (q @ k.transpose(-1, -2) / math.sqrt(self.hd)).softmax(-1)
        return self.o_proj((a @ v).transpose(1, 2).reshape(b, s, self.h * self.hd))


class SwiGLU(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.gate, self.up, self.down = nn.Linear(d, h, False), nn.Linear(d, h, False), \
            nn.Linear(h, d, False)

    def forward(self, x):
        return self.down(nn.functional.silu(self.gate(x)) * self.up(x))


class MoE(nn.Module):
    """Top-k routing over `experts` SwiGLU experts, an optional shared expert and gate."""

    def __init__(self, d, h, experts, top_k, shared_h=0, shared_gate=False):
        super().__init__()
        self.router = nn.Linear(d, experts, bias=False)
        self.experts = nn.ModuleList(SwiGLU(d, h) for _ in range(experts))
        self.top_k = top_k
        self.shared = SwiGLU(d, shared_h) if shared_h else None
        self.shared_gate = nn.Linear(d, 1, bias=False) if shared_gate else None

    def forward(self, x):
        shape = x.shape
        x = x.reshape(-1, shape[-1])
        weights, chosen = self.router(x).softmax(-1).topk(self.top_k, dim=-1)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            rows, slot = (chosen == e).nonzero(as_tuple=True)
            if rows.numel():
                out = out.index_add(0, rows, expert(x[rows]) * weights[rows, slot, None])
        if self.shared is not None:
            s = self.shared(x)
            if self.shared_gate is not None:
                s = torch.sigmoid(self.shared_gate(x)) * s
            out = out + s
        return out.reshape(shape)


class Layer(nn.Module):
    def __init__(self, d, h, heads, kv_heads, head_dim, ffn=None):
        super().__init__()
        self.n1, self.n2 = nn.RMSNorm(d), nn.RMSNorm(d)
        self.attn = Attention(d, heads, kv_heads, head_dim)
        self.ffn = ffn if ffn is not None else SwiGLU(d, h)

    def forward(self, x):
        x = x + self.attn(self.n1(x))
        return x + self.ffn(self.n2(x))


class Decoder(nn.Module):
    def __init__(self, vocab, d, layers, make_layer):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(make_layer() for _ in range(layers))
        self.norm = nn.RMSNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, ids):
        x = self.emb(ids)
        for layer in self.layers:
            x = layer(x)
        return self.head(self.norm(x))


def measured(fn):
    with FlopCounterMode(display=False) as counter:
        fn()
    return counter.get_total_flops()


def forward_backward(module, x):
    """(forward, backward) FLOPs of module(x) with a scalar loss."""
    out = {}
    fwd = measured(lambda: out.setdefault("y", module(x)))
    bwd = measured(lambda: out["y"].float().sum().backward())
    return fwd, bwd


@st.composite
def attention_shapes(draw):
    kv = draw(st.integers(1, 4), label="kv_heads")
    heads = kv * draw(st.integers(1, 3), label="group")  # kv_heads < heads is GQA
    return dict(d=draw(st.integers(1, 24), label="d"), heads=heads, kv_heads=kv,
                head_dim=draw(st.integers(1, 8), label="head_dim"),
                batch=draw(st.integers(1, 3), label="batch"),
                seq=draw(st.integers(1, 6), label="seq"),
                past=draw(st.integers(0, 5), label="past"),
                input_grad=draw(st.booleans(), label="input_grad"))


@settings(deadline=None, max_examples=40)
@given(attention_shapes())
def test_attention_flops_match_flop_counter(s):
    torch.manual_seed(0)
    block = Attention(s["d"], s["heads"], s["kv_heads"], s["head_dim"])
    x = torch.randn(s["batch"], s["seq"], s["d"], requires_grad=s["input_grad"])
    past = None
    if s["past"]:
        shape = (s["batch"], s["kv_heads"], s["past"], s["head_dim"])
        past = (torch.randn(shape), torch.randn(shape))
    out = {}
    fwd = measured(lambda: out.setdefault("y", block(x, past)))
    bwd = measured(lambda: out["y"].sum().backward())
    n, context = s["batch"] * s["seq"], s["past"] + s["seq"]
    args = (s["d"], s["heads"], n, context, s["kv_heads"], s["head_dim"])
    assert fwd == attention.attention_flops(*args, pass_="forward")
    assert bwd == attention.attention_flops(*args, pass_="backward",
                                            input_grad=s["input_grad"])


def test_attention_flops_mutants_are_caught():
    """Mutants of the count disagree with the counter: causal halving, k and v at full
    width under GQA, and a backward that treats the score products like weights (1x)."""
    d, heads, kv, hd, n = 16, 4, 1, 4, 6
    block = Attention(d, heads, kv, hd)
    x = torch.randn(1, n, d, requires_grad=True)
    fwd, bwd = forward_backward(block, x)
    proj = 2 * n * d * (2 * heads * hd + 2 * kv * hd)
    sv = attention.score_value_flops(heads, n, n, hd)
    assert fwd == proj + sv
    assert fwd != proj + sv / 2  # causal halving
    assert fwd != attention.attention_flops(d, heads, n, n, heads, hd)  # k, v as MHA
    assert bwd != 2 * proj + sv  # score/value products need both gradients
    assert bwd == 2 * proj + 2 * sv


def test_sdpa_math_backend_counts_the_same():
    from torch.nn.attention import SDPBackend, sdpa_kernel

    b, heads, kv, n, hd = 2, 4, 2, 5, 8
    q, k, v = (torch.randn(b, heads, n, hd), torch.randn(b, kv, n, hd),
               torch.randn(b, kv, n, hd))
    with sdpa_kernel(SDPBackend.MATH):
        flops = measured(lambda: nn.functional.scaled_dot_product_attention(
            q, k, v, enable_gqa=True))
    assert flops == attention.score_value_flops(heads, b * n, n, hd)


@st.composite
def decoders(draw):
    kv = draw(st.integers(1, 3), label="kv_heads")
    heads = kv * draw(st.integers(1, 3), label="group")
    experts = draw(st.sampled_from([1, 1, 2, 4]), label="experts")
    shared = draw(st.sampled_from([0, 8]), label="shared_h") if experts > 1 else 0
    return dict(
        d=draw(st.integers(2, 16), label="d"), h=draw(st.integers(1, 24), label="h"),
        heads=heads, kv_heads=kv, head_dim=draw(st.integers(1, 6), label="head_dim"),
        layers=draw(st.integers(1, 2), label="layers"),
        vocab=draw(st.integers(2, 40), label="vocab"),
        seq=draw(st.integers(1, 6), label="seq"), batch=draw(st.integers(1, 2), label="b"),
        experts=experts,
        top_k=draw(st.integers(1, experts), label="top_k"),
        shared=shared, shared_gate=bool(shared) and draw(st.booleans(), label="shared_gate"))


def _build(s):
    def ffn():
        if s["experts"] == 1:
            return None
        return MoE(s["d"], s["h"], s["experts"], s["top_k"], s["shared"], s["shared_gate"])

    return Decoder(s["vocab"], s["d"], s["layers"], lambda: Layer(
        s["d"], s["h"], s["heads"], s["kv_heads"], s["head_dim"], ffn()))


def _arch(s):
    return transformer.Architecture(
        d_model=s["d"], d_ff=s["h"], variant="swiglu", layers=s["layers"], vocab=s["vocab"],
        heads=s["heads"], kv_heads=s["kv_heads"], head_dim=s["head_dim"],
        experts=s["experts"], active_experts=s["top_k"], shared_d_ff=s["shared"],
        shared_expert_gate=s["shared_gate"])


@settings(deadline=None, max_examples=30)
@given(decoders())
def test_model_flops_match_flop_counter(s):
    """Every layer's attention and FFN (MoE: active experts + router + shared expert) and
    the LM head, forward and backward, against the counter on a whole small decoder."""
    torch.manual_seed(0)
    model = _build(s)
    ids = torch.randint(0, s["vocab"], (s["batch"], s["seq"]))
    fwd, bwd = forward_backward(model, ids)
    a, n = _arch(s), s["batch"] * s["seq"]
    assert fwd == model_costs.model_flops(a, n, s["seq"], "forward")
    assert bwd == model_costs.model_flops(a, n, s["seq"], "backward")
    assert sum(p.numel() for p in model.parameters()) == transformer.params_total(a)


@pytest.mark.parametrize("kv_heads", [4, 1], ids=["MHA", "GQA"])
def test_one_decoder_layer_matches_flop_counter(kv_heads):
    d, h, heads, hd, n = 32, 88, 4, 8, 7
    layer = Layer(d, h, heads, kv_heads, hd)
    fwd = measured(lambda: layer(torch.randn(1, n, d)))
    a = transformer.Architecture(d_model=d, d_ff=h, variant="swiglu", layers=1, vocab=1,
                                 heads=heads, kv_heads=kv_heads, head_dim=hd)
    assert fwd == model_costs.layer_flops(a, n, n)


def test_moe_mutants_are_caught():
    """All experts counted instead of the active ones, or the router left out, disagree."""
    s = dict(d=8, h=12, heads=2, kv_heads=1, head_dim=4, layers=1, vocab=10, seq=5, batch=1,
             experts=4, top_k=2, shared=8, shared_gate=True)
    torch.manual_seed(0)
    fwd = measured(lambda: _build(s)(torch.randint(0, 10, (1, 5))))
    a = _arch(s)
    import dataclasses

    assert fwd == model_costs.model_flops(a, 5, 5)
    assert fwd != model_costs.model_flops(dataclasses.replace(a, active_experts=4), 5, 5)
    assert fwd != model_costs.model_flops(a, 5, 5) - 2 * 5 * 8 * 4  # without the router
