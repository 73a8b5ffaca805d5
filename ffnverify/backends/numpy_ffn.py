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
that stay in cache; every activation and its derivative is an `*_into` kernel writing with
`out=` into the cached arrays or into a few block-sized scratch arrays per call (float64
ones for the GELU forms, which np_activations computes in float64 for a float32 input), so
nothing is allocated per block. A caller that calls again and again (the bench) passes a
`Workspace`: every (n, h), (n, d) and (d, h) array then comes from it, reused from call to
call, so no large buffer is allocated and page-faulted in per call (glibc returns such
buffers to the system between calls); its bytes are counted in the bench's memory figure.
Without one, the backward allocates one (n, h) buffer per pre-activation gradient and
nothing else of that size (none with free_cache=True); the second input-gradient term
goes into the consumed dz_gate's buffer. Results are bit for bit
those of the plain expressions on np_activations, in float64 and float32 (same operations
in the same order, per element; checked in tests/backends/test_backend_speed_paths.py and
tests/bench/test_bench_helpers.py); the stable sigmoid's np.where (a mispredicted branch per
element, about 3 ns each on random signs) is replaced by an exact arithmetic select.
"""

from functools import partial

import numpy as np
from scipy import special

from ffnverify.backends import activations as A
from ffnverify.backends.activations import ACTIVATIONS
from ffnverify.backends.variants import lookup, projections

# elementwise work runs over row blocks of about this many elements: the block's
# temporaries then stay in a 1 MB L2 (measured fastest: 2-4x faster than 2**16 and up)
BLOCK_ELEMENTS = 1 << 15


# ------------------------------------------------------------ activations written into `out`
#
# Each `*_into(z, out, tmp, wide)` writes act(z) (or act'(z)) into `out`, using the arrays
# in `tmp` (z's dtype) and `wide` (float64: np_activations' GELU forms compute in float64
# for a float32 input, because their constants are NumPy float64 scalars) as scratch, each
# shaped like z: nothing is allocated. `_needs(narrow, wide)` states how many of each a
# kernel uses. Each performs, element by element, the same floating-point operations in the
# same order and at the same precision as the np_activations function it replaces (a
# commuted operand of + or × aside, which IEEE arithmetic rounds identically; a float64
# result written into a float32 `out` is rounded once, as `.astype` rounds it), so the
# results are bit for bit the same in every dtype; checked against np_activations and
# special values (±0, ±inf, nan, huge |z|) in tests/backends/test_backend_speed_paths.py.


def _needs(narrow, wide=0):
    def mark(fn):
        fn.narrow, fn.wide = narrow, wide
        return fn
    return mark


@_needs(1)
def _sigmoid_into(z, out, tmp, wide=()):
    """np_activations.sigmoid's np.where(z >= 0, 1/(1+e), e/(1+e)), e = exp(-|z|), as
    max(e, [z >= 0]) / (1 + e): the numerator is exactly 1 where z >= 0 (e <= 1) and
    exactly e where z < 0 (e >= 0), the same two quotients without the np.where's
    mispredicted branch per element (about 3 ns each on random signs)."""
    t = tmp[0]
    np.copysign(z, -1, out=t)  # -|z|, exactly
    np.exp(t, out=t)  # e in (0, 1]: never overflows
    np.greater_equal(z, 0, out=out)  # 1.0 where z >= 0, else 0.0
    np.maximum(out, t, out=out)
    np.add(t, 1.0, out=t)
    np.divide(out, t, out=out)


@_needs(1)
def _d_sigmoid_into(z, out, tmp, wide=()):
    _sigmoid_into(z, out, tmp)  # s
    np.subtract(1, out, out=tmp[0])  # 1 - s
    np.multiply(out, tmp[0], out=out)  # s·(1 - s)


@_needs(1)
def _silu_into(z, out, tmp, wide=()):
    _sigmoid_into(z, out, tmp)
    np.multiply(z, out, out=out)  # z·s


@_needs(1)
def _d_silu_into(z, out, tmp, wide=()):
    _sigmoid_into(z, out, tmp)  # s
    t = tmp[0]
    np.subtract(1, out, out=t)  # 1 - s
    np.multiply(z, t, out=t)  # z·(1 - s)
    np.add(t, 1, out=t)  # 1 + z·(1 - s)
    np.multiply(out, t, out=out)  # s·(1 + z·(1 - s))


@_needs(0)
def _relu_into(z, out, tmp=(), wide=()):
    np.maximum(z, 0, out=out)


@_needs(0)
def _d_relu_into(z, out, tmp=(), wide=()):
    np.greater(z, 0, out=out)  # (z > 0) as 1.0 / 0.0


@_needs(0)
def _tanh_into(z, out, tmp=(), wide=()):
    np.tanh(z, out=out)


@_needs(0)
def _d_tanh_into(z, out, tmp=(), wide=()):
    np.tanh(z, out=out)  # t
    np.multiply(out, out, out=out)  # t·t
    np.subtract(1, out, out=out)  # 1 - t·t


@_needs(0)
def _relu2_into(z, out, tmp=(), wide=()):
    np.maximum(z, 0, out=out)  # r
    np.multiply(out, out, out=out)  # r·r


@_needs(0)
def _d_relu2_into(z, out, tmp=(), wide=()):
    np.maximum(z, 0, out=out)
    np.multiply(out, 2, out=out)  # 2·max(z, 0)


@_needs(0, 1)
def _gelu_into(z, out, tmp, wide):
    """0.5·z·(1 + erf(z·INV_SQRT2)): z·INV_SQRT2, erf and 1 + erf in float64."""
    w = wide[0]
    np.multiply(z, A.INV_SQRT2, out=w)
    special.erf(w, out=w)
    np.add(w, 1, out=w)
    np.multiply(z, 0.5, out=out)  # 0.5·z at z's precision
    np.multiply(out, w, out=out)  # (0.5·z)·(1 + erf), in float64, rounded once


@_needs(1, 2)
def _d_gelu_into(z, out, tmp, wide):
    """cdf + z·pdf, cdf = 0.5·(1 + erf(z·INV_SQRT2)), pdf = exp(-0.5·z·z)·INV_SQRT_2PI."""
    cdf, pdf, t = wide[0], wide[1], tmp[0]
    np.multiply(z, A.INV_SQRT2, out=cdf)
    special.erf(cdf, out=cdf)
    np.add(cdf, 1, out=cdf)
    np.multiply(cdf, 0.5, out=cdf)
    np.multiply(z, -0.5, out=t)  # -0.5·z·z and its exp at z's precision
    np.multiply(t, z, out=t)
    np.exp(t, out=t)
    np.multiply(t, A.INV_SQRT_2PI, out=pdf)
    np.multiply(z, pdf, out=pdf)
    np.add(cdf, pdf, out=out)


def _gelu_tanh_inner_into(z, zc, inner, t):
    """zc = clip(z); inner = SQRT_2_OVER_PI·(zc + C·zc·zc·zc) (float64), t as scratch."""
    np.clip(z, -A.GELU_TANH_SATURATED, A.GELU_TANH_SATURATED, out=zc)
    np.multiply(zc, A.GELU_TANH_C, out=t)
    np.multiply(t, zc, out=t)
    np.multiply(t, zc, out=t)
    np.add(zc, t, out=t)
    np.multiply(t, A.SQRT_2_OVER_PI, out=inner)


@_needs(2, 1)
def _gelu_tanh_into(z, out, tmp, wide):
    t = wide[0]
    _gelu_tanh_inner_into(z, tmp[0], t, tmp[1])
    np.tanh(t, out=t)
    np.add(t, 1, out=t)
    np.multiply(z, 0.5, out=out)
    np.multiply(out, t, out=out)


@_needs(2, 3)
def _d_gelu_tanh_into(z, out, tmp, wide):
    """0.5·(1 + t) + 0.5·zc·(1 - t·t)·du, du = SQRT_2_OVER_PI·(1 + 3·C·zc·zc)."""
    zc, n = tmp
    t, du, u = wide
    _gelu_tanh_inner_into(z, zc, t, n)
    np.tanh(t, out=t)
    np.multiply(zc, 3 * A.GELU_TANH_C, out=n)  # (3·C)·zc·zc at z's precision
    np.multiply(n, zc, out=n)
    np.add(n, 1, out=n)
    np.multiply(n, A.SQRT_2_OVER_PI, out=du)
    np.multiply(t, t, out=u)
    np.subtract(1, u, out=u)  # 1 - t·t
    np.multiply(zc, 0.5, out=n)
    np.multiply(n, u, out=u)  # (0.5·zc)·(1 - t·t)
    np.multiply(u, du, out=u)
    np.add(t, 1, out=t)
    np.multiply(t, 0.5, out=t)  # 0.5·(1 + t)
    np.add(t, u, out=out)


@_needs(3)
def _quick_gelu_into(z, out, tmp, wide=()):
    """z·σ(C·clip(z)), all at z's precision."""
    c = tmp[2]
    np.clip(z, -A.QUICK_GELU_SATURATED, A.QUICK_GELU_SATURATED, out=c)
    np.multiply(c, A.QUICK_GELU_C, out=c)
    _sigmoid_into(c, out, tmp)
    np.multiply(z, out, out=out)


