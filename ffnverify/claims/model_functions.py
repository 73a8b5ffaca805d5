"""The whole-model claim functions: catalogue fields, parameters by part, attention and
whole-model FLOPs, and memory in bytes.

Each returns an exact SymPy value computed by `derivations` (attention, transformer,
model_costs) from the catalogue row's shape, or from the shape given in the claim for the
catalogue-free counts (`params_attention`, `params_embedding`, `params_norm`,
`flops_attention`). Dimension arguments may be symbols: the counts are polynomials, so a
claim about them is decided like any other. Errors are `ClaimError`s for the claim's
author. `registry.FUNCTIONS` joins this module's FUNCTIONS with `functions.FUNCTIONS`;
the signatures are in `signatures.SIGNATURES`.
"""

import sympy as sp

from derivations import attention as _attention
from derivations import model_costs as _costs
from derivations import transformer as _transformer
from ffnverify.claims.arguments import (
    as_choice,
    as_expr,
    as_flag,
    catalogue_module,
    catalogue_row,
    int_default,
)
from ffnverify.claims.errors import ClaimError

PASSES = ("forward", "backward", "train")
NORM_KINDS = ("rms", "layer")


def _arch(model):
    catalogue_row(model)
    return catalogue_module().architecture(model)


def _int_field(model, attr):
    value = getattr(catalogue_row(model), attr)
    if value is None:
        raise ClaimError(f"{attr} of {model!r} is not stated by its sources")
    return sp.Integer(int(value))


def _field(attr):
    def get(model):
        return _int_field(model, attr)

    get.__name__ = attr
    return get


def encoder_layers(model):
    """The encoder's layers: an encoder-decoder's `encoder_layers`, an encoder-only model's
    one stack (BERT's `layers`), 0 for a decoder-only model."""
    m = catalogue_row(model)
    return _int_field(model, "layers" if m.encoder_only else "encoder_layers")


def tied(model):
    """1 when the LM head is the token embedding, 0 otherwise."""
    return sp.Integer(1 if catalogue_row(model).tied else 0)


def d_ff(model, fused=False):
    """The FFN width per branch; with fused=true the gate+up width 2·d_ff of a gated FFN."""
    m = catalogue_row(model)
    width = sp.Integer(m.d_ff)
    if not as_flag(fused, "fused"):
        return width
    from derivations import variants

    if not variants.get(m.variant).gated:
        raise ClaimError(f"{m.name} has a non-gated FFN ({m.variant}): there is no fused "
                         "gate+up width")
    return 2 * width


def _part(part, allowed, what):
    if part is None:
        return None
    return as_choice(part, allowed, what)


def params_total(model, part=None):
    """Every parameter, or one part of them (the parts add up to the total)."""
    a = _arch(model)
    part = _part(part, _transformer.PARTS, "part")
    if part is None:
        return _transformer.params_total(a)
    return _transformer.parts(a)[part]


def params_layer(model, part=None):
    """One decoder layer, or its attention, ffn or norms."""
    a = _arch(model)
    part = _part(part, _transformer.LAYER_PARTS, "layer part")
    if part is None:
        return _transformer.layer_params(a)
    return _transformer.layer_parts(a)[part]


def params_active(model):
    """The parameters one token uses: a mixture of experts counts active_experts experts."""
    return _transformer.active_params(_arch(model))


def _default(value, fallback):
    return fallback if value is None else as_expr(int_default(value), "an argument")


def params_attention(d, heads, kv_heads=None, head_dim=None, qkv_bias=False, o_bias=False):
    d, heads = as_expr(d, "d"), as_expr(heads, "heads")
    return _attention.attention_params(
        d, heads, _default(kv_heads, heads), _default(head_dim, d / heads),
        as_flag(qkv_bias, "qkv_bias"), as_flag(o_bias, "o_bias"))


def params_embedding(vocab, d):
    return _attention.embedding_params(as_expr(vocab, "vocab"), as_expr(d, "d"))


def params_norm(d, kind="rms"):
    return _attention.norm_params(as_expr(d, "d"), as_choice(kind, NORM_KINDS, "norm kind"))


def flops_attention(d, heads, n=1, context=None, kv_heads=None, head_dim=None,
                    pass_="forward", input_grad=True):
    d, heads = as_expr(d, "d"), as_expr(heads, "heads")
    n = as_expr(int_default(n), "n")
    return _attention.attention_flops(
        d, heads, n, _default(context, n), _default(kv_heads, heads),
        _default(head_dim, d / heads), as_choice(pass_, PASSES, "pass"),
        as_flag(input_grad, "input_grad"))


def flops_model(model, n=1, context=None, pass_="forward"):
    n = as_expr(int_default(n), "n")
    return _costs.model_flops(_arch(model), n, _default(context, n),
                              as_choice(pass_, PASSES, "pass"))


def flops_token(model, context, pass_="forward"):
    return flops_model(model, 1, context, pass_)


def _dtype(dtype):
    return _costs.dtype_bytes(as_choice(dtype, tuple(_costs.DTYPE_BYTES), "dtype"))


def bytes_(dtype):
    return _dtype(dtype)


def weight_bytes(model, dtype="bf16"):
    return sp.expand(_transformer.params_total(_arch(model)) * _dtype(dtype))


def kv_cache_bytes(model, context, batch=1, dtype="bf16"):
    return _costs.kv_cache_bytes(_arch(model), as_expr(context, "context"),
                                 as_expr(int_default(batch), "batch"), as_choice(
                                     dtype, tuple(_costs.DTYPE_BYTES), "dtype"))


FUNCTIONS = {
    "heads": _field("heads"),
    "kv_heads": _field("kv_heads"),
    "head_dim": _field("head_dim"),
    "vocab": _field("vocab"),
    "context": _field("context"),
    "experts": _field("experts"),
    "active_experts": _field("active_experts"),
    "encoder_layers": encoder_layers,
    "tied": tied,
    "d_ff": d_ff,
    "params_total": params_total,
    "params_layer": params_layer,
    "params_active": params_active,
    "params_attention": params_attention,
    "params_embedding": params_embedding,
    "params_norm": params_norm,
    "flops_attention": flops_attention,
    "flops_model": flops_model,
    "flops_token": flops_token,
    "bytes": bytes_,
    "weight_bytes": weight_bytes,
    "kv_cache_bytes": kv_cache_bytes,
}
