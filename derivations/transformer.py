"""Whole-model parameter counts of a transformer, derived from its shape.

An `Architecture` says what a model is made of; `breakdown` counts each part and
`params_total` adds them up. Every count is a product of shape entries, so the fields may
be integers (a real model: the total is an exact Integer) or SymPy symbols (a family of
models: the total is a closed form).

Parts counted (weights as x @ W; a bias has the output width):

- token embedding: vocab x d; the LM head is another vocab x d unless tied to it;
- learned position embeddings (GPT-2, GPT-3): positions x d;
- attention, per layer: q d x (heads*head_dim), k and v d x (kv_heads*head_dim) each
  (grouped / multi-query attention when kv_heads < heads), o (heads*head_dim) x d;
  biases on q, k, v (`qkv_bias`, e.g. Qwen2.5) and on o (`o_bias`) where the model has them;
- FFN, per layer: `derivations.params.params(variant, d, d_ff, bias)`, times the number of
  experts for a mixture of experts, plus the router d x experts;
- norms: RMSNorm has a weight only, LayerNorm a weight and a bias, either can be
  non-parametric; `norms_per_layer` of them per layer, plus a final one per stack;
- encoder-decoder (T5): an encoder stack of `encoder_layers` (self-attention + FFN) and a
  decoder stack of `layers` whose layers add cross-attention (the same shapes as
  self-attention) and its norm; one embedding shared by both stacks; relative position
  biases (buckets x heads) in each stack's first layer.

Imports sympy and derivations only.
"""

from dataclasses import dataclass

import sympy as sp

from derivations.params import params

NORM_KINDS = ("rms", "layer")


@dataclass(frozen=True)
class Architecture:
    d_model: object
    d_ff: object
    variant: str
    layers: object
    vocab: object
    heads: object
    kv_heads: object
    head_dim: object
    bias: bool = False  # FFN projections
    qkv_bias: bool = False
    o_bias: bool = False
    tied: bool = False
    norm: str = "rms"
    norm_weight: bool = True
    norm_bias: bool = False
    norms_per_layer: int = 2
    final_norm: bool = True
    positions: object = 0  # rows of a learned position-embedding table
    experts: object = 1
    encoder_layers: object = 0  # > 0: encoder-decoder, `layers` is the decoder depth
    relative_attention_buckets: object = 0

    def __post_init__(self):
        if self.norm not in NORM_KINDS:
            raise ValueError(f"norm must be one of {NORM_KINDS}, got {self.norm!r}")
        if self.norm == "rms" and self.norm_bias:
            raise ValueError("RMSNorm has no bias (norm_bias=True needs norm='layer')")


def _s(x):
    return sp.sympify(x)


def attention_width(a: Architecture):
    """heads * head_dim: the width of q and of o's input (need not equal d_model: Gemma 7B)."""
    return _s(a.heads) * _s(a.head_dim)


def attention_params(a: Architecture) -> sp.Expr:
    """One attention block: q, k, v, o and their biases."""
    d, q_width = _s(a.d_model), attention_width(a)
    kv_width = _s(a.kv_heads) * _s(a.head_dim)
    count = d * q_width + 2 * d * kv_width + q_width * d
    if a.qkv_bias:
        count += q_width + 2 * kv_width
    if a.o_bias:
        count += d
    return sp.expand(count)


def ffn_params(a: Architecture) -> sp.Expr:
    """One FFN block: the variant's projections, times the experts, plus the router."""
    d, experts = _s(a.d_model), _s(a.experts)
    count = experts * params(a.variant, d, _s(a.d_ff), a.bias)
    if experts != 1:
        count += d * experts
    return sp.expand(count)


def norm_params(a: Architecture) -> sp.Expr:
    """One norm: weight (scale) and, for LayerNorm with bias, a bias; 0 if non-parametric."""
    return _s(a.d_model) * (int(a.norm_weight) + int(a.norm_bias))


def breakdown(a: Architecture) -> dict[str, sp.Expr]:
    """{part: parameter count} for the whole model; the parts sum to `params_total`."""
    d, vocab = _s(a.d_model), _s(a.vocab)
    layers, enc = _s(a.layers), _s(a.encoder_layers)
    attn, ffn, norm = attention_params(a), ffn_params(a), norm_params(a)
    decoder_only = enc == 0
    stacks = 1 if decoder_only else 2
    parts = {
        "embedding": vocab * d,
        "lm_head": sp.Integer(0) if a.tied else vocab * d,
        "positions": _s(a.positions) * d,
        "attention": layers * attn,
        "ffn": layers * ffn,
        "norms": layers * a.norms_per_layer * norm,
        "final_norm": (stacks * norm) if a.final_norm else sp.Integer(0),
        "relative_attention": stacks * _s(a.relative_attention_buckets) * _s(a.heads),
    }
    if not decoder_only:
        parts["encoder_attention"] = enc * attn
        parts["encoder_ffn"] = enc * ffn
        parts["encoder_norms"] = enc * a.norms_per_layer * norm
        parts["cross_attention"] = layers * attn
        parts["cross_attention_norms"] = layers * norm
    return {k: sp.expand(v) for k, v in parts.items()}


def params_total(a: Architecture) -> sp.Expr:
    """Every parameter of the model, counted once (a tied head is the embedding)."""
    return sp.expand(sum(breakdown(a).values()))


def layer_params(a: Architecture) -> sp.Expr:
    """One decoder-only layer: attention + FFN + its norms."""
    return sp.expand(attention_params(a) + ffn_params(a) + a.norms_per_layer * norm_params(a))
