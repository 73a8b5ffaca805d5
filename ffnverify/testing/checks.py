"""The checks of the conformance kit on one drawn case: building and filling the module,
the reference and its bounds, and the checks params, independence, forward/backward,
train-mode, saturation and flops (`conformance` runs them in that order)."""

import copy
from dataclasses import dataclass

import numpy as np
import torch

from derivations.flops import flops as derived_flops
from derivations.params import params as derived_params
from derivations.params import weight_shapes
from ffnverify.backends import numpy_ffn
from ffnverify.backends.variants import lookup
from ffnverify.testing import layouts, tolerances
from ffnverify.testing.results import ConformanceFailure, ToolFailure, Vacuous

# largest |pre-activation| reached by the saturation check; float16 stops where exp(-z)
# overflows (e^12 > 65504) without the outputs overflowing
SATURATION = {"float64": 40.0, "float32": 40.0, "bfloat16": 40.0, "float16": 12.0}
MAX_INPUT_SCALE = 16.0  # ...but inputs grow at most 16-fold (keeps float16 gradients finite)
BIAS_SCALE = 0.5  # drawn biases are N(0, 1/4); weights N(0, 1/fan_in)


# ---------------------------------------------------------------- comparison


def _to_numpy(t):
    return t.detach().to("cpu", torch.float64).numpy()


def compare(check, tensor, got, expected, bound, case, dtype):
    """Raise ConformanceFailure unless |got − expected| <= bound elementwise."""
    got = np.asarray(got, dtype=np.float64)
    if got.shape != expected.shape:
        raise ConformanceFailure(check, f"{tensor} has shape {got.shape}, expected "
                                 f"{expected.shape}", dtype=dtype, tensor=tensor, case=case)
    with np.errstate(invalid="ignore", over="ignore"):  # inf/NaN in `got` are judged below
        err = np.abs(got - expected)
        err = np.where(np.isfinite(got), err, np.inf)
        excess = err / np.maximum(bound, np.finfo(np.float64).tiny)
    excess[np.isnan(excess)] = np.inf  # never let a NaN pass as "within the bound"
    if err.size == 0 or not np.any(excess > 1):
        return
    idx = np.unravel_index(int(np.argmax(excess)), err.shape)
    raise ConformanceFailure(
        check, f"{tensor} differs from the float64 reference beyond the bound",
        dtype=dtype, tensor=tensor, index=tuple(int(i) for i in idx), got=float(got[idx]),
        expected=float(expected[idx]), error=float(err[idx]), bound=float(bound[idx]),
        scale=float(np.max(np.abs(expected))), case=case)


# ---------------------------------------------------------------- set-up


def _table(case):
    return layouts.mapping(lookup(case.variant)[1], case.layout, case.expert, case.h)


def _build(case):
    try:
        module = case.factory(case.d, case.h, case.bias)
    except Exception as exc:  # the factory is user code: report, do not crash
        raise ConformanceFailure("factory", f"factory({case.d}, {case.h}, {case.bias}) raised "
                                 f"{type(exc).__name__}: {exc}", case=case) from exc
    if not isinstance(module, torch.nn.Module):
        raise ConformanceFailure("factory", f"factory returned {type(module).__name__}, "
                                 "not a torch.nn.Module", case=case)
    return module.eval().to(case.device, torch.float64)


def _norm_bias(b):
    """A bias setting: a bool (every projection), or {projection: bool} (per projection,
    e.g. timm's bias=(True, False) is {"up": True, "down": False})."""
    if isinstance(b, dict):
        return {str(k): bool(v) for k, v in b.items()}
    return bool(b)


def _bias_key(b):
    return b if isinstance(b, bool) else ", ".join(f"{k}={v}" for k, v in b.items())


def expected_shapes(variant, d, h, bias):
    """{our name: shape} of a module with that bias setting (bool or per projection)."""
    full = {k: tuple(int(s) for s in v)
            for k, v in weight_shapes(variant, d, h, bool(bias) if isinstance(bias, bool)
                                      else any(bias.values())).items()}
    if isinstance(bias, dict):
        full = {k: v for k, v in full.items() if k.startswith("W_") or bias.get(k[2:], False)}
    return full


