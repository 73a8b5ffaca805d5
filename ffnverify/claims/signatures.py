"""The signatures of the claim functions: parameter names, defaults and which
parameters take a *name* (a variant, model, pass or count) rather than an expression.

Plain data, shared by the parser (to read `llama-2-7b` as one bare word in a name
position) and by `build` (to bind arguments for `registry.FUNCTIONS`). Imports nothing.
tests/claims/test_registry.py ties the two tables name by name and parameter by parameter.
"""

from dataclasses import dataclass, field

REQUIRED = object()  # marker: the parameter has no default


@dataclass(frozen=True)
class Signature:
    params: tuple[str, ...]
    defaults: dict = field(default_factory=dict)
    words: frozenset = frozenset()  # parameters whose argument is a name, e.g. "variant"
    variadic: bool = False  # min / max take any number (>= 1) of arguments


def _sig(params, words=(), variadic=False, **defaults):
    return Signature(tuple(params), dict(defaults), frozenset(words), variadic)


_COUNTING = ("variant", "d", "h", "n", "pass", "count", "input_grad", "bias")

SIGNATURES: dict[str, Signature] = {
    "params": _sig(("variant", "d", "h", "bias"), ("variant",), bias=False),
    "flops": _sig(_COUNTING, ("variant", "pass", "count"), n=1, input_grad=True, bias=False,
                  **{"pass": "forward", "count": "matmul"}),
    "macs": _sig(_COUNTING, ("variant", "pass", "count"), n=1, input_grad=True, bias=False,
                 **{"pass": "forward", "count": "matmul"}),
    "matmuls": _sig(("variant",), ("variant",)),
    "memory": _sig(("variant", "d", "h", "n", "convention"), ("variant", "convention"),
                   n=1, convention="store"),
    "width": _sig(("rule", "d", "multiple_of", "multiplier"), ("rule",),
                  multiple_of=256, multiplier=None),
    "match_width": _sig(("from_variant", "from_h", "to_variant", "d", "bias"),
                        ("from_variant", "to_variant"), bias=False),
    "round_up": _sig(("x", "m")),
    "round_nearest": _sig(("x", "m"), m=1),
    "trunc": _sig(("x",)),
    "floor": _sig(("x",)),
    "ceil": _sig(("x",)),
    "abs": _sig(("x",)),
    "sqrt": _sig(("x",)),
    "min": _sig(("x",), variadic=True),
    "max": _sig(("x",), variadic=True),
    "relu": _sig(("x",)),
    "silu": _sig(("x",)),
    "sigmoid": _sig(("x",)),
    "gelu": _sig(("x",)),
    "gelu_tanh": _sig(("x",)),
    "relu2": _sig(("x",)),
    "quick_gelu": _sig(("x",)),
    "tanh": _sig(("x",)),
    "exp": _sig(("x",)),
    "log": _sig(("x",)),
    "swish": _sig(("x", "beta")),
    "diff": _sig(("expr", "var")),
    "subs": _sig(("expr", "var", "value")),
    "limit": _sig(("expr", "var", "point", "dir"), ("dir",), dir=None),
    "approx": _sig(("a", "b", "rel", "abs"), rel=None, abs=None),
    "d_model": _sig(("model",), ("model",)),
    "layers": _sig(("model",), ("model",)),
}


# the whole-model functions (ffnverify.claims.model_functions)
_MODEL = ("model",)
SIGNATURES.update({
    **{f: _sig(_MODEL, _MODEL) for f in ("heads", "kv_heads", "head_dim", "vocab", "context",
                                         "experts", "active_experts", "tied",
                                         "encoder_layers", "params_active")},
    "d_ff": _sig(("model", "fused"), _MODEL, fused=False),
    "params_total": _sig(("model", "part"), ("model", "part"), part=None),
    "params_layer": _sig(("model", "part"), ("model", "part"), part=None),
    "params_attention": _sig(("d", "heads", "kv_heads", "head_dim", "qkv_bias", "o_bias"),
                             kv_heads=None, head_dim=None, qkv_bias=False, o_bias=False),
    "params_embedding": _sig(("vocab", "d")),
    "params_norm": _sig(("d", "kind"), ("kind",), kind="rms"),
    "flops_attention": _sig(("d", "heads", "n", "context", "kv_heads", "head_dim", "pass",
                             "input_grad"), ("pass",), n=1, context=None, kv_heads=None,
                            head_dim=None, input_grad=True, **{"pass": "forward"}),
    "flops_model": _sig(("model", "n", "context", "pass"), ("model", "pass"), n=1,
                        context=None, **{"pass": "forward"}),
    "flops_token": _sig(("model", "context", "pass"), ("model", "pass"),
                        **{"pass": "forward"}),
    "bytes": _sig(("dtype",), ("dtype",)),
    "weight_bytes": _sig(("model", "dtype"), ("model", "dtype"), dtype="bf16"),
    "kv_cache_bytes": _sig(("model", "context", "batch", "dtype"), ("model", "dtype"),
                           batch=1, dtype="bf16"),
})


# functions whose value is a yes/no field, 1 or 0: usable as a condition on its own
# (`tied(gemma-7b) and not tied(llama-2-7b)`) as well as a number (`tied(m) == 1`)
BOOLEAN_VALUED = frozenset({"tied"})

# functions whose value is a count of bytes: a comparison with one of them on a side shows
# both sides with a binary-prefixed form beside the exact integer (show.with_bytes)
BYTE_VALUED = frozenset({"bytes", "weight_bytes", "kv_cache_bytes"})


def takes_word(func: str, index: int | None, keyword: str | None) -> bool:
    """Whether argument `index` (or keyword argument `keyword`) of `func` is a name."""
    sig = SIGNATURES.get(func)
    if sig is None:
        return False
    if keyword is not None:
        return keyword in sig.words
    return index is not None and index < len(sig.params) and sig.params[index] in sig.words
