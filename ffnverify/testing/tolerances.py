"""Error bounds for the conformance kit, from unit roundoff and shapes, never a tuned atol.

An implementation run in dtype δ is compared with the float64 NumPy reference computed from
the same (δ-rounded) weights and inputs. Each element of each tensor T (the output y and
every gradient) may differ from the reference by at most

    bound = M · E_plain(T) + B_δ(T) + B_float64(T)

- E_plain(T): the largest error, against the float64 reference, of the SAME computation done
  plainly in δ (x @ W, the torch activation, autograd; `plain_errors`). A low-precision
  implementation may be off by at most a small multiple M = PLAIN_MULTIPLE of that.
- B_δ(T): a first-order componentwise rounding-error bound (Higham, "Accuracy and Stability
  of Numerical Algorithms", §3.5) propagated through the FFN's forward and backward, with
  γ_k = k·u/(1 − k·u) for an inner product of length k. In float32/float64 the matmuls
  accumulate in δ; in bfloat16/float16 they accumulate in float32 and round once (what
  CPU and GPU kernels do): γ_k(2⁻²⁴) + u_δ. Activations cost ACTIVATION_ULPS units of
  roundoff; every rounding also allows half the dtype's subnormal spacing (underflow).
- B_float64(T): the same bound for the reference's own float64 arithmetic.

So float64 is checked tightly from u = 2⁻⁵³ and the inner dimensions (d, h, n), and a
float32/bfloat16/float16 run is judged against what that dtype can do, not a loose atol.
Anti-vacuity: inputs and weights are drawn at unit scale (N(0, 1/fan_in) weights), so
every tensor is O(1); `VACUITY_RATIO` caps bound / max|T|, and a dtype whose bound is not
far below the signal on a draw sits that draw out (counted in the report; conformance.py).

What an activation contributes (computed exactly or not, where its derivative jumps,
sup |act''|) comes from the one activation record, ffnverify.backends.activations.FACTS.
The tests' oracle, tests/tolerance.py, bounds the backends by a method of its own (running
error analysis), independent of this one by design, but it imports the same facts and this
module's DTYPES rather than typing them again; tests/derivations/test_activations.py ties both to the
record and the record to SymPy's derivatives.
"""

import numpy as np

from ffnverify.backends.activations import ACTIVATIONS, FACTS, QUICK_GELU_C
from ffnverify.backends.variants import lookup

# dtype name -> (unit roundoff u of storage, unit roundoff of matmul accumulation,
#                half the spacing of the subnormals: the absolute error of one rounding)
DTYPES = {
    "float64": (2.0**-53, 2.0**-53, 2.0**-1074),  # (a whole spacing: half underflows to 0)
    "float32": (2.0**-24, 2.0**-24, 2.0**-150),
    "bfloat16": (2.0**-8, 2.0**-24, 2.0**-134),
    "float16": (2.0**-11, 2.0**-24, 2.0**-25),
}
PLAIN_MULTIPLE = 4  # M: allowed multiple of the plain same-dtype computation's own error
ACTIVATION_ULPS = 8  # units of roundoff (of the accumulation precision) for one activation
# or derivative evaluation; low precision computes them in float32 and rounds once
# sup over z of |act''(z)|, to bound how an error in z moves act'(z): the activation
# record's (ffnverify.backends.activations.FACTS; tests check them against SymPy)
SECOND_DERIVATIVE_BOUND = {name: f.sup_curvature for name, f in FACTS.items()}
# How the module evaluates its activation (and autograd its derivative) in a low precision:
# "fused": in float32 and rounded once to the dtype (F.gelu, F.silu, torch.sigmoid, ...);
# "op-by-op": an expression of several tensor operations, each rounded to the dtype
# (transformers' NewGELU/gelu_new and FastGELU, x*torch.sigmoid(x), quick_gelu, ...).
ACT_EVALS = ("fused", "op-by-op")
# largest allowed bound / max|reference| per tensor (anti-vacuity)
VACUITY_RATIO = {"float64": 1e-9, "float32": 1e-3, "bfloat16": 0.25, "float16": 0.1}


