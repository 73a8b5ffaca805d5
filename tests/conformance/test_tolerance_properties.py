"""Properties of the kit's error bounds that a wrong bound would break (mutation-tested).

Three kinds of oracle, none of them the code under test:
- the unit roundoffs and subnormal spacings from torch.finfo, γ_k in exact rationals;
- the first-order rounding-error model of the module docstring (Higham §3.5, γ_k per inner
  product, one rounding to the dtype after float32 accumulation, an underflow per rounding),
  recomputed here element by element with Python loops over the sums, so a changed term,
  index, inner length or sign in the vectorised code shows as a mismatch;
- tightness bands: the error a correct computation really makes, over the bound, on stated
  draws, must lie in [lo, hi]; hi = 1 is soundness, lo says the bound is not loose. The
  bands are derived in each test from which rounding dominates.
"""

import math
from fractions import Fraction

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the tightness checks run torch in each dtype")

from ffnverify.backends import numpy_ffn  # noqa: E402
from ffnverify.backends.activations import ACTIVATIONS  # noqa: E402
from ffnverify.testing import tolerances as T  # noqa: E402

pytestmark = pytest.mark.torch

LOW = ("bfloat16", "float16")


# ---------------------------------------------------------------- constants and γ_k


def _gamma(k, u):
    """γ_k = k·u/(1 − k·u) (Higham Lemma 3.1), in exact rationals."""
    ku = Fraction(k) * Fraction(u)
    return float(ku / (1 - ku)) if ku < 1 else np.inf


@pytest.mark.parametrize("u", [2.0**-53, 2.0**-24, 2.0**-11, 2.0**-8])
@pytest.mark.parametrize("k", [0, 1, 2, 3, 7, 64, 1000])
def test_gamma_is_k_u_over_1_minus_k_u(k, u):
    assert T.gamma(k, u) == pytest.approx(_gamma(k, u), rel=1e-15, abs=0)


def test_gamma_is_infinite_from_k_u_equal_1():
    assert T.gamma(2**53, 2.0**-53) == np.inf  # k·u == 1 exactly: no bound
    assert T.gamma(2**8 + 1, 2.0**-8) == np.inf
    assert np.isfinite(T.gamma(2**8 - 1, 2.0**-8))
    assert T.gamma(2**8 - 1, 2.0**-8) == pytest.approx(_gamma(2**8 - 1, 2.0**-8), rel=1e-15)


@pytest.mark.parametrize("dtype", ["float64", "float32", "bfloat16", "float16"])
def test_dtype_table_is_finfo(dtype):
    """(u, u of the accumulation, η): u = eps/2; 16-bit types accumulate in float32; η is
    half the smallest subnormal (a whole one in float64, where half rounds to 0)."""
    fi = torch.finfo(getattr(torch, dtype))
    sub = fi.smallest_normal * fi.eps
    u, u_acc, eta = T.DTYPES[dtype]
    assert u == fi.eps / 2
    assert u_acc == (torch.finfo(torch.float32).eps / 2 if dtype in LOW else u)
    assert eta == (sub if dtype == "float64" else sub / 2)


# ---------------------------------------------------------------- the first-order model


def _dot(a, b):
    return sum(float(p) * float(q) for p, q in zip(a, b))


def _model(variant, w, x, dy, dtype, act_eval="fused"):
    """The docstring's model, element by element: every inner product of length k costs
    γ_k(u_acc)·Σ|terms| + r·|value| + η (r = u where the sum is accumulated in float32 and
    rounded once, else 0); an error e of an operand moves a product by |other operand|·e
    (first order, plus e_a·e_b for the gating product); the activation costs
    |act'|·err(z) + its own evaluation error (activation_errors), its derivative
    L2·err(z) + its own error (L2 = sup|act''|); relu's derivative may flip (+1) where
    |z| <= γ_{d+1}(u_acc)·Σ|terms| + 2η. Each gradient is the same model applied to the
    backward's products and sums."""
    u, ua, eta = T.DTYPES[dtype]
    r = u if dtype in LOW else 0.0
    act_name, gated = T.lookup(variant)
    act, dact = ACTIVATIONS[act_name]
    L2 = T.SECOND_DERIVATIVE_BOUND[act_name]
    n, d = x.shape
    h = w["W_up"].shape[1]
    projs = ("gate", "up") if gated else ("up",)

    def g(k):
        return _gamma(k, ua)

    def col(M, j):
        return np.array([M[i][j] for i in range(len(M))])

    def b(p, j):
        return float(w[f"b_{p}"][j]) if f"b_{p}" in w else 0.0

    z, zb, ze = {}, {}, {}
    for p in projs:
        W = w[f"W_{p}"]
        z[p] = np.array([[_dot(x[t], col(W, j)) + b(p, j) for j in range(h)] for t in range(n)])
        zb[p] = np.array([[_dot(abs(x[t]), abs(col(W, j))) + abs(b(p, j)) for j in range(h)]
                          for t in range(n)])
        ze[p] = g(d + 1) * zb[p] + r * abs(z[p]) + eta
    pa = projs[0]
    a, da = act(z[pa]), dact(z[pa])
    kink = np.zeros_like(a)
    if act_name == "relu":
        kink = (abs(z[pa]) <= g(d + 1) * zb[pa] + 2 * eta).astype(float)
    own_a, own_da = T.activation_errors(act_name, z[pa], dtype, act_eval)
    a_err = (abs(da) + kink) * ze[pa] + own_a
    if gated:
        hid = a * z["up"]
        hid_err = (a_err * abs(z["up"]) + abs(a) * ze["up"] + a_err * ze["up"]
                   + u * abs(hid) + eta)
    else:
        hid, hid_err = a, a_err
    Wd = w["W_down"]
    out = {}
    out["y"] = np.array([[g(h + 1) * (_dot(abs(hid[t]), abs(col(Wd, k))) + abs(b("down", k)))
                          + r * abs(_dot(hid[t], col(Wd, k)) + b("down", k)) + eta
                          + _dot(hid_err[t], abs(col(Wd, k))) for k in range(d)]
                         for t in range(n)])
    out["W_down"] = np.array([[g(n) * _dot(abs(hid[:, j]), abs(dy[:, k]))
                               + r * abs(_dot(hid[:, j], dy[:, k])) + eta
                               + _dot(hid_err[:, j], abs(dy[:, k])) for k in range(d)]
                              for j in range(h)])
    if "b_down" in w:
        out["b_down"] = np.array([g(n) * sum(abs(dy[:, k])) + r * abs(sum(dy[:, k])) + eta
                                  for k in range(d)])
    dh = np.array([[_dot(dy[t], Wd[j]) for j in range(h)] for t in range(n)])
    dhm = np.array([[_dot(abs(dy[t]), abs(Wd[j])) for j in range(h)] for t in range(n)])
    dhe = g(d) * dhm + r * abs(dh) + eta
    da_err = L2 * ze[pa] + kink + own_da
    if gated:
        zu, zue = z["up"], ze["up"]
        dz = {"gate": dh * zu * da, "up": dh * a}
        mag = {"gate": dhm * abs(zu) * abs(da), "up": dhm * abs(a)}
        err = {"gate": dhe * abs(zu) * abs(da) + dhm * zue * abs(da) + dhm * abs(zu) * da_err
               + 2 * u * mag["gate"] + eta,
               "up": dhe * abs(a) + dhm * a_err + u * mag["up"] + eta}
    else:
        dz, mag = {"up": dh * da}, {"up": dhm * abs(da)}
        err = {"up": dhe * abs(da) + dhm * da_err + u * mag["up"] + eta}
    for p in projs:
        out[f"W_{p}"] = np.array([[g(n) * _dot(abs(x[:, i]), mag[p][:, j])
                                   + r * abs(_dot(x[:, i], dz[p][:, j])) + eta
                                   + _dot(abs(x[:, i]), err[p][:, j]) for j in range(h)]
                                  for i in range(d)])
        if f"b_{p}" in w:
            out[f"b_{p}"] = np.array([g(n) * sum(mag[p][:, j]) + r * abs(sum(dz[p][:, j]))
                                      + eta + sum(err[p][:, j]) for j in range(h)])
    gx = np.zeros((n, d))
    for t in range(n):
        for i in range(d):
            val = sum(_dot(dz[p][t], w[f"W_{p}"][i]) for p in projs)
            m = sum(_dot(mag[p][t], abs(w[f"W_{p}"][i])) for p in projs)
            e = sum(_dot(err[p][t], abs(w[f"W_{p}"][i])) for p in projs)
            gx[t, i] = g(h * len(projs)) * m + r * abs(val) + eta + e
    out["x"] = gx
    return out


