"""FFN forward and hand-written backward in NumPy (float32 and float64).

Weights are a dict of arrays named as in the derivations: W_gate, W_up (d×h), W_down
(h×d) and, with bias, b_gate, b_up (h,), b_down (d,). Inputs are (..., d); leading axes
are tokens. `forward` returns the output and the cache the backward needs (exactly the
"store" convention of docs/memory.md: x, the pre-activations, the activation output
unless it is the identity, and the gated product).
"""

import numpy as np

from ffnverify.backend_variants import lookup, projections
from ffnverify.np_activations import ACTIVATIONS


def init_weights(variant, d, h, bias=False, dtype=np.float64, rng=None):
    """Random weights with unit-variance outputs per projection (scale 1/sqrt(fan_in))."""
    rng = np.random.default_rng(rng)
    w = {}
    for p in projections(variant):
        fan_in, fan_out = (h, d) if p == "down" else (d, h)
        w[f"W_{p}"] = (rng.standard_normal((fan_in, fan_out)) / np.sqrt(fan_in)).astype(dtype)
        if bias:
            w[f"b_{p}"] = rng.standard_normal(fan_out).astype(dtype)
    return w


def _linear(x, weights, p):
    y = x @ weights[f"W_{p}"]
    b = weights.get(f"b_{p}")
    if b is not None:
        y += b
    return y


def forward(variant, weights, x):
    """(y, cache) for input x of shape (..., d)."""
    act_name, gated = lookup(variant)
    act, _ = ACTIVATIONS[act_name]
    lead = x.shape[:-1]
    x2 = x.reshape(-1, x.shape[-1])
    cache = {"x": x2, "shape": x.shape}
    z_up = _linear(x2, weights, "up")
    cache["z_up"] = z_up
    if gated:
        z_gate = _linear(x2, weights, "gate")
        a = act(z_gate)
        hidden = a * z_up
        cache.update(z_gate=z_gate, a=a, p=hidden)
    else:
        hidden = act(z_up)
        cache["a"] = hidden
    y = _linear(hidden, weights, "down")
    return y.reshape(*lead, y.shape[-1]), cache


def backward(variant, weights, cache, dy, input_grad=True):
    """Gradients {W_*, b_*, x} of sum(dy * y) from the cache of `forward`."""
    act_name, gated = lookup(variant)
    _, dact = ACTIVATIONS[act_name]
    x2 = cache["x"]
    dy2 = dy.reshape(-1, dy.shape[-1])
    hidden = cache["p"] if gated else cache["a"]
    grads = {"W_down": hidden.T @ dy2}
    dhidden = dy2 @ weights["W_down"].T
    if gated:
        dz = {
            "gate": dhidden * cache["z_up"] * dact(cache["z_gate"]),
            "up": dhidden * cache["a"],
        }
    else:
        dz = {"up": dhidden * dact(cache["z_up"])}
    for p, g in dz.items():
        grads[f"W_{p}"] = x2.T @ g
    if "b_down" in weights:
        grads["b_down"] = dy2.sum(axis=0)
        for p, g in dz.items():
            grads[f"b_{p}"] = g.sum(axis=0)
    if input_grad:
        dx = None
        for p, g in dz.items():
            term = g @ weights[f"W_{p}"].T
            dx = term if dx is None else dx + term
        grads["x"] = dx.reshape(cache["shape"])
    return grads


def param_count(weights) -> int:
    """Total number of elements in the weights."""
    return sum(int(w.size) for w in weights.values())
