"""Rounding-error bounds for the FFN forward and backward, per element, from first principles.

No tolerance in the value and gradient tests is picked by hand: each comes from the unit
roundoff u of the dtype (2^-53 float64, 2^-24 float32, 2^-8 bfloat16) and the shapes, by
running the computation once more in float64 while carrying, next to every value, a bound
on how far a floating-point evaluation in the target dtype can be from it ("running
error analysis", Higham, *Accuracy and Stability of Numerical Algorithms*, ch. 3).

The rules, each standard:

- Dot products of length k, in any summation order, with or without FMA (Higham Thm 3.1
  / §3.1): |fl(a·b) − a·b| ≤ γ_k |a|·|b|, where γ_k = k·u / (1 − k·u). A matmul is a
  matrix of dot products, so the bound is γ_k (|A| @ |B|), elementwise. A bias added by
  the same kernel (addmm) is one more term: γ_{k+1} (|A| @ |B| + |b|). Errors already in
  the operands propagate to first order as |ΔA| @ |B| + |A| @ |ΔB| (+ |ΔA| @ |ΔB|).
  Mixed precision (bfloat16 in, float32 accumulate, one rounding to bfloat16 at the end):
  γ_k(u_acc) (|A| @ |B|) + u_out · (|A| @ |B|) bounds it. Activations likewise run in
  float32 and are rounded once to bfloat16.
- Products, sums: one rounding each, relative u, plus the propagated operand errors.
- Activations and their derivatives: with the input off by Δz, the output moves at most
  L₁·Δz, L₁ = sup |act'| (L₂ = sup |act''| for the derivative; ReLU' jumps by 1 where
  |z| ≤ Δz); evaluating the formula itself costs at most C_ELEM·u·(1 + |z|): every
  activation formula here is at most ~16 elementary operations (see
  derivations.flops.ELEMENTWISE_COST), each within 2 units of u relative to the scale
  1 + |z| of its operands (libm/SLEEF/scipy transcendental functions are within a few
  ulp; the scale absorbs cancellations such as 1 + erf(z) for negative z, which are
  multiplied by z afterwards). ReLU and the identity are exact.

The bound of two independent implementations that both obey it differs by at most twice
it. Values used to form the magnitudes are the float64 reference values; their own
error (relative ~1e-16) is second order and below the slack of every rule above.
The Lipschitz constants are checked numerically in tests/derivations/test_activations.py.

Independence: the METHOD is this file's own, apart from the conformance kit's bound
(ffnverify/testing/tolerances.py: M·E_plain plus a first-order bound), so the value and
gradient tests do not lean on the kit. The FACTS both methods use are one table each,
imported, not retyped: the unit roundoffs (tolerances.DTYPES, tested against torch.finfo)
and the activation record (ffnverify.backends.activations.FACTS: exactness, kinks,
sup |act'|, sup |act''|, tested against SymPy's derivatives).
"""

from dataclasses import dataclass

import numpy as np

from ffnverify.backends.activations import ACTIVATIONS, FACTS
from ffnverify.backends.variants import lookup
from ffnverify.testing.tolerances import DTYPES

# u of each dtype: the kit's table (tested against torch.finfo there), not a second copy
UNIT_ROUNDOFF = {name: u for name, (u, _u_acc, _eta) in DTYPES.items()}
C_ELEM = 32
# sup |act'| and sup |act''| over the reals, rounded up (relu'': a jump, handled apart):
# views of the activation record (ffnverify.backends.activations.FACTS)
LIPSCHITZ = {n: f.sup_slope for n, f in FACTS.items() if f.sup_slope is not None}
LIPSCHITZ_DERIVATIVE = {n: f.sup_curvature for n, f in FACTS.items() if f.sup_slope is not None}
EXACT_ACTIVATIONS = {n for n, f in FACTS.items() if f.exact}
# activations whose derivative is unbounded: a local Lipschitz constant on [z − Δz, z + Δz]
# (relu2' = 2·max(0, z)), and a value that outgrows |z| (the formula's scale is 1 + |z| + z²)
LOCAL_LIPSCHITZ = {"relu2": lambda z: 2 * (np.abs(z.value) + z.err)}
LOCAL_LIPSCHITZ_DERIVATIVE = {n: f.sup_curvature for n, f in FACTS.items() if f.sup_slope is None}


