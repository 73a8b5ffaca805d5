"""The gradients of an MoE block, their float64 reference and rounding-error bounds, and
the check of the module's autograd against them (`moe.run_case` calls `check_grads` for
every dtype it judges). Pure NumPy for the reference; the module is called here only for
its forward + backward.

The quantity: L = Σ_t gy_t · y_t for a drawn cotangent gy (N(0, 1), rounded to the dtype;
zero on the tokens that are top-k ties in that dtype, so a tie cannot move any gradient),
differentiated with respect to the input x, the router weight Wr and every expert's
weights. Per token, with the logits l = Wr·x, the top-k set S, the gates g and the expert
outputs f_e:

    y = Σ_{s∈S} g_s f_s,   c_s = ∂L/∂g_s = gy·f_s
    expert e's weights and its part of ∂L/∂x: the FFN backward (numpy_ffn.backward) at
        the cotangent dy_e = g_e·gy on the tokens routed to e (zero elsewhere)
    ∂L/∂l_j = π_j (c̃_j − Σ_i π_i c̃_i), c̃ = c on S, 0 elsewhere, where π is
        "renormalised": g on S, 0 elsewhere (the softmax of the top-k logits);
        "softmax": p = softmax(l) over every expert (its Jacobian taken at the top k)
    ∂L/∂Wr = Σ_t (∂L/∂l_t) x_tᵀ,   ∂L/∂x = Σ_e J_eᵀ dy_e + (∂L/∂l) Wr

Bounds (first order, the forward's reasoning in moe_reference, each term named):
- the logits' error e_l and the gates' e_g (ε_j, for every j of π: `gate_errors`, at
  float32's unit roundoff u_g or the dtype's, whichever is larger, plus the casts);
- c_s, a length-d inner product of gy with f̂_s: |gy|·B_s (B_s the expert's forward FFN
  bound) + γ_d·|gy|·|f_s| in the dtype and in float64, + u_g·|c_s| (its cast to the
  gates' precision);
- ∂L/∂l_j: the errors E_c̃ and ε through the exact Jacobian of π_j (c̃_j − Σ π_i c̃_i)
  (`_dl_response`: π_j ((1 − π_j) E_c̃_j + Σ_{i≠j} π_i E_c̃_i) + ε_j |c̃_j (1 − 2π_j) −
  Σ_{i≠j} π_i c̃_i| + π_j Σ_{i≠j} ε_i |c̃_i|, and the errors' second-order products),
  plus (E + k + 9) roundings at u_g + u64 of the magnitude R_j = π_j (|c̃_j| + C) (the
  longest backward: c cast to float32, the renormalising division's backward (c/P,
  Σ_r c_r·p_r: k, /P²: 2, the subtraction), the softmax backward over E (p·d, a sum of
  E, the subtraction, the product), the cast to the dtype); a renormalised router that
  takes the softmax over all E first puts a rounding-sized gradient 2·p_j·C (times those
  roundings) on every logit, selected or not: R_j includes it;
- ∂L/∂Wr: err(∂L/∂l)ᵀ|x| + a length-n inner product's roundings of Rᵀ|x| (dtype, float64);
- each expert: the kit's FFN bounds at dy_e (`tolerances.bounds`: M·E_plain + B_dtype +
  B_float64), plus the backward's response to the cotangent's own error
  |Δdy_e| = e_g,e·|gy| + (u + u64)·g_e·|gy| (the cast gate, the product), bounded by the
  backward with every factor in absolute value (`backward_magnitude`: the backward is
  linear in dy);
- ∂L/∂x: the experts' x-bounds and magnitudes, the gate term's err(∂L/∂l)·|Wr| and the
  length-E product's roundings of R·|Wr|, and the k + 1 additions (γ_{k+1}) of those
  magnitudes;
- a shared expert (y += σ(s)·f_sh(x), s = x·w_s): its FFN bounds at σ·gy plus the
  response to σ's error (`moe_reference.with_shared`'s e_σ); ∂L/∂s = σ'(s)·(gy·f_sh) off
  by σ'·E_c + |gy·f_sh|·(sup|σ''|·e_s + the sigmoid derivative's own error) and two
  roundings; ∂L/∂w_s and the x term as the router's; k + 3 additions in ∂L/∂x.

A tensor is judged in a dtype when its largest bound is at most `vacuity_ratio(dtype)` of
its largest reference value (float64: float32's ratio, as the gates are float32), or when
its reference is exactly zero (an expert no untied token reaches: its gradient must be
zero); otherwise it is left out in that dtype and counted. A gradient kind (the router's,
the input's, the experts', the shared expert's or its gate's) never compared in a dtype
over a whole run is named in the report as NOT CHECKABLE at that dtype, and check_moe
warns (`NotCheckable`): a pass says nothing about it there.

bfloat16 (u = 2⁻⁸): the router's and the input's gradients are, in practice, never
checkable. Measured on a litgpt-shaped block (d=12, h=30, n=6), the bound is 1.4× (router)
and 0.9× (input) the largest reference value, against the 0.25 the check needs, while the
actual error is 0.3% and 0.5% of it: a worst-case bound is 200–500× the error. What remains
is intrinsic to worst-case rounding analysis, not slack: c_s = gy·f̂_s sums d products
with no cancellation allowed in the bound (Σ|gy|·B_s, B_s the expert's own bfloat16 bound,
itself near 0.06 of its output), while the signal π_j π_o (c_j − c_o) cancels; the gates'
softmax backward may be computed in the dtype (E + k + 9 roundings at 2⁻⁸). In float16
the router and the input are judged in some draws (bound 0.26 and 0.09 of the signal on
that block); in float32 and float64 always.
"""

