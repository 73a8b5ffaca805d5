"""The routed reference of an MoE block and its rounding-error bounds (`moe` checks a
module against them): the gatings and layouts, reading the router and expert weights,
routing (top-k, gate weights), the float64 reference output, and the first-order bounds
on logits, gates, ties and the combined output that `moe`'s docstring derives. Pure
NumPy over weights already read: no module is called here."""

from dataclasses import dataclass

import numpy as np

from ffnverify.backends import numpy_ffn
from ffnverify.backends.variants import lookup
from ffnverify.testing import layouts, tolerances
from ffnverify.testing.checks import _to_numpy

GATINGS = {
    "renormalised": "the softmax of the top-k router logits (the softmax over every expert, "
                    "renormalised over the top k)",
    "softmax": "the softmax over every expert, taken at the top k (not renormalised)",
}
# MoE layouts: the router's weight (E×d, as nn.Linear(d, E) stores it), the experts
# layout (layouts._EXPERTS) that reads expert e, and the path of the experts' module
MOE_LAYOUTS = {
    "litgpt-moe": ("gate.weight", "litgpt-moe", ""),  # litgpt LLaMAMoE: gate, experts.{e}
    # transformers' MixtralSparseMoeBlock, Qwen3MoeSparseMoeBlock: gate (a TopKRouter
    # holding weight (E, d)), experts (gate_up_proj (E, 2h, d), down_proj (E, d, h))
    "mixtral-moe": ("gate.weight", "mixtral-experts", "experts."),
    # transformers' Qwen2MoeSparseMoeBlock: the same, plus a shared expert every token
    # gets, weighted by sigmoid(shared_expert_gate(x))
    "qwen2-moe": ("gate.weight", "mixtral-experts", "experts."),
}
# shared experts: (the shared expert's path prefix, its layout, its gate's weight (1, d))
SHARED = {"qwen2-moe": ("shared_expert.", "hf", "shared_expert_gate.weight")}
SHARED_WORDS = {"sigmoid": "weighted by sigmoid(shared gate)", "ungated": "with weight 1",
                "none": "left out"}


def shared_table(layout, variant):
    """The shared expert's table of MoE layout `layout` (None: it has none)."""
    if layout not in SHARED:
        return None
    prefix, name, _ = SHARED[layout]
    return {k: (prefix + p, t) for k, (p, t) in
            layouts.mapping(lookup(variant)[1], name).items()}


def expert_tables(layout, variant, E, h):
    """[{our name: (path, transform)}] of each of the E experts of MoE layout `layout`."""
    _, experts_layout, prefix = MOE_LAYOUTS[layout]
    gated = lookup(variant)[1]
    return [{k: (prefix + p, t) for k, (p, t) in
             layouts.mapping(gated, experts_layout, e, h).items()} for e in range(E)]
MAX_D, MAX_H, MAX_N = 24, 48, 8  # drawn shapes (E experts each)
DEFAULT_MAX_EXAMPLES = 30  # per bias setting
PROBE_SCALE = 3.0  # diagnosis probe inputs N(0, 9)
PROBE_TOKENS = 16


GATE_U = 2.0**-24  # routers compute the gate softmax in float32 at least (litgpt's
# softmax(dtype=torch.float), Mixtral's and Qwen's .float()): even a float64 block's gate
# weights carry float32 roundings


def gate_u(dtype):
    """Unit roundoff of the gate weights' computation in `dtype`: float32's at least."""
    return max(tolerances.DTYPES[dtype][0], GATE_U)


def vacuity_ratio(dtype):
    """Anti-vacuity: the largest bound / max|reference| at which a dtype still judges; the
    gates' precision's (float32's) where that is coarser than the dtype's."""
    r = tolerances.VACUITY_RATIO
    return max(r[dtype], r["float32"]) if gate_u(dtype) > tolerances.DTYPES[dtype][0] \
        else r[dtype]


def gate_roundings(E, k):
    """Roundings of the dtype in one gate weight, the longest form: E exps, the sum of E,
    the division; the sum of k and the division renormalising; the cast to the dtype."""
    return E + k + 4


# ---------------------------------------------------------------- the reference