def _kink_inputs(d=3, h=4, n=4, seed=5):
    """Weights and inputs for relu's sign test (d = 3, float32 accumulation, u = 2⁻²⁴):
    token 0 is all zeros (z = 0 = Σ|terms|); hidden unit 0 of token 1 has z = 7u against
    Σ|terms| ≈ 2, between γ_d·Σ ≈ 6u and γ_{d+1}·Σ ≈ 8u (a flip allowed); token 2 has
    z = 9u, between γ_{d+1}·Σ and γ_{d+2}·Σ ≈ 10u (no flip allowed)."""
    rng = np.random.default_rng(seed)
    u = 2.0**-24
    w = numpy_ffn.init_weights("reglu", d, h, False, np.float64, rng)
    x = rng.standard_normal((n, d))
    x[0] = 0.0
    x[1] = [1.0, 1.0, 0.0]
    x[2] = [1.0, 1.0, 2 * u / 0.25]
    w["W_gate"][:, 0] = [1.0, -1.0 + 7 * u, 0.25]
    return w, x, rng.standard_normal((n, d))


CONFIGS = [  # (variant, bias, dtype, act_eval): every branch of the model
    ("swiglu", True, "float16", "fused"), ("swiglu", False, "float32", "fused"),
    ("gelu", True, "float16", "op-by-op"), ("gelu_tanh", False, "float64", "fused"),
    ("reglu", True, "bfloat16", "fused"), ("relu", False, "float16", "fused"),
    ("tanhglu", False, "float16", "op-by-op"), ("silu", True, "bfloat16", "op-by-op"),
    ("bilinear", True, "float64", "fused"),
]


@pytest.mark.parametrize("cfg", CONFIGS, ids=["-".join(map(str, c)) for c in CONFIGS])
def test_first_order_bounds_are_the_documented_model(cfg):
    variant, bias, dtype, act_eval = cfg
    rng = np.random.default_rng(CONFIGS.index(cfg))
    d, h, n = 4, 5, 3
    w = numpy_ffn.init_weights(variant, d, h, bias, np.float64, rng)
    x, dy = rng.standard_normal((n, d)), rng.standard_normal((n, d))
    got = T.first_order_bounds(variant, w, x, dy, dtype, act_eval)
    want = _model(variant, w, x, dy, dtype, act_eval)
    assert set(got) == set(want)
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-12, atol=0, err_msg=k)


@pytest.mark.parametrize("variant", ["reglu", "relu"])
@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_relu_sign_flip_band_is_the_accumulation_error(variant, dtype):
    """Where |z| is within the accumulation's γ_{d+1}·Σ|terms| of 0, relu' may flip: the
    derivative's error is 1 there and only there (z = 0, z = 7u: flip; z = 9u: none)."""
    w, x, dy = _kink_inputs()
    if variant == "relu":
        w = {"W_up": w["W_gate"], "W_down": w["W_down"]}
    got = T.first_order_bounds(variant, w, x, dy, dtype)
    want = _model(variant, w, x, dy, dtype)
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-12, atol=0, err_msg=k)
    ua = T.DTYPES[dtype][1]
    zg = x @ w["W_up" if variant == "relu" else "W_gate"]
    zbar = np.abs(x) @ np.abs(w["W_up" if variant == "relu" else "W_gate"])
    assert zg[0, 0] == 0 and T.gamma(3, ua) * zbar[1, 0] < zg[1, 0] < T.gamma(4, ua) * zbar[1, 0]
    assert T.gamma(4, ua) * zbar[2, 0] < zg[2, 0] < T.gamma(5, ua) * zbar[2, 0]
    grad_w = got["W_gate" if variant == "reglu" else "W_up"]
    # the allowed flip at z = 7u costs |x|·|dh|·(|z_up| if gated)·1 in that weight's gradient
    up = abs((x @ w["W_up"])[1, 0]) if variant == "reglu" else 1.0
    assert grad_w[0, 0] >= np.abs(dy[1]) @ np.abs(w["W_down"][0]) * up