def _outside(path, case):
    """A parameter outside the FFN: declared so (extra_params), or an experts layout's
    router."""
    import fnmatch

    return (any(fnmatch.fnmatchcase(path, pat) for pat in case.extra)
            or layouts.routed(case.layout, path))


def check_params(module, case):
    """Parameter count and shapes against the derivations; every parameter read by the layout."""
    table = _table(case)
    expected = expected_shapes(case.variant, case.d, case.h, case.bias)
    total = int(derived_params(case.variant, case.d, case.h, False)) + sum(
        int(np.prod(v)) for k, v in expected.items() if k.startswith("b_"))
    named = {k: v for k, v in module.named_parameters() if not _outside(k, case)}
    sizes = layouts.read_sizes(module, table)  # an expert's slice of a stacked tensor
    have = sum(sizes.get(k, p.numel()) for k, p in named.items())
    covered = layouts.paths(module, table)
    extra = [k for k in named if k not in covered]
    if have != total or extra:
        detail = f"; not read by the layout: {', '.join(extra)}" if extra else ""
        raise ConformanceFailure("params", f"module has {have} parameters, the derivation "
                                 f"params({case.variant}, d={case.d}, h={case.h}, "
                                 f"bias={case.bias}) = {total}{detail}", case=case)
    seen = layouts.read(module, table)
    for name, shape in expected.items():
        if name not in seen:
            raise ConformanceFailure("params", f"layout finds no {name} (expected shape "
                                     f"{shape})", tensor=name, case=case)
        if tuple(seen[name].shape) != shape:
            raise ConformanceFailure("params", f"{name} has shape {tuple(seen[name].shape)}"
                                     f", expected {shape}", tensor=name, case=case)
    unexpected = sorted(set(seen) - set(expected))
    if unexpected:
        raise ConformanceFailure("params", f"unexpected tensors {unexpected} (bias="
                                 f"{case.bias})", case=case)


def fill(module, case, rng):
    """Overwrite every parameter with drawn values: N(0, 1/fan_in) weights, N(0, 1/4) biases."""
    fan_in = {"gate": case.d, "up": case.d, "down": case.h}
    by_path = layouts.paths(module, _table(case))
    with torch.no_grad():
        for path, param in module.named_parameters():
            if path not in by_path and _outside(path, case):
                continue
            name = by_path[path][0]
            kind, proj = name.split("_", 1)
            scale = 1 / np.sqrt(fan_in[proj]) if kind == "W" else BIAS_SCALE
            values = rng.standard_normal(tuple(param.shape)) * scale
            param.copy_(torch.as_tensor(values, dtype=param.dtype))


def _reference(variant, w, x, dy):
    y, cache = numpy_ffn.forward(variant, w, x)
    return {"y": y, **numpy_ffn.backward(variant, w, cache, dy)}


@dataclass
class Prepared:
    """One dtype's module copy, inputs, float64 reference and bounds."""

    dtype: str
    module: object
    weights: dict
    x: np.ndarray
    dy: np.ndarray
    ref: dict
    bound: dict
    wide: dict | None = None  # the op-by-op activation bound, tried where `bound` fails


def _bounds(case, w, x, dy, dtype, ref):
    """(bound, wide): the bound of the Case's act_eval and, for "auto", the op-by-op one."""
    plain = tolerances.plain_errors(case.variant, w, x, dy, dtype, case.device, ref)
    first = "op-by-op" if case.act_eval == "op-by-op" else "fused"
    bound = tolerances.bounds(case.variant, w, x, dy, dtype, plain, first)
    wide = None
    if case.act_eval == "auto":
        wide = tolerances.bounds(case.variant, w, x, dy, dtype, plain, "op-by-op")
    return bound, wide


