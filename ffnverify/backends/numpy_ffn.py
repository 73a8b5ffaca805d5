"""FFN forward and hand-written backward in NumPy (float32 and float64).

Weights are a dict of arrays named as in the derivations: W_gate, W_up (d×h), W_down
(h×d) and, with bias, b_gate, b_up (h,), b_down (d,). Inputs are (..., d); leading axes
are tokens. `forward` returns the output and the cache the backward needs (exactly the
"store" convention of docs/memory.md: x, the pre-activations, the activation output
unless it is the identity, and the gated product).

Performance (measured in benchmarks/, see benchmarks/RESULTS.md): the matmuls are plain
BLAS GEMMs, gate and up as two separate GEMMs (one GEMM on the stacked [gate; up] weight
measured within about 1% of them at the LLM shape, and it would cost a copy of the
weights per call and change the rounding). The elementwise work runs over row blocks
that stay in cache, and writes in place: the backward
allocates one (n, h) buffer per pre-activation gradient and nothing else of that size
(none with free_cache=True). Results are bit for bit those of the plain expressions on
np_activations (same operations in the same order, per element); `_sigmoid` is
np_activations' stable sigmoid with its np.where (a mispredicted branch per element,
about 3 ns each on random signs) replaced by an exact arithmetic select, checked bitwise
in tests/test_bench_helpers.py.
"""

from functools import partial

import numpy as np

from ffnverify.backends.activations import ACTIVATIONS
from ffnverify.backends.variants import lookup, projections

# elementwise work runs over row blocks of about this many elements: the block's
# temporaries then stay in a 1 MB L2 (measured fastest: 2-4x faster than 2**16 and up)
BLOCK_ELEMENTS = 1 << 15


def _sigmoid(z):
    e = np.exp(-np.abs(z))  # in (0, 1]: never overflows
    pos = (z >= 0).astype(e.dtype)
    num = (1 - pos) * e  # exactly e where z < 0, exactly 0 where z >= 0 (e is finite)
    num += pos  # exactly 1 where z >= 0
    return (num / (1.0 + e)).astype(z.dtype, copy=False)


def _silu(z):
    return z * _sigmoid(z)


def _d_silu(z):
    s = _sigmoid(z)
    return s * (1 + z * (1 - s))


def _d_sigmoid(z):
    s = _sigmoid(z)
    return s * (1 - s)


# faster, bitwise-identical replacements for np_activations entries
_FAST = {"sigmoid": (_sigmoid, _d_sigmoid), "silu": (_silu, _d_silu)}


def _activation(name):
    return _FAST.get(name) or ACTIVATIONS[name]


def _blocks(rows, cols):
    """Row slices of about BLOCK_ELEMENTS elements covering `rows` rows."""
    step = max(1, BLOCK_ELEMENTS // max(cols, 1))
    return [slice(i, i + step) for i in range(0, rows, step)]


def _for_blocks(job, shape):
    """job(rows) for every row block of an array of `shape`.

    (Sharing the blocks out to a second thread measured no faster on 2 cores: OpenBLAS's
    worker keeps the other core busy for a while after each GEMM.)
    """
    for r in _blocks(*shape):
        job(r)


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
    act, _ = _activation(act_name)
    lead = x.shape[:-1]
    x2 = x.reshape(-1, x.shape[-1])
    cache = {"x": x2, "shape": x.shape}
    z_up = _linear(x2, weights, "up")
    cache["z_up"] = z_up
    z = _linear(x2, weights, "gate") if gated else z_up
    a = z if act_name == "identity" else np.empty_like(z)
    hidden = np.empty_like(z) if gated else a

    def job(r):
        if a is not z:
            a[r] = act(z[r])
        if gated:
            np.multiply(a[r], z_up[r], out=hidden[r])

    _for_blocks(job, z.shape)
    if gated:
        cache.update(z_gate=z, a=a, p=hidden)
    else:
        cache["a"] = hidden
    y = _linear(hidden, weights, "down")
    return y.reshape(*lead, y.shape[-1]), cache


def _gated_grad_block(dact, dh, a, z_up, z_gate, dz_up, r):
    """dz_up = dh·a and dz_gate = dh·z_up·act'(z_gate) on rows r; dz_gate in place in dh."""
    g = dh[r] * z_up[r]
    np.multiply(dh[r], a[r], out=dz_up[r])  # after the last read of z_up[r], which dz_up may be
    np.multiply(g, dact(z_gate[r]), out=dh[r])


def _grad_block(dact, dh, z, r):
    dh[r] *= dact(z[r])


def backward(variant, weights, cache, dy, input_grad=True, free_cache=False):
    """Gradients {W_*, b_*, x} of sum(dy * y) from the cache of `forward`.

    With free_cache=True the backward consumes the cache as autograd consumes its saved
    tensors: it writes its intermediates into the cached arrays (same results) and
    empties the dict, so the peak stays at the activation memory; the cache is then
    unusable.
    """
    act_name, gated = lookup(variant)
    _, dact = _activation(act_name)
    c = cache if free_cache else dict(cache)
    x2, x_shape = c["x"], c["shape"]
    dy2 = dy.reshape(-1, dy.shape[-1])
    hidden = c.pop("p") if gated else c.pop("a")
    grads = {"W_down": hidden.T @ dy2}
    z = c["z_gate"] if gated else c["z_up"]
    reuse = free_cache and hidden is not z
    dh = np.matmul(dy2, weights["W_down"].T, out=hidden if reuse else None)
    del hidden
    if gated:
        a, z_up = c.pop("a"), c["z_up"]
        # dz_up = dh·a and dz_gate = dh·z_up·act'(z_gate), block by block; dz_gate in place
        # in dh, dz_up into z_up's rows once they are read (free_cache) or a new buffer
        dz_up = z_up if free_cache else np.empty_like(z_up)
        _for_blocks(partial(_gated_grad_block, dact, dh, a, z_up, z, dz_up), dh.shape)
        del a, z_up
        dz = {"gate": dh, "up": dz_up}
    else:
        c.pop("a", None)
        _for_blocks(partial(_grad_block, dact, dh, z), dh.shape)
        dz = {"up": dh}
    del z
    if free_cache:
        c.clear()
    for p, g in dz.items():
        grads[f"W_{p}"] = x2.T @ g
    if "b_down" in weights:
        grads["b_down"] = dy2.sum(axis=0)
        for p, g in dz.items():
            grads[f"b_{p}"] = g.sum(axis=0)
    if input_grad:
        terms = iter(dz.items())
        p, g = next(terms)
        dx = g @ weights[f"W_{p}"].T
        for p, g in terms:
            dx += g @ weights[f"W_{p}"].T
        grads["x"] = dx.reshape(x_shape)
    return grads


def param_count(weights) -> int:
    """Total number of elements in the weights."""
    return sum(int(w.size) for w in weights.values())