def test_bounds_add_the_plain_multiple_and_both_dtypes():
    """bound = M·E_plain + B_δ + B_float64 (the module docstring), tensor by tensor."""
    rng = np.random.default_rng(11)
    w = numpy_ffn.init_weights("geglu", 3, 4, True, np.float64, rng)
    x, dy = rng.standard_normal((2, 3)), rng.standard_normal((2, 3))
    keys = ("y", "x", "W_gate", "W_up", "W_down", "b_gate", "b_up", "b_down")
    plain = {k: 1e-3 * (i + 1) for i, k in enumerate(keys)}
    for act_eval in ("fused", "op-by-op"):
        got = T.bounds("geglu", w, x, dy, "float16", plain, act_eval)
        lo = _model("geglu", w, x, dy, "float16", act_eval)
        ref = _model("geglu", w, x, dy, "float64")
        for k in keys:
            np.testing.assert_allclose(got[k], T.PLAIN_MULTIPLE * plain[k] + lo[k] + ref[k],
                                       rtol=1e-12, atol=0, err_msg=k)
    got = T.bounds("geglu", w, x, dy, "float16", {"y": 1.0})  # a missing tensor: no plain term
    np.testing.assert_allclose(got["x"], _model("geglu", w, x, dy, "float16")["x"]
                               + _model("geglu", w, x, dy, "float64")["x"], rtol=1e-12)


def test_unknown_act_eval_is_refused():
    w = numpy_ffn.init_weights("swiglu", 2, 3, False, np.float64, 0)
    with pytest.raises(ValueError, match="unknown act_eval 'sometimes'; choose from fused, op-by-op"):
        T.first_order_bounds("swiglu", w, np.ones((1, 2)), np.ones((1, 2)), "float16",
                             "sometimes")


# worst error / bound over 6 draws (d=16, h=32, n=8, bias, seeds 0-5) that the bound of a
# correct nn.Linear FFN must reach; the upper end is 1 (soundness). The bound adds one term
# per rounding on the tensor's path (2-3 for y, W_down, b_down; 6-10 for the first layer's
# gradients and x, which go through the activation's derivative); the real error reaches
# about the largest single term (the last rounding, u·|T| in 16 bits) on some element. So
# the floor is about 1/(2·terms) in 16 bits. In float32 (u = u_acc) the bound is
# dominated by γ_k·Σ|terms| (k up to 2h + 1 = 65) against a random walk of ~√k roundings
# and cancellation: 10× lower. Measured maxima: bfloat16/float16 y 0.30-0.42, W_down
# 0.44-0.59, b_down 0.88-0.95, W_gate/W_up 0.20-0.37, b_gate/b_up 0.10-0.35, x 0.08-0.15;
# float32 y 0.03-0.04, W_down 0.04-0.17, b_down 0.14-0.17, the rest 0.01-0.03.
TIGHT_FLOOR = {
    16: {"y": 0.15, "W_down": 0.2, "b_down": 0.4, "W_gate": 0.08, "W_up": 0.08,
         "b_gate": 0.04, "b_up": 0.04, "x": 0.04},
    32: {"y": 0.01, "W_down": 0.015, "b_down": 0.05, "W_gate": 0.004, "W_up": 0.004,
         "b_gate": 0.002, "b_up": 0.004, "x": 0.002},
}


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32"])
@pytest.mark.parametrize("variant", ["swiglu", "gelu", "reglu", "geglu_tanh"])
def test_first_order_bound_is_tight_for_a_correct_ffn(variant, dtype):
    """B_δ + B_float64 alone (no plain term) bounds a correct nn.Linear FFN (one rounding
    per addmm, fused activation) in every tensor, and is reached to within the floor."""
    from ffnverify.backends.torch_ffn import from_numpy_weights, to_numpy_weights

    torch.set_num_threads(1)
    tdt = getattr(torch, dtype)
    worst = {}
    for seed in range(6):
        rng = np.random.default_rng(seed)
        m = from_numpy_weights(variant, numpy_ffn.init_weights(variant, 16, 32, True,
                                                               np.float64, rng), dtype=tdt)
        w = to_numpy_weights(m)
        x = torch.tensor(rng.standard_normal((8, 16))).to(tdt).requires_grad_(True)
        dy = torch.tensor(rng.standard_normal((8, 16))).to(tdt)
        xn, dyn = x.detach().double().numpy(), dy.double().numpy()
        y, cache = numpy_ffn.forward(variant, w, xn)
        ref = {"y": y, **numpy_ffn.backward(variant, w, cache, dyn)}
        out = m(x)
        out.backward(dy)
        got = {"y": out, "x": x.grad}
        for k in w:
            kind, p = k.split("_", 1)
            lin = getattr(m, f"{p}_proj")
            got[k] = lin.weight.grad.T if kind == "W" else lin.bias.grad
        b = T.first_order_bounds(variant, w, xn, dyn, dtype)
        b64 = T.first_order_bounds(variant, w, xn, dyn, "float64")
        for k in ref:
            r = (np.abs(got[k].detach().double().numpy() - ref[k]) / (b[k] + b64[k])).max()
            worst[k] = max(worst.get(k, 0.0), float(r))
    floor = TIGHT_FLOOR[32 if dtype == "float32" else 16]
    for k, r in worst.items():
        assert floor[k] <= r <= 1.0, (k, r)


# ---------------------------------------------------------------- activation evaluation


def _fused_model(act_name, z, dtype):
    """activation_errors' docstring: ACTIVATION_ULPS units of the accumulation precision on
    the operands' scale (|a| + |z| for the value; |a'| + 1 + |z| for the derivative, whose
    1 − σ part is absolute), one rounding to the dtype (u·|value|), one underflow (η); σ and
    tanh differentiate from their rounded output ŝ: the derivative moves by
    (u|s| + η)·|1 − 2s| (σ) or (u|t| + η)·2|t| (tanh), plus two more roundings 2u|a'|."""
    u, ua, eta = T.DTYPES[dtype]
    act, dact = ACTIVATIONS[act_name]
    c = T.ACTIVATION_ULPS
    fa, fd = [], []
    for zi in np.ravel(z):
        a, da = abs(float(act(np.float64(zi)))), abs(float(dact(np.float64(zi))))
        ea = c * ua * (a + abs(zi)) + u * a + eta
        ed = c * ua * (da + 1 + abs(zi)) + u * da + eta
        if act_name == "sigmoid":
            ed += (u * a + eta) * abs(1 - 2 * a) + 2 * u * da
        if act_name == "tanh":
            ed += (u * a + eta) * 2 * a + 2 * u * da
        fa.append(ea)
        fd.append(ed)
    return np.reshape(fa, np.shape(z)), np.reshape(fd, np.shape(z))


