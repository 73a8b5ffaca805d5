"""Reading an MoE block (`moe` checks it): which MOE_LAYOUTS layout reads it, its
parameters checked against the derivation (router E·d, E experts, every parameter read),
and its weights drawn for a case. No module is called here."""

import fnmatch

import numpy as np
import torch

from derivations.params import params as derived_params
from ffnverify.testing import layouts
from ffnverify.testing.checks import expected_shapes
from ffnverify.testing.moe_reference import MOE_LAYOUTS, SHARED, expert_tables, shared_table
from ffnverify.testing.results import ConformanceFailure


def _outside(path, extra):
    return any(fnmatch.fnmatchcase(path, pat) for pat in extra)


def _tables(module, layout, variant, h):
    router = layouts.resolve(module, MOE_LAYOUTS[layout][0])
    if not isinstance(router, torch.Tensor) or router.dim() != 2:
        return None, []
    shared = shared_table(layout, variant)
    return router, expert_tables(layout, variant, int(router.shape[0]), h) + (
        [shared] if shared else [])


def _fits(module, layout, variant, d, h, bias, extra):
    """Why `layout` does not read the module (None: it does)."""
    router, tables = _tables(module, layout, variant, h)
    if router is None:
        return f"no router weight {MOE_LAYOUTS[layout][0]}"
    if tuple(router.shape[1:]) != (d,):
        return f"router weight {tuple(router.shape)}, expected (E, {d})"
    expected = expected_shapes(variant, d, h, bias)
    covered = {MOE_LAYOUTS[layout][0]}
    if layout in SHARED:
        gate = layouts.resolve(module, SHARED[layout][2])
        if not isinstance(gate, torch.Tensor) or tuple(gate.shape) != (1, d):
            return f"no shared expert gate {SHARED[layout][2]} of shape (1, {d})"
        covered.add(SHARED[layout][2])
    for e, table in enumerate(tables):
        try:
            seen = layouts.read(module, table)
        except (ValueError, IndexError, RuntimeError) as exc:
            return f"expert {e}: {exc}"
        for name, shape in expected.items():
            if name not in seen:
                return f"expert {e}: no {name} (expected {shape})"
            if tuple(seen[name].shape) != shape:
                return f"expert {e}: {name} has shape {tuple(seen[name].shape)}, expected {shape}"
        if set(seen) - set(expected):
            return f"expert {e}: unexpected tensors {sorted(set(seen) - set(expected))}"
        covered |= set(layouts.paths(module, table))
    extra_found = [k for k, _ in module.named_parameters()
                   if k not in covered and not _outside(k, extra)]
    if extra_found:
        return f"not read by the layout: {', '.join(extra_found)}"
    return None


def check_params(module, case, E):
    """The router (E·d) and E experts of the derived size; every parameter read."""
    table_count = E * (int(derived_params(case.variant, case.d, case.h, False)) + sum(
        int(np.prod(v)) for k, v in expected_shapes(case.variant, case.d, case.h,
                                                    case.bias).items() if k.startswith("b_")))
    total = table_count + E * case.d
    if case.layout in SHARED:  # a shared expert of the same size, and its gate (1×d)
        total += table_count // E + case.d
    have = sum(p.numel() for k, p in module.named_parameters() if not _outside(k, case.extra))
    if have != total:
        raise ConformanceFailure("params", f"module has {have} parameters; {E} experts of "
                                 f"params({case.variant}, d={case.d}, h={case.h}, bias="
                                 f"{case.bias}) and a router of {E}×{case.d} make {total}",
                                 case=case)
    why = _fits(module, case.layout, case.variant, case.d, case.h, case.bias, case.extra)
    if why:
        raise ConformanceFailure("params", f"layout {case.layout}: {why}", case=case)


def fill(module, case, rng):
    """Every parameter drawn: expert weights N(0, 1/fan_in), biases N(0, 1/4), the router
    N(0, 1/d) (logits of unit scale)."""
    router_path = MOE_LAYOUTS[case.layout][0]
    _, tables = _tables(module, case.layout, case.variant, case.h)
    names = {}
    for t in tables:
        for path, our in layouts.paths(module, t).items():
            names.setdefault(path, our[0])
    fan_in = {"gate": case.d, "up": case.d, "down": case.h}
    with torch.no_grad():
        for path, param in module.named_parameters():
            if path == router_path or path == SHARED.get(case.layout, (0, 0, None))[2]:
                scale = 1 / np.sqrt(case.d)
            elif path in names:
                kind, proj = names[path].split("_", 1)
                scale = 1 / np.sqrt(fan_in[proj]) if kind == "W" else 0.5
            else:
                continue
            values = rng.standard_normal(tuple(param.shape)) * scale
            param.copy_(torch.as_tensor(values, dtype=param.dtype))


def resolve_layout(module, variant, d, h, bias, extra):
    """The MOE_LAYOUTS name that reads the module, or ConformanceFailure('layout')."""
    why = {}
    for name in MOE_LAYOUTS:
        why[name] = _fits(module, name, variant, d, h, bias, extra)
        if why[name] is None:
            return name
    params = ", ".join(f"{k} {tuple(v.shape)}" for k, v in module.named_parameters())
    raise ConformanceFailure("layout", f"no MoE layout reads the module (d={d}, h={h}): "
                             + "; ".join(f"{k}: {v}" for k, v in why.items())
                             + f"; its parameters: {params}")