def gamma(k, u):
    """γ_k = k·u / (1 − k·u): the relative error bound of a length-k sum or dot product."""
    ku = k * u
    if ku >= 1:
        return np.inf
    return ku / (1 - ku)


def _exact(act_name):
    """Whether the activation record says `act_name` is computed without rounding (an
    activation it does not know is not: its error model is asked for, and refuses)."""
    facts = FACTS.get(act_name)
    return facts is not None and facts.exact


def _sigmoid(t):
    return ACTIVATIONS["sigmoid"][0](t)


def op_by_op_errors(act_name, z, u):
    """(E_f, E_b): first-order bounds on the error of act(z), and of autograd's dL/dz per unit
    |dL/da|, when the activation is an expression of tensor operations each rounded to unit
    roundoff `u`, at an exactly representable z (the error of z itself is propagated apart).

    Each rounding of an intermediate v costs u·|v| times |∂result/∂v| (forward error
    analysis, first order); a library function (tanh, erf, σ) is computed in float32 and
    rounded once: u·|value|. The decisive terms are the cancellations: in the negative tail
    1 + tanh(q) -> 0 while the rounding of tanh(q) ≈ −1 costs u, so gelu_tanh's error is
    u·|z|/2 where the value is ≈ 0; the same holds for 1 + erf and for the derivative's
    0.5·(1 + tanh q). tanh(q) rounded to the dtype is ±1 exactly once 1 − |tanh q| is below a
    quarter of the spacing below 1 (= u/2); there the computed 1 − t² is 0 and its error is
    the true 1 − t² (instead of the first-order 2u·t²).
    """
    az = np.abs(z)
    if _exact(act_name):
        return np.zeros_like(z), np.zeros_like(z)
    if act_name == "relu2":  # r = max(z, 0) exact; r·r or r**2: one rounding; grad g·(2r)
        r = np.maximum(z, 0)
        return u * r * r, u * 2 * r
    if act_name in ("sigmoid", "tanh"):  # one library call: one rounding, backward from it
        a = ACTIVATIONS[act_name][0](z)
        da = np.abs(ACTIVATIONS[act_name][1](z))
        # backward g·s(1 − s) or g·(1 − t²) from the rounded output: δ(out) = u·|out|
        return u * np.abs(a), u * np.abs(a) * 2 * np.abs(a) + 4 * u * da + 2 * u * np.abs(a)
    if act_name in ("silu", "quick_gelu"):
        # a = z·σ(c·z): t = c·z (rounding, and the rounding of c: 2u|t|), s = σ(t̂), z·ŝ;
        # autograd: g·ŝ + (g·z)·c·ŝ(1 − ŝ)
        c = 1.0 if act_name == "silu" else QUICK_GELU_C
        t = c * z
        dt = 0.0 if c == 1.0 else 2 * u * np.abs(t)
        s = _sigmoid(t)
        ds = s * (1 - s)  # σ'(t)
        es = ds * dt + u * s  # error of ŝ
        a = np.abs(z * s)
        e_f = az * es + u * a
        # σ'(t̂) from ŝ: |δ(ŝ(1 − ŝ))| <= |1 − 2s|·es, its rounding(s) 3u·ds; σ'' <= 0.1
        eds = np.abs(1 - 2 * s) * es + 3 * u * ds + 0.1 * dt
        e_b = es + u * s + c * az * eds + 4 * u * c * az * ds + u * (s + c * az * ds)
        return e_f, e_b
    if act_name == "gelu":
        # a = 0.5·z·(1 + erf(z/√2)): q = z·(1/√2) (2u|q|), e = erf(q̂), s = 1 + ê, (z/2)·ŝ
        q = z / np.sqrt(2)
        pdf2 = 2 / np.sqrt(np.pi) * np.exp(-q * q)  # erf'(q)
        e = 2 * ACTIVATIONS["gelu"][0](z) / np.where(z == 0, 1, z) - 1  # erf(q), z != 0
        e = np.where(z == 0, 0.0, e)
        m, s = az / 2, 1 + e
        es = pdf2 * 2 * u * np.abs(q) + u * np.abs(e) + u * s
        e_f = m * es + u * m * s
        # autograd: g·0.5·ŝ + (g·z/2)·erf'(q̂)/√2, erf' = 2/√π·exp(−q̂²): exp's argument
        # carries 3u|q|² + 2u·2q² (q̂ error), exp rounds once, then three products
        eexp = pdf2 * (3 * u * q * q + 4 * u * q * q + u)
        e_b = 0.5 * es + u * s + m / np.sqrt(2) * (eexp + 4 * u * pdf2)
        return e_f, e_b
    if act_name == "gelu_tanh":
        # a = 0.5·z·(1 + tanh(q)), q = k·(z + c·z³) in up to five roundings (NewGELU:
        # z³, c·, +z, k·; FastGELU: z·z, c·, 1+, z·k, ·): every partial is at most
        # Q = k·(|z| + c·|z|³) in magnitude
        k, c = np.sqrt(2 / np.pi), 0.044715
        zc = np.minimum(az, 1e6)  # far beyond saturation: keeps z³ finite
        Q = k * (zc + c * zc**3)
        q = np.sign(z) * Q
        t = np.tanh(q)
        sech2 = 1 - t * t
        eq = 5 * u * Q
        # tanh at q ± eq stays within u/4 of ±1: the rounded t is ±1 exactly
        sat = 1 - np.tanh(np.maximum(Q - eq, 0)) <= u / 4
        et = np.where(sat, 1 - np.abs(t), sech2 * eq + u * np.abs(t))
        m = az / 2
        s = 1 + t
        e_f = m * (et + u * s) + u * m * s
        # autograd: g·0.5·ŝ + (g·m)·(1 − t̂²)·D, D = k·(1 + 3c·z²) (four roundings)
        D = k * (1 + 3 * c * zc * zc)
        esech = np.where(sat, sech2, 2 * np.abs(t) * et + et * et + 2 * u)
        e_b = 0.5 * (et + u * s) + u * s + m * D * (esech + 6 * u * sech2)
        return e_f, e_b
    raise KeyError(f"no op-by-op error model for activation {act_name!r}")


