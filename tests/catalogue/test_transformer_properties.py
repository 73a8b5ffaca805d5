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
    ffn = mats * d * a.d_ff + ((mats - 1) * a.d_ff + d if a.bias else 0)
    ffn = a.experts * ffn + (d * a.experts if a.experts > 1 else 0)
    norm = d * (a.norm_weight + a.norm_bias)
    enc = a.encoder_layers
    stacks = 2 if enc else 1
    total = a.vocab * d * (1 if a.tied else 2) + a.positions * d
    total += a.layers * (attn + ffn + a.norms_per_layer * norm)
    total += stacks * norm if a.final_norm else 0
    total += stacks * a.relative_attention_buckets * a.heads
    if enc:
        total += enc * (attn + ffn + a.norms_per_layer * norm) + a.layers * (attn + norm)
    return total


@st.composite
def architectures(draw):
    heads = draw(st.integers(1, 8), label="heads")
    norm = draw(st.sampled_from(["rms", "layer"]), label="norm")
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
        experts=draw(st.integers(1, 8), label="experts"),
        encoder_layers=draw(st.integers(0, 3), label="encoder_layers"),
        relative_attention_buckets=draw(st.integers(0, 32), label="buckets"),
    )


@given(architectures())
def test_total_equals_plain_count(a):
    total = transformer.params_total(a)
    assert isinstance(total, sp.Integer)
    assert int(total) == plain_total(a)
    assert sum(transformer.breakdown(a).values()) == total


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
