"""Parameter counts, derived from the symbolic weight shapes.

Convention (docs/architecture.md §2): activations are computed as x @ W, so a projection from width a to
width b has a weight of shape (a, b) and, with bias, a bias of shape (b,). Gated
variants have three projections (gate, up, down), the others two (up, down).
"""

import sympy as sp

from derivations import variants
from derivations.symbols import d as D
from derivations.symbols import h as H

# projection -> (input width, output width), in terms of the model width d and hidden h
_PROJECTION_DIMS = {"gate": ("d", "h"), "up": ("d", "h"), "down": ("h", "d")}


def weight_shapes(variant: str, d=D, h=H, bias: bool = False) -> dict[str, tuple]:
    """{tensor name: shape} for every parameter of `variant`, e.g. W_up: (d, h)."""
    dims = {"d": sp.sympify(d), "h": sp.sympify(h)}
    shapes: dict[str, tuple] = {}
    for proj in variants.get(variant).projections:
        a, b = _PROJECTION_DIMS[proj]
        shapes[f"W_{proj}"] = (dims[a], dims[b])
        if bias:
            shapes[f"b_{proj}"] = (dims[b],)
    return shapes


def params(variant: str, d=D, h=H, bias: bool = False) -> sp.Expr:
    """Exact parameter count: the sum over tensors of the product of their shape."""
    return sp.expand(sum(sp.Mul(*shape) for shape in weight_shapes(variant, d, h, bias).values()))