OP_ROUNDINGS = 8  # roundings in one op-by-op activation or its autograd (each may underflow)


def activation_errors(act_name, z, dtype, act_eval="fused"):
    """(error of act(z), error of act'(z) per unit incoming gradient) from evaluating the
    activation itself in `dtype` at an exactly representable z (the error of z is
    propagated apart). "fused": ACTIVATION_ULPS units of the accumulation precision on the
    operands' scale, one rounding to the dtype, one underflow; "op-by-op" adds
    `op_by_op_errors` at the dtype's u and an underflow per rounding."""
    u, u_acc, eta = DTYPES[dtype]
    act, dact = ACTIVATIONS[act_name]
    a, da = np.abs(act(z)), np.abs(dact(z))
    c = ACTIVATION_ULPS
    az = np.abs(z)
    # the derivative's absolute part: 1 − σ(z) loses its relative accuracy as σ -> 1, and
    # silu' multiplies it by z
    own_a = c * u_acc * (a + az) + u * a + eta
    own_da = c * u_acc * (da + 1 + az) + u * da + eta
    if act_name in ("sigmoid", "tanh"):  # autograd differentiates from the rounded output:
        # s(1 − s) or 1 − t² at ŝ = s(1 + δ), |δ| <= u, moves by u·|s|·|1 − 2s| or u·2t²
        # (plus an underflow of ŝ: eta); and the formula's own two roundings (1 − ŝ, the
        # product), which torch's float16 CPU kernel does in float16
        own_da = own_da + (u * a + eta) * (np.abs(1 - 2 * a) if act_name == "sigmoid"
                                           else 2 * a) + 2 * u * da
    if act_eval == "op-by-op" and not _exact(act_name):  # (exact: no ops)
        e_f, e_b = op_by_op_errors(act_name, z, u)
        own_a = own_a + e_f + OP_ROUNDINGS * eta
        own_da = own_da + e_b + OP_ROUNDINGS * eta
    return own_a, own_da