import numpy as np
import torch

from ffnverify.backends import numpy_ffn
from ffnverify.backends.activations import ACTIVATIONS
from ffnverify.backends.variants import lookup
from ffnverify.testing import layouts, tolerances
from ffnverify.testing.checks import _to_numpy, compare
from ffnverify.testing.moe_reference import (
    MOE_LAYOUTS,
    SHARED,
    _mm,
    _softmax,
    expert_tables,
    gate_errors,
    gate_u,
    logit_errors,
    route,
    shared_table,
    vacuity_ratio,
)
from ffnverify.testing.results import ConformanceFailure


def backward_roundings(E, k):
    """Roundings (at the gates' precision) on the longest path of ∂L/∂l (module doc)."""
    return E + k + 9


def backward_magnitude(variant, w, x, ady):
    """{tensor: magnitude}: the FFN backward with every factor in absolute value at a
    cotangent ady >= 0 (W_*, b_*, x); bounds |backward(dy)| elementwise for |dy| <= ady."""
    act_name, gated = lookup(variant)
    _, cache = numpy_ffn.forward(variant, w, x)
    dact = ACTIVATIONS[act_name][1]
    aw = {k: np.abs(v) for k, v in w.items()}
    hidden = np.abs(cache["p"] if gated else cache["a"])
    out = {"W_down": hidden.T @ ady}
    if "b_down" in w:
        out["b_down"] = ady.sum(axis=0)
    dh = ady @ aw["W_down"].T
    if gated:
        dz = {"gate": dh * np.abs(cache["z_up"]) * np.abs(dact(cache["z_gate"])),
              "up": dh * np.abs(cache["a"])}
    else:
        dz = {"up": dh * np.abs(dact(cache["z_up"]))}
    gx = np.zeros_like(x)
    for p, g in dz.items():
        out[f"W_{p}"] = np.abs(x).T @ g
        if f"b_{p}" in w:
            out[f"b_{p}"] = g.sum(axis=0)
        gx = gx + g @ aw[f"W_{p}"].T
    out["x"] = gx
    return out


def _scatter(values, top, E):
    out = np.zeros((top.shape[0], E))
    np.put_along_axis(out, top, values, 1)
    return out


def _gating(logits, top, g, routing):
    """(π, the softmax over every expert p) of the module doc, n×E each."""
    p = _softmax(logits)
    if routing.gating == "renormalised":
        return _scatter(g, top, logits.shape[1]), p
    return p, p