def _copy(module64, case):
    """A copy of the filled module: deepcopy, or (where it cannot) a fresh factory build
    with the same state dict."""
    try:
        return copy.deepcopy(module64)
    except Exception:
        fresh = _build(case)
        fresh.load_state_dict(module64.state_dict())
        return fresh


def prepare(module64, case, dtype, x64, dy64):
    tdt = getattr(torch, dtype)
    module = _copy(module64, case).to(tdt)
    w = layouts.read(module, _table(case))
    x = _to_numpy(torch.as_tensor(x64).to(tdt))  # the dtype-rounded values, exactly
    dy = _to_numpy(torch.as_tensor(dy64).to(tdt))
    ref = _reference(case.variant, w, x, dy)
    bound, wide = _bounds(case, w, x, dy, dtype, ref)
    assert_not_vacuous(dtype, ref, wide or bound, "")  # the bound that may accept
    return Prepared(dtype, module, w, x, dy, ref, bound, wide)


def assert_not_vacuous(dtype, ref, bound, what, ratio=True):
    """Raise Vacuous unless every tensor is nonzero and inside the dtype's range, and (with
    `ratio`) every bound is far below its tensor's largest value."""
    top = float(torch.finfo(getattr(torch, dtype)).max)
    for name, r in ref.items():
        signal = float(np.max(np.abs(r), initial=0.0))
        worst = float(np.max(bound[name], initial=0.0))
        cap = tolerances.VACUITY_RATIO[dtype] * signal if ratio else top
        if not (0 < signal < top / 4) or not worst <= cap:
            raise Vacuous(f"[{dtype}] {what}{name}: bound {worst:.3g} vs max |reference| "
                          f"{signal:.3g}")


def _tensor(arr, p, case):
    return torch.as_tensor(arr, dtype=getattr(torch, p.dtype), device=case.device)


def _output(out, case, check, dtype):
    """The output tensor of a forward: a tensor, or a tuple whose other items are None."""
    if isinstance(out, torch.Tensor):
        return out
    if isinstance(out, (tuple, list)) and out and isinstance(out[0], torch.Tensor) and all(
            o is None for o in out[1:]):
        return out[0]
    kinds = ", ".join(type(o).__name__ for o in out) if isinstance(out, (tuple, list)) \
        else type(out).__name__
    raise ConformanceFailure(check, f"the module's forward returned ({kinds}), not a tensor; "
                             "pass call=f(module, x) -> y (Megatron's (output, bias): "
                             "ffnverify.testing.megatron_call)", dtype=dtype, case=case)


def _call(module, x, case, check, dtype=None):
    """module(x) (or case.call(module, x)); an exception fails `check`, naming it."""
    call = case.call or _layout_call(case)
    try:
        out = call(module, x) if call is not None else module(x)
    except ConformanceFailure:
        raise
    except Exception as exc:  # the module is user code: report, do not crash
        raise ConformanceFailure(check, f"the module's forward raised {type(exc).__name__}: "
                                 f"{exc} (input shape {tuple(x.shape)}, {x.dtype})",
                                 dtype=dtype, case=case) from exc
    return _output(out, case, check, dtype)


def _layout_call(case):
    """The call an experts layout needs: route every token to the case's expert."""
    if case.layout in ("mixtral-experts", "dbrx-experts"):
        return routed_call(case.expert or 0)
    if case.layout == "litgpt-moe":
        return sequence_call
    return None


def routed_call(expert):
    """call(module, x) for experts modules with forward(x, top_k_index, top_k_weights)
    (transformers' MixtralExperts, Qwen-MoE, DbrxExperts): every token to `expert`, with
    weight 1; the output in x's shape."""
    def call(module, x):
        flat = x.reshape(-1, x.shape[-1])
        index = torch.full((flat.shape[0], 1), int(expert), dtype=torch.long,
                           device=x.device)
        weights = torch.ones((flat.shape[0], 1), dtype=x.dtype, device=x.device)
        return module(flat, index, weights).reshape(x.shape)

    call.expert = expert
    return call


