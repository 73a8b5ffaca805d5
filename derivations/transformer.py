"""Whole-model parameter counts of a transformer, derived from its shape.

An `Architecture` says what a model is made of; `breakdown` counts each part and
`params_total` adds them up. `parts` groups the breakdown into the claim language's parts
(embedding, lm_head, positions, attention, ffn, norms, pooler), `layer_parts` splits one
decoder layer, and `active_params` is what one token of a mixture of experts uses. Every count is a product of shape entries, so the fields may
be integers (a real model: the total is an exact Integer) or SymPy symbols (a family of
models: the total is a closed form).

Parts counted (weights as x @ W; a bias has the output width):

- token embedding: vocab x d; the LM head is another vocab x d unless tied to it;
- learned position embeddings (GPT-2, GPT-3): positions x d;
- attention, per layer: q d x (heads*head_dim), k and v d x (kv_heads*head_dim) each
  (grouped / multi-query attention when kv_heads < heads), o (heads*head_dim) x d;
  biases on q, k, v (`qkv_bias`, e.g. Qwen2.5) and on o (`o_bias`) where the model has them;
- FFN, per layer: `derivations.params.params(variant, d, d_ff, bias)`, times the number of
  experts for a mixture of experts, plus the router d x experts; a shared expert (Qwen-MoE,
  DeepSeek-MoE) of width `shared_d_ff` that every token uses, and its sigmoid gate d x 1
  (`shared_expert_gate`); `active_experts` of the routed experts serve each token;
- norms: RMSNorm has a weight only, LayerNorm a weight and a bias, either can be
  non-parametric; `norms_per_layer` of them per layer, plus a final one per stack; with
  `qk_norm` (Qwen3, Gemma 3) an RMSNorm of width head_dim on q and one on k in each
  layer; with `embedding_norm` (BERT) a norm after the embedding sum;
- BERT's extras: `token_types` rows of segment embeddings (counted in the embedding part)
  and the pooler, a d x d dense layer with a bias on the first token (`pooler`);
- encoder-decoder (T5): an encoder stack of `encoder_layers` (self-attention + FFN) and a
  decoder stack of `layers` whose layers add cross-attention (the same shapes as
  self-attention) and its norm; one embedding shared by both stacks; relative position
  biases (buckets x heads) in each stack's first layer.

Imports sympy and derivations only.
"""

from dataclasses import dataclass

import sympy as sp

from derivations import attention
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
    active_experts: object = 1  # routed experts that serve each token
    shared_d_ff: object = 0  # width of an always-used shared expert (0: none)
    shared_expert_gate: bool = False  # a d x 1 sigmoid gate on the shared expert
    qk_norm: bool = False  # RMSNorm (weight of width head_dim) on q and on k, per layer
    token_types: object = 0  # rows of a segment (token type) embedding, BERT
    embedding_norm: bool = False  # a norm after the embedding sum, BERT
    pooler: bool = False  # BERT's pooler: d x d dense with bias

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
    return attention.attention_params(a.d_model, a.heads, a.kv_heads, a.head_dim,
                                      a.qkv_bias, a.o_bias)


def expert_params(a: Architecture) -> sp.Expr:
    """One routed expert (or the whole FFN of a dense model)."""
    return params(a.variant, _s(a.d_model), _s(a.d_ff), a.bias)


def shared_expert_params(a: Architecture) -> sp.Expr:
    """The shared expert and its gate, 0 where there is none."""
    d, width = _s(a.d_model), _s(a.shared_d_ff)
    count = params(a.variant, d, width, a.bias) if width != 0 else sp.Integer(0)
    return sp.expand(count + (d if a.shared_expert_gate else 0))


def router_params(a: Architecture) -> sp.Expr:
    """The router d x experts of a mixture of experts, 0 for a dense FFN."""
    experts = _s(a.experts)
    return sp.expand(_s(a.d_model) * experts) if experts != 1 else sp.Integer(0)


def ffn_params(a: Architecture) -> sp.Expr:
    """One FFN block: the variant's projections, times the experts, plus the router and
    the shared expert."""
    count = _s(a.experts) * expert_params(a) + router_params(a) + shared_expert_params(a)
    return sp.expand(count)