def reference(variant, w, x, gy, routing):
    """{"x": ∂L/∂x, "router": ∂L/∂Wr, "experts": [{W_*/b_*: ∂L/∂W}]} in float64, and the
    pieces the bound needs (a dict)."""
    if routing.power != 1 or routing.perm is not None:
        raise ValueError("gradients are checked for a stated routing only")
    logits = x @ w.router.T
    top, g, _ = route(logits, routing)
    E = len(w.experts)
    pi, p = _gating(logits, top, g, routing)
    dx, experts, ys, dys = np.zeros_like(x), [], [], []
    c = np.zeros((x.shape[0], E))
    for e, we in enumerate(w.experts):
        y_e, cache = numpy_ffn.forward(variant, we, x)
        routed = top == e
        dy_e = (g * routed).sum(axis=1)[:, None] * gy
        grads = numpy_ffn.backward(variant, we, cache, dy_e)
        dx += grads.pop("x")
        experts.append(grads)
        c[:, e] = np.where(routed.any(axis=1), (gy * y_e).sum(axis=1), 0.0)
        ys.append(y_e)
        dys.append(dy_e)
    dl = pi * (c - (pi * c).sum(axis=1, keepdims=True))
    dx += dl @ w.router
    parts = {"logits": logits, "top": top, "g": g, "pi": pi, "p": p, "c": c, "dl": dl,
             "ys": ys, "dys": dys}
    out = {"x": dx, "router": dl.T @ x, "experts": experts}
    if w.shared is not None:  # + σ(s)·shared(x), s = x·w_s: the shared expert at σ·gy
        s = x @ w.shared_gate.T
        sig = 1 / (1 + np.exp(-s))
        y_s, cache = numpy_ffn.forward(variant, w.shared, x)
        out["shared"] = numpy_ffn.backward(variant, w.shared, cache, sig * gy)
        ds = sig * (1 - sig) * (gy * y_s).sum(axis=1, keepdims=True)  # ∂L/∂s
        out["shared_gate"] = ds.T @ x
        dx += out["shared"].pop("x") + ds @ w.shared_gate
        parts.update(s=s, sig=sig, y_s=y_s, ds=ds)
    return out, parts


def _pi_errors(parts, e_l, routing, dtype, E):
    """ε (n×E): the bound on each π_j's error (gate_errors at every j π reaches)."""
    logits, top, g = parts["logits"], parts["top"], parts["g"]
    if routing.gating == "renormalised":
        return _scatter(gate_errors(logits, e_l, top, g, routing, dtype, E), top, E)
    every = np.tile(np.arange(E), (logits.shape[0], 1))
    return gate_errors(logits, e_l, every, parts["p"], routing, dtype, E)


def _dl_response(c, pi, e_c, eps):
    """Bound on |Δ∂L/∂l| (n×E) from the errors e_c of c̃ and ε of π, through the exact
    Jacobian of ∂L/∂l_j = π_j (c̃_j − Σ_i π_i c̃_i) (module doc): ∂/∂c̃_i = π_j (δ_ij − π_i),
    ∂/∂π_j = c̃_j (1 − 2π_j) − Σ_{i≠j} π_i c̃_i, ∂/∂π_i = −π_j c̃_i (i ≠ j); plus the
    second-order product of the two errors, ε_j (e_c_j + Σ_i π_i e_c_i) + π_j Σ_i ε_i e_c_i
    + ε_j Σ_i ε_i (|c̃_i| + e_c_i). Every weight is at most the looser form's
    ε (|c̃_j| + C) + π (e_c + Σ (ε|c̃| + π e_c)), which counts c̃_j's error twice where the
    Jacobian has π_j (1 − π_j): the tighter bound matters where one gate dominates."""
    ac = np.abs(c)
    S = (pi * e_c).sum(axis=1, keepdims=True)
    from_c = pi * ((1 - pi) * e_c + (S - pi * e_c))
    mixed = np.abs(c * (1 - 2 * pi) - ((pi * c).sum(axis=1, keepdims=True) - pi * c))
    E_ac = (eps * ac).sum(axis=1, keepdims=True)
    from_pi = eps * mixed + pi * (E_ac - eps * ac)
    second = (eps * (e_c + S) + pi * (eps * e_c).sum(axis=1, keepdims=True)
              + eps * (eps * (ac + e_c)).sum(axis=1, keepdims=True))
    return from_c + from_pi + second


