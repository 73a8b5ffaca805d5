"""The conformance kit: point it at any FFN module and compare it with an independent reference.

`check_ffn(factory, variant, layout=...)` builds modules with `factory(d, h, bias)` for
Hypothesis-drawn shapes, fills their parameters with drawn values, reads them back through
the layout, and compares the module with the float64 NumPy reference (`ffnverify.numpy_ffn`)
computed from those very weights. Checks, in the order they run (the first failure is
reported; a factory that raises or returns no nn.Module fails as 'factory'):

1. params        parameter count and shapes against `derivations.params` (every parameter
                 of the module must be read by the layout: no extra ones, no missing bias)
2. independence  an FFN does not mix tokens: perturbing one token leaves the others alone,
                 a token alone gives what it gives in the batch, (n, d) == (1, n, d)
3. forward       the output, per dtype (float64 first)
4. backward      the gradient of every weight, every bias and the input
5. saturation    forward and backward again with inputs scaled so |pre-activation| reaches
                 SATURATION[dtype] (sigmoid/SiLU/GELU tails, overflow of naive exp)
6. flops         matmul FLOPs of forward and of forward+backward under
                 torch.utils.flop_counter.FlopCounterMode against `derivations.flops`

Bounds come from `tolerances.bounds` (unit roundoff, shapes, and the error of the same
computation done plainly in the dtype); draws whose bounds are not far below the signal
(anti-vacuity, `tolerances.VACUITY_RATIO`) leave that dtype out of that draw, and a draw
vacuous in every dtype is discarded; both are counted in the Report. A failure raises
`ConformanceFailure` naming the check, dtype, tensor, worst element, error, bound, the drawn
shapes and a one-line reproducer.
"""

import copy
import time
from dataclasses import dataclass, field

import numpy as np
import torch

from derivations.flops import flops as derived_flops
from derivations.params import params as derived_params
from derivations.params import weight_shapes
from ffnverify import numpy_ffn
from ffnverify.backend_variants import lookup
from ffnverify.testing import layouts, tolerances

CHECKS = ("params", "independence", "forward", "backward", "saturation", "flops")
DTYPES = ("float64", "float32", "bfloat16", "float16")
DEFAULT_MAX_EXAMPLES = 100  # per bias setting
# how the module evaluates its activation (tolerances.ACT_EVALS), or "auto": either
ACT_EVALS = ("auto", "fused", "op-by-op")
# drawn shapes: d (model width), h (hidden width), n (tokens)
MAX_D, MAX_H, MAX_N = 64, 128, 8
# largest |pre-activation| reached by the saturation check; float16 stops where exp(-z)
# overflows (e^12 > 65504) without the outputs overflowing
SATURATION = {"float64": 40.0, "float32": 40.0, "bfloat16": 40.0, "float16": 12.0}
MAX_INPUT_SCALE = 16.0  # ...but inputs grow at most 16-fold (keeps float16 gradients finite)
BIAS_SCALE = 0.5  # drawn biases are N(0, 1/4); weights N(0, 1/fan_in)


class ConformanceFailure(AssertionError):
    """The module does not conform; str() is the full failure report."""

    def __init__(self, check, message, *, dtype=None, tensor=None, index=None, got=None,
                 expected=None, error=None, bound=None, scale=None, case=None):
        self.check, self.message, self.dtype, self.tensor = check, message, dtype, tensor
        self.scale = scale
        self.index, self.got, self.expected = index, got, expected
        self.error, self.bound, self.case = error, bound, case
        super().__init__(self.report())

    def report(self):
        where = f"[{self.dtype}]" if self.dtype else ""
        lines = [f"FFN conformance failure: check '{self.check}'{where}: {self.message}"]
        if self.tensor is not None:
            lines.append(f"  tensor:    {self.tensor}")
        if self.index is not None:
            lines.append(f"  worst at:  index {self.index}: got {self.got!r}, "
                         f"reference {self.expected!r}")
        if self.error is not None:
            ratio = self.error / self.bound if self.bound else float("inf")
            lines.append(f"  error:     {self.error:.6g} > bound {self.bound:.6g} "
                         f"({ratio:.3g}× the bound)")
        if self.scale is not None:
            lines.append(f"  scale:     max |reference| over the tensor = {self.scale:.6g}")
        if self.case is not None:
            c = self.case
            lines.append(f"  drawn:     d={c.d} h={c.h} n={c.n} bias={c.bias} seed={c.seed} "
                         f"variant={c.variant} layout={c.layout_name} device={c.device} "
                         f"act_eval={c.act_eval}")
            lines.append(f"  reproduce: {c.reproducer(self.dtype)}")
        return "\n".join(lines)