@_needs(3)
def _d_quick_gelu_into(z, out, tmp, wide=()):
    """s·(1 + C·zc·(1 - s)), s = σ(C·zc)."""
    c, t = tmp[2], tmp[1]
    np.clip(z, -A.QUICK_GELU_SATURATED, A.QUICK_GELU_SATURATED, out=c)
    np.multiply(c, A.QUICK_GELU_C, out=c)
    _sigmoid_into(c, out, tmp)
    np.subtract(1, out, out=t)
    np.multiply(c, t, out=t)
    np.add(t, 1, out=t)
    np.multiply(out, t, out=out)


# activation name -> (act_into, dact_into); the identity has none (nothing to compute,
# and a product with its derivative 1 is exact). Every other activation has both.
_INTO = {
    "sigmoid": (_sigmoid_into, _d_sigmoid_into),
    "silu": (_silu_into, _d_silu_into),
    "relu": (_relu_into, _d_relu_into),
    "tanh": (_tanh_into, _d_tanh_into),
    "relu2": (_relu2_into, _d_relu2_into),
    "gelu": (_gelu_into, _d_gelu_into),
    "gelu_tanh": (_gelu_tanh_into, _d_gelu_tanh_into),
    "quick_gelu": (_quick_gelu_into, _d_quick_gelu_into),
}