def bounds(variant, w, x, gy, routing, dtype, parts, device="cpu"):
    """Elementwise bounds, shaped as `reference`'s gradients (module doc)."""
    u = tolerances.DTYPES[dtype][0]
    u64, eta = tolerances.DTYPES["float64"][0], tolerances.DTYPES[dtype][2]
    ug = gate_u(dtype)
    n, d = x.shape
    E, k = len(w.experts), routing.top_k
    c, pi, p, dl = parts["c"], parts["pi"], parts["p"], parts["dl"]
    agy = np.abs(gy)
    e_l = logit_errors(w, x, dtype)
    eps = _pi_errors(parts, e_l, routing, dtype, E)
    chosen = _scatter(np.ones_like(parts["g"]), parts["top"], E) > 0
    experts, x_err, x_mag, e_c = [], np.zeros_like(x), np.zeros_like(x), np.zeros((n, E))
    for e, we in enumerate(w.experts):
        dy_e, y_e = parts["dys"][e], parts["ys"][e]
        ref = numpy_ffn.backward(variant, we, numpy_ffn.forward(variant, we, x)[1], dy_e)
        ref["y"] = y_e
        plain = tolerances.plain_errors(variant, we, x, dy_e, dtype, device, ref)
        b = tolerances.bounds(variant, we, x, dy_e, dtype, plain)
        mag_c = (agy * np.abs(y_e)).sum(axis=1)
        e_c[:, e] = np.where(chosen[:, e], (agy * b["y"]).sum(axis=1) + ug * np.abs(c[:, e])
                             + _mm(d, mag_c, c[:, e], dtype) + _mm(d, mag_c, c[:, e],
                                                                  "float64"), 0.0)
        g_e = np.where(chosen[:, e], pi[:, e], 0.0)  # the gate weight on S, else 0
        eps_e = np.where(chosen[:, e], eps[:, e], 0.0)
        ddy = (eps_e + (u + u64) * g_e)[:, None] * agy + eta * (g_e > 0)[:, None]
        m_err = backward_magnitude(variant, we, x, ddy)
        m_val = backward_magnitude(variant, we, x, np.abs(dy_e))
        experts.append({t: b[t] + m_err[t] for t in b if t not in ("y", "x")})
        x_err += b["x"] + m_err["x"]
        x_mag += m_val["x"]
    ac = np.abs(c)
    C = (pi * ac).sum(axis=1, keepdims=True)
    R = pi * (ac + C) + (2 * p * C if routing.gating == "renormalised" else 0.0)
    nb = backward_roundings(E, k)
    e_dl = (_dl_response(c, pi, e_c, eps) + nb * (ug + u64) * R + (u + u64) * R + 2 * eta)
    ax, awr = np.abs(x), np.abs(w.router)
    router = (e_dl.T @ ax + _mm(n, R.T @ ax, dl.T @ x, dtype)
              + _mm(n, R.T @ ax, dl.T @ x, "float64"))
    gate_mag = R @ awr
    x_err += (e_dl @ awr + _mm(E, gate_mag, dl @ w.router, dtype)
              + _mm(E, gate_mag, dl @ w.router, "float64"))
    out = {"x": x_err, "router": router, "experts": experts}
    terms = k + 1
    if w.shared is not None:
        terms += 2
        x_mag = x_mag + _shared_bounds(variant, w, x, gy, dtype, parts, out, device)
    x_err += (tolerances.gamma(terms, u) + tolerances.gamma(terms, u64)) * (x_mag + gate_mag)
    x_err += terms * eta
    return out