def first_order_bounds(variant, w, x, dy, dtype, act_eval="fused"):
    """{tensor: elementwise error bound} for one computation of the FFN in `dtype`.

    `w` are the weights (float64 arrays, our layout), x (n×d) and dy (n×d) float64.
    Tensors: y, W_*/b_* (gradients) and x (the input gradient). `act_eval` says how the
    activation is evaluated in a low-precision dtype (ACT_EVALS): "op-by-op" adds the
    rounding errors of `op_by_op_errors` at the dtype's u to the activation and its
    derivative; nothing else changes.
    """
    if act_eval not in ACT_EVALS:
        raise ValueError(f"unknown act_eval {act_eval!r}; choose from {', '.join(ACT_EVALS)}")
    u, u_acc, eta = DTYPES[dtype]
    r = u if u_acc != u else 0.0  # the one rounding of a float32-accumulated result

    def mm(k, mag, val):
        """Error of a matmul (or sum) of inner length k: |A||B| = mag, exact result val."""
        return gamma(k, u_acc) * mag + r * np.abs(val) + eta

    act_name, gated = lookup(variant)
    act, dact = ACTIVATIONS[act_name]
    L2 = SECOND_DERIVATIVE_BOUND[act_name]
    n, d = x.shape
    h = w["W_up"].shape[1]
    ax, ady = np.abs(x), np.abs(dy)
    absw = {k: np.abs(v) for k, v in w.items()}

    def bias(p, size):
        return (w[f"b_{p}"], absw[f"b_{p}"]) if f"b_{p}" in w else (np.zeros(size),) * 2

    z, z_err, zbar = {}, {}, {}
    for p in ("gate", "up") if gated else ("up",):
        bv, ba = bias(p, h)
        z[p] = x @ w[f"W_{p}"] + bv
        zbar[p] = ax @ absw[f"W_{p}"] + ba
        z_err[p] = mm(d + 1, zbar[p], z[p])
    ga = "gate" if gated else "up"
    za, dza = z[ga], z_err[ga]
    a, da_signed = act(za), dact(za)
    da = np.abs(da_signed)
    # relu' flips only where the accumulated z may have the wrong sign: rounding the sum to
    # the dtype keeps its sign (down to underflow), so only the accumulation error counts
    kink = 0.0
    if FACTS[act_name].kinks:
        if FACTS[act_name].kinks != (0.0,):  # the sign argument above holds at 0 only
            raise ValueError(f"{act_name}: no rounding bound for a kink away from 0")
        kink = (np.abs(za) <= gamma(d + 1, u_acc) * zbar[ga] + 2 * eta).astype(float)
    # activations are evaluated in the accumulation precision, then rounded once to the dtype
    own_a, own_da = activation_errors(act_name, za, dtype, act_eval)
    a_err = (da + kink) * dza + own_a
    if gated:
        zu, zu_err = z["up"], z_err["up"]
        hidden = a * zu
        p_err = a_err * np.abs(zu) + np.abs(a) * zu_err + a_err * zu_err + u * np.abs(hidden) + eta
    else:
        hidden, p_err = a, a_err
    ah, wd = np.abs(hidden), absw["W_down"]
    bv, ba = bias("down", d)
    out = {"y": mm(h + 1, ah @ wd + ba, hidden @ w["W_down"] + bv) + p_err @ wd}

    # backward, from the exact (already rounded) dy
    out["W_down"] = mm(n, ah.T @ ady, hidden.T @ dy) + p_err.T @ ady
    if "b_down" in w:
        out["b_down"] = mm(n, ady.sum(axis=0), dy.sum(axis=0))
    dh = dy @ w["W_down"].T
    dh_mag = ady @ wd.T  # bounds |dh|
    dh_err = mm(d, dh_mag, dh)
    da_err = L2 * dza + kink + own_da
    if gated:
        azu = np.abs(zu)
        dz = {"gate": dh * zu * da_signed, "up": dh * a}
        dz_mag = {"gate": dh_mag * azu * da, "up": dh_mag * np.abs(a)}
        dz_err = {
            "gate": dh_err * azu * da + dh_mag * zu_err * da + dh_mag * azu * da_err
            + 2 * u * dz_mag["gate"] + eta,
            "up": dh_err * np.abs(a) + dh_mag * a_err + u * dz_mag["up"] + eta,
        }
    else:
        dz = {"up": dh * da_signed}
        dz_mag = {"up": dh_mag * da}
        dz_err = {"up": dh_err * da + dh_mag * da_err + u * dz_mag["up"] + eta}
    gx, gx_mag, gx_err = 0.0, 0.0, 0.0
    for p in dz:
        out[f"W_{p}"] = mm(n, ax.T @ dz_mag[p], x.T @ dz[p]) + ax.T @ dz_err[p]
        if f"b_{p}" in w:
            out[f"b_{p}"] = mm(n, dz_mag[p].sum(axis=0), dz[p].sum(axis=0)) + dz_err[p].sum(0)
        gx = gx + dz[p] @ w[f"W_{p}"].T
        gx_mag = gx_mag + dz_mag[p] @ absw[f"W_{p}"].T
        gx_err = gx_err + dz_err[p] @ absw[f"W_{p}"].T
    out["x"] = mm(h * len(dz), gx_mag, gx) + gx_err
    return out


