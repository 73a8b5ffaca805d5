"""Whole-model FLOPs and memory, from an `Architecture` (derivations.transformer).

FLOPs (matmul convention, 2 per multiply-add, as FlopCounterMode counts them) of n tokens,
each attending to `context` keys:

- every decoder layer: its attention block (`derivations.attention.attention_flops`: q, k,
  v, o projections plus QKᵀ and A·V over `context` keys, no causal halving) and its FFN
  (`derivations.flops.flops`); a mixture of experts runs `active_experts` experts per
  token plus the router (d x experts) and, where there is one, the shared expert and its
  d x 1 gate;
- an encoder-decoder also runs its encoder layers (self-attention + FFN) and each decoder
  layer's cross-attention, source and target both n tokens over `context` keys;
- the LM head, 2·n·d·vocab (tied or not: the logits are computed either way);
- embeddings, norms, softmax and BERT's per-sequence pooler are not matmuls over every
  token and cost nothing here.

Backward of a whole model needs every input gradient (the first layer's feeds the
embedding's gradient), so it is exactly twice the forward, and train three times.

Memory: `dtype_bytes` per element; the KV cache keeps a key and a value of width
kv_heads·head_dim per decoder layer, per cached token, per sequence:
2 · layers · kv_heads · head_dim · context · batch · bytes.

Imports sympy and derivations only.
"""

import sympy as sp

from derivations import attention
from derivations import flops as _flops
from derivations.transformer import Architecture

PASSES = ("forward", "backward", "train")

DTYPE_BYTES = {
    "float32": sp.Integer(4), "fp32": sp.Integer(4),
    "bfloat16": sp.Integer(2), "bf16": sp.Integer(2),
    "float16": sp.Integer(2), "fp16": sp.Integer(2),
    "fp8": sp.Integer(1), "int8": sp.Integer(1),
    "int4": sp.Rational(1, 2),
}


def _s(x):
    return sp.sympify(x)


def dtype_bytes(dtype: str) -> sp.Rational:
    """Bytes per element of `dtype` (int4 packs two elements per byte: 1/2)."""
    try:
        return DTYPE_BYTES[dtype]
    except KeyError:
        raise ValueError(f"unknown dtype {dtype!r}; known: {', '.join(DTYPE_BYTES)}") from None


def _ffn_forward(a: Architecture, n) -> sp.Expr:
    d, n = _s(a.d_model), _s(n)
    one = _flops.flops(a.variant, d, _s(a.d_ff), n)
    experts = _s(a.experts)
    if experts == 1:
        count = one
    else:
        count = _s(a.active_experts) * one + 2 * n * d * experts  # experts used + router
    if _s(a.shared_d_ff) != 0:
        count += _flops.flops(a.variant, d, _s(a.shared_d_ff), n)
    if a.shared_expert_gate:
        count += 2 * n * d
    return sp.expand(count)


def _attention_forward(a: Architecture, n, context) -> sp.Expr:
    return attention.attention_flops(a.d_model, a.heads, n, context, a.kv_heads, a.head_dim)


def layer_flops(a: Architecture, n=1, context=None) -> sp.Expr:
    """Forward FLOPs of one decoder layer (with its cross-attention in an encoder-decoder)."""
    context = _s(n) if context is None else context
    cross = 0 if _s(a.encoder_layers) == 0 else 1
    return sp.expand((1 + cross) * _attention_forward(a, n, context) + _ffn_forward(a, n))


def lm_head_flops(a: Architecture, n=1) -> sp.Expr:
    return sp.expand(2 * _s(n) * _s(a.d_model) * _s(a.vocab))


def model_flops(a: Architecture, n=1, context=None, pass_="forward") -> sp.Expr:
    """FLOPs of n tokens through the whole model (see the module docstring)."""
    if pass_ not in PASSES:
        raise ValueError(f"unknown pass {pass_!r}; expected one of {', '.join(PASSES)}")
    n = _s(n)
    context = n if context is None else _s(context)
    fwd = _s(a.layers) * layer_flops(a, n, context) + lm_head_flops(a, n)
    enc = _s(a.encoder_layers)
    if enc != 0:
        fwd += enc * (_attention_forward(a, n, context) + _ffn_forward(a, n))
    return sp.expand({"forward": fwd, "backward": 2 * fwd, "train": 3 * fwd}[pass_])


def kv_cache_elements(a: Architecture, context, batch=1) -> sp.Expr:
    """Cached key and value elements of every decoder layer's self-attention."""
    return sp.expand(2 * _s(a.layers) * _s(a.kv_heads) * _s(a.head_dim) * _s(context)
                     * _s(batch))


def kv_cache_bytes(a: Architecture, context, batch=1, dtype="bf16") -> sp.Expr:
    return sp.expand(kv_cache_elements(a, context, batch) * dtype_bytes(dtype))
