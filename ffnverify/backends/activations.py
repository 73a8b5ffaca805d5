"""Activations in NumPy: each one's record (formula, derivative, kinks, error constants).

The one place for an activation's numeric facts: `ACTIVATIONS` its NumPy formula and
derivative, `FACTS` what the rounding-error bounds need besides (whether it is computed
exactly, where its derivative jumps, sup |act'| and sup |act''|), read by the conformance
kit's bounds (ffnverify.testing.tolerances) and the tests' oracle (tests/tolerance.py).
Written independently of `derivations` (the import contracts forbid it): the SymPy
formulas there are the other, symbolic source, and tests tie the two (the values, the
kinks against SymPy's one-sided limits, the sup bounds on a fine grid: tests/derivations/test_activations.py).

Numerically stable: sigmoid and silu are built on exp(-|z|), so no |z| up to the dtype's
range overflows or produces NaN; outputs keep the input's dtype.
"""

from dataclasses import dataclass

import numpy as np
from scipy import special

SQRT_2_OVER_PI = np.sqrt(2.0 / np.pi)
GELU_TANH_C = 0.044715
INV_SQRT2 = 1.0 / np.sqrt(2.0)
INV_SQRT_2PI = 1.0 / np.sqrt(2.0 * np.pi)


def sigmoid(z):
    e = np.exp(-np.abs(z))  # in (0, 1]: never overflows
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e)).astype(z.dtype, copy=False)


def d_sigmoid(z):
    s = sigmoid(z)
    return s * (1 - s)


def relu(z):
    return np.maximum(z, 0)


def d_relu(z):
    return (z > 0).astype(z.dtype)


def tanh(z):
    return np.tanh(z)


def d_tanh(z):
    t = np.tanh(z)
    return 1 - t * t


def silu(z):
    return z * sigmoid(z)


def d_silu(z):
    s = sigmoid(z)
    return s * (1 + z * (1 - s))


def gelu(z):
    return (0.5 * z * (1 + special.erf(z * INV_SQRT2))).astype(z.dtype, copy=False)


def d_gelu(z):
    cdf = 0.5 * (1 + special.erf(z * INV_SQRT2))
    pdf = np.exp(-0.5 * z * z) * INV_SQRT_2PI
    return (cdf + z * pdf).astype(z.dtype, copy=False)


# Beyond |z| = 20 the inner tanh is exactly ±1 in float32 and float64, so clipping there
# changes no value; it keeps z³ (and z² in the derivative) from overflowing to inf, which
# made d_gelu_tanh return 0·inf = NaN for finite |z| >~ 1e19 (float32).
GELU_TANH_SATURATED = 20.0


def _gelu_tanh_inner(z):
    z = np.clip(z, -GELU_TANH_SATURATED, GELU_TANH_SATURATED)
    return SQRT_2_OVER_PI * (z + GELU_TANH_C * z * z * z)


def gelu_tanh(z):
    return (0.5 * z * (1 + np.tanh(_gelu_tanh_inner(z)))).astype(z.dtype, copy=False)


def d_gelu_tanh(z):
    t = np.tanh(_gelu_tanh_inner(z))
    zc = np.clip(z, -GELU_TANH_SATURATED, GELU_TANH_SATURATED)  # where 1 - t² is 0 anyway
    du = SQRT_2_OVER_PI * (1 + 3 * GELU_TANH_C * zc * zc)
    return (0.5 * (1 + t) + 0.5 * zc * (1 - t * t) * du).astype(z.dtype, copy=False)


def relu2(z):
    """Squared ReLU, relu(z)² (Primer, Nemotron, Persimmon)."""
    r = np.maximum(z, 0)
    return r * r


def d_relu2(z):
    return 2 * np.maximum(z, 0)


QUICK_GELU_C = 1.702  # CLIP's quick_gelu: z·σ(1.702·z)
# beyond |z| = 1e4, σ(1.702·z) is exactly 0 or 1 in float32 and float64: clipping there
# changes no value, and keeps 1.702·z finite (and z·(1 − σ) from becoming inf·0 = NaN)
QUICK_GELU_SATURATED = 1e4


def quick_gelu(z):
    zc = np.clip(z, -QUICK_GELU_SATURATED, QUICK_GELU_SATURATED)
    return z * sigmoid(QUICK_GELU_C * zc)


def d_quick_gelu(z):
    zc = np.clip(z, -QUICK_GELU_SATURATED, QUICK_GELU_SATURATED)
    s = sigmoid(QUICK_GELU_C * zc)
    return s * (1 + QUICK_GELU_C * zc * (1 - s))


def identity(z):
    return z


def d_identity(z):
    return np.ones_like(z)


# activation name -> (function, derivative)
ACTIVATIONS = {
    "identity": (identity, d_identity),
    "relu": (relu, d_relu),
    "sigmoid": (sigmoid, d_sigmoid),
    "tanh": (tanh, d_tanh),
    "silu": (silu, d_silu),
    "gelu": (gelu, d_gelu),
    "gelu_tanh": (gelu_tanh, d_gelu_tanh),
    "relu2": (relu2, d_relu2),
    "quick_gelu": (quick_gelu, d_quick_gelu),
}


@dataclass(frozen=True)
class Facts:
    """What the error bounds know of an activation besides its formula. `sup_slope` and
    `sup_curvature` are sup |act'| and sup |act''| over the reals, rounded up (curvature
    away from a kink; for relu2, whose act' = 2·max(0, z) is unbounded, `sup_slope` is
    None and 2 is the Lipschitz constant of act')."""

    exact: bool  # computed without rounding: a copy or a max
    kinks: tuple[float, ...]  # the points where act' jumps (act is not differentiable)
    sup_slope: float | None
    sup_curvature: float


FACTS = {
    "identity": Facts(exact=True, kinks=(), sup_slope=1.0, sup_curvature=0.0),
    "relu": Facts(exact=True, kinks=(0.0,), sup_slope=1.0, sup_curvature=0.0),
    "sigmoid": Facts(exact=False, kinks=(), sup_slope=0.25, sup_curvature=0.1),
    "tanh": Facts(exact=False, kinks=(), sup_slope=1.0, sup_curvature=0.77),
    "silu": Facts(exact=False, kinks=(), sup_slope=1.1, sup_curvature=0.5),
    "gelu": Facts(exact=False, kinks=(), sup_slope=1.13, sup_curvature=0.8),
    "gelu_tanh": Facts(exact=False, kinks=(), sup_slope=1.13, sup_curvature=0.8),
    "relu2": Facts(exact=False, kinks=(), sup_slope=None, sup_curvature=2.0),
    "quick_gelu": Facts(exact=False, kinks=(), sup_slope=1.1, sup_curvature=0.86),
}