class Vacuous(Exception):
    """The drawn case cannot discriminate: a bound is not far below the signal."""


@dataclass
class Case:
    """One drawn example: what to build and the seed of every drawn value."""

    factory: object
    variant: str
    layout: object
    bias: bool
    d: int
    h: int
    n: int
    seed: int
    device: str = "cpu"
    target: str | None = None
    act_eval: str = "auto"
    notes: set = field(default_factory=set)  # dtypes accepted only by the op-by-op bound

    @property
    def layout_name(self):
        return self.layout if isinstance(self.layout, str) else "mapping"

    def reproducer(self, dtype=None):
        dt = f" --dtypes {dtype}" if dtype else ""
        ae = "" if self.act_eval == "auto" else f" --act-eval {self.act_eval}"
        if self.target and isinstance(self.layout, str):
            return (f"ffnverify check {self.target} --variant {self.variant} "
                    f"--layout {self.layout} --bias {str(self.bias).lower()}{dt}{ae} "
                    f"--device {self.device} --seed {self.seed} "
                    f"--d {self.d} --h {self.h} --n {self.n}")
        dts = f", dtypes=({dtype!r},)" if dtype else ""
        aes = "" if self.act_eval == "auto" else f", act_eval={self.act_eval!r}"
        name = getattr(self.factory, "__qualname__", repr(self.factory))
        return (f"ffnverify.testing.check_example({name}, {self.variant!r}, "
                f"layout={self.layout!r}, bias={self.bias}, seed={self.seed}, d={self.d}, "
                f"h={self.h}, n={self.n}, device={self.device!r}{dts}{aes})")


@dataclass
class Report:
    """What a passing `check_ffn` run did."""

    variant: str
    layout: str
    examples: dict = field(default_factory=dict)  # bias -> examples run
    discarded: dict = field(default_factory=dict)  # bias -> draws vacuous in every dtype
    skipped: dict = field(default_factory=dict)  # bias -> (draw, dtype) runs left out as vacuous
    dtypes: tuple = ()
    checks: tuple = CHECKS
    seconds: float = 0.0
    act_eval: str = "auto"
    op_by_op: tuple = ()  # dtypes that needed the op-by-op activation bound (act_eval auto)

    def summary(self):
        runs = ", ".join(
            f"bias={b}: {k} examples × {len(self.dtypes)} dtypes ({self.skipped.get(b, 0)} "
            f"example-dtype runs skipped and {self.discarded.get(b, 0)} draws discarded as "
            "vacuous)" for b, k in self.examples.items())
        return (f"conformant: variant {self.variant}, layout {self.layout}; checks "
                f"{', '.join(self.checks)}; dtypes {', '.join(self.dtypes)}; {runs}; "
                f"{self.activation_note()}; {self.seconds:.1f} s")

    def activation_note(self):
        """How the activation's rounding was judged (act_eval)."""
        if self.act_eval == "op-by-op":
            return "activation bound: evaluated op by op at the working precision"
        if self.act_eval == "fused" or not self.op_by_op:
            return "activation bound: evaluated in float32 and rounded once"
        return ("activation bound: evaluated op by op at the working precision in "
                f"{', '.join(self.op_by_op)} (as gelu_new or x*sigmoid(x) do; within "
                "the float32-then-round-once bound elsewhere)")


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
    return layouts.mapping(lookup(case.variant)[1], case.layout)


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


def check_params(module, case):
    """Parameter count and shapes against the derivations; every parameter read by the layout."""
    table = _table(case)
    expected = {k: tuple(int(s) for s in v)
                for k, v in weight_shapes(case.variant, case.d, case.h, case.bias).items()}
    total = int(derived_params(case.variant, case.d, case.h, case.bias))
    named = dict(module.named_parameters())
    have = sum(p.numel() for p in named.values())
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


def prepare(module64, case, dtype, x64, dy64):
    tdt = getattr(torch, dtype)
    module = copy.deepcopy(module64).to(tdt)
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


def _run(module, x):
    with torch.no_grad():
        return module(x)


# ---------------------------------------------------------------- checks