def plain_errors(variant, w, x, dy, dtype, device, ref):
    """{tensor: max |plain − reference|} for the FFN done plainly in torch `dtype` on `device`.

    Plain means: x @ W (+ b) with the weights in our layout, the torch activation, the gating
    multiply, autograd for the gradients, all in `dtype`. `ref` holds the float64 reference
    values ({"y": ..., "W_up": ..., "x": ...}).
    """
    import torch

    from ffnverify.backends.torch_ffn import TORCH_ACTIVATIONS

    tdt = getattr(torch, dtype)
    act_name, gated = lookup(variant)
    act = TORCH_ACTIVATIONS[act_name]
    tw = {k: torch.tensor(v, dtype=tdt, device=device, requires_grad=True) for k, v in w.items()}
    tx = torch.tensor(x, dtype=tdt, device=device, requires_grad=True)

    def lin(inp, p):
        out = inp @ tw[f"W_{p}"]
        return out + tw[f"b_{p}"] if f"b_{p}" in tw else out

    hidden = act(lin(tx, "gate")) * lin(tx, "up") if gated else act(lin(tx, "up"))
    y = lin(hidden, "down")
    y.backward(torch.tensor(dy, dtype=tdt, device=device))
    got = {"y": y, "x": tx.grad, **{k: t.grad for k, t in tw.items()}}
    return {
        k: float(np.max(np.abs(got[k].detach().to("cpu", torch.float64).numpy() - ref[k]),
                        initial=0.0))
        for k in ref
    }


def bounds(variant, w, x, dy, dtype, plain, act_eval="fused"):
    """{tensor: elementwise bound} = M·E_plain + B_dtype + B_float64 (see the module doc);
    `act_eval` is how the implementation evaluates its activation in `dtype` (ACT_EVALS)."""
    impl = first_order_bounds(variant, w, x, dy, dtype, act_eval)
    ref = first_order_bounds(variant, w, x, dy, "float64")
    return {k: PLAIN_MULTIPLE * plain.get(k, 0.0) + impl[k] + ref[k] for k in impl}