def _shared_bounds(variant, w, x, gy, dtype, parts, out, device):
    """A shared expert's terms (moe_reference.with_shared's forward model): its FFN
    bounds at σ·gy and the response to σ's error e_σ; ∂L/∂s = σ'(s)·(gy·f_sh) off by
    σ'·E_c + |c|·(|σ''|·e_s + the sigmoid derivative's own error) and two roundings; the
    shared gate's gradient and its x term as the router's. Adds to `out`; returns the
    magnitude of the shared parts of ∂L/∂x."""
    u, eta = tolerances.DTYPES[dtype][0], tolerances.DTYPES[dtype][2]
    u64 = tolerances.DTYPES["float64"][0]
    n, d = x.shape
    s, sig, y_s, ds = parts["s"], parts["sig"], parts["y_s"], parts["ds"]
    agy, ax, aws = np.abs(gy), np.abs(x), np.abs(w.shared_gate)
    dy = sig * gy
    ref = numpy_ffn.backward(variant, w.shared, numpy_ffn.forward(variant, w.shared, x)[1], dy)
    ref["y"] = y_s
    plain = tolerances.plain_errors(variant, w.shared, x, dy, dtype, device, ref)
    b = tolerances.bounds(variant, w.shared, x, dy, dtype, plain)
    mag_s = ax @ aws.T
    e_s = _mm(d, mag_s, s, dtype) + _mm(d, mag_s, s, "float64")
    dsig = sig * (1 - sig)
    e_sig = dsig * e_s + sum(tolerances.activation_errors("sigmoid", s, dt)[0]
                             for dt in (dtype, "float64"))
    m_err = backward_magnitude(variant, w.shared, x, e_sig * agy + (u + u64) * sig * agy + eta)
    m_val = backward_magnitude(variant, w.shared, x, np.abs(dy))
    out["shared"] = {t: b[t] + m_err[t] for t in b if t not in ("y", "x")}
    mag_c = (agy * np.abs(y_s)).sum(axis=1, keepdims=True)
    c = (gy * y_s).sum(axis=1, keepdims=True)
    e_c = ((agy * b["y"]).sum(axis=1, keepdims=True) + _mm(d, mag_c, c, dtype)
           + _mm(d, mag_c, c, "float64"))
    e_dsig = (tolerances.SECOND_DERIVATIVE_BOUND["sigmoid"] * e_s
              + sum(tolerances.activation_errors("sigmoid", s, dt)[1]
                    for dt in (dtype, "float64")))
    e_ds = dsig * e_c + np.abs(c) * e_dsig + 2 * (u + u64) * np.abs(ds) + eta
    out["shared_gate"] = (e_ds.T @ ax + _mm(n, np.abs(ds).T @ ax, ds.T @ x, dtype)
                          + _mm(n, np.abs(ds).T @ ax, ds.T @ x, "float64"))
    out["x"] += (b["x"] + m_err["x"] + e_ds @ aws + _mm(1, np.abs(ds) @ aws, ds @ w.shared_gate,
                                                        dtype)
                 + _mm(1, np.abs(ds) @ aws, ds @ w.shared_gate, "float64"))
    return m_val["x"] + np.abs(ds) @ aws


def module_grads(module, call, layout, variant, h, xt, gy, case, dtype):
    """The module's autograd gradients of sum(y·gy), read as `reference`'s."""
    for param in module.parameters():
        param.grad = None
    x = xt.detach().clone().requires_grad_(True)
    try:
        y = call(module, x)
        y.backward(torch.as_tensor(gy, dtype=y.dtype, device=y.device))
    except Exception as exc:
        raise ConformanceFailure("moe-backward", f"the module's backward raised "
                                 f"{type(exc).__name__}: {exc}", dtype=dtype,
                                 case=case) from exc
    router = layouts.resolve(module, MOE_LAYOUTS[layout][0])
    E = int(router.shape[0])
    out = {"x": _to_numpy(x.grad) if x.grad is not None else np.zeros(gy.shape),
           "router": _grad(router), "experts": [layouts.read(module, t, grads=True)
                                                for t in expert_tables(layout, variant, E, h)]}
    if layout in SHARED:
        out["shared"] = layouts.read(module, shared_table(layout, variant), grads=True)
        out["shared_gate"] = _grad(layouts.resolve(module, SHARED[layout][2]))
    return out


def _grad(param):
    return _to_numpy(param.grad) if param.grad is not None else np.zeros(tuple(param.shape))