def _activation_into(name):
    """(act_into, dact_into) for an activation name; None, None for the identity."""
    if name == "identity":
        return None, None
    return _INTO[name]


def _scratch_for(z, *kernels):
    """(tmp, wide) lists shaped like z, as many as the kernels need."""
    narrow = max([k.narrow for k in kernels if k is not None], default=0)
    wide = max([k.wide for k in kernels if k is not None], default=0)
    return ([np.empty_like(z) for _ in range(narrow)],
            [np.empty(z.shape, dtype=np.float64) for _ in range(wide)])


def _allocating(into):
    def fn(z):
        out = np.empty_like(z)
        into(z, out, *_scratch_for(z, into))
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


class Workspace:
    """Buffers that a caller owns and passes to `forward` and `backward` call after call,
    so that no (n, h) or (d, h) array is allocated (and page-faulted in) per call: a named
    buffer is reused while its shape and dtype stay the same. With a workspace, what the
    calls return (y, the cache, the gradients) are views of its buffers, valid until the
    next call with the same workspace. `nbytes` is everything it holds (the bench counts it
    in the NumPy backend's memory)."""

    def __init__(self):
        self._bufs = {}

    def take(self, name, shape, dtype):
        """The buffer `name` with this shape and dtype (contents unspecified)."""
        shape, dtype = tuple(shape), np.dtype(dtype)
        buf = self._bufs.get(name)
        if buf is None or buf.shape != shape or buf.dtype != dtype:
            buf = self._bufs[name] = np.empty(shape, dtype=dtype)
        return buf

    @property
    def nbytes(self) -> int:
        return sum(b.nbytes for b in self._bufs.values())


