"""Gradients: the symbolic closed forms == NumPy backward == torch autograd; gradcheck.

- The SymPy side (`derivations.gradients.problem`, textbook derivative forms) is evaluated
  numerically with `sympy.lambdify` here, in the test: only tests join the two sides.
  Small sizes (n, d, h <= 3) keep the symbolic matrices small.
- NumPy's hand-written backward and torch autograd are compared at larger drawn sizes,
  2-D and 3-D inputs, float32 and float64, with and without the input gradient.
- Tolerances: per-element rounding bounds from tests/tolerance.py (u and the shapes).
- `derivations.gradients.prove` (closed forms == ∂L/∂input, exactly) for every variant,
  with and without bias, and the textbook activation derivatives.
"""

import functools

import numpy as np
import pytest
import strategies as S
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from tolerance import assert_within, ffn_bounds

from derivations.activations import ACTIVATIONS
from derivations.gradients import problem, prove, prove_derivative_forms
from derivations.variants import VARIANTS
from ffnverify.backends import numpy_ffn

CASES = [(v, b) for v in VARIANTS for b in (False, True)]
SYMBOLIC_SIZES = [(1, 1, 1), (2, 3, 1), (3, 1, 2), (1, 2, 3)]


def numpy_grads(variant, w, x, dy, input_grad=True):
    _, cache = numpy_ffn.forward(variant, w, x)
    return numpy_ffn.backward(variant, w, cache, dy, input_grad)


def torch_grads(variant, w, x, dy, input_grad=True):
    import torch

    from ffnverify.backends import torch_ffn

    dtype = getattr(torch, np.dtype(x.dtype).name)
    module = torch_ffn.from_numpy_weights(variant, w, dtype=dtype)
    xt = torch.from_numpy(x.copy()).requires_grad_(input_grad)
    module(xt).backward(torch.from_numpy(dy))
    out = {}
    for name in w:
        kind, p = name.split("_", 1)
        lin = getattr(module, f"{p}_proj")
        out[name] = (lin.weight.grad.T if kind == "W" else lin.bias.grad).numpy()
    if input_grad:
        out["x"] = xt.grad.numpy()
    return out


@functools.cache
def _symbolic(variant, n, d, h, bias):
    """(input names, lambdified closed-form gradients) of the SymPy derivation."""
    pb = problem(variant, n, d, h, bias, exact_derivative=True)
    names = list(pb.inputs)
    symbols = [s for name in names for s in pb.inputs[name]]
    grad_names = list(pb.grads)
    fn = sp.lambdify(symbols, [pb.grads[g] for g in grad_names], modules=["scipy", "numpy"])
    return names, grad_names, fn


def symbolic_grads(variant, w, x, dy, input_grad=True):
    """The derivation's closed forms evaluated at the same numbers (float64)."""
    n, d = x.reshape(-1, x.shape[-1]).shape
    h = w["W_up"].shape[1]
    names, grad_names, fn = _symbolic(variant, n, d, h, "b_up" in w)
    values = {"X": x.reshape(n, d), "G": dy.reshape(n, d)}
    values.update({k: np.atleast_2d(v) for k, v in w.items()})  # biases are 1×width rows
    args = [float(a) for name in names for a in np.asarray(values[name], np.float64).ravel()]
    out = {}
    for g, m in zip(grad_names, fn(*args)):
        arr = np.asarray(m, dtype=np.float64)
        key = "x" if g == "X" else g
        out[key] = arr.reshape(x.shape) if g == "X" else (arr.ravel() if g.startswith("b_") else arr)
    if not input_grad:
        out.pop("x")
    return out