@pytest.mark.parametrize("dtype", ["float64", "float32", "bfloat16", "float16"])
@pytest.mark.parametrize("act_name", sorted(T.SECOND_DERIVATIVE_BOUND))
def test_fused_activation_error_is_the_documented_model(act_name, dtype):
    z = np.array([-30.0, -7.5, -1.25, -0.3, 0.0, 2.0**-20, 0.4, 1.5, 6.0, 25.0])
    got_a, got_d = T.activation_errors(act_name, z, dtype, "fused")
    want_a, want_d = _fused_model(act_name, z, dtype)
    np.testing.assert_allclose(got_a, want_a, rtol=1e-13, atol=0)
    np.testing.assert_allclose(got_d, want_d, rtol=1e-13, atol=0)
    # op by op adds the op-by-op model and one underflow per rounding, nothing else
    if act_name in ("identity", "relu"):
        e_f = e_b = np.zeros_like(z)
    else:
        e_f, e_b = T.op_by_op_errors(act_name, z, T.DTYPES[dtype][0])
        e_f, e_b = e_f + T.OP_ROUNDINGS * T.DTYPES[dtype][2], e_b + T.OP_ROUNDINGS * T.DTYPES[dtype][2]
    op_a, op_d = T.activation_errors(act_name, z, dtype, "op-by-op")
    np.testing.assert_allclose(op_a, want_a + e_f, rtol=1e-13, atol=0)
    np.testing.assert_allclose(op_d, want_d + e_b, rtol=1e-13, atol=0)


def _fused_torch(act_name):
    F = torch.nn.functional
    return {"sigmoid": torch.sigmoid, "tanh": torch.tanh, "silu": F.silu, "gelu": F.gelu,
            "gelu_tanh": lambda t: F.gelu(t, approximate="tanh")}[act_name]


@pytest.mark.parametrize("dtype", LOW)
@pytest.mark.parametrize("act_name", ["sigmoid", "tanh", "silu", "gelu", "gelu_tanh"])
def test_fused_activation_bound_is_tight_in_low_precision(act_name, dtype):
    """A fused activation (and its autograd) is computed in float32 and rounded once to
    bfloat16/float16: its error is one rounding, at most u·2^e for a value in [2^e, 2^e+1),
    and round to nearest comes within a few % of that just above each power of two the
    values cross (z in [2⁻⁶, 8]: several binades, ~750-3000 representable z). The bound is
    u·|v| + 8·2⁻²⁴·(|v| + |z| (+1)) + η, within 2% of u·|v| here. So worst error / bound
    lies in [0.9, 1] for the value and for silu/gelu/gelu_tanh's derivative. σ' and tanh'
    are differentiated from the rounded output ŝ: the bound adds (u|s| + η)·|∂(s(1−s))/∂s|
    and two more roundings 2u|a'| for the formula, about twice u|a'| in all, against one
    real rounding: [0.3, 1] (measured ~0.49). A bound 11% (value) or 3× (σ') too loose
    fails, as does any too tight."""
    fn = _fused_torch(act_name)
    z = torch.linspace(2**-6, 8, 4001, dtype=torch.float64).to(getattr(torch, dtype)).unique()
    z64 = z.double().numpy()
    zg = z.clone().requires_grad_(True)
    out = fn(zg)
    out.backward(torch.ones_like(out))
    f, df = ACTIVATIONS[act_name]
    err = np.abs(out.detach().double().numpy() - f(z64))
    errd = np.abs(zg.grad.double().numpy() - df(z64))
    bound, bound_d = T.activation_errors(act_name, z64, dtype, "fused")
    ratio, ratio_d = (err / bound).max(), (errd / bound_d).max()
    lo_d = 0.3 if act_name in ("sigmoid", "tanh") else 0.9
    assert 0.9 <= ratio <= 1.0 and lo_d <= ratio_d <= 1.0, (ratio, ratio_d)


# ---------------------------------------------------------------- the plain computation


def _plain_reference(variant, w, x, dy, dtype):
    """plain_errors' docstring, written out: x @ W (+ b) in our layout, the torch activation,
    the gating multiply, autograd, all in `dtype`."""
    from ffnverify.backends.torch_ffn import TORCH_ACTIVATIONS

    tdt = getattr(torch, dtype)
    act_name, gated = T.lookup(variant)
    p = {k: torch.tensor(v, dtype=tdt, requires_grad=True) for k, v in w.items()}
    tx = torch.tensor(x, dtype=tdt, requires_grad=True)

    def lin(t, q):
        return t @ p[f"W_{q}"] + p[f"b_{q}"] if f"b_{q}" in p else t @ p[f"W_{q}"]

    up = lin(tx, "up")
    a = TORCH_ACTIVATIONS[act_name](lin(tx, "gate") if gated else up)
    y = lin(a * up if gated else a, "down")
    y.backward(torch.tensor(dy, dtype=tdt))
    return {"y": y.detach(), "x": tx.grad, **{k: v.grad for k, v in p.items()}}


@pytest.mark.parametrize("cfg", [("swiglu", True, "bfloat16"), ("gelu", False, "float16"),
                                 ("reglu", True, "float32")])
def test_plain_errors_are_the_plain_computations_errors(cfg):
    """E_plain = max |plain − reference| per tensor: checked against the plain computation
    written out here, with a reference moved by a known offset per tensor (so a tensor read
    under the wrong name, a wrong sign, dtype or activation shows), and it stays within the
    first-order bound of that dtype (the plain computation is one of those it bounds)."""
    variant, bias, dtype = cfg
    rng = np.random.default_rng(4)
    w = numpy_ffn.init_weights(variant, 5, 6, bias, np.float64, rng)
    tdt = getattr(torch, dtype)
    w = {k: torch.tensor(v).to(tdt).double().numpy() for k, v in w.items()}
    x = torch.tensor(rng.standard_normal((3, 5))).to(tdt).double().numpy()
    dy = torch.tensor(rng.standard_normal((3, 5))).to(tdt).double().numpy()
    y, cache = numpy_ffn.forward(variant, w, x)
    ref = {"y": y, **numpy_ffn.backward(variant, w, cache, dy)}
    plain = _plain_reference(variant, w, x, dy, dtype)
    e = T.plain_errors(variant, w, x, dy, dtype, "cpu", ref)
    fob = T.first_order_bounds(variant, w, x, dy, dtype)
    assert set(e) == set(ref)
    for i, k in enumerate(sorted(ref)):
        mine = float(np.abs(plain[k].double().numpy() - ref[k]).max())
        assert e[k] == pytest.approx(mine, rel=1e-12, abs=0), k
        assert 0 < e[k] <= fob[k].max(), k  # rounding happened, and within the model
        shift = 10.0 * (i + 1)
        moved = T.plain_errors(variant, w, x, dy, dtype, "cpu", {k: ref[k] + shift})
        assert moved == {k: pytest.approx(shift, abs=2 * e[k])}
    assert T.plain_errors(variant, w, x[:0], dy[:0], dtype, "cpu", {"y": ref["y"][:0]}) == \
        {"y": 0.0}  # an empty tensor: no error (not the max of nothing)