def check_independence(p, case, rng_row, j):
    """Tokens are processed independently (within the forward bound)."""
    x = _tensor(p.x, p, case)
    y = _to_numpy(_run(p.module, x))
    b = p.bound["y"]
    if y.shape != p.ref["y"].shape:
        compare("forward", "y", y, p.ref["y"], b, case, p.dtype)
    xp = x.clone()
    xp[j] = _tensor(rng_row, p, case)
    yp = _to_numpy(_run(p.module, xp))
    others = [i for i in range(case.n) if i != j]
    if others:
        compare("independence", f"y with token {j} perturbed (other tokens)", yp[others],
                y[others], b[others], case, p.dtype)
    for i in sorted({0, case.n - 1}):
        yi = _to_numpy(_run(p.module, x[i:i + 1]))
        compare("independence", f"y of token {i} run alone vs in the batch", yi, y[i:i + 1],
                b[i:i + 1], case, p.dtype)
    y3 = _to_numpy(_run(p.module, x.unsqueeze(0)))
    compare("independence", "y of input (1, n, d) vs (n, d)", y3.reshape(y.shape)
            if y3.size == y.size else y3, y, b, case, p.dtype)


def _forward_backward(p, case, x_arr, dy_arr):
    for param in p.module.parameters():
        param.grad = None
    x = _tensor(x_arr, p, case).requires_grad_(True)
    y = p.module(x)
    if y.dtype != x.dtype:
        raise ConformanceFailure("forward", f"output dtype {y.dtype} for input dtype {x.dtype}",
                                 dtype=p.dtype, tensor="y", case=case)
    if y.requires_grad:
        y.backward(_tensor(dy_arr, p, case))
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
        _judge(check_bwd, label, grads.get(name, np.zeros_like(ref[name])), ref[name],
               bound[name], wide.get(name), case, p.dtype)


def check_forward_backward(p, case):
    y, grads = _forward_backward(p, case, p.x, p.dy)
    _compare_all("forward", "backward", p, case, y, grads, p.ref, p.bound, p.wide)


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
    y, grads = _forward_backward(p, case, x, p.dy)
    _compare_all("saturation", "saturation", p, case, y, grads, ref, bound, wide)


def check_flops(module64, case, x64, dy64):
    """Matmul FLOPs under FlopCounterMode against the derivation (forward; forward+backward)."""
    from torch.utils.flop_counter import FlopCounterMode

    v, d, h, n = case.variant, case.d, case.h, case.n
    x = torch.as_tensor(x64, dtype=torch.float64, device=case.device)
    with FlopCounterMode(display=False) as counter:
        with torch.no_grad():
            module64(x)
    got, want = counter.get_total_flops(), int(derived_flops(v, d, h, n, "forward"))
    if got != want:
        raise ConformanceFailure("flops", f"forward pass counted {got} matmul FLOPs, "
                                 f"derivation flops({v}, {d}, {h}, {n}, forward) = {want}",
                                 case=case)
    xg = x.clone().requires_grad_(True)
    with FlopCounterMode(display=False) as counter:
        module64(xg).backward(torch.as_tensor(dy64, dtype=torch.float64, device=case.device))
    got, want = counter.get_total_flops(), int(derived_flops(v, d, h, n, "train"))
    if got != want:
        raise ConformanceFailure("flops", f"forward+backward counted {got} matmul FLOPs, "
                                 f"derivation flops({v}, {d}, {h}, {n}, train) = {want}",
                                 case=case)
    for param in module64.parameters():
        param.grad = None


# ---------------------------------------------------------------- one example


def run_case(case, dtypes=DTYPES):
    """Run every check on one drawn case; return the dtypes skipped as vacuous.

    Raises ConformanceFailure, or Vacuous when no dtype can discriminate on this draw."""
    rng = np.random.default_rng(case.seed)
    module64 = _build(case)
    check_params(module64, case)
    fill(module64, case, rng)
    x64 = rng.standard_normal((case.n, case.d))
    dy64 = rng.standard_normal((case.n, case.d))
    row, j = rng.standard_normal(case.d), int(rng.integers(case.n))
    prepared, sats, skipped = [], [], []
    for dt in dtypes:  # a dtype whose bounds cannot discriminate sits this draw out
        try:
            p = prepare(module64, case, dt, x64, dy64)
            sats.append(saturated(p, case))
            prepared.append(p)
        except Vacuous:
            skipped.append(dt)
    if not prepared:
        raise Vacuous(f"every dtype is vacuous for d={case.d} h={case.h} n={case.n}")
    for p in prepared:
        check_independence(p, case, row, j)
        check_forward_backward(p, case)
    for p, sat in zip(prepared, sats):
        check_saturation(p, case, sat)
    check_flops(module64, case, x64, dy64)
    return skipped