def unit_roundoff(dtype) -> float:
    """u for a NumPy dtype, a torch dtype or a name ("float32", "bfloat16", ...)."""
    name = str(dtype).removeprefix("torch.")
    name = np.dtype(name).name if name not in UNIT_ROUNDOFF else name
    return UNIT_ROUNDOFF[name]


def gamma(k: int, u: float) -> float:
    """γ_k = k·u / (1 − k·u): the relative error bound of a length-k dot product."""
    if k * u >= 1:
        raise ValueError(f"γ_k undefined: k·u = {k * u} >= 1 (k={k}, u={u})")
    return k * u / (1 - k * u)


@dataclass
class Bounded:
    """A float64 reference value and an elementwise bound on the error of computing it in
    the target precision."""

    value: np.ndarray
    err: np.ndarray

    @property
    def mag(self):
        return np.abs(self.value) + self.err

    @property
    def T(self):
        return Bounded(self.value.T, self.err.T)


def exact(a) -> Bounded:
    """An input that is exactly representable in the target dtype (already rounded to it)."""
    a = np.asarray(a, dtype=np.float64)
    return Bounded(a, np.zeros_like(a))


def matmul(a: Bounded, b: Bounded, u, bias: Bounded | None = None, u_acc=None) -> Bounded:
    """a @ b (+ bias) evaluated by a matmul kernel with unit roundoff u (accumulating with
    u_acc, default u)."""
    u_acc = u if u_acc is None else u_acc
    k = a.value.shape[-1] + (bias is not None)
    value = a.value @ b.value
    mags = a.mag @ b.mag
    err = a.err @ np.abs(b.value) + np.abs(a.value) @ b.err + a.err @ b.err
    if bias is not None:
        value = value + bias.value
        mags = mags + bias.mag
        err = err + bias.err
    rounding = gamma(k, u_acc) * mags
    if u_acc != u:
        rounding = rounding + u * (mags + rounding)
    return Bounded(value, err + rounding)


def mul(a: Bounded, b: Bounded, u) -> Bounded:
    err = np.abs(a.value) * b.err + np.abs(b.value) * a.err + a.err * b.err
    return Bounded(a.value * b.value, err + u * a.mag * b.mag)


def add(a: Bounded, b: Bounded, u) -> Bounded:
    return Bounded(a.value + b.value, a.err + b.err + u * (a.mag + b.mag))


def colsum(a: Bounded, u) -> Bounded:
    """Sum over tokens (axis 0): a bias gradient."""
    k = max(a.value.shape[0] - 1, 1)
    return Bounded(a.value.sum(axis=0), a.err.sum(axis=0) + gamma(k, u) * a.mag.sum(axis=0))


def _evaluation_error(value, z: Bounded, u, u_inner):
    """Error of evaluating an activation formula at z: C_ELEM·u_inner·(1 + |z|), plus one
    rounding to the storage precision u when the formula runs in a wider u_inner."""
    own = C_ELEM * u_inner * (1 + z.mag)
    return own if u_inner == u else own + u * (np.abs(value) + own)


def activation(name: str, z: Bounded, u, u_inner=None) -> Bounded:
    fn, _ = ACTIVATIONS[name]
    value = fn(z.value)
    if name in LOCAL_LIPSCHITZ:  # relu2: r = max(0, z) exact, r·r one rounding
        return Bounded(value, LOCAL_LIPSCHITZ[name](z) * z.err + z.err**2
                       + C_ELEM * (u_inner or u) * np.abs(value) + u * np.abs(value))
    own = 0.0 if name in EXACT_ACTIVATIONS else _evaluation_error(value, z, u, u_inner or u)
    return Bounded(value, LIPSCHITZ[name] * z.err + own)