# ---------------------------------------------------------------- op-by-op activations


def _sig(t):
    return 1 / (1 + math.exp(-t)) if t >= 0 else math.exp(t) / (1 + math.exp(t))


def _op_model(act_name, z, u):
    """op_by_op_errors' derivation (its docstring and comments), per scalar in Python's math:
    each rounding of an intermediate v costs u·|v|·|∂result/∂v| (first order); a library
    call (tanh, erf, σ, exp) is one rounding of its value; a constant rounded to the dtype
    (1.702, 1/√2, √(2/π), 0.044715) is one more rounding of the product it enters; tanh
    rounds to ±1 exactly once 1 − |tanh| of the perturbed argument is below u/4, and then
    the error is the true 1 − |t| (value) and the true 1 − t² (derivative)."""
    az = abs(z)
    if act_name in ("identity", "relu"):
        return 0.0, 0.0
    if act_name == "relu2":
        r = max(z, 0.0)
        return u * r * r, 2 * u * r
    if act_name in ("sigmoid", "tanh"):
        a = _sig(z) if act_name == "sigmoid" else math.tanh(z)
        da = a * (1 - a) if act_name == "sigmoid" else 1 - a * a
        return u * abs(a), 2 * u * a * a + 4 * u * abs(da) + 2 * u * abs(a)
    if act_name in ("silu", "quick_gelu"):
        c = 1.0 if act_name == "silu" else 1.702
        t = c * z
        dt = 0.0 if act_name == "silu" else 2 * u * abs(t)
        s = _sig(t)
        ds = s * (1 - s)
        es = ds * dt + u * s
        e_f = az * es + u * abs(z * s)
        eds = abs(1 - 2 * s) * es + 3 * u * ds + 0.1 * dt
        e_b = es + u * s + c * az * eds + 4 * u * c * az * ds + u * (s + c * az * ds)
        return e_f, e_b
    if act_name == "gelu":
        q = z / math.sqrt(2)
        pdf2 = 2 / math.sqrt(math.pi) * math.exp(-q * q)
        e = math.erf(q)
        m, s = az / 2, 1 + e
        es = pdf2 * 2 * u * abs(q) + u * abs(e) + u * s
        eexp = pdf2 * (7 * u * q * q + u)
        return m * es + u * m * s, 0.5 * es + u * s + m / math.sqrt(2) * (eexp + 4 * u * pdf2)
    if act_name == "gelu_tanh":
        k, c = math.sqrt(2 / math.pi), 0.044715
        zc = min(az, 1e6)
        za = np.array([zc])  # NumPy's z**3, as the code's (ties at the switch agree)
        Q = float((k * (za + c * za**3))[0])
        t = math.copysign(math.tanh(Q), z)
        sech2 = 1 - t * t
        eq = 5 * u * Q
        sat = 1 - np.tanh(max(Q - eq, 0.0)) <= u / 4  # (NumPy's tanh: the same ties)
        et = 1 - abs(t) if sat else sech2 * eq + u * abs(t)
        m, s = az / 2, 1 + t
        D = k * (1 + 3 * c * zc * zc)
        esech = sech2 if sat else 2 * abs(t) * et + et * et + 2 * u
        return (m * (et + u * s) + u * m * s,
                0.5 * (et + u * s) + u * s + m * D * (esech + 6 * u * sech2))
    raise KeyError(act_name)


Z_OP = np.array([-40.0, -30.0, -12.5, -6.0, -3.25, -2.0, -1.0, -0.375, -2.0**-12, 0.0,
                 2.0**-12, 0.3125, 1.0, 2.5, 4.0, 7.0, 15.0, 38.0, 3.0e6])


@pytest.mark.parametrize("u", [2.0**-8, 2.0**-11, 2.0**-24])
@pytest.mark.parametrize("act_name", sorted(T.SECOND_DERIVATIVE_BOUND))
def test_op_by_op_error_is_the_documented_model(act_name, u):
    e_f, e_b = T.op_by_op_errors(act_name, Z_OP, u)
    want = np.array([_op_model(act_name, float(z), u) for z in Z_OP])
    np.testing.assert_allclose(e_f, want[:, 0], rtol=1e-9, atol=1e-300)
    np.testing.assert_allclose(e_b, want[:, 1], rtol=1e-9, atol=1e-300)


@pytest.mark.parametrize("dtype", ["float64", "bfloat16", "float16"])
def test_error_models_evaluate_cleanly_at_zero_and_far_out(dtype):
    """No 0/0, overflow or invalid operation anywhere on the grid (z = 0 and |z| = 3e6
    included): a NaN or inf inside a bound is a bound that silently means nothing."""
    with np.errstate(divide="raise", invalid="raise", over="raise"):
        for name in sorted(T.SECOND_DERIVATIVE_BOUND):
            for act_eval in ("fused", "op-by-op"):
                e = T.activation_errors(name, Z_OP, dtype, act_eval)
                assert np.all(np.isfinite(e[0])) and np.all(np.isfinite(e[1]))


def test_op_by_op_model_is_refused_for_an_unknown_activation():
    with pytest.raises(KeyError, match="no op-by-op error model for activation 'softsign'"):
        T.op_by_op_errors("softsign", Z_OP, 2.0**-8)


# ---------------------------------------------------------------- the kit's checks, one by one
# Each check, called on its own, accepts a correct module and rejects the zoo module that
# violates exactly that check, naming the check, the tensor and the comparison.

from ffnverify.testing import conformance as C  # noqa: E402

from . import zoo  # noqa: E402


def _prep(factory, dtypes=("float64",), variant="swiglu", bias=False, d=6, h=8, n=4, seed=3,
          act_eval="auto"):
    case = C.Case(factory, variant, "hf", bias, d, h, n, seed, act_eval=act_eval)
    rng = np.random.default_rng(seed)
    module = C._build(case)
    C.check_params(module, case)
    C.fill(module, case, rng)
    x, dy = rng.standard_normal((n, d)), rng.standard_normal((n, d))
    return case, module, x, dy, [C.prepare(module, case, dt, x, dy) for dt in dtypes]


def _fails(check, fn, *args):
    with pytest.raises(C.ConformanceFailure) as info:
        fn(*args)
    assert info.value.check == check, info.value.report()
    return info.value