def check_example(factory, variant, layout="hf", bias=False, seed=0, d=8, h=12, n=5,
                  device="cpu", dtypes=DTYPES, target=None, act_eval="auto"):
    """One case with given shapes and seed (what a failure report's reproducer runs).

    Returns the dtypes skipped because their bounds could not discriminate (anti-vacuity)."""
    _check_act_eval(act_eval)
    case = Case(factory, variant, layout, bool(bias), int(d), int(h), int(n), int(seed),
                device, target or _target_of(factory), act_eval)
    with _kit_settings(device):
        return run_case(case, tuple(dtypes))


def _target_of(factory):
    mod, qual = getattr(factory, "__module__", None), getattr(factory, "__qualname__", "")
    if mod and qual and "<" not in qual and mod != "__main__":
        return f"{mod}:{qual}"
    return None


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


# ---------------------------------------------------------------- Hypothesis driver


def _hypothesis_test(case_args, dtypes, counts, hsettings):
    """A Hypothesis test drawing d, h, n and the values' seed for one bias setting."""
    from hypothesis import given, reject
    from hypothesis import strategies as st

    factory, variant, layout, b, device, target, act_eval = case_args

    @hsettings
    @given(st.data())
    def one(data):
        d = data.draw(st.integers(1, MAX_D), label="d")
        h = data.draw(st.integers(1, MAX_H), label="h")
        n = data.draw(st.integers(1, MAX_N), label="n")
        s = data.draw(st.integers(0, 2**32 - 1), label="seed (values)")
        case = Case(factory, variant, layout, b, d, h, n, s, device, target, act_eval)
        try:
            skipped = run_case(case, dtypes)
        except Vacuous:
            counts["vacuous"] += 1
            reject()
        counts["run"] += 1
        counts["skipped"] += len(skipped)
        counts["op_by_op"] |= case.notes

    return one


def _check_act_eval(act_eval):
    if act_eval not in ACT_EVALS:
        raise ValueError(f"unknown act_eval {act_eval!r}; choose from {', '.join(ACT_EVALS)}")


def check_ffn(factory, variant, layout="hf", bias=(False, True), device="cpu", dtypes=DTYPES,
              max_examples=DEFAULT_MAX_EXAMPLES, seed=None, shrink=True, target=None,
              act_eval="auto"):
    """Check `factory(d, h, bias) -> nn.Module` against the reference; return a Report.

    `bias` is a bool or a tuple of bools (each setting gets `max_examples` Hypothesis
    examples). `seed` None runs derandomized (the same draws every time). Raises
    ConformanceFailure on the first non-conformance (after Hypothesis shrinks it when
    `shrink`).

    `act_eval` says how the module may evaluate its activation in a low precision:
    "fused" (in float32, rounded once: F.gelu, F.silu), "op-by-op" (an expression of
    tensor operations each rounded to the dtype: transformers' gelu_new, x*sigmoid(x)),
    or "auto" (default): judged by the fused bound, and where that fails by the op-by-op
    one; the Report names the dtypes that needed it.
    """
    _check_act_eval(act_eval)
    from hypothesis import HealthCheck, Phase, settings
    from hypothesis import seed as hseed

    lookup(variant)
    layouts.mapping(lookup(variant)[1], layout)  # unknown layout: ValueError now
    biases = (bias,) if isinstance(bias, bool) else tuple(bias)
    target = target or _target_of(factory)
    report = Report(variant, layout if isinstance(layout, str) else "mapping",
                    dtypes=tuple(dtypes), act_eval=act_eval)
    needed = set()
    hsettings = settings(
        max_examples=max_examples, deadline=None, database=None, derandomize=seed is None,
        phases=[ph for ph in Phase if shrink or ph != Phase.shrink], print_blob=False,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    start = time.perf_counter()
    for b in biases:
        counts = {"run": 0, "vacuous": 0, "skipped": 0, "op_by_op": set()}
        args = (factory, variant, layout, bool(b), device, target, act_eval)
        one = _hypothesis_test(args, tuple(dtypes), counts, hsettings)
        if seed is not None:
            one = hseed(seed)(one)
        with _kit_settings(device):
            one()
        report.examples[bool(b)] = counts["run"]
        report.discarded[bool(b)] = counts["vacuous"]
        report.skipped[bool(b)] = counts["skipped"]
        needed |= counts["op_by_op"]
    report.op_by_op = tuple(dt for dt in dtypes if dt in needed)
    report.seconds = time.perf_counter() - start
    return report