def _new(ws, name, shape, dtype):
    """A buffer: from the workspace when there is one, else a fresh array."""
    return np.empty(shape, dtype=dtype) if ws is None else ws.take(name, shape, dtype)


class _Scratch:
    """Block-sized scratch for the rows of an array shaped like `like`: `narrow` arrays of
    its dtype and `wide` float64 ones, allocated once per call (or kept in a workspace) and
    sliced to each block's rows (the last may be shorter)."""

    def __init__(self, like, narrow, wide=0, ws=None, tag=""):
        rows = min(like.shape[0], _blocks(*like.shape)[0].stop) if like.shape[0] else 0
        shape = (rows, like.shape[1])
        self.narrow = [_new(ws, f"{tag}narrow{i}", shape, like.dtype) for i in range(narrow)]
        self.wide = [_new(ws, f"{tag}wide{i}", shape, np.float64) for i in range(wide)]

    def get(self, r, n_rows):
        """(narrow, wide) views for the rows r."""
        k = len(range(*r.indices(n_rows)))
        return [b[:k] for b in self.narrow], [b[:k] for b in self.wide]


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


def _linear(x, weights, p, ws=None, name=""):
    w = weights[f"W_{p}"]
    if ws is None:
        y = x @ w
    else:
        y = np.matmul(x, w, out=ws.take(name, (x.shape[0], w.shape[1]), np.result_type(x, w)))
    b = weights.get(f"b_{p}")
    if b is not None:
        y += b
    return y


def forward(variant, weights, x, workspace=None):
    """(y, cache) for input x of shape (..., d); with a `Workspace`, every array of that
    size comes from it (y and the cache are then its views, valid until its next use)."""
    ws = workspace
    act_name, gated = lookup(variant)
    act_into, _ = _activation_into(act_name)
    lead = x.shape[:-1]
    x2 = x.reshape(-1, x.shape[-1])
    cache = {"x": x2, "shape": x.shape}
    z_up = _linear(x2, weights, "up", ws, "z_up")
    cache["z_up"] = z_up
    z = _linear(x2, weights, "gate", ws, "z_gate") if gated else z_up
    a = z if act_into is None else _new(ws, "a", z.shape, z.dtype)
    hidden = _new(ws, "p", z.shape, z.dtype) if gated else a
    n_rows = z.shape[0]
    if act_into is not None:
        scratch = _Scratch(z, act_into.narrow, act_into.wide, ws, "forward ")

    def job(r):
        if act_into is not None:
            act_into(z[r], a[r], *scratch.get(r, n_rows))
        if gated:
            np.multiply(a[r], z_up[r], out=hidden[r])

    _for_blocks(job, z.shape)
    if gated:
        cache.update(z_gate=z, a=a, p=hidden)
    else:
        cache["a"] = hidden
    y = _linear(hidden, weights, "down", ws, "y")
    return y.reshape(*lead, y.shape[-1]), cache


def _gated_grad_block(dact_into, scratch, dh, a, z_up, z_gate, dz_up, r):
    """dz_up = dh·a and dz_gate = dh·z_up·act'(z_gate) on rows r; dz_gate in place in dh."""
    narrow, wide = scratch.get(r, dh.shape[0])
    g, tmp = narrow[0], narrow[1]
    if dact_into is None:  # identity: act' = 1, and g·1 = g exactly
        np.multiply(dh[r], z_up[r], out=tmp)
        np.multiply(dh[r], a[r], out=dz_up[r])  # after the last read of z_up[r] (dz_up may be it)
        dh[r] = tmp
        return
    dact_into(z_gate[r], g, narrow[1:], wide)  # g = act'(z_gate)
    np.multiply(dh[r], z_up[r], out=tmp)
    np.multiply(dh[r], a[r], out=dz_up[r])  # after the last read of z_up[r] (dz_up may be it)
    np.multiply(tmp, g, out=dh[r])