def activation_derivative(name: str, z: Bounded, u, u_inner=None) -> Bounded:
    _, dfn = ACTIVATIONS[name]
    value = dfn(z.value)
    if FACTS[name].kinks:  # relu: exact 0/1, but a perturbed z may sit across the kink
        across = sum(np.abs(z.value - k) <= z.err for k in FACTS[name].kinks)
        return Bounded(value, np.minimum(across, 1).astype(np.float64))
    if name in LOCAL_LIPSCHITZ_DERIVATIVE:  # relu2' = 2·max(0, z): one exact doubling
        return Bounded(value, LOCAL_LIPSCHITZ_DERIVATIVE[name] * z.err)
    own = 0.0 if FACTS[name].exact else _evaluation_error(value, z, u, u_inner or u)
    return Bounded(value, LIPSCHITZ_DERIVATIVE[name] * z.err + own)


def ffn_bounds(variant, weights, x, dy=None, dtype="float64", u_acc=None):
    """Reference values and error bounds of the forward (and, given dy, the backward) of
    `variant` evaluated in `dtype`. Inputs must already be representable in `dtype`.

    `u_acc`: the unit roundoff matmuls accumulate in and activations are evaluated in
    before the result is stored in `dtype` (float32 for bfloat16 tensors, as torch does on
    CPU and CUDA); default: that of `dtype`.

    Returns (y, grads): Bounded output of shape (tokens, d) and {W_*, b_*, x: Bounded}
    (empty without dy), x flattened to (tokens, d).
    """
    u = unit_roundoff(dtype)
    act_name, gated = lookup(variant)
    x = exact(np.asarray(x, dtype=np.float64).reshape(-1, np.shape(x)[-1]))
    w = {k: exact(v) for k, v in weights.items()}

    def linear(inp, p):
        return matmul(inp, w[f"W_{p}"], u, w.get(f"b_{p}"), u_acc)

    z_up = linear(x, "up")
    if gated:
        z_gate = linear(x, "gate")
        a = activation(act_name, z_gate, u, u_acc)
        hidden = mul(a, z_up, u)
    else:
        a = activation(act_name, z_up, u, u_acc)
        hidden = a
    y = linear(hidden, "down")
    if dy is None:
        return y, {}

    g = exact(np.asarray(dy, dtype=np.float64).reshape(y.value.shape))
    grads = {"W_down": matmul(hidden.T, g, u, None, u_acc)}
    dhidden = matmul(g, w["W_down"].T, u, None, u_acc)
    if gated:
        dact = activation_derivative(act_name, z_gate, u, u_acc)
        dz = {"gate": mul(mul(dhidden, z_up, u), dact, u),
              "up": mul(dhidden, a, u)}
    else:
        dz = {"up": mul(dhidden, activation_derivative(act_name, z_up, u, u_acc), u)}
    for p, gz in dz.items():
        grads[f"W_{p}"] = matmul(x.T, gz, u, None, u_acc)
    if "b_down" in w:
        grads["b_down"] = colsum(g, u)
        for p, gz in dz.items():
            grads[f"b_{p}"] = colsum(gz, u)
    dx = None
    for p, gz in dz.items():
        term = matmul(gz, w[f"W_{p}"].T, u, None, u_acc)
        dx = term if dx is None else add(dx, term, u)
    grads["x"] = dx
    return y, grads


def worst_violation(observed, reference, bound):
    """(index, |observed − reference|, bound) of the element that most exceeds its bound,
    or None when every element is within its bound."""
    diff = np.abs(np.asarray(observed, np.float64) - np.asarray(reference, np.float64))
    bound = np.broadcast_to(bound, diff.shape)
    excess = diff - bound
    if diff.size == 0 or excess.max() <= 0:
        return None
    i = np.unravel_index(np.argmax(excess), diff.shape)
    return i, float(diff[i]), float(bound[i])


def assert_within(observed, reference, bound, what):
    bad = worst_violation(observed, reference, bound)
    assert bad is None, (
        f"{what}: element {bad[0]} differs by {bad[1]:.3e}, above its rounding bound "
        f"{bad[2]:.3e}" if bad else "")