def _softmax(z):
    z = z - np.max(z, axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


@dataclass(frozen=True)
class Routing:
    """How a block routes: `top_k` experts per token, weighted by `gating`'s weights raised
    to `power` (1; 2: applied twice; 0: never applied), expert e computed by expert
    `perm[e]`'s weights (None: each by its own)."""

    top_k: int
    gating: str
    power: int = 1
    perm: tuple | None = None
    shared: str = "sigmoid"  # a shared expert's weight: sigmoid(gate), 1 ("ungated"), "none"


def route(logits, routing):
    """(top: n×k expert indices, g: n×k gate weights, order: n×E experts by logit)."""
    order = np.argsort(-logits, axis=1, kind="stable")
    top = order[:, :routing.top_k]
    if routing.gating == "renormalised":
        g = _softmax(np.take_along_axis(logits, top, 1))
    else:
        g = np.take_along_axis(_softmax(logits), top, 1)
    return top, g, order


def expert_outputs(variant, experts, x):
    """[expert_e(x)] for every expert e (every token: an FFN does not mix tokens)."""
    return [numpy_ffn.forward(variant, w, x)[0] for w in experts]


def combine(ys, top, g, routing):
    """y = Σ_k g_k^power · ys[perm[top_k]] per token."""
    n = top.shape[0]
    y = np.zeros_like(ys[0])
    rows = np.arange(n)
    for k in range(top.shape[1]):
        e = top[:, k]
        if routing.perm is not None:
            e = np.asarray(routing.perm)[e]
        stack = np.stack(ys)  # (E, n, d)
        y = y + (g[:, k] ** routing.power)[:, None] * stack[e, rows]
    return y


@dataclass
class Weights:
    """One module copy's weights in our names, float64: router (E×d) and each expert's."""

    router: np.ndarray
    experts: list
    shared: dict | None = None  # a shared expert's weights, and its gate's (1×d)
    shared_gate: np.ndarray | None = None


def read_weights(module, layout, variant, h):
    router = layouts.resolve(module, MOE_LAYOUTS[layout][0])
    tables = expert_tables(layout, variant, int(router.shape[0]), h)
    w = Weights(_to_numpy(router), [layouts.read(module, t) for t in tables])
    if layout in SHARED:
        w.shared = layouts.read(module, shared_table(layout, variant))
        w.shared_gate = _to_numpy(layouts.resolve(module, SHARED[layout][2]))
    return w


# ---------------------------------------------------------------- bounds


def _mm(k, mag, val, dtype):
    u, u_acc, eta = tolerances.DTYPES[dtype]
    r = u if u_acc != u else 0.0
    return tolerances.gamma(k, u_acc) * mag + r * np.abs(val) + eta


def logit_errors(w, x, dtype):
    """Elementwise bound on the computed logits' error (n×E), the dtype's and float64's."""
    mag = np.abs(x) @ np.abs(w.router).T
    val = x @ w.router.T
    d = x.shape[1]
    return _mm(d, mag, val, dtype) + _mm(d, mag, val, "float64")


def ties(logits, e_l, routing, dtype, E):
    """Tokens (bool, n) whose top-k selection the dtype's rounding may change: the k-th and
    (k+1)-th logits closer than both errors plus the rounding of compared probabilities."""
    k = routing.top_k
    if k >= E:
        return np.zeros(logits.shape[0], bool)
    u = gate_u(dtype)
    e_l = e_l + u * np.abs(logits)  # the logits cast to the gates' precision
    order = np.argsort(-logits, axis=1, kind="stable")
    ls = np.take_along_axis(logits, order, 1)
    es = np.take_along_axis(e_l, order, 1)
    gap = ls[:, k - 1] - ls[:, k]
    worst_in = es[:, :k].max(axis=1)
    worst_out = es[:, k:].max(axis=1)
    # selecting on probabilities p = softmax(l): each rounded (E+2) times relatively, so
    # their order holds while the logit gap exceeds 2·log((1+ε)/(1−ε)) ≈ 4ε, ε = (E+2)u
    eps = (E + 2) * u
    slack = 4 * eps / max(1 - eps, 1e-300)
    return gap <= worst_in + worst_out + slack


def gate_errors(logits, e_l, top, g, routing, dtype, E):
    """Bound on each computed gate weight (n×k), first order plus its roundings."""
    u, _, eta = tolerances.DTYPES[dtype]
    u64, ug = tolerances.DTYPES["float64"][0], gate_u(dtype)
    e_l = e_l + ug * np.abs(logits)  # the logits cast to the gates' precision
    k = routing.top_k
    if routing.gating == "renormalised":
        e_top = np.take_along_axis(e_l, top, 1)
        spread = (g * e_top).sum(axis=1, keepdims=True)
    else:
        p = _softmax(logits)
        e_top = np.take_along_axis(e_l, top, 1)
        spread = (p * e_l).sum(axis=1, keepdims=True)
    # the softmax's roundings in the gates' precision, the cast back to the dtype
    err = g * (e_top + spread) + (gate_roundings(E, k) * ug + u + u64) * g + 2 * eta
    if routing.power != 1:  # g^p moves by p·g^(p−1)·δg, and p−1 more roundings
        p = routing.power
        err = p * g ** max(p - 1, 0) * err + max(p - 1, 0) * (u + u64) * g**p
    return err


def output_bound(variant, w, x, ys, yb, logits, top, g, routing, dtype):
    """Elementwise bound (n×d) on |module − reference| for the routed sum."""
    E = len(w.experts)
    u, _, eta = tolerances.DTYPES[dtype]
    u64 = tolerances.DTYPES["float64"][0]
    e_l = logit_errors(w, x, dtype)
    e_g = gate_errors(logits, e_l, top, g, routing, dtype, E)
    n = x.shape[0]
    rows = np.arange(n)
    ys_a, yb_a = np.abs(np.stack(ys)), np.stack(yb)
    gp = g ** routing.power
    total = np.zeros_like(ys[0])
    mags = np.zeros_like(ys[0])
    for k in range(top.shape[1]):
        e = top[:, k]
        if routing.perm is not None:
            e = np.asarray(routing.perm)[e]
        ya, b = ys_a[e, rows], yb_a[e, rows]
        total += gp[:, k, None] * b + e_g[:, k, None] * (ya + b)
        mags += gp[:, k, None] * ya
    k = top.shape[1]
    # one rounding per product, k additions (the first into zeros is exact)
    rounding = (u + u64 + tolerances.gamma(k, u) + tolerances.gamma(k, u64)) * (mags + total)
    return total + rounding + (k + 1) * eta


def expert_bounds(variant, w, x, dtype, device="cpu"):
    """[the kit's FFN forward bound of expert e at x] (n×d each)."""
    out = []
    dy = np.zeros_like(x)
    for we in w.experts:
        ref = {"y": numpy_ffn.forward(variant, we, x)[0]}
        plain = tolerances.plain_errors(variant, we, x, dy, dtype, device, ref)
        out.append(tolerances.bounds(variant, we, x, dy, dtype, plain)["y"])
    return out


def with_shared(variant, w, x, y, b, routing, dtype, device="cpu"):
    """(y, bound) with the shared expert added: y + σ(s)·shared(x), s = x·w_s. The bound
    adds σ·B_shared, the weight's error (σ'·e_s from the gate's inner product, and the
    kit's model of a sigmoid evaluation) times |shared(x)| + B_shared, the product's
    rounding and the final addition's."""
    u, _, eta = tolerances.DTYPES[dtype]
    u64 = tolerances.DTYPES["float64"][0]
    ys = numpy_ffn.forward(variant, w.shared, x)[0]
    dy = np.zeros_like(x)
    plain = tolerances.plain_errors(variant, w.shared, x, dy, dtype, device, {"y": ys})
    bs = tolerances.bounds(variant, w.shared, x, dy, dtype, plain)["y"]
    z = x @ w.shared_gate.T  # (n, 1)
    e_z = (_mm(x.shape[1], np.abs(x) @ np.abs(w.shared_gate).T, z, dtype)
           + _mm(x.shape[1], np.abs(x) @ np.abs(w.shared_gate).T, z, "float64"))
    sig = 1 / (1 + np.exp(-z))
    e_sig = sig * (1 - sig) * e_z + sum(
        tolerances.activation_errors("sigmoid", z, dt)[0] for dt in (dtype, "float64"))
    weight, e_w = {"sigmoid": (sig, e_sig), "ungated": (np.ones_like(z), 0.0 * z),
                   "none": (np.zeros_like(z), 0.0 * z)}[routing.shared]
    part = weight * ys
    y_all = y + part
    b_all = (b + weight * bs + e_w * (np.abs(ys) + bs)
             + (u + u64) * (2 * np.abs(part) + np.abs(y) + b) + 2 * eta)
    return y_all, b_all


def reference(variant, w, x, routing, dtype, device="cpu"):
    """(y, bound, tied tokens) of the block at x under `routing` in `dtype`."""
    logits = x @ w.router.T
    top, g, _ = route(logits, routing)
    ys = expert_outputs(variant, w.experts, x)
    yb = expert_bounds(variant, w, x, dtype, device)
    y = combine(ys, top, g, routing)
    b = output_bound(variant, w, x, ys, yb, logits, top, g, routing, dtype)
    if w.shared is not None:
        y, b = with_shared(variant, w, x, y, b, routing, dtype, device)
    tied = ties(logits, logit_errors(w, x, dtype), routing, dtype, len(w.experts))
    return y, b, tied


# ---------------------------------------------------------------- the module
