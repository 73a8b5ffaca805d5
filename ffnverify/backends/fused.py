"""numpy_ffn's elementwise passes fused into one numexpr expression each (optional).

numexpr (the `fast` extra, `pip install ffnverify[fast]`) evaluates a whole expression
chunk by chunk in cache, on all cores, where NumPy runs one single-threaded ufunc pass per
operation. numpy_ffn uses it for the activations written here, on arrays of at least
`MIN_ELEMENTS` elements (below that its per-call cost outweighs what it saves; the kit's
and the tests' small cases keep the pure-NumPy path, bit for bit np_activations'), unless
the caller asks otherwise (`fused=False` / `fused=True`, or FFNVERIFY_NUMEXPR=0 in the
environment).

Each expression is the formula of np_activations, operation for operation, at the same
precision: z's dtype for sigmoid, silu, tanh and quick_gelu, float64 for the tanh-GELU
(np_activations' constants are NumPy float64 scalars, so NumPy computes it in float64 for a
float32 input; the result is rounded once into z's dtype). numexpr's exp and tanh are the C
library's, not NumPy's own SIMD ones, and numexpr may contract a·b + c differently, so the
results are not bit for bit np_activations': they agree to a few units in the last place
(checked in tests/backends/test_fused_paths.py, on random and special values). The plain
GELU (erf) has no numexpr form: numexpr has no erf. No `derivations` import here either.
"""

import os

import numpy as np

from ffnverify.backends import activations as A

try:  # the optional `fast` extra
    import numexpr
except ImportError:  # pragma: no cover - exercised by the pure-NumPy runs
    numexpr = None

# arrays smaller than this take the pure-NumPy path when the choice is automatic: a
# numexpr call costs some 10-30 µs (thread hand-off), a NumPy pass over 2**16 float32 ~10 µs
MIN_ELEMENTS = 1 << 16
# row blocks of about this many elements per numexpr call (the operands of one call then
# stay in a 1-2 MB cache; numexpr shares each call's block out to its threads)
BLOCK_ELEMENTS = 1 << 17


def available() -> bool:
    return numexpr is not None


def wanted(fused, elements, name) -> bool:
    """Whether to take the fused path: `fused` True/False is the caller's choice (True
    without numexpr installed is an error); None chooses numexpr where it is installed, the
    activation has an expression, the array is large and FFNVERIFY_NUMEXPR is not 0."""
    if fused is None:
        return (numexpr is not None and name in EXPRESSIONS and elements >= MIN_ELEMENTS
                and os.environ.get("FFNVERIFY_NUMEXPR", "1") != "0")
    if fused and numexpr is None:
        raise ImportError("fused=True needs numexpr: pip install 'ffnverify[fast]'")
    if fused and name not in EXPRESSIONS:
        raise ValueError(f"no fused expression for the activation {name!r}")
    return bool(fused)


# sigmoid as np_activations writes it: where(z >= 0, 1/(1 + e), e/(1 + e)), e = exp(-|z|)
# (numexpr collapses the repeated e into one evaluation)
def _sig(z):
    e = f"exp(-abs({z}))"
    return f"(where({z} >= 0, one, {e}) / (one + {e}))"


_S = _sig("z")
_QC = f"(qc * where(z < -qs, -qs, where(z > qs, qs, z)))"  # C·clip(z): NaN stays NaN
_QS = _sig(_QC)
_ZC = "where(z < -gs, -gs, where(z > gs, gs, z))"  # clip(z, ±GELU_TANH_SATURATED)
_T = f"tanh(k * ({_ZC} + c * {_ZC} * {_ZC} * {_ZC}))"

# activation -> (act(z), act'(z), the constants' dtype: None for z's own, else float64)
EXPRESSIONS = {
    "sigmoid": (_S, f"{_S} * (one - {_S})", None),
    "silu": (f"z * {_S}", f"{_S} * (one + z * (one - {_S}))", None),
    "tanh": ("tanh(z)", "one - tanh(z) * tanh(z)", None),
    "quick_gelu": (f"z * {_QS}", f"{_QS} * (one + {_QC} * (one - {_QS}))", None),
    "gelu_tanh": (f"(z * half) * (one + {_T})",
                  f"(one + {_T}) * half + ((({_ZC} * half) * (one - {_T} * {_T}))"
                  f" * ((c3 * {_ZC} * {_ZC} + one) * k))", np.float64),
}
_CONSTANTS = {"one": 1.0, "half": 0.5, "qc": A.QUICK_GELU_C, "qs": A.QUICK_GELU_SATURATED,
              "gs": A.GELU_TANH_SATURATED, "k": A.SQRT_2_OVER_PI, "c": A.GELU_TANH_C,
              "c3": 3 * A.GELU_TANH_C}


def _constants(name, dtype):
    wide = EXPRESSIONS[name][2]
    dt = np.dtype(wide or dtype)
    return {k: dt.type(v) for k, v in _CONSTANTS.items()}


def _eval(expr, out, names):
    numexpr.evaluate(expr, local_dict=names, out=out, casting="same_kind")


def blocks(rows, cols):
    step = max(1, BLOCK_ELEMENTS // max(cols, 1))
    return [slice(i, i + step) for i in range(0, rows, step)]


def forward_into(name, z, a, z_up=None, p=None):
    """a = act(z) and, gated, p = a·z_up, block by block (a may be z's own buffer)."""
    act = EXPRESSIONS[name][0]
    k = _constants(name, z.dtype)
    for r in blocks(*z.shape):
        _eval(act, a[r], {"z": z[r], **k})
        if p is not None:
            np.multiply(a[r], z_up[r], out=p[r])


def gated_grad_into(name, dh, a, z_up, z_gate, dz_up, tmp):
    """dz_up = dh·a and dz_gate = (dh·z_up)·act'(z_gate), dz_gate in place in dh, block by
    block; `tmp` holds one block of dz_gate (dz_up may be z_up's own buffer)."""
    dact = f"(dh * zu) * ({EXPRESSIONS[name][1]})"
    k = _constants(name, dh.dtype)
    for r in blocks(*dh.shape):
        t = tmp[: len(range(*r.indices(dh.shape[0])))]
        _eval(dact, t, {"dh": dh[r], "zu": z_up[r], "z": z_gate[r], **k})
        np.multiply(dh[r], a[r], out=dz_up[r])  # after the last read of z_up[r]
        dh[r] = t


def grad_into(name, dh, z):
    """dh ← dh·act'(z), in place, block by block."""
    dact = f"dh * ({EXPRESSIONS[name][1]})"
    k = _constants(name, dh.dtype)
    for r in blocks(*dh.shape):
        _eval(dact, dh[r], {"dh": dh[r], "z": z[r], **k})


def block_rows(shape):
    """Rows of the largest block (the size of `gated_grad_into`'s tmp)."""
    return min(shape[0], blocks(*shape)[0].stop) if shape[0] else 0