def sequence_call(module, x):
    """Forwards that take (batch, sequence, d) only (litgpt's LLaMAMoE): (n, d) runs as
    (1, n, d)."""
    return module(x.unsqueeze(0)).squeeze(0) if x.dim() == 2 else module(x)


def megatron_call(module, x):
    """Megatron-style forwards returning (output, output_bias): output + bias."""
    out, bias = module(x)
    return out if bias is None else out + bias


def _run(module, x, case, check="independence", dtype=None):
    with torch.no_grad():
        return _call(module, x, case, check, dtype)


# ---------------------------------------------------------------- checks


def check_independence(p, case, rng_row, j):
    """Tokens are processed independently (within the forward bound)."""
    x = _tensor(p.x, p, case)
    y = _to_numpy(_run(p.module, x, case, "forward", p.dtype))
    b = p.bound["y"]
    if y.shape != p.ref["y"].shape:
        compare("forward", "y", y, p.ref["y"], b, case, p.dtype)
    xp = x.clone()
    xp[j] = _tensor(rng_row, p, case)
    yp = _to_numpy(_run(p.module, xp, case, dtype=p.dtype))
    others = [i for i in range(case.n) if i != j]
    if others:
        compare("independence", f"y with token {j} perturbed (other tokens)", yp[others],
                y[others], b[others], case, p.dtype)
    for i in sorted({0, case.n - 1}):
        yi = _to_numpy(_run(p.module, x[i:i + 1], case, dtype=p.dtype))
        compare("independence", f"y of token {i} run alone vs in the batch", yi, y[i:i + 1],
                b[i:i + 1], case, p.dtype)
    y3 = _to_numpy(_run(p.module, x.unsqueeze(0), case, dtype=p.dtype))
    compare("independence", "y of input (1, n, d) vs (n, d)", y3.reshape(y.shape)
            if y3.size == y.size else y3, y, b, case, p.dtype)
    batch = next((k for k in range(2, case.n) if case.n % k == 0), None)
    if batch is not None:  # batch > 1 and sequence > 1: (b, s, d)
        shape = (batch, case.n // batch, case.d)
        yb = _to_numpy(_run(p.module, x.reshape(shape), case, dtype=p.dtype))
        compare("independence", f"y of input {shape} vs (n, d)", yb.reshape(y.shape)
                if yb.size == y.size else yb, y, b, case, p.dtype)


def _forward_backward(p, case, x_arr, dy_arr, check_fwd="forward", check_bwd="backward"):
    for param in p.module.parameters():
        param.grad = None
    x = _tensor(x_arr, p, case).requires_grad_(True)
    y = _call(p.module, x, case, check_fwd, p.dtype)
    if y.dtype != x.dtype:
        raise ConformanceFailure(check_fwd, f"output dtype {y.dtype} for input dtype "
                                 f"{x.dtype}", dtype=p.dtype, tensor="y", case=case)
    if y.shape != x.shape:
        raise ConformanceFailure(check_fwd, f"output shape {tuple(y.shape)} for input shape "
                                 f"{tuple(x.shape)}", dtype=p.dtype, tensor="y", case=case)
    if y.requires_grad:
        try:
            y.backward(_tensor(dy_arr, p, case))
        except Exception as exc:
            raise ConformanceFailure(check_bwd, f"backward raised {type(exc).__name__}: {exc}",
                                     dtype=p.dtype, case=case) from exc
    grads = layouts.read(p.module, _table(case), grads=True)
    grads["x"] = _to_numpy(x.grad) if x.grad is not None else np.zeros(x_arr.shape)
    return _to_numpy(y), grads


def _judge(check, tensor, got, expected, bound, wide, case, dtype):
    """compare() against `bound`; where that fails and act_eval is "auto", against the
    op-by-op bound `wide` (and note that this dtype needed it)."""
    try:
        compare(check, tensor, got, expected, bound, case, dtype)
    except ConformanceFailure:
        if wide is None:
            raise
        compare(check, tensor, got, expected, wide, case, dtype)
        case.notes.add(dtype)


def _compare_all(check_fwd, check_bwd, p, case, y, grads, ref, bound, wide=None):
    wide = wide or {}
    _judge(check_fwd, "y", y, ref["y"], bound["y"], wide.get("y"), case, p.dtype)
    for name in sorted(ref, key=lambda k: (k == "x", k)):
        if name == "y":
            continue
        label = "grad x (input)" if name == "x" else f"grad {name}"
        _judge(check_bwd, label, grads[name], ref[name],
               bound[name], wide.get(name), case, p.dtype)


def check_forward_backward(p, case):
    y, grads = _forward_backward(p, case, p.x, p.dy)
    _compare_all("forward", "backward", p, case, y, grads, p.ref, p.bound, p.wide)


def check_train_mode(p, case):
    """module.train() with every dropout probability set to 0 computes the same function
    (a training-only code path, a flag read in forward, a fused kernel used in training)."""
    from torch.nn.modules.dropout import _DropoutNd

    drops = [m for m in p.module.modules() if isinstance(m, _DropoutNd)]
    saved = [m.p for m in drops]
    # functional dropout reads a float attribute (Starcoder2's residual_dropout, GPT's
    # resid_pdrop): every float attribute whose name says dropout is set to 0 too
    floats = [(m, k, v) for m in p.module.modules() for k, v in vars(m).items()
              if isinstance(v, float) and ("dropout" in k.lower() or "pdrop" in k.lower())]
    try:
        for m in drops:
            m.p = 0.0
        for m, k, _ in floats:
            setattr(m, k, 0.0)
        p.module.train()
        y, grads = _forward_backward(p, case, p.x, p.dy, "train-mode", "train-mode")
        _compare_all("train-mode", "train-mode", p, case, y, grads, p.ref, p.bound, p.wide)
    finally:
        p.module.eval()
        for m, prob in zip(drops, saved):
            m.p = prob
        for m, k, v in floats:
            setattr(m, k, v)


def saturated(p, case):
    """The dtype's inputs scaled so max |pre-activation| reaches SATURATION[dtype]."""
    act_in = "W_gate" if "W_gate" in p.weights else "W_up"
    zmax = float(np.max(np.abs(p.x @ p.weights[act_in]), initial=0.0))
    if zmax == 0:
        raise Vacuous("saturation: x @ W is zero")
    tdt = getattr(torch, p.dtype)
    scale = min(SATURATION[p.dtype] / zmax, MAX_INPUT_SCALE)
    x = _to_numpy(torch.as_tensor(p.x * scale).to(tdt))
    ref = _reference(case.variant, p.weights, x, p.dy)
    bound, wide = _bounds(case, p.weights, x, p.dy, p.dtype, ref)
    # in the tails the gate's gradient legitimately vanishes (σ' -> 0), so only range and
    # finiteness are required here: this check is after NaN, overflow and clamped tails
    assert_not_vacuous(p.dtype, ref, wide or bound, "saturation ", ratio=False)
    return x, ref, bound, wide


def check_saturation(p, case, sat):
    x, ref, bound, wide = sat
    y, grads = _forward_backward(p, case, x, p.dy, "saturation", "saturation")
    _compare_all("saturation", "saturation", p, case, y, grads, ref, bound, wide)


def _outside_modules(module, case):
    """Paths of the outermost submodules whose every parameter lies outside the FFN
    (extra_params: a router, a norm): their matmul FLOPs are counted apart."""
    out = []
    for path, sub in module.named_modules():
        if not path or any(path.startswith(p + ".") for p in out):
            continue
        names = [f"{path}.{k}" for k, _ in sub.named_parameters()]
        if names and all(_outside(k, case) for k in names):
            out.append(path)
    return out


def _counted(module64, case, x, dy=None):
    """(matmul FLOPs of the FFN, of the outside submodules) of one forward (and backward,
    given dy). The outside submodules' share is their own calls, recorded and counted
    again alone (FlopCounterMode's per-module attribution of a backward is not reliable).
    ToolFailure when the counter fails where the plain call does not."""
    from torch.utils.flop_counter import FlopCounterMode

    calls = []
    subs = [module64.get_submodule(p) for p in _outside_modules(module64, case)]
    hooks = [m.register_forward_hook(lambda m, args, out: calls.append((m, args)))
             for m in subs]

    def once():
        calls.clear()
        out = _call(module64, x, case, "flops")
        if dy is not None:
            out.backward(dy)

    try:
        try:
            with FlopCounterMode(display=False) as counter:
                once()
        except Exception as exc:
            try:
                once()  # the same call without the counter: is it the module's failure?
            except Exception:
                raise exc from None
            raise ToolFailure(f"{type(exc).__name__}: {exc}") from exc
    finally:
        for hook in hooks:
            hook.remove()
    apart = _alone(calls, dy is not None)
    return counter.get_total_flops() - apart, apart


def _alone(calls, backward):
    """Matmul FLOPs of recorded submodule calls run again by themselves (and backward)."""
    from torch.utils.flop_counter import FlopCounterMode

    total = 0
    for m, args in calls:
        inputs = tuple(a.detach().requires_grad_(a.requires_grad)
                       if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                       for a in args)
        with FlopCounterMode(display=False) as counter:
            out = m(*inputs)
            if backward and isinstance(out, torch.Tensor) and out.requires_grad:
                out.backward(torch.ones_like(out))
        total += counter.get_total_flops()
        for param in m.parameters():
            param.grad = None
    return total


def check_flops(module64, case, x64, dy64):
    """Matmul FLOPs under FlopCounterMode against the derivation (forward; forward+backward).

    The FLOPs of submodules outside the FFN (every parameter in extra_params: a router)
    are counted apart. Where FlopCounterMode itself fails on a call that runs without it
    (under no_grad, on some expert modules), the forward is counted with grad enabled; if
    the counter still fails, the check is left out and the Case notes why (never reported
    as the module's failure)."""
    v, d, h, n = case.variant, case.d, case.h, case.n
    x = torch.as_tensor(x64, dtype=torch.float64, device=case.device)
    dy = torch.as_tensor(dy64, dtype=torch.float64, device=case.device)
    try:
        try:
            with torch.no_grad():
                got, apart = _counted(module64, case, x)
        except ToolFailure:
            got, apart = _counted(module64, case, x)  # the forward's count, grad enabled
        want = int(derived_flops(v, d, h, n, "forward"))
        if got != want:
            raise ConformanceFailure("flops", f"forward pass counted {got} matmul FLOPs"
                                     f"{_apart(apart)}, derivation flops({v}, {d}, {h}, "
                                     f"{n}, forward) = {want}", case=case)
        got, apart = _counted(module64, case, x.clone().requires_grad_(True), dy)
    except ToolFailure as exc:
        case.tool_notes.add(f"flops not checked: torch's FlopCounterMode failed on this "
                            f"module ({exc}), which runs without it")
        return
    finally:
        for param in module64.parameters():
            param.grad = None
    want = int(derived_flops(v, d, h, n, "train"))
    if got != want:
        raise ConformanceFailure("flops", f"forward+backward counted {got} matmul FLOPs"
                                 f"{_apart(apart)}, derivation flops({v}, {d}, {h}, {n}, "
                                 f"train) = {want}", case=case)


def _apart(apart):
    return f" (and {apart} in the submodules outside the FFN, counted apart)" if apart else ""


class _kit_settings:
    """While the kit runs: TF32 off on CUDA (float32 must mean float32), and one CPU thread
    (the drawn shapes are tiny: thread start-up costs 5-15× the work on a busy machine)."""

    def __init__(self, device):
        self.cuda = str(device).startswith("cuda")

    def __enter__(self):
        self.threads = torch.get_num_threads()
        torch.set_num_threads(1)
        if self.cuda:
            self.saved = (torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32)
            torch.backends.cuda.matmul.allow_tf32 = False
            torch.backends.cudnn.allow_tf32 = False

    def __exit__(self, *exc):
        torch.set_num_threads(self.threads)
        if self.cuda:
            torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = self.saved
