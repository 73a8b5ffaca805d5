"""`derivations.transformer` on drawn architectures: the symbolic total against an
independent plain-integer count, and the closed form against its numeric instances."""

import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from derivations import transformer
from derivations.variants import VARIANTS


def plain_total(a: transformer.Architecture) -> int:
    """The count written out by hand in integers, without derivations.params."""
    d, q, kv = a.d_model, a.heads * a.head_dim, a.kv_heads * a.head_dim
    attn = 2 * d * q + 2 * d * kv + (q + 2 * kv if a.qkv_bias else 0) + (d if a.o_bias else 0)
    mats = 3 if VARIANTS[a.variant].gated else 2

    def mlp(width):
        return mats * d * width + ((mats - 1) * width + d if a.bias else 0)

    ffn = a.experts * mlp(a.d_ff) + (d * a.experts if a.experts > 1 else 0)
    ffn += (mlp(a.shared_d_ff) if a.shared_d_ff else 0) + (d if a.shared_expert_gate else 0)
    norm = d * (a.norm_weight + a.norm_bias)
    qk = 2 * a.head_dim if a.qk_norm else 0
    enc = a.encoder_layers
    stacks = 2 if enc else 1
    total = a.vocab * d * (1 if a.tied else 2) + a.positions * d + a.token_types * d
    total += (norm if a.embedding_norm else 0) + (d * d + d if a.pooler else 0)
    total += a.layers * (attn + ffn + a.norms_per_layer * norm + qk)
    total += stacks * norm if a.final_norm else 0
    total += stacks * a.relative_attention_buckets * a.heads
    if enc:
        total += enc * (attn + ffn + a.norms_per_layer * norm + qk)
        total += a.layers * (attn + norm + qk)
    return total


@st.composite
def architectures(draw):
    heads = draw(st.integers(1, 8), label="heads")
    norm = draw(st.sampled_from(["rms", "layer"]), label="norm")
    experts = draw(st.integers(1, 8), label="experts")
    return transformer.Architecture(
        d_model=draw(st.integers(1, 64), label="d_model"),
        d_ff=draw(st.integers(1, 256), label="d_ff"),
        variant=draw(st.sampled_from(sorted(VARIANTS)), label="variant"),
        layers=draw(st.integers(1, 6), label="layers"),
        vocab=draw(st.integers(1, 1000), label="vocab"),
        heads=heads,
        kv_heads=draw(st.sampled_from([k for k in range(1, heads + 1) if heads % k == 0]),
                      label="kv_heads"),
        head_dim=draw(st.integers(1, 32), label="head_dim"),
        bias=draw(st.booleans(), label="bias"),
        qkv_bias=draw(st.booleans(), label="qkv_bias"),
        o_bias=draw(st.booleans(), label="o_bias"),
        tied=draw(st.booleans(), label="tied"),
        norm=norm,
        norm_weight=draw(st.booleans(), label="norm_weight"),
        norm_bias=norm == "layer" and draw(st.booleans(), label="norm_bias"),
        norms_per_layer=draw(st.integers(0, 4), label="norms_per_layer"),
        final_norm=draw(st.booleans(), label="final_norm"),
        positions=draw(st.integers(0, 64), label="positions"),
        experts=experts,
        active_experts=draw(st.integers(1, experts), label="active_experts"),
        shared_d_ff=draw(st.sampled_from([0, 0, 16, 40]), label="shared_d_ff"),
        shared_expert_gate=draw(st.booleans(), label="shared_expert_gate"),
        qk_norm=draw(st.booleans(), label="qk_norm"),
        token_types=draw(st.integers(0, 2), label="token_types"),
        embedding_norm=draw(st.booleans(), label="embedding_norm"),
        pooler=draw(st.booleans(), label="pooler"),
        encoder_layers=draw(st.integers(0, 3), label="encoder_layers"),
        relative_attention_buckets=draw(st.integers(0, 32), label="buckets"),
    )


@given(architectures())
def test_total_equals_plain_count(a):
    total = transformer.params_total(a)
    assert isinstance(total, sp.Integer)
    assert int(total) == plain_total(a)
    assert sum(transformer.breakdown(a).values()) == total


@given(architectures())
def test_parts_add_up_to_the_total(a):
    parts = transformer.parts(a)
    assert set(parts) == set(transformer.PARTS)
    assert sum(parts.values()) == transformer.params_total(a)
    assert parts["lm_head"] == (0 if a.tied else a.vocab * a.d_model)


@given(architectures())
def test_active_params_count_active_experts_only(a):
    """Active = total less the skipped routed experts; equal to the total when dense or all
    experts are active, and never more."""
    active = transformer.active_params(a)
    skipped = a.experts - a.active_experts if a.experts > 1 else 0
    expert = transformer.expert_params(a)
    assert active == transformer.params_total(a) - (a.layers + a.encoder_layers) * skipped * expert
    assert active <= transformer.params_total(a)
    if skipped == 0:
        assert active == transformer.params_total(a)


@given(architectures())
def test_layer_parts_add_up_and_scale_to_the_decoder_stack(a):
    lp = transformer.layer_parts(a)
    assert sum(lp.values()) == transformer.layer_params(a)
    if a.encoder_layers == 0:  # a decoder-only stack is `layers` copies of one layer
        body = transformer.params_total(a) - sum(
            transformer.parts(a)[p] for p in ("embedding", "lm_head", "positions", "pooler"))
        final = (a.d_model * (a.norm_weight + a.norm_bias)) * (a.final_norm + a.embedding_norm)
        assert body == a.layers * transformer.layer_params(a) + final


def test_plain_count_catches_a_miscounted_part():
    """Mutant: the plain count with the k/v widths taken as full heads disagrees under GQA."""
    a = transformer.Architecture(d_model=16, d_ff=40, variant="swiglu", layers=2, vocab=50,
                                 heads=4, kv_heads=1, head_dim=4)
    mha = transformer.Architecture(**{**a.__dict__, "kv_heads": 4})
    assert transformer.params_total(a) != plain_total(mha)


@given(architectures())
def test_symbolic_total_specialises_to_the_numeric_one(a):
    L, V, d, h = sp.symbols("L V d h", positive=True, integer=True)
    sym = transformer.Architecture(**{**a.__dict__, "layers": L, "vocab": V,
                                      "d_model": d, "d_ff": h})
    closed = transformer.params_total(sym)
    assert closed.subs({L: a.layers, V: a.vocab, d: a.d_model, h: a.d_ff}) == \
        transformer.params_total(a)
