"""Attention blocks, free of any catalogue: parameters and matmul FLOPs, from the shapes.

Shapes (activations as x @ W, n tokens of width d, H query heads and K key/value heads of
width hd each; K < H is grouped-query attention, K = 1 multi-query):

- q = x W_q, W_q: d x (H·hd);  k = x W_k, v = x W_v, W_k and W_v: d x (K·hd);
  o = a W_o, W_o: (H·hd) x d; optional biases on q, k, v (`qkv_bias`) and o (`o_bias`);
- scores, per query head: S = q_h k_gᵀ, (n x hd) @ (hd x c), for c = `context` keys;
- values, per query head: A·V, (n x c) @ (c x hd). A key/value head shared by H/K query
  heads is read by each of them: the score and value products cost the same as in
  multi-head attention; only the k and v projections shrink.

FLOPs: 2 per multiply-add (torch.utils.flop_counter.FlopCounterMode). Every product is
counted in full over `context` keys (no causal halving, as Kaplan et al. 2020 and
Hoffmann et al. 2022 count them); softmax, scaling and masking are not matmuls and cost
nothing in this convention. Backward of C = A @ B needs dA and dB, each as costly as the
forward product. For the projections, dW is always needed and dx (the input of the block)
only with `input_grad`; for the score and value products both operands depend on the
weights, so both gradients are always needed (2x forward).

Imports sympy only.
"""

import sympy as sp

PASSES = ("forward", "backward", "train")


def _s(x):
    return sp.sympify(x)


def attention_params(d, heads, kv_heads=None, head_dim=None, qkv_bias=False, o_bias=False):
    """q, k, v and o weights, and their biases where the model has them."""
    d, heads = _s(d), _s(heads)
    kv_heads = heads if kv_heads is None else _s(kv_heads)
    head_dim = d / heads if head_dim is None else _s(head_dim)
    q_width, kv_width = heads * head_dim, kv_heads * head_dim
    count = d * q_width + 2 * d * kv_width + q_width * d
    if qkv_bias:
        count += q_width + 2 * kv_width
    if o_bias:
        count += d
    return sp.expand(count)


def embedding_params(vocab, d):
    """A vocab x d lookup table (a token embedding, a learned position table, an LM head)."""
    return sp.expand(_s(vocab) * _s(d))


def norm_params(d, kind="rms"):
    """RMSNorm: a weight of width d; LayerNorm: a weight and a bias."""
    if kind not in ("rms", "layer"):
        raise ValueError(f"unknown norm kind {kind!r}; expected rms or layer")
    return _s(d) * (1 if kind == "rms" else 2)


def projection_matmuls(d, heads, n, kv_heads=None, head_dim=None):
    """[(name, (m, k, p))] of the four weight matmuls of one forward pass."""
    d, heads, n = _s(d), _s(heads), _s(n)
    kv_heads = heads if kv_heads is None else _s(kv_heads)
    head_dim = d / heads if head_dim is None else _s(head_dim)
    q_width, kv_width = heads * head_dim, kv_heads * head_dim
    return [("x@W_q", (n, d, q_width)), ("x@W_k", (n, d, kv_width)),
            ("x@W_v", (n, d, kv_width)), ("a@W_o", (n, q_width, d))]


def score_value_flops(heads, n, context, head_dim):
    """Forward FLOPs of QKᵀ and A·V: 2·n·c·hd each, for every query head."""
    return sp.expand(2 * 2 * _s(heads) * _s(n) * _s(context) * _s(head_dim))


def attention_flops(d, heads, n=1, context=None, kv_heads=None, head_dim=None,
                    pass_="forward", input_grad=True):
    """Matmul FLOPs of one attention block over n queries, each attending to `context` keys
    (default: n, self-attention without a cache)."""
    if pass_ not in PASSES:
        raise ValueError(f"unknown pass {pass_!r}; expected one of {', '.join(PASSES)}")
    d, heads, n = _s(d), _s(heads), _s(n)
    context = n if context is None else _s(context)
    head_dim_ = d / heads if head_dim is None else _s(head_dim)
    fwd = bwd = sp.Integer(0)
    for name, (m, k, p) in projection_matmuls(d, heads, n, kv_heads, head_dim_):
        cost = 2 * m * k * p
        fwd += cost
        bwd += cost  # dW
        if name.startswith("a@") or input_grad:
            bwd += cost  # d(input): the o projection's input is inside the block
    sv = score_value_flops(heads, n, context, head_dim_)
    fwd += sv
    bwd += 2 * sv
    return sp.expand({"forward": fwd, "backward": bwd, "train": fwd + bwd}[pass_])