def _grad_block(dact_into, scratch, dh, z, r):
    narrow, wide = scratch.get(r, dh.shape[0])
    dact_into(z[r], narrow[0], narrow[1:], wide)
    dh[r] *= narrow[0]


def _spare(buf, like):
    """A view of the no-longer-needed contiguous `buf` shaped like `like`, or None (too small):
    the second input-gradient term is written there instead of into a fresh (n, d) array."""
    if buf.flags.c_contiguous and buf.dtype == like.dtype and buf.size >= like.size:
        return buf.reshape(-1)[: like.size].reshape(like.shape)
    return None


def _matmul(a, b, ws, name):
    if ws is None:
        return a @ b
    return np.matmul(a, b, out=ws.take(name, (a.shape[0], b.shape[1]), np.result_type(a, b)))


def backward(variant, weights, cache, dy, input_grad=True, free_cache=False, workspace=None):
    """Gradients {W_*, b_*, x} of sum(dy * y) from the cache of `forward`.

    With free_cache=True the backward consumes the cache as autograd consumes its saved
    tensors: it writes its intermediates into the cached arrays (same results) and
    empties the dict, so the peak stays at the activation memory; the cache is then
    unusable. With a `Workspace`, the gradients and intermediates come from it (views,
    valid until its next use).
    """
    ws = workspace
    act_name, gated = lookup(variant)
    _, dact_into = _activation_into(act_name)
    c = cache if free_cache else dict(cache)
    x2, x_shape = c["x"], c["shape"]
    dy2 = dy.reshape(-1, dy.shape[-1])
    hidden = c.pop("p") if gated else c.pop("a")
    grads = {"W_down": _matmul(hidden.T, dy2, ws, "grad W_down")}
    z = c["z_gate"] if gated else c["z_up"]
    reuse = free_cache and hidden is not z
    w_down_t = weights["W_down"].T
    dh = (np.matmul(dy2, w_down_t, out=hidden) if reuse
          else _matmul(dy2, w_down_t, ws, "dh"))
    del hidden
    narrow = 1 + max(1 if gated else 0, dact_into.narrow if dact_into else 0)
    scratch = _Scratch(dh, narrow, dact_into.wide if dact_into else 0, ws, "backward ")
    if gated:
        a, z_up = c.pop("a"), c["z_up"]
        # dz_up = dh·a and dz_gate = dh·z_up·act'(z_gate), block by block; dz_gate in place
        # in dh, dz_up into z_up's rows once they are read (free_cache) or a new buffer
        dz_up = z_up if free_cache else _new(ws, "dz_up", z_up.shape, z_up.dtype)
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
        grads[f"W_{p}"] = _matmul(x2.T, g, ws, f"grad W_{p}")
    if "b_down" in weights:
        grads["b_down"] = dy2.sum(axis=0)
    for p, g in dz.items():  # biases may be set per projection (timm's bias=(True, False))
        if f"b_{p}" in weights:
            grads[f"b_{p}"] = g.sum(axis=0)
    if input_grad:
        terms = iter(dz.items())
        p, g = next(terms)
        dx = _matmul(g, weights[f"W_{p}"].T, ws, "grad x")
        spare = _spare(g, dx)  # the consumed dz: room for the next term's product
        for p, g in terms:
            dx += np.matmul(g, weights[f"W_{p}"].T, out=spare)
            spare = None
        grads["x"] = dx.reshape(x_shape)
    return grads


def param_count(weights) -> int:
    """Total number of elements in the weights."""
    return sum(int(w.size) for w in weights.values())
