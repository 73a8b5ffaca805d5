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
that stay in cache; sigmoid, silu, relu, tanh and relu² and their derivatives are
`*_into` kernels writing with `out=` into the cached arrays or into one or two
block-sized scratch arrays per call, so they allocate nothing per block (gelu, gelu_tanh
and quick_gelu are np_activations' own, copied into place). The backward allocates one (n, h) buffer per pre-activation
gradient and nothing else of that size (none with free_cache=True); the second
input-gradient term goes into the consumed dz_gate's buffer. Results are bit for bit
those of the plain expressions on np_activations, in float64 and float32 (same operations
in the same order, per element; checked in tests/test_backend_speed_paths.py and
tests/test_bench_helpers.py); the stable sigmoid's np.where (a mispredicted branch per
element, about 3 ns each on random signs) is replaced by an exact arithmetic select.
"""

from functools import partial

import numpy as np

from ffnverify.backends.activations import ACTIVATIONS
from ffnverify.backends.variants import lookup, projections

# elementwise work runs over row blocks of about this many elements: the block's
# temporaries then stay in a 1 MB L2 (measured fastest: 2-4x faster than 2**16 and up)
BLOCK_ELEMENTS = 1 << 15


# ------------------------------------------------------------ activations written into `out`
#
# Each `*_into(z, out, tmp)` writes act(z) (or act'(z)) into `out`, using `tmp` (same shape
# and dtype as z) as scratch: no temporary is allocated. Each performs, element by
# element, the same floating-point operations in the same order as the np_activations
# function it replaces (a commuted operand of + or × aside, which IEEE arithmetic rounds
# identically), so the results are bit for bit the same in every dtype; checked against
# np_activations and special values (±0, ±inf, nan, huge |z|) in
# tests/test_backend_speed_paths.py.


def _sigmoid_into(z, out, tmp):
    """np_activations.sigmoid's np.where(z >= 0, 1/(1+e), e/(1+e)), e = exp(-|z|), as
    max(e, [z >= 0]) / (1 + e): the numerator is exactly 1 where z >= 0 (e <= 1) and
    exactly e where z < 0 (e >= 0), the same two quotients without the np.where's
    mispredicted branch per element (about 3 ns each on random signs)."""
    np.copysign(z, -1, out=tmp)  # -|z|, exactly
    np.exp(tmp, out=tmp)  # e in (0, 1]: never overflows
    np.greater_equal(z, 0, out=out)  # 1.0 where z >= 0, else 0.0
    np.maximum(out, tmp, out=out)
    np.add(tmp, 1.0, out=tmp)
    np.divide(out, tmp, out=out)


def _d_sigmoid_into(z, out, tmp):
    _sigmoid_into(z, out, tmp)  # s
    np.subtract(1, out, out=tmp)  # 1 - s
    np.multiply(out, tmp, out=out)  # s·(1 - s)


def _silu_into(z, out, tmp):
    _sigmoid_into(z, out, tmp)
    np.multiply(z, out, out=out)  # z·s


def _d_silu_into(z, out, tmp):
    _sigmoid_into(z, out, tmp)  # s
    np.subtract(1, out, out=tmp)  # 1 - s
    np.multiply(z, tmp, out=tmp)  # z·(1 - s)
    np.add(tmp, 1, out=tmp)  # 1 + z·(1 - s)
    np.multiply(out, tmp, out=out)  # s·(1 + z·(1 - s))


def _relu_into(z, out, tmp):
    np.maximum(z, 0, out=out)


def _d_relu_into(z, out, tmp):
    np.greater(z, 0, out=out)  # (z > 0) as 1.0 / 0.0


def _tanh_into(z, out, tmp):
    np.tanh(z, out=out)


def _d_tanh_into(z, out, tmp):
    np.tanh(z, out=out)  # t
    np.multiply(out, out, out=out)  # t·t
    np.subtract(1, out, out=out)  # 1 - t·t


def _relu2_into(z, out, tmp):
    np.maximum(z, 0, out=out)  # r
    np.multiply(out, out, out=out)  # r·r


def _d_relu2_into(z, out, tmp):
    np.maximum(z, 0, out=out)
    np.multiply(out, 2, out=out)  # 2·max(z, 0)


# activation name -> (act_into, dact_into); the identity has none (nothing to compute,
# and a product with its derivative 1 is exact); the rest fall back to np_activations
_INTO = {
    "sigmoid": (_sigmoid_into, _d_sigmoid_into),
    "silu": (_silu_into, _d_silu_into),
    "relu": (_relu_into, _d_relu_into),
    "tanh": (_tanh_into, _d_tanh_into),
    "relu2": (_relu2_into, _d_relu2_into),
}


def _copy_into(fn):
    def into(z, out, tmp):
        np.copyto(out, fn(z))
    return into


def _activation_into(name):
    """(act_into, dact_into) for an activation name; None, None for the identity."""
    if name == "identity":
        return None, None
    if name in _INTO:
        return _INTO[name]
    act, dact = ACTIVATIONS[name]
    return _copy_into(act), _copy_into(dact)


def _allocating(into):
    def fn(z):
        out = np.empty_like(z)
        into(z, out, np.empty_like(z))
        return out
    return fn


# allocating forms of the fast kernels (benchmarks/recompute_ffn.py and the tests use them)
_FAST = {name: tuple(_allocating(f) for f in _INTO[name]) for name in ("sigmoid", "silu")}


def _activation(name):
    """(act, dact) as functions of z returning new arrays, bitwise np_activations'."""
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


