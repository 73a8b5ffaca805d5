"""NumPy activations: numerically stable, and equal to the SymPy definitions.

- No overflow, invalid-value or divide-by-zero floating-point exception (raised as errors
  via np.errstate) and no NaN for |z| up to 1e4, float32 and float64. Underflow to 0 (e.g.
  exp(-1e4)) is the correct result and is allowed.
- Every finite input gives a finite output, for every finite float.
- Values and derivatives equal the SymPy expressions (derivations.activations), lambdified
  here, at drawn points, within C_ELEM·u·(1+|z|) per implementation (tests/tolerance.py).
- The Lipschitz constants the rounding bounds use are true upper bounds.
- The activation record (FACTS): its kinks, exactness and unbounded slopes are SymPy's, and
  the kit's tolerances and the tests' oracle read it rather than a copy.
"""

import functools

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from tolerance import (
    C_ELEM,
    EXACT_ACTIVATIONS,
    LIPSCHITZ,
    LIPSCHITZ_DERIVATIVE,
    LOCAL_LIPSCHITZ,
    LOCAL_LIPSCHITZ_DERIVATIVE,
    UNIT_ROUNDOFF,
    assert_within,
    unit_roundoff,
)

from derivations.activations import ACTIVATIONS as SYMBOLIC
from derivations.activations import derivative, expr
from derivations.symbols import z as Z
from ffnverify.backends.activations import ACTIVATIONS, FACTS
from ffnverify.claims.nonsmooth import DISCONTINUOUS, JUMPS

NAMES = list(SYMBOLIC)
DTYPES = [np.float32, np.float64]
EDGES = [0.0, -0.0, 1e-30, -1e-30, 1.0, -1.0, 88.7, -88.7, 89.0, -89.0, 709.0, -709.0,
         710.0, -710.0, 1e4, -1e4]


def values_up_to(dtype, limit):
    return hnp.arrays(dtype, st.integers(1, 64), elements=st.floats(
        -limit, limit, allow_nan=False, width=np.finfo(dtype).bits))


def strict(fn, z):
    with np.errstate(over="raise", invalid="raise", divide="raise", under="ignore"):
        return fn(z)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_edges_are_stable(name, dtype):
    z = np.array(EDGES, dtype=dtype)
    for fn in ACTIVATIONS[name]:
        out = strict(fn, z)
        assert out.dtype == dtype, f"{name}: {fn.__name__} returned {out.dtype}"
        assert not np.isnan(out).any(), f"{name}: {fn.__name__} NaN at {z[np.isnan(out)]}"


@pytest.mark.parametrize("name", NAMES)
@given(data=st.data())
def test_no_overflow_or_nan_up_to_1e4(name, data):
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    z = data.draw(values_up_to(dtype, 1e4), label="z")
    for fn in ACTIVATIONS[name]:
        out = strict(fn, z)
        assert np.isfinite(out).all(), f"{name}: {fn.__name__}({z[~np.isfinite(out)]})"


@pytest.mark.parametrize("name", NAMES)
@given(data=st.data())
def test_finite_in_finite_out(name, data):
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    z = data.draw(hnp.arrays(dtype, st.integers(1, 32), elements=st.floats(
        allow_nan=False, allow_infinity=False, width=np.finfo(dtype).bits)), label="z")
    z = np.concatenate([z, np.array([np.finfo(dtype).max, -np.finfo(dtype).max], dtype)])
    if name == "relu2":  # z² itself leaves the range beyond sqrt(max): only inside it
        top = np.sqrt(np.finfo(dtype).max) * 0.99
        z = np.concatenate([z[np.abs(z) <= top], np.array([top, -top], dtype)])
    for fn in ACTIVATIONS[name]:
        with np.errstate(all="ignore"):
            out = fn(z)
        assert np.isfinite(out).all(), f"{name}: {fn.__name__}({z[~np.isfinite(out)]}) not finite"


@functools.cache
def symbolic(name):
    """(act, act') of the derivations as float64 NumPy functions."""
    mods = [{"Heaviside": lambda x, at: np.heaviside(x, at)}, "scipy", "numpy"]
    return tuple(np.vectorize(sp.lambdify(Z, e, modules=mods), otypes=[np.float64])
                 for e in (expr(name), derivative(name)))


def check_matches_symbolic(name, fn, derivative_fn, z):
    """NumPy (fn, derivative_fn) == SymPy (act, act') at z (float64), within rounding."""
    sym_f, sym_d = symbolic(name)
    bound = 2 * C_ELEM * unit_roundoff("float64") * (1 + np.abs(z))
    assert_within(fn(z), sym_f(z), bound, f"{name}(z)")
    assert_within(derivative_fn(z), sym_d(z), bound, f"{name}'(z)")