def _named(layout, variant, E, h):
    """[(key, words)] of every gradient tensor, in the order they are reported."""
    out = [(("router",), f"the gradient of the router weight ({MOE_LAYOUTS[layout][0]})")]
    for e, table in enumerate(expert_tables(layout, variant, E, h)):
        for name, (path, _) in table.items():
            out.append((("experts", e, name), f"the gradient of expert {e}'s {name} ({path})"))
    if layout in SHARED:
        for name, (path, _) in shared_table(layout, variant).items():
            out.append((("shared", name), f"the gradient of the shared expert's {name} "
                                          f"({path})"))
        out.append((("shared_gate",), f"the gradient of the shared expert's gate "
                                       f"({SHARED[layout][2]})"))
    out.append((("x",), "the gradient of the input x"))
    return out


def _get(tree, key):
    for part in key:
        tree = tree[part]
    return tree


def check_grads(module, call, case, w, xt, gy, routing, dtype, worst=None, tally=None):
    """Compare the module's gradients with the reference in `dtype`; raise the first
    wrong tensor's ConformanceFailure ('moe-backward', naming every wrong one), or return
    (tensors compared, tensors left out as vacuous). `worst` (a dict), if given, keeps the
    largest error / bound per (dtype, "router" | "experts" | "x"); `tally` (a dict), if
    given, counts [compared, vacuous] per (dtype, that kind) (`not_checkable` reads it)."""
    x = _to_numpy(xt)
    ref, parts = reference(case.variant, w, x, gy, routing)
    bound = bounds(case.variant, w, x, gy, routing, dtype, parts, case.device)
    got = module_grads(module, call, case.layout, case.variant, case.h, xt, gy, case, dtype)
    ratio = vacuity_ratio(dtype)
    failures, compared, vacuous = [], 0, 0
    for key, words in _named(case.layout, case.variant, len(w.experts), case.h):
        try:
            r, b, y = _get(ref, key), _get(bound, key), _get(got, key)
        except KeyError:  # a bias the module lacks
            continue
        signal = float(np.max(np.abs(r), initial=0.0))
        counts = tally.setdefault((dtype, key[0]), [0, 0]) if tally is not None else [0, 0]
        if signal > 0 and float(np.max(b, initial=0.0)) > ratio * signal:
            vacuous += 1
            counts[1] += 1
            continue
        compared += 1
        counts[0] += 1
        if worst is not None:
            ratio_now = float(np.max(np.abs(y - r) / np.maximum(b, 1e-300), initial=0.0))
            worst[dtype, key[0]] = max(worst.get((dtype, key[0]), 0.0), ratio_now)
        try:
            compare("moe-backward", words, y, r, b, case, dtype)
        except ConformanceFailure as failure:
            failures.append(failure)
    if failures:
        raise failures[0].with_others(failures[1:])
    return compared, vacuous


class NotCheckable(UserWarning):
    """check_moe passed, but some gradient was never compared in some dtype."""


KINDS = {"router": "the router weight's", "x": "the input's", "experts": "the experts'",
         "shared": "the shared expert's", "shared_gate": "the shared expert gate's"}


def not_checkable(tally):
    """{dtype: [kind]}: the gradient kinds a run never compared in a dtype, every
    tensor of that kind there having a bound over the dtype's vacuity ratio of its signal
    (left out as vacuous in every draw): what the report must name as not checkable."""
    out = {}
    for (dtype, kind), (compared, vacuous) in tally.items():
        if compared == 0 and vacuous > 0:
            out.setdefault(dtype, []).append(kind)
    return {dt: sorted(kinds, key=list(KINDS).index) for dt, kinds in out.items()}


def not_checkable_text(tally):
    """The report's words for `not_checkable` (empty when every kind was compared)."""
    parts = []
    for dtype, kinds in not_checkable(tally).items():
        names = [KINDS[k] for k in kinds]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        parts.append(f"{dtype}: {listed} gradient{'s' if len(names) > 1 else ''} (bound over "
                     f"{vacuity_ratio(dtype):g} of the signal in every draw: never compared)")
    return ("NOT CHECKABLE at this dtype: " + "; ".join(parts)) if parts else ""