def test_kit_every_check_accepts_a_correct_module():
    torch.set_num_threads(1)
    case, module, x, dy, preps = _prep(zoo.SwiGLU, C.DTYPES, bias=True)
    for p in preps:
        C.check_independence(p, case, np.ones(case.d), case.n - 1)
        C.check_forward_backward(p, case)
        C.check_saturation(p, case, C.saturated(p, case))
    C.check_train_mode(preps[0], case)
    C.check_flops(module, case, x, dy)
    assert all(q.grad is None for q in module.parameters())  # no gradient left behind
    assert case.notes == set()  # a fused SiLU needs no op-by-op bound


@pytest.mark.parametrize("mutant,n,label", [
    (zoo.Input3dDiffers, 4, "y of input (1, n, d) vs (n, d)"),
    (zoo.BatchOf2Differs, 4, "y of input (2, 2, 6) vs (n, d)"),
    (zoo.BatchOf2Differs, 6, "y of input (2, 3, 6) vs (n, d)"),
    (zoo.AloneDiffers, 4, "y of token 0 run alone vs in the batch"),
    (zoo.LastTokenLeaks, 4, "y with token 3 perturbed (other tokens)"),
    (zoo.TokenMixing, 2, "y with token 1 perturbed (other tokens)"),
])
def test_kit_independence_rejects_each_way_of_mixing_tokens(mutant, n, label):
    case, _, _, _, (p,) = _prep(mutant, n=n)
    f = _fails("independence", C.check_independence, p, case, np.full(case.d, 3.0), n - 1)
    assert (f.tensor, f.dtype) == (label, "float64")
    assert f.error > f.bound > 0


def test_kit_independence_of_a_prime_number_of_tokens_has_no_batch_reshape():
    """n = 5: no (b, s, d) with b, s > 1, so a batch-axis bug cannot show (and n = 1 has
    nothing to perturb, one token alone is the batch)."""
    for n in (5, 1):
        case, _, _, _, (p,) = _prep(zoo.BatchOf2Differs, n=n)
        C.check_independence(p, case, np.ones(case.d), n - 1)


def test_kit_independence_reports_a_wrong_output_shape_as_forward():
    case, _, _, _, (p,) = _prep(zoo.OutputTransposedShape, d=6, n=4)
    f = _fails("forward", C.check_independence, p, case, np.ones(case.d), 0)
    assert "has shape (6, 4), expected (4, 6)" in f.message


@pytest.mark.parametrize("name,tensor", [
    ("down_proj.weight", "grad W_down"), ("down_proj.bias", "grad b_down"),
    ("gate_proj.weight", "grad W_gate"), ("gate_proj.bias", "grad b_gate"),
    ("up_proj.weight", "grad W_up"), ("up_proj.bias", "grad b_up")])
def test_kit_backward_names_the_one_wrong_gradient(name, tensor):
    case, _, _, _, preps = _prep(zoo.grad_scaled(name), ("float64", "float32"), bias=True)
    for p in preps:
        f = _fails("backward", C.check_forward_backward, p, case)
        assert (f.tensor, f.dtype) == (tensor, p.dtype)
        f = _fails("train-mode", C.check_train_mode, p, case)
        assert f.tensor == tensor


def test_kit_backward_names_a_wrong_input_gradient_last():
    case, _, _, _, (p,) = _prep(zoo.InputGradScaled, bias=True)
    f = _fails("backward", C.check_forward_backward, p, case)
    assert f.tensor == "grad x (input)"
    f = _fails("saturation", C.check_saturation, p, case, C.saturated(p, case))
    assert f.tensor == "grad x (input)"


def test_kit_forward_failure_is_the_output_first():
    """A wrong output and (through it) wrong gradients: the output is reported."""
    case, _, _, _, (p,) = _prep(zoo.Scaled1001)
    f = _fails("forward", C.check_forward_backward, p, case)
    assert f.tensor == "y" and f.error > f.bound


def test_kit_a_tuple_output_is_named():
    case, _, _, _, (p,) = _prep(zoo.ReturnsTuple)
    f = _fails("forward", C.check_forward_backward, p, case)
    assert "returned (Tensor, Tensor), not a tensor" in f.message


def test_kit_train_mode_rejects_a_training_only_path_and_restores_the_module():
    case, _, _, _, (p,) = _prep(zoo.TrainDiffers)
    f = _fails("train-mode", C.check_train_mode, p, case)
    assert (f.tensor, f.dtype) == ("y", "float64")
    assert not p.module.training
    case, _, _, _, (p,) = _prep(zoo.WithDropouts)
    C.check_train_mode(p, case)  # every dropout at 0: the same function
    assert (p.module.drop.p, p.module.resid_pdrop, p.module.training) == (0.5, 0.5, False)


def test_kit_auto_accepts_by_the_op_by_op_bound_and_says_so():
    """gelu_new in bfloat16 on the draw that failed GPT2MLP (test_act_eval): the fused bound
    rejects it in saturation; auto accepts it by the op-by-op bound and notes the dtype."""
    def gpt2_new_gelu(d, h, bias=True):
        m = zoo.GPT2("gelu_tanh", d, h, bias)
        m.act = zoo.new_gelu
        return m

    for act_eval in ("fused", "auto"):
        case = C.Case(gpt2_new_gelu, "gelu_tanh", "gpt2", True, 3, 1, 2, 0, act_eval=act_eval)
        rng = np.random.default_rng(0)
        module = C._build(case)
        C.fill(module, case, rng)
        x, dy = rng.standard_normal((2, 3)), rng.standard_normal((2, 3))
        p = C.prepare(module, case, "bfloat16", x, dy)
        sat = C.saturated(p, case)
        if act_eval == "fused":
            assert p.wide is None
            f = _fails("saturation", C.check_saturation, p, case, sat)
            assert f.dtype == "bfloat16"
        else:
            C.check_saturation(p, case, sat)
            assert case.notes == {"bfloat16"}


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16"])
def test_kit_saturated_inputs_reach_the_saturation_level(dtype):
    """max |x @ W_gate| = SATURATION[dtype] (inputs scaled, at most 16-fold), and the
    reference and bound are those of the scaled inputs."""
    case, _, _, _, (p,) = _prep(zoo.SwiGLU, (dtype,), bias=True)
    x, ref, bound, wide = C.saturated(p, case)
    zmax0 = np.abs(p.x @ p.weights["W_gate"]).max()
    scale = min(C.SATURATION[dtype] / zmax0, C.MAX_INPUT_SCALE)
    u = T.DTYPES[dtype][0]
    np.testing.assert_allclose(x, p.x * scale, rtol=u, atol=0)
    tdt = getattr(torch, dtype)  # the scaled inputs are the dtype's own numbers
    np.testing.assert_array_equal(torch.tensor(x).to(tdt).double().numpy(), x)
    assert np.abs(x @ p.weights["W_gate"]).max() == pytest.approx(
        scale * zmax0, rel=2 * case.d * u)
    y, _ = numpy_ffn.forward("swiglu", p.weights, x)
    np.testing.assert_array_equal(ref["y"], y)
    plain = T.plain_errors("swiglu", p.weights, x, p.dy, dtype, "cpu", ref)
    np.testing.assert_array_equal(bound["y"], T.bounds("swiglu", p.weights, x, p.dy, dtype,
                                                        plain, "fused")["y"])
    assert wide is not None and np.all(wide["y"] >= bound["y"])