def active_ffn_params(a: Architecture) -> sp.Expr:
    """The FFN parameters one token uses: `active_experts` experts, the router and the
    shared expert (the whole FFN of a dense model)."""
    if _s(a.experts) == 1:
        return ffn_params(a)
    count = _s(a.active_experts) * expert_params(a) + router_params(a)
    return sp.expand(count + shared_expert_params(a))


def qk_norm_params(a: Architecture) -> sp.Expr:
    """Per layer: the RMSNorm weights (width head_dim) on q and on k, 0 without qk_norm."""
    return 2 * _s(a.head_dim) if a.qk_norm else sp.Integer(0)


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
        "token_types": _s(a.token_types) * d,
        "embedding_norm": norm if a.embedding_norm else sp.Integer(0),
        "pooler": d * d + d if a.pooler else sp.Integer(0),
        "qk_norms": layers * qk_norm_params(a),
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
        parts["encoder_qk_norms"] = enc * qk_norm_params(a)
        parts["cross_attention_qk_norms"] = layers * qk_norm_params(a)
        parts["cross_attention"] = layers * attn
        parts["cross_attention_norms"] = layers * norm
    return {k: sp.expand(v) for k, v in parts.items()}


def params_total(a: Architecture) -> sp.Expr:
    """Every parameter of the model, counted once (a tied head is the embedding)."""
    return sp.expand(sum(breakdown(a).values()))


# breakdown's fine entries -> the parts of `parts` (SPEC: embedding, lm_head, positions,
# attention, ffn, norms; plus BERT's pooler)
PART_OF = {
    "embedding": "embedding", "token_types": "embedding", "lm_head": "lm_head",
    "positions": "positions", "relative_attention": "positions",
    "attention": "attention", "encoder_attention": "attention",
    "cross_attention": "attention", "ffn": "ffn", "encoder_ffn": "ffn",
    "norms": "norms", "final_norm": "norms", "embedding_norm": "norms",
    "qk_norms": "norms", "encoder_norms": "norms", "encoder_qk_norms": "norms",
    "cross_attention_norms": "norms", "cross_attention_qk_norms": "norms",
    "pooler": "pooler",
}
PARTS = ("embedding", "lm_head", "positions", "attention", "ffn", "norms", "pooler")
LAYER_PARTS = ("attention", "ffn", "norms")


def parts(a: Architecture) -> dict[str, sp.Expr]:
    """{part: count} over PARTS: the token (and segment) embeddings, the LM head (0 when
    tied), position embeddings (learned tables and relative biases), every attention
    block (self and cross), every FFN (all experts, routers, shared experts), every norm
    (the final and q/k norms included) and BERT's pooler. They add up to the total."""
    out = {p: sp.Integer(0) for p in PARTS}
    for name, count in breakdown(a).items():
        out[PART_OF[name]] += count
    return {k: sp.expand(v) for k, v in out.items()}


def layer_parts(a: Architecture) -> dict[str, sp.Expr]:
    """{attention, ffn, norms} of one decoder layer (an encoder-decoder's decoder layer
    includes its cross-attention and that norm)."""
    cross = 0 if _s(a.encoder_layers) == 0 else 1
    return {
        "attention": sp.expand((1 + cross) * attention_params(a)),
        "ffn": ffn_params(a),
        "norms": sp.expand((a.norms_per_layer + cross) * norm_params(a)
                           + (1 + cross) * qk_norm_params(a)),
    }


def layer_params(a: Architecture) -> sp.Expr:
    """One decoder layer: attention + FFN + its norms."""
    return sp.expand(sum(layer_parts(a).values()))


def active_params(a: Architecture) -> sp.Expr:
    """The parameters one token uses: the total less the routed experts it skips."""
    skipped = _s(a.experts) - _s(a.active_experts) if _s(a.experts) != 1 else 0
    stacks_layers = _s(a.layers) + _s(a.encoder_layers)
    return sp.expand(params_total(a) - stacks_layers * skipped * expert_params(a))
