"""layout="auto": the built-in layout a module's parameters fit, ambiguities (chunk order,
Linear vs Conv1D at equal shapes) decided by the float64 error of one small draw."""

import numpy as np
import torch

from ffnverify.backends import numpy_ffn
from ffnverify.backends.variants import lookup
from ffnverify.testing import layouts
from ffnverify.testing.checks import (
    _build,
    _call,
    _norm_bias,
    _outside,
    _table,
    _to_numpy,
    expected_shapes,
    fill,
)
from ffnverify.testing.results import Case, ConformanceFailure


def probe_shapes(shapes=None):
    """(d, h) for a probe build: distinct d, h and 2h (so shapes tell Linear from Conv1D
    and a fused weight from two), within the user's shape constraints."""
    shapes = shapes or {}
    k = int(shapes.get("d_multiple_of") or 1)
    d = int(shapes["d"]) if shapes.get("d") is not None else k * max(1, -(-6 // k))
    if shapes.get("h") is not None:
        h = int(shapes["h"])
    elif shapes.get("h_of") is not None:
        h = int(shapes["h_of"](d))
    else:
        h = 2 * d + 3
    return d, h


def _probe_error(case, rng_seed=0):
    """max |module − reference| in float64 on one small draw, reading through case.layout."""
    rng = np.random.default_rng(rng_seed)
    module = _build(case)
    fill(module, case, rng)
    w = layouts.read(module, _table(case))
    x = rng.standard_normal((case.n, case.d))
    with torch.no_grad():
        y = _call(module, torch.as_tensor(x, device=case.device), case, "layout")
    ref, _ = numpy_ffn.forward(case.variant, w, x)
    y = _to_numpy(y)
    if y.shape != ref.shape:
        return np.inf
    return float(np.max(np.abs(y - ref), initial=0.0))


def resolve_layout(factory, variant, bias=False, device="cpu", call=None, extra_params=(),
                   shapes=None, target=None, experts=None):
    """(layout name, note): the built-in layout the module's parameters fit; where several
    fit (chunk order of a fused weight, Linear vs Conv1D at equal shapes), the one whose
    float64 output matches the reference best. ConformanceFailure("layout") when none fits:
    the message lists the module's parameters and the closest layouts."""
    gated = lookup(variant)[1]
    d, h = probe_shapes(shapes)
    case = Case(factory, variant, "hf", _norm_bias(bias), d, h, 3, 0, device, target,
                call=call, extra=tuple(extra_params), layout_arg="auto",
                shapes=dict(shapes or {}), expert=experts)
    module = _build(case)
    expected = expected_shapes(variant, d, h, _norm_bias(bias))
    fits, near = layouts.candidates(module, gated, expected, lambda p: _outside(p, case),
                                    experts)
    if not fits:
        params = ", ".join(f"{k} {tuple(v.shape)}" for k, v in module.named_parameters())
        kind = "gated" if gated else "non-gated"
        raise ConformanceFailure(
            "layout", f"no built-in {kind} layout fits the module built with d={d}, h={h}, "
            f"bias={_norm_bias(bias)}; its parameters: {params or 'none'}; closest layouts: "
            f"{', '.join(near) or 'none'}; expected {kind} tensors "
            f"{', '.join(f'{k} {v}' for k, v in expected.items())}. Pass layout= a "
            "mapping {our name: (attribute path, transform)}", case=case)
    if len(fits) == 1:
        return fits[0], f"layout auto: {fits[0]}"
    errors = {}
    for name in fits:
        case.layout = name
        errors[name] = _probe_error(case)
    ranked = sorted(fits, key=lambda n: errors[n])
    best, second = ranked[0], ranked[1]
    return best, (f"layout auto: {best} (max float64 error {errors[best]:.2g}; runner-up "
                  f"{second}: {errors[second]:.2g})")