def test_kit_saturated_refuses_a_zero_pre_activation():
    case, _, _, _, (p,) = _prep(zoo.SwiGLU)
    p.weights = dict(p.weights, W_gate=np.zeros_like(p.weights["W_gate"]))
    with pytest.raises(C.Vacuous, match=r"^saturation: x @ W is zero$"):
        C.saturated(p, case)


def test_kit_saturation_check_rejects_a_clamped_gate():
    case, _, _, _, (p,) = _prep(zoo.ClampedGate, n=6)
    f = _fails("saturation", C.check_saturation, p, case, C.saturated(p, case))
    assert f.dtype == "float64"


def test_kit_flops_rejects_extra_work_in_the_forward_and_in_the_backward():
    case, module, x, dy, _ = _prep(zoo.RedundantMatmul)
    f = _fails("flops", C.check_flops, module, case, x, dy)
    assert f.message.startswith("forward pass counted ")
    assert "derivation flops(swiglu, 6, 8, 4, forward) = 1152" in f.message  # 3·2·n·d·h
    assert f.case is case and "reproduce:" in f.report()
    case, module, x, dy, _ = _prep(zoo.ExtraBackwardMatmul)
    f = _fails("flops", C.check_flops, module, case, x, dy)
    assert f.message.startswith("forward+backward counted ") and f.case is case
    assert "derivation flops(swiglu, 6, 8, 4, train) = 3456" in f.message  # 3 × forward


def _case(**kw):
    args = dict(factory=zoo.SwiGLU, variant="swiglu", layout="hf", bias=False, d=3, h=4, n=2,
                seed=7)
    args.update(kw)
    return C.Case(**args)


def test_kit_compare_accepts_an_error_equal_to_the_bound_and_a_zero_bound_if_exact():
    """|got − expected| <= bound, elementwise: equality passes; a zero bound passes an exact
    match; an empty tensor passes; anything above fails, naming the worst element."""
    ref = np.array([[1.0, -2.0, 3.0]])
    bound = np.array([[0.5, 0.25, 0.0]])
    C.compare("forward", "y", ref + np.array([[0.5, -0.25, 0.0]]), ref, bound, _case(), "float64")
    C.compare("forward", "y", np.zeros((0, 3)), np.zeros((0, 3)), np.zeros((0, 3)), _case(),
              "float64")
    f = _fails("forward", C.compare, "forward", "y", ref + np.array([[0.25, 0.0, 2.0**-40]]),
               ref, bound, _case(), "float32")
    assert (f.tensor, f.dtype, f.index, f.got, f.expected) == ("y", "float32", (0, 2),
                                                                3.0 + 2.0**-40, 3.0)
    assert (f.error, f.bound, f.scale) == (2.0**-40, 0.0, 3.0)
    assert f.message == "y differs from the float64 reference beyond the bound"
    # the worst element is the largest excess over its bound, not the largest error
    f = _fails("backward", C.compare, "backward", "grad x", ref + np.array([[0.75, 0.5, 0.0]]),
               ref, np.array([[0.5, 0.1, 1.0]]), _case(), "float16")
    assert f.index == (0, 1) and f.error == 0.5 and f.bound == 0.1
    f = _fails("forward", C.compare, "forward", "y", np.zeros((3, 1)), ref, bound, _case(),
               "float64")
    assert f.message == "y has shape (3, 1), expected (1, 3)" and f.tensor == "y"
    assert f.dtype == "float64" and f.case is not None


def test_kit_not_vacuous_only_when_the_bound_is_far_below_a_signal_in_range():
    """bound <= VACUITY_RATIO·max|T| (equality passes), 0 < max|T| < max(dtype)/4; without
    `ratio` only the range is asked (the cap is the dtype's largest value)."""
    r = T.VACUITY_RATIO["float32"]
    ref = {"y": np.array([2.0, -4.0]), "x": np.array([1.0])}
    C.assert_not_vacuous("float32", ref, {"y": np.array([0.0, 4.0 * r]), "x": np.array([r])},
                         "")
    with pytest.raises(C.Vacuous) as info:
        C.assert_not_vacuous("float32", ref, {"y": np.array([0.0, 4.0 * r]),
                                              "x": np.array([1.01 * r])}, "saturation ")
    assert str(info.value) == f"[float32] saturation x: bound {1.01 * r:.3g} vs max |reference| 1"
    top = float(torch.finfo(torch.float16).max)
    C.assert_not_vacuous("float16", {"y": np.array([top / 4.01])}, {"y": np.array([top])}, "",
                         ratio=False)
    for bad in ({"y": np.array([top / 4])}, {"y": np.array([0.0])}):
        with pytest.raises(C.Vacuous):
            C.assert_not_vacuous("float16", bad, {"y": np.array([0.0])}, "", ratio=False)
    with pytest.raises(C.Vacuous):  # without ratio the cap is max(dtype): above it fails
        C.assert_not_vacuous("float16", {"y": np.array([1.0])}, {"y": np.array([1.5 * top])},
                             "", ratio=False)
    C.assert_not_vacuous("float16", {"y": np.array([1.0])}, {"y": np.array([0.5 * top])}, "",
                         ratio=False)


@pytest.mark.parametrize("variant", ["swiglu", "gelu"])
def test_kit_expected_shapes_follow_the_derivation_and_the_bias_setting(variant):
    gated = T.lookup(variant)[1]
    ws = {"W_up": (5, 7), "W_down": (7, 5), **({"W_gate": (5, 7)} if gated else {})}
    bs = {"b_up": (7,), "b_down": (5,), **({"b_gate": (7,)} if gated else {})}
    assert C.expected_shapes(variant, 5, 7, False) == ws
    assert C.expected_shapes(variant, 5, 7, True) == {**ws, **bs}
    got = C.expected_shapes(variant, 5, 7, {"up": True, "down": False})
    assert got == {**ws, "b_up": (7,)}
    assert all(type(s) is int for v in got.values() for s in v)
    assert C.expected_shapes(variant, 5, 7, {"up": False}) == ws