def check_backward_agree(grads_a, grads_b, variant, w, x, dy, input_grad=True):
    """Every gradient of both implementations is within the rounding bound of x's dtype of
    the float64 reference (so within twice it of each other)."""
    dtype = np.dtype(x.dtype).name
    _, ref = ffn_bounds(variant, w, x, dy, dtype=dtype)
    _, ref64 = ffn_bounds(variant, w, x, dy, dtype="float64")
    ga = grads_a(variant, w, x, dy, input_grad)
    gb = grads_b(variant, w, x, dy, input_grad)
    expected = set(w) | ({"x"} if input_grad else set())
    for name, g in (("a", ga), ("b", gb)):
        assert set(g) == expected, f"{variant}: gradients of {name} are {sorted(g)}, not {sorted(expected)}"
    for key in sorted(expected):
        r, r64 = ref[key], ref64[key]
        shape = x.shape if key == "x" else w[key].shape
        value, bound = r.value.reshape(shape), (r.err + r64.err).reshape(shape)
        for label, g in ((grads_a.__name__, ga), (grads_b.__name__, gb)):
            assert np.shape(g[key]) == shape, f"{variant} d{key}: shape {np.shape(g[key])} != {shape}"
            assert_within(g[key], value, bound, f"{variant} {dtype} d{key} of {label}")


def draw_problem(data, variant, bias, dtype, n_hi, d_hi, h_hi, token_shape=None, dh=None):
    rng = S.rng(data)
    d, h = dh or (S.dim(data, "d", 1, d_hi), S.dim(data, "h", 1, h_hi))
    shape = token_shape or S.token_shape(data, n_hi)
    w = numpy_ffn.init_weights(variant, d, h, bias, dtype=dtype, rng=rng)
    x = rng.standard_normal((*shape, d)).astype(dtype)
    dy = rng.standard_normal((*shape, d)).astype(dtype)
    return w, x, dy


@pytest.mark.parametrize("backend", [numpy_grads, pytest.param(torch_grads, marks=pytest.mark.torch)],
                         ids=["numpy", "torch"])
@pytest.mark.parametrize(("variant", "bias"), CASES)
@settings(max_examples=4)
@given(st.data())
def test_symbolic_equals_backend(backend, variant, bias, data):
    """The closed forms, evaluated, == NumPy backward, and == torch autograd."""
    # each (n, d, h) costs a SymPy build + lambdify (cached), so the sizes come from a menu
    # that still has every size 1..3 and n, d, h all different (transpositions show)
    n, d, h = data.draw(st.sampled_from(SYMBOLIC_SIZES), label="n, d, h")
    w, x, dy = draw_problem(data, variant, bias, np.float64, 3, 3, 3, token_shape=(n,), dh=(d, h))
    check_backward_agree(symbolic_grads, backend, variant, w, x, dy)


@pytest.mark.torch
@settings(max_examples=40)
@given(st.data())
def test_numpy_backward_equals_torch_autograd(data):
    v, b, dtype = S.variant(data), S.bias(data), S.float_dtype(data)
    input_grad = data.draw(st.booleans(), label="input_grad")
    w, x, dy = draw_problem(data, v, b, dtype, 6, 32, 48)
    check_backward_agree(numpy_grads, torch_grads, v, w, x, dy, input_grad)


@pytest.mark.torch
@pytest.mark.parametrize(("variant", "bias"), CASES)
def test_gradcheck_float64(variant, bias):
    import torch

    from ffnverify.backends import torch_ffn

    rng = np.random.default_rng(CASES.index((variant, bias)))
    module = torch_ffn.FFN(variant, 3, 4, bias=bias, dtype=torch.float64)
    names = [k for k, _ in module.named_parameters()]
    params = tuple(p.detach().clone().requires_grad_(True) for p in module.parameters())
    x = torch.from_numpy(rng.standard_normal((2, 3, 3))).requires_grad_(True)

    def fn(x, *ps):
        return torch.func.functional_call(module, dict(zip(names, ps)), (x,))

    assert torch.autograd.gradcheck(fn, (x, *params))  # gradcheck's own default tolerances


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "bias"), CASES)
def test_closed_forms_are_proved(variant, bias):
    verdict = prove(variant, bias=bias)
    expected = {"X", "W_up", "W_down"} | ({"W_gate"} if VARIANTS[variant].gated else set())
    if bias:
        expected |= {k.replace("W_", "b_") for k in expected if k != "X"}
    assert set(verdict) == expected
    assert all(verdict.values()), f"{variant} bias={bias}: not proved: {verdict}"


def test_derivative_forms_are_proved():
    verdict = prove_derivative_forms()
    assert set(verdict) == set(ACTIVATIONS)
    assert all(verdict.values()), verdict
