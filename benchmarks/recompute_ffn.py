"""The "recompute" memory convention in NumPy: the forward keeps x and the pre-activations
only; the backward recomputes the activation and the gated product from them.

A benchmark-side variant of ffnverify.backends.numpy_ffn (same weights, same gradients up to the
order of the down projection's weight-gradient sum), written so that nothing of size
(n, h) exists beyond the kept pre-activations: the down projection and its gradients run
over row blocks (ROWS tokens at a time), accumulating dW_down in place with BLAS gemm
(beta = 1), and the pre-activation gradients overwrite the kept pre-activations. The
backward consumes the cache.
"""

from functools import partial

import numpy as np
from scipy.linalg import get_blas_funcs

from ffnverify.backends.numpy_ffn import _activation, _for_blocks
from ffnverify.backends.variants import lookup

ROWS = 64  # tokens per block: a (ROWS, h) buffer is under 1 MB at LLM widths


def _row_blocks(n):
    return [slice(i, min(i + ROWS, n)) for i in range(0, n, ROWS)]


def _hidden_into(act, gated, z, z_up, out):
    """out = act(z) (· z_up when gated), by numpy_ffn's small row blocks."""

    def job(s):
        a = act(z[s])
        if gated:
            np.multiply(a, z_up[s], out=out[s])
        else:
            out[s] = a

    _for_blocks(job, z.shape)


def _grads_into_cache(dact, act, gated, dh, z, z_up, s):
    """dz (and dz_up) from dh on rows s, written over the kept pre-activations."""
    if gated:
        up = dh[s] * act(z[s])
        dh[s] *= z_up[s]
        dh[s] *= dact(z[s])
        z_up[s] = up
    else:
        dh[s] *= dact(z[s])
    z[s] = dh[s]


def forward(variant, weights, x):
    """(y, cache) keeping only x and the pre-activations (no bias: benchmarks use none)."""
    act_name, gated = lookup(variant)
    act, _ = _activation(act_name)
    x2 = x.reshape(-1, x.shape[-1])
    cache = {"x": x2, "shape": x.shape, "z_up": x2 @ weights["W_up"]}
    if gated:
        cache["z_gate"] = x2 @ weights["W_gate"]
    z, z_up = cache.get("z_gate", cache["z_up"]), cache["z_up"]
    w_down = weights["W_down"]
    y = np.empty((x2.shape[0], w_down.shape[1]), dtype=x2.dtype)
    buf = np.empty((min(ROWS, x2.shape[0]), z.shape[1]), dtype=z.dtype)
    for r in _row_blocks(x2.shape[0]):
        hid = buf[: r.stop - r.start]
        _hidden_into(act, gated, z[r], z_up[r], hid)
        np.matmul(hid, w_down, out=y[r])
    return y.reshape(*x.shape[:-1], y.shape[-1]), cache


def backward(variant, weights, cache, dy, input_grad=True):
    """Gradients {W_*, x} of sum(dy * y); consumes (empties) the cache."""
    act_name, gated = lookup(variant)
    act, dact = _activation(act_name)
    x2, shape = cache.pop("x"), cache.pop("shape")
    z_up = cache.pop("z_up")
    z = cache.pop("z_gate") if gated else z_up
    dy2 = dy.reshape(-1, dy.shape[-1])
    w_down = weights["W_down"]
    grads = {"W_down": np.zeros(w_down.shape, dtype=x2.dtype, order="F")}
    g_down = grads["W_down"]
    gemm = get_blas_funcs("gemm", (g_down,))
    buf = np.empty((min(ROWS, x2.shape[0]), z.shape[1]), dtype=z.dtype)
    for r in _row_blocks(x2.shape[0]):
        blk = buf[: r.stop - r.start]
        _hidden_into(act, gated, z[r], z_up[r], blk)
        # dW_down += hiddenᵀ @ dy over this block (Fortran-ordered views: no copies)
        gemm(1.0, blk.T, dy2[r].T, beta=1.0, c=g_down, trans_b=1, overwrite_c=1)
        np.matmul(dy2[r], w_down.T, out=blk)  # d(hidden) for this block
        _for_blocks(partial(_grads_into_cache, dact, act, gated, blk, z[r], z_up[r]), blk.shape)
    dz = {"gate": z, "up": z_up} if gated else {"up": z}
    for p, g in dz.items():
        grads[f"W_{p}"] = x2.T @ g
    if input_grad:
        # dx = Σ_p dz_p @ W_pᵀ, by row blocks so that no (n, d) temporary is made
        dx = np.empty_like(x2)
        for r in _row_blocks(x2.shape[0]):
            for i, (p, g) in enumerate(dz.items()):
                if i == 0:
                    np.matmul(g[r], weights[f"W_{p}"].T, out=dx[r])
                else:
                    dx[r] += g[r] @ weights[f"W_{p}"].T
        grads["x"] = dx.reshape(shape)
    return grads