@pytest.mark.parametrize("name", NAMES)
@given(data=st.data())
def test_numpy_equals_sympy(name, data):
    # |z| <= 30: SymPy's lambdified forms are naive (exp(-z) overflows far out)
    z = data.draw(values_up_to(np.float64, 30.0), label="z")
    check_matches_symbolic(name, *ACTIVATIONS[name], z)


@pytest.mark.parametrize("name", [n for n in NAMES if n != "relu"])
def test_lipschitz_constants_bound_the_derivatives(name):
    grid = np.linspace(-30, 30, 60001)
    d1 = sp.lambdify(Z, derivative(name), modules=["scipy", "numpy"])
    d2 = sp.lambdify(Z, sp.diff(derivative(name), Z), modules=["scipy", "numpy"])
    sup1 = np.max(np.abs(np.broadcast_to(d1(grid), grid.shape)))
    sup2 = np.max(np.abs(np.broadcast_to(d2(grid), grid.shape)))
    if name == "relu2":  # relu2' = 2·max(0, z) is unbounded; relu2'' is the constant 2
        assert np.all(np.abs(d1(grid)) <= 2 * np.abs(grid))
        assert sup2 == LOCAL_LIPSCHITZ_DERIVATIVE[name]
        return
    assert sup1 <= LIPSCHITZ[name] < 1.05 * sup1, (name, sup1, LIPSCHITZ[name])
    assert sup2 <= LIPSCHITZ_DERIVATIVE[name] <= max(1.05 * sup2, 0), (name, sup2)


def test_relu_derivative_at_kink_is_zero():
    _, d_relu = ACTIVATIONS["relu"]
    assert d_relu(np.array([0.0, -0.0, 1e-300]))[:2].tolist() == [0.0, 0.0]


# --- the activation record (ffnverify.backends.activations.FACTS) and its readers ---------


def test_the_record_covers_every_activation_of_every_implementation():
    from ffnverify.backends.torch_ffn import TORCH_ACTIVATIONS

    assert set(FACTS) == set(ACTIVATIONS) == set(SYMBOLIC) == set(TORCH_ACTIVATIONS)


@pytest.mark.parametrize("name", NAMES)
def test_the_recorded_kinks_are_where_the_sympy_derivative_jumps(name):
    d = derivative(name)
    for k in FACTS[name].kinks:
        left, right = (sp.limit(d, Z, k, dir) for dir in ("-", "+"))
        assert left != right, (name, k, left, right)
    if not FACTS[name].kinks:  # no jump: the derivative holds no discontinuous class
        assert not any(d.has(cls) for cls in JUMPS + DISCONTINUOUS), (name, d)


@pytest.mark.parametrize("name", NAMES)
def test_exact_means_a_copy_or_a_max_with_zero(name):
    e = expr(name)
    copy_or_max = e == Z or (isinstance(e, sp.Max) and set(e.args) == {Z, sp.Integer(0)})
    assert FACTS[name].exact == copy_or_max, (name, e)


def test_the_unbounded_slopes_are_those_the_oracle_bounds_locally():
    unbounded = {n for n, f in FACTS.items() if f.sup_slope is None}
    assert unbounded == set(LOCAL_LIPSCHITZ) == set(LOCAL_LIPSCHITZ_DERIVATIVE)
    for name in unbounded:  # relu2' = 2·max(0, z) grows without bound
        assert sp.limit(derivative(name), Z, sp.oo) == sp.oo


def test_the_kit_and_the_oracle_read_the_same_facts():
    """The kit's bound (ffnverify.testing.tolerances) and the tests' oracle
    (tests/tolerance.py) are separate methods; the facts they share are the one record's."""
    from ffnverify.testing import tolerances

    assert tolerances.SECOND_DERIVATIVE_BOUND == {n: f.sup_curvature for n, f in FACTS.items()}
    assert {**LIPSCHITZ_DERIVATIVE, **LOCAL_LIPSCHITZ_DERIVATIVE} == \
        tolerances.SECOND_DERIVATIVE_BOUND
    assert LIPSCHITZ == {n: f.sup_slope for n, f in FACTS.items() if f.sup_slope is not None}
    assert EXACT_ACTIVATIONS == {n for n, f in FACTS.items() if f.exact}
    assert UNIT_ROUNDOFF == {n: u for n, (u, _, _) in tolerances.DTYPES.items()}


def test_the_numeric_constants_are_the_symbolic_ones():
    from derivations import activations as symbolic
    from ffnverify.backends import activations as numeric

    assert numeric.GELU_TANH_C == float(symbolic.GELU_TANH_C)
    assert numeric.QUICK_GELU_C == float(symbolic.QUICK_GELU_C)
