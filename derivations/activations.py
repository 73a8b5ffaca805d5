"""Activation functions and their derivatives, symbolically.

Each activation is a SymPy expression in `z`; `derivative(name)` differentiates it with
SymPy, and `DERIVATIVE_FORMS` records the textbook closed forms that tests prove equal
(e.g. silu' = σ(1 + z(1 − σ))). The tanh-GELU constant 0.044715 is kept exact as
44715/10^6, quick_gelu's 1.702 as 1702/1000.
"""

import sympy as sp

from derivations.symbols import z

SQRT2 = sp.sqrt(2)
GELU_TANH_C = sp.Rational(44715, 1_000_000)


def sigmoid(x):
    return 1 / (1 + sp.exp(-x))


def relu(x):
    return sp.Max(0, x)


def silu(x):
    return x * sigmoid(x)


def gelu(x):
    return x / 2 * (1 + sp.erf(x / SQRT2))


def gelu_tanh(x):
    return x / 2 * (1 + sp.tanh(sp.sqrt(2 / sp.pi) * (x + GELU_TANH_C * x**3)))


def relu2(x):
    return sp.Max(0, x) ** 2


QUICK_GELU_C = sp.Rational(1702, 1000)


def quick_gelu(x):
    return x * sigmoid(QUICK_GELU_C * x)


def swish(x, beta):
    return x * sigmoid(beta * x)


# name -> function of a SymPy expression
ACTIVATIONS = {
    "identity": lambda x: x,
    "relu": relu,
    "sigmoid": sigmoid,
    "tanh": sp.tanh,
    "silu": silu,
    "gelu": gelu,
    "gelu_tanh": gelu_tanh,
    "relu2": relu2,
    "quick_gelu": quick_gelu,
}


def expr(name: str) -> sp.Expr:
    """The activation `name` as an expression in z."""
    return ACTIVATIONS[name](z)


def derivative(name: str) -> sp.Expr:
    """d act / dz. ReLU's derivative is Heaviside(z, 0): 0 at the kink, as frameworks do;
    squared ReLU's is 2·max(0, z) (continuous: no kink to decide)."""
    if name == "relu":
        return sp.Heaviside(z, 0)
    if name == "relu2":
        return 2 * sp.Max(0, z)
    return sp.diff(expr(name), z)


_s = sigmoid(z)
_phi = sp.exp(-(z**2) / 2) / sp.sqrt(2 * sp.pi)  # standard normal density
_Phi = (1 + sp.erf(z / SQRT2)) / 2  # standard normal CDF
_u = sp.sqrt(2 / sp.pi) * (z + GELU_TANH_C * z**3)
_sq = sigmoid(QUICK_GELU_C * z)

# The closed forms quoted in the literature; tests prove each equals derivative(name).
DERIVATIVE_FORMS = {
    "identity": sp.Integer(1),
    "relu": sp.Heaviside(z, 0),
    "sigmoid": _s * (1 - _s),
    "tanh": 1 - sp.tanh(z) ** 2,
    "silu": _s * (1 + z * (1 - _s)),
    "gelu": _Phi + z * _phi,
    "gelu_tanh": (1 + sp.tanh(_u)) / 2
    + z / 2 * (1 - sp.tanh(_u) ** 2) * sp.sqrt(2 / sp.pi) * (1 + 3 * GELU_TANH_C * z**2),
    "relu2": 2 * sp.Max(0, z),
    "quick_gelu": _sq * (1 + QUICK_GELU_C * z * (1 - _sq)),
}