class _Scratch:
    """`count` block-sized scratch arrays for the rows of an array shaped like `like`,
    allocated once per call and sliced to each block's rows (the last may be shorter)."""

    def __init__(self, like, count):
        rows = min(like.shape[0], _blocks(*like.shape)[0].stop) if like.shape[0] else 0
        self.bufs = [np.empty((rows, like.shape[1]), dtype=like.dtype) for _ in range(count)]

    def get(self, r, n_rows):
        k = len(range(*r.indices(n_rows)))
        return [b[:k] for b in self.bufs]


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
    act_into, _ = _activation_into(act_name)
    lead = x.shape[:-1]
    x2 = x.reshape(-1, x.shape[-1])
    cache = {"x": x2, "shape": x.shape}
    z_up = _linear(x2, weights, "up")
    cache["z_up"] = z_up
    z = _linear(x2, weights, "gate") if gated else z_up
    a = z if act_into is None else np.empty_like(z)
    hidden = np.empty_like(z) if gated else a
    scratch = _Scratch(z, 1)
    n_rows = z.shape[0]

    def job(r):
        if act_into is not None:
            (tmp,) = scratch.get(r, n_rows)
            act_into(z[r], a[r], tmp)
        if gated:
            np.multiply(a[r], z_up[r], out=hidden[r])

    _for_blocks(job, z.shape)
    if gated:
        cache.update(z_gate=z, a=a, p=hidden)
    else:
        cache["a"] = hidden
    y = _linear(hidden, weights, "down")
    return y.reshape(*lead, y.shape[-1]), cache


def _gated_grad_block(dact_into, scratch, dh, a, z_up, z_gate, dz_up, r):
    """dz_up = dh·a and dz_gate = dh·z_up·act'(z_gate) on rows r; dz_gate in place in dh."""
    tmp, g = scratch.get(r, dh.shape[0])
    if dact_into is None:  # identity: act' = 1, and g·1 = g exactly
        np.multiply(dh[r], z_up[r], out=tmp)
        np.multiply(dh[r], a[r], out=dz_up[r])  # after the last read of z_up[r] (dz_up may be it)
        dh[r] = tmp
        return
    dact_into(z_gate[r], g, tmp)  # g = act'(z_gate)
    np.multiply(dh[r], z_up[r], out=tmp)
    np.multiply(dh[r], a[r], out=dz_up[r])  # after the last read of z_up[r] (dz_up may be it)
    np.multiply(tmp, g, out=dh[r])


def _grad_block(dact_into, scratch, dh, z, r):
    tmp, g = scratch.get(r, dh.shape[0])
    dact_into(z[r], g, tmp)
    dh[r] *= g


def _spare(buf, like):
    """A view of the no-longer-needed contiguous `buf` shaped like `like`, or None (too small):
    the second input-gradient term is written there instead of into a fresh (n, d) array."""
    if buf.flags.c_contiguous and buf.dtype == like.dtype and buf.size >= like.size:
        return buf.reshape(-1)[: like.size].reshape(like.shape)
    return None


def backward(variant, weights, cache, dy, input_grad=True, free_cache=False):
    """Gradients {W_*, b_*, x} of sum(dy * y) from the cache of `forward`.

    With free_cache=True the backward consumes the cache as autograd consumes its saved
    tensors: it writes its intermediates into the cached arrays (same results) and
    empties the dict, so the peak stays at the activation memory; the cache is then
    unusable.
    """
    act_name, gated = lookup(variant)
    _, dact_into = _activation_into(act_name)
    c = cache if free_cache else dict(cache)
    x2, x_shape = c["x"], c["shape"]
    dy2 = dy.reshape(-1, dy.shape[-1])
    hidden = c.pop("p") if gated else c.pop("a")
    grads = {"W_down": hidden.T @ dy2}
    z = c["z_gate"] if gated else c["z_up"]
    reuse = free_cache and hidden is not z
    dh = np.matmul(dy2, weights["W_down"].T, out=hidden if reuse else None)
    del hidden
    scratch = _Scratch(dh, 2)
    if gated:
        a, z_up = c.pop("a"), c["z_up"]
        # dz_up = dh·a and dz_gate = dh·z_up·act'(z_gate), block by block; dz_gate in place
        # in dh, dz_up into z_up's rows once they are read (free_cache) or a new buffer
        dz_up = z_up if free_cache else np.empty_like(z_up)
        _for_blocks(partial(_gated_grad_block, dact_into, scratch, dh, a, z_up, z, dz_up),
                    dh.shape)
        del a, z_up
        dz = {"gate": dh, "up": dz_up}
    else:
        c.pop("a", None)
        if dact_into is not None:
            _for_blocks(partial(_grad_block, dact_into, scratch, dh, z), dh.shape)
        dz = {"up": dh}
    del z, scratch
    if free_cache:
        c.clear()
    for p, g in dz.items():
        grads[f"W_{p}"] = x2.T @ g
    if "b_down" in weights:
        grads["b_down"] = dy2.sum(axis=0)
    for p, g in dz.items():  # biases may be set per projection (timm's bias=(True, False))
        if f"b_{p}" in weights:
            grads[f"b_{p}"] = g.sum(axis=0)
    if input_grad:
        terms = iter(dz.items())
        p, g = next(terms)
        dx = g @ weights[f"W_{p}"].T
        spare = _spare(g, dx)  # the consumed dz: room for the next term's product
        for p, g in terms:
            dx += np.matmul(g, weights[f"W_{p}"].T, out=spare)
            spare = None
        grads["x"] = dx.reshape(x_shape)
    return grads


def param_count(weights) -> int:
    """Total number of elements in the weights."""
    return sum(int(w.size) for w in weights.values())