def test_kit_params_rejects_a_missing_bias_an_extra_parameter_and_a_stray_tensor():
    case = _case(bias=True, d=8, h=12)
    f = _fails("params", C.check_params, zoo.SwiGLU(8, 12, False).double(), case)
    assert f.message == ("module has 288 parameters, the derivation params(swiglu, d=8, "
                         "h=12, bias=True) = 320")  # 3·8·12; + 12 + 12 + 8 biases
    f = _fails("params", C.check_params, zoo.ExtraParameter(8, 12, True).double(), case)
    assert f.message.endswith("= 320; not read by the layout: scale")
    C.check_params(zoo.SwiGLU(8, 12, True).double(), case)
    # timm-style per-projection bias: down's bias declared outside the FFN, so not counted,
    # but the layout still reads it: an unexpected tensor
    case = _case(bias={"gate": True, "up": True, "down": False}, d=8, h=12,
                 extra=("down_proj.bias",))
    f = _fails("params", C.check_params, zoo.SwiGLU(8, 12, True).double(), case)
    assert f.message.startswith("unexpected tensors ['b_down'] (bias=")


def test_kit_params_rejects_a_wrong_shape_the_count_cannot_see():
    """d and h swapped in up_proj keeps the count; the shape check names the tensor."""
    m = zoo.SwiGLU(8, 12, False).double()
    m.up_proj = torch.nn.Linear(12, 8, bias=False).double()  # weight (8, 12): W_up (12, 8)
    f = _fails("params", C.check_params, m, _case(d=8, h=12))
    assert f.tensor == "W_up" and f.message == "W_up has shape (12, 8), expected (8, 12)"


def test_plain_computation_runs_on_the_device_it_is_given():
    """Every tensor of the plain computation lives on `device`: on the meta device (shapes,
    no values) the computation runs and reading its values back is refused, where a
    computation quietly done on the CPU would return numbers."""
    w = numpy_ffn.init_weights("swiglu", 3, 4, True, np.float64, 0)
    x, dy = np.ones((2, 3)), np.ones((2, 3))
    y, cache = numpy_ffn.forward("swiglu", w, x)
    ref = {"y": y, **numpy_ffn.backward("swiglu", w, cache, dy)}
    with pytest.raises(NotImplementedError, match="meta"):
        T.plain_errors("swiglu", w, x, dy, "float32", "meta", ref)


def _z_at_saturation_level(u, level):
    """The z > 0 where 1 − tanh(Q − 5uQ) = level·u for gelu_tanh (Q = √(2/π)(z + 0.044715z³),
    the docstring's perturbed argument), by bisection in float64: the switch to the exact
    ±1 of the rounded tanh sits at level 1/4."""
    def gap(z):  # in NumPy array arithmetic, whose z**3 and tanh the bound's code shares
        za = np.array([z])
        Q = np.sqrt(2 / np.pi) * (za + 0.044715 * za**3)
        return float((1 - np.tanh(np.maximum(Q - 5 * u * Q, 0)) - level * u)[0])
    lo, hi = 0.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if gap(mid) > 0 else (lo, mid)
    return hi, gap


@pytest.mark.parametrize("u", [2.0**-8, 2.0**-11, 2.0**-24])
def test_gelu_tanh_saturation_switch_is_at_a_quarter_of_u(u):
    """Around the switch (1 − tanh = u/4: the rounded tanh is ±1 exactly), the model gives
    the saturated error on one side and the first-order one on the other; at the z where
    1 − tanh equals u/4 exactly (found among neighbouring floats) it is saturated."""
    zs = [_z_at_saturation_level(u, lv)[0] for lv in (0.2, 0.24, 0.26, 0.3)]
    z, gap = _z_at_saturation_level(u, 0.25)
    exact = []
    for _ in range(4000):  # walk the floats down from the crossing to an exact tie
        if gap(z) == 0:
            exact.append(z)
            break
        z = np.nextafter(z, 0.0)
    assert exact, "no float z with 1 − tanh exactly u/4 near the crossing"
    z = np.array(zs + exact + [-v for v in zs + exact])
    e_f, e_b = T.op_by_op_errors("gelu_tanh", z, u)
    want = np.array([_op_model("gelu_tanh", float(v), u) for v in z])
    np.testing.assert_allclose(e_f, want[:, 0], rtol=1e-9, atol=0)
    np.testing.assert_allclose(e_b, want[:, 1], rtol=1e-9, atol=0)


def test_relu_sign_flip_band_includes_two_underflows():
    """float64, d = 1: z = 2η and z = 3η exactly (η = 2⁻¹⁰⁷⁴, γ·Σ|terms| underflows to 0).
    The band |z| <= γ_{d+1}·Σ|terms| + 2η holds z = 2η (a flip allowed: its bound carries
    the +1) and not z = 3η (none)."""
    w = {"W_gate": np.array([[2.0**-537]]), "W_up": np.array([[2.0**500]]),
         "W_down": np.array([[1.0]])}
    x = np.array([[2 * 2.0**-537], [3 * 2.0**-537]])  # z = x·W_gate = 2η, 3η
    dy = np.ones((2, 1))
    got = T.first_order_bounds("reglu", w, x, dy, "float64")
    want = _model("reglu", w, x, dy, "float64")
    assert (x @ w["W_gate"]).ravel().tolist() == [2 * 2.0**-1074, 3 * 2.0**-1074]
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-12, atol=0, err_msg=k)
    zu = (x @ w["W_up"]).ravel()
    assert got["W_gate"][0, 0] >= abs(x[0, 0]) * zu[0] * 1.0  # token 0's allowed flip


def test_kit_saturation_inputs_out_of_the_dtypes_range_sit_out_named():
    """Scaled to saturation, a float16 output beyond max/4 cannot be judged: Vacuous, naming
    the dtype, the stage and the tensor."""
    case, _, _, _, (p,) = _prep(zoo.SwiGLU, ("float16",))
    p.weights = dict(p.weights, W_down=p.weights["W_down"] * 4096.0)
    with pytest.raises(C.Vacuous, match=r"^\[float16\] saturation y: bound "):
        C.saturated(p, case)
