"""Properties of the kit's check functions that a wrong check would break (mutation-tested).

Each test runs one check function of `ffnverify.testing.conformance` directly on a tiny
case, with a module that is wrong in exactly one way (the zoo idea: a check must reject
it, name itself, the dtype, the tensor and the drawn case) or right in a way a careless
check would reject (a float attribute that is not a dropout rate, a parameter-free device,
per-projection biases). The oracle is what the user must read in the failure: the check
that failed, the dtype, the tensor, the drawn case; never today's numbers.
"""

import re
import types
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

import torch.nn.functional as F  # noqa: E402
from torch import nn  # noqa: E402

from ffnverify.testing import conformance as C  # noqa: E402

from . import zoo  # noqa: E402

pytestmark = pytest.mark.torch


def _prep(factory, dtype="float64", bias=False, d=6, h=8, n=4, seed=3, act_eval="auto"):
    case = C.Case(factory, "swiglu", "hf", bias, d, h, n, seed, act_eval=act_eval)
    rng = np.random.default_rng(seed)
    module = C._build(case)
    C.fill(module, case, rng)
    x, dy = rng.standard_normal((n, d)), rng.standard_normal((n, d))
    return case, module, x, dy, C.prepare(module, case, dtype, x, dy)


# Both helpers fail outside their `except`, so that a failure's traceback does not run
# through the kit's frames (pytest parses each frame's whole source file to print it: in
# the mutation run, a mutated module of thousands of lines, seconds per killed mutant).


def _fails(check, fn, *args):
    """fn(*args) raises a ConformanceFailure of `check` (not another exception)."""
    try:
        fn(*args)
        failure = None
    except Exception as exc:  # a crash is judged below, cheaply
        failure = exc
    if not isinstance(failure, C.ConformanceFailure):
        pytest.fail(f"expected a ConformanceFailure of {check!r}, got {failure!r}")
    assert failure.check == check, failure.report()
    return failure


def _raises(kind, pattern, fn, *args):
    """fn(*args) raises `kind` with a message matching `pattern` (not another exception)."""
    try:
        fn(*args)
        got = None
    except Exception as exc:
        got = exc
    if not (isinstance(got, kind) and re.search(pattern, str(got))):
        pytest.fail(f"expected {kind.__name__} matching {pattern!r}, got {got!r}")


def _passes(fn, *args):
    """fn(*args) accepts (raises nothing)."""
    try:
        fn(*args)
        failure = None
    except Exception as exc:
        failure = exc
    if failure is not None:
        pytest.fail(f"expected to pass, got {failure!r}")


def _names(f, case, dtype, tensor=None):
    """The failure names the drawn case (and its reproducer), the dtype and the tensor."""
    assert f.case is case and "reproduce:" in f.report()
    assert f.dtype == dtype
    if tensor is not None:
        assert f.tensor == tensor


class RaisesWhen(zoo.SwiGLU):
    """A SwiGLU whose forward raises where `when(module, x)` holds (an assert, a kernel
    that takes no such input): the check that made the call must fail, naming it."""

    when = staticmethod(lambda m, x: True)
    cut = 0.0

    def forward(self, x):
        if self.when(self, x):
            raise RuntimeError("refused this input")
        return super().forward(x)


def raises_when(when):
    return type("RaisesWhen", (RaisesWhen,), {"when": staticmethod(when)})


class _GuardBackward(torch.autograd.Function):
    """Identity whose backward raises if the forward saw `refuse` true."""

    @staticmethod
    def forward(ctx, t, refuse):
        ctx.refuse = refuse
        return t.view_as(t)

    @staticmethod
    def backward(ctx, g):
        if ctx.refuse:
            raise RuntimeError("backward refused")
        return g, None


class BackwardRaisesWhen(zoo.SwiGLU):
    when = staticmethod(lambda m, x: True)
    cut = 0.0

    def forward(self, x):
        return super().forward(_GuardBackward.apply(x, bool(self.when(self, x))))


def backward_raises_when(when):
    return type("BackwardRaisesWhen", (BackwardRaisesWhen,), {"when": staticmethod(when)})


# ---------------------------------------------------------------- compare and _judge


def _case(**kw):
    args = dict(factory=zoo.SwiGLU, variant="swiglu", layout="hf", bias=False, d=3, h=4, n=2,
                seed=7)
    args.update(kw)
    return C.Case(**args)


@pytest.mark.parametrize("got,bound", [
    (np.array([[1.0, np.inf]]), np.array([[1.0, np.inf]])),  # inf − 1 over an inf bound
    (np.array([[1.0, 1e300]]), np.array([[1.0, 0.0]])),  # 1e300 over the tiny floor
    (np.array([[1.0, np.nan]]), np.array([[1.0, 0.0]])),
])
def test_compare_judges_inf_nan_and_overflow_without_a_warning(got, bound):
    """The user sees one failure, never a NumPy RuntimeWarning (an error under -W error)."""
    case = _case()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        f = _fails("saturation", C.compare, "saturation", "grad x", got, np.ones((1, 2)),
                   bound, case, "float16")
        _passes(C.compare, "forward", "y", np.ones((1, 2)), np.ones((1, 2)), np.zeros((1, 2)),
                case, "float64")  # an exact match under a zero bound: no warning either
    assert f.index == (0, 1) and f.case is case and f.dtype == "float16"


def test_compare_judges_a_single_element():
    case = _case()
    f = _fails("forward", C.compare, "forward", "y", np.array([[2.0]]), np.array([[1.0]]),
               np.array([[0.5]]), case, "float32")
    assert (f.index, f.error, f.bound, f.tensor) == ((0, 0), 1.0, 0.5, "y")
    _names(f, case, "float32", "y")
    _passes(C.compare, "forward", "y", np.array([[1.25]]), np.array([[1.0]]), np.array([[0.5]]),
            case, "float32")


def test_judge_names_the_tensor_and_case_and_falls_back_to_the_wide_bound():
    case, ref = _case(), np.array([1.0, 2.0])
    got = ref + np.array([0.0, 0.01])
    f = _fails("backward", C._judge, "backward", "grad W_up", got, ref, np.full(2, 1e-3),
               None, case, "bfloat16")
    _names(f, case, "bfloat16", "grad W_up")
    assert case.notes == set()
    f = _fails("backward", C._judge, "backward", "grad W_up", got, ref, np.full(2, 1e-3),
               np.full(2, 5e-3), case, "bfloat16")  # the wide bound rejects too
    _names(f, case, "bfloat16", "grad W_up")
    assert f.bound == 5e-3 and case.notes == set()
    _passes(C._judge, "backward", "grad W_up", got, ref, np.full(2, 1e-3), np.full(2, 0.02),
            case, "bfloat16")
    assert case.notes == {"bfloat16"}


# ---------------------------------------------------------------- _compare_all


def _all(dtype="float32"):
    ref = {"y": np.ones((2, 3)), "W_up": np.ones((3, 4)), "x": np.ones((2, 3))}
    tight = {k: np.full_like(v, 1e-6) for k, v in ref.items()}
    wide = {k: np.full_like(v, 1e-2) for k, v in ref.items()}
    return types.SimpleNamespace(dtype=dtype), ref, tight, wide


def test_compare_all_lets_the_wide_bound_accept_the_output_and_notes_the_dtype():
    p, ref, tight, wide = _all()
    case = _case()
    y = ref["y"] + 1e-3
    grads = {"W_up": ref["W_up"], "x": ref["x"]}
    _passes(C._compare_all, "forward", "backward", p, case, y, grads, ref, tight, wide)
    assert case.notes == {"float32"}
    f = _fails("forward", C._compare_all, "forward", "backward", p, case, y, grads, ref, tight)
    _names(f, case, "float32", "y")


def test_compare_all_reports_the_weights_gradients_before_the_inputs():
    """Both wrong: the weight's gradient is named (the input's comes last)."""
    p, ref, tight, _ = _all()
    case = _case()
    grads = {"W_up": ref["W_up"] * 1.01, "x": ref["x"] * 1.01}
    f = _fails("backward", C._compare_all, "forward", "backward", p, case, ref["y"], grads, ref,
               tight)
    _names(f, case, "float32", "grad W_up")
    f = _fails("backward", C._compare_all, "forward", "backward", p, case, ref["y"],
               {"W_up": ref["W_up"], "x": ref["x"] * 1.01}, ref, tight)
    assert f.tensor == "grad x (input)"


# ---------------------------------------------------------------- forward/backward, train mode


@pytest.mark.parametrize("check", ["forward", "train-mode"])
def test_auto_accepts_by_the_op_by_op_bound_where_the_bound_rejects(check):
    """A float32 run whose own bound is zeroed (a bound no rounding fits) with the real
    bound as the op-by-op one: auto accepts and notes float32; without it, it fails."""
    fn = C.check_forward_backward if check == "forward" else C.check_train_mode
    case, _, _, _, p = _prep(zoo.SwiGLU, "float32")
    real = p.bound
    p.bound, p.wide = {k: np.zeros_like(v) for k, v in real.items()}, real
    _passes(fn, p, case)
    assert case.notes == {"float32"}
    p.wide = None
    f = _fails(check, fn, p, case)
    _names(f, case, "float32", "y")


@pytest.mark.parametrize("check", ["forward", "train-mode"])
def test_fused_act_eval_is_judged_by_its_own_bound(check):
    fn = C.check_forward_backward if check == "forward" else C.check_train_mode
    case, _, _, _, p = _prep(zoo.SwiGLU, "float32", act_eval="fused")
    assert p.wide is None
    _passes(fn, p, case)
    case, _, _, _, p = _prep(zoo.Scaled1001, "float32", act_eval="fused")
    f = _fails(check, fn, p, case)
    _names(f, case, "float32", "y")


def test_train_mode_failure_names_the_case():
    case, _, _, _, p = _prep(zoo.TrainDiffers, "float32")
    f = _fails("train-mode", C.check_train_mode, p, case)
    _names(f, case, "float32", "y")


def test_forward_backward_failure_names_the_case():
    case, _, _, _, p = _prep(zoo.Scaled1001, "float32")
    f = _fails("forward", C.check_forward_backward, p, case)
    _names(f, case, "float32", "y")


class FloatAttribute(zoo.SwiGLU):
    """Correct; a float attribute that is no dropout rate (a residual scale of 1)."""

    def __init__(self, d, h, bias=False):
        super().__init__(d, h, bias)
        self.residual_scale = 1.0

    def forward(self, x):
        return super().forward(x) * self.residual_scale


class HiddenDropout(zoo.SwiGLU):
    """Correct; a functional dropout rate named hidden_dropout (Starcoder2-style)."""

    def __init__(self, d, h, bias=False):
        super().__init__(d, h, bias)
        self.hidden_dropout = 0.5

    def forward(self, x):
        return F.dropout(super().forward(x), self.hidden_dropout, self.training)


@pytest.mark.parametrize("factory,attr", [(FloatAttribute, "residual_scale"),
                                          (HiddenDropout, "hidden_dropout")])
def test_train_mode_zeroes_dropout_rates_only_and_gives_them_back(factory, attr):
    case, _, _, _, p = _prep(factory)
    before = getattr(p.module, attr)
    _passes(C.check_train_mode, p, case)
    assert getattr(p.module, attr) == before and not p.module.training


@pytest.mark.parametrize("factory,what", [
    (raises_when(lambda m, x: m.training), "the module's forward raised RuntimeError"),
    (backward_raises_when(lambda m, x: m.training), "backward raised RuntimeError"),
])
def test_train_mode_names_itself_when_the_training_path_raises(factory, what):
    case, _, _, _, p = _prep(factory, "float32")
    f = _fails("train-mode", C.check_train_mode, p, case)
    assert what in f.message
    _names(f, case, "float32")
    assert not p.module.training


@pytest.mark.parametrize("bias", [{"up": True, "down": False}, {"up": False, "down": True}])
def test_per_projection_biases_are_checked_each(bias):
    """timm's bias=(True, False): a correct module passes, and a wrong gradient of its one
    bias is caught (the reference has a gradient for exactly the biases present)."""
    class Plain(nn.Module):
        def __init__(self, d, h, _bias=None, scale=1.0):
            super().__init__()
            self.up_proj = nn.Linear(d, h, bias=bias["up"])
            self.down_proj = nn.Linear(h, d, bias=bias["down"])

        def forward(self, x):
            return self.down_proj(F.relu(self.up_proj(x)))

    name = "up_proj" if bias["up"] else "down_proj"

    class WrongBiasGrad(Plain):
        def forward(self, x):
            lin = getattr(self, name)
            b = zoo._ScaleGrad.apply(lin.bias, 1.01)
            if name == "up_proj":
                return self.down_proj(F.relu(F.linear(x, lin.weight, b)))
            return F.linear(F.relu(self.up_proj(x)), lin.weight, b)

    for factory, ok in ((Plain, True), (WrongBiasGrad, False)):
        case = C.Case(factory, "relu", "hf", bias, 4, 6, 3, 1)
        rng = np.random.default_rng(1)
        module = C._build(case)
        C.check_params(module, case)
        C.fill(module, case, rng)
        x, dy = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
        p = C.prepare(module, case, "float64", x, dy)
        if ok:
            _passes(C.check_forward_backward, p, case)
        else:
            f = _fails("backward", C.check_forward_backward, p, case)
            assert f.tensor == f"grad b_{name[:-5]}"


# ---------------------------------------------------------------- independence


def test_independence_first_call_is_the_forward():
    case, _, _, _, p = _prep(raises_when(lambda m, x: m.cut > 0), "float32")
    p.module.cut = 1.0
    f = _fails("forward", C.check_independence, p, case, np.ones(case.d), 0)
    assert "refused this input" in f.message and "input shape (4, 6)" in f.message
    _names(f, case, "float32")


def test_independence_a_wrong_output_shape_is_the_forwards_y():
    case, _, _, _, p = _prep(zoo.OutputTransposedShape, "float32")
    f = _fails("forward", C.check_independence, p, case, np.ones(case.d), 0)
    assert "has shape (6, 4), expected (4, 6)" in f.message
    _names(f, case, "float32", "y")


@pytest.mark.parametrize("when,shape", [
    (lambda m, x: bool(x.abs().max() > 50), "(4, 6)"),  # the perturbed batch
    (lambda m, x: x.shape[-2] == 1, "(1, 6)"),  # a token alone
    (lambda m, x: x.dim() == 3, "(1, 4, 6)"),  # (1, n, d)
    (lambda m, x: x.dim() == 3 and x.shape[0] > 1, "(2, 2, 6)"),  # (b, s, d)
])
def test_independence_names_itself_when_a_rearranged_input_raises(when, shape):
    case, _, _, _, p = _prep(raises_when(when), "float32")
    f = _fails("independence", C.check_independence, p, case, np.full(case.d, 100.0), 1)
    assert f"input shape {shape}" in f.message
    _names(f, case, "float32")


@pytest.mark.parametrize("mutant,label", [
    (zoo.LastTokenLeaks, "y with token 3 perturbed (other tokens)"),
    (zoo.AloneDiffers, "y of token 0 run alone vs in the batch"),
    (zoo.Input3dDiffers, "y of input (1, n, d) vs (n, d)"),
    (zoo.BatchOf2Differs, "y of input (2, 2, 6) vs (n, d)"),
])
def test_independence_failures_name_the_case(mutant, label):
    case, _, _, _, p = _prep(mutant, "float32")
    f = _fails("independence", C.check_independence, p, case, np.full(case.d, 3.0), 3)
    _names(f, case, "float32", label)


class LastAloneDiffers(zoo.SwiGLU):
    """Off by 1e-3 when it sees one token whose first feature exceeds `cut` (a bug keyed
    to some tokens only: here the last one)."""

    cut = np.inf

    def forward(self, x):
        y = super().forward(x)
        return y * 1.001 if x.shape[-2] == 1 and float(x[..., 0, 0]) > self.cut else y


def test_independence_runs_the_last_token_alone_too():
    case, _, _, _, p = _prep(LastAloneDiffers, "float32", n=4, seed=4)
    first = p.x[:, 0]
    p.module.cut = max(first[:-1])
    assert first[-1] > p.module.cut  # the draw: only the last token is above the cut
    f = _fails("independence", C.check_independence, p, case, np.ones(case.d), 0)
    _names(f, case, "float32", "y of token 3 run alone vs in the batch")


class DropsAToken(zoo.SwiGLU):
    """Loses the first token of a 3-D input with at least `min_batch` sequences."""

    min_batch = 1

    def forward(self, x):
        y = super().forward(x)
        return y[..., 1:, :] if x.dim() == 3 and x.shape[0] >= self.min_batch else y


@pytest.mark.parametrize("min_batch,label,shape", [
    (1, "y of input (1, n, d) vs (n, d)", "(1, 3, 6)"),
    (2, "y of input (2, 2, 6) vs (n, d)", "(2, 1, 6)"),
])
def test_independence_a_lost_token_is_a_shape_failure_not_a_crash(min_batch, label, shape):
    case, _, _, _, p = _prep(DropsAToken, "float32")
    p.module.min_batch = min_batch
    f = _fails("independence", C.check_independence, p, case, np.ones(case.d), 0)
    assert f"has shape {shape}, expected (4, 6)" in f.message
    _names(f, case, "float32", label)


# ---------------------------------------------------------------- saturation


@pytest.mark.parametrize("factory,what", [
    (raises_when(lambda m, x: bool(x.abs().max() > m.cut)),
     "the module's forward raised RuntimeError"),
    (backward_raises_when(lambda m, x: bool(x.abs().max() > m.cut)),
     "backward raised RuntimeError"),
])
def test_saturation_names_itself_when_large_inputs_raise(factory, what):
    """A module refusing inputs beyond twice the drawn ones (an overflow guard)."""
    case, _, _, _, p = _prep(factory, "float32", bias=True)
    cut = 2 * np.abs(p.x).max()
    p.module.cut = np.inf
    sat = C.saturated(p, case)
    assert np.abs(sat[0]).max() > cut  # the saturation inputs are beyond it
    p.module.cut = cut
    _passes(C.check_forward_backward, p, case)  # the drawn inputs pass
    f = _fails("saturation", C.check_saturation, p, case, sat)
    assert what in f.message
    _names(f, case, "float32")


# ---------------------------------------------------------------- flops


def test_flops_runs_on_the_cases_device():
    """On the meta device (shapes only, as a second device): the counts still match."""
    case = C.Case(zoo.SwiGLU, "swiglu", "hf", False, 6, 8, 4, 0, device="meta")
    module = zoo.SwiGLU(6, 8).to("meta", torch.float64)
    rng = np.random.default_rng(0)
    _passes(C.check_flops, module, case, rng.standard_normal((4, 6)), rng.standard_normal((4, 6)))
    assert all(q.grad is None for q in module.parameters())


@pytest.mark.parametrize("when,phase", [
    (lambda m, x: True, "forward"),
    (lambda m, x: x.requires_grad, "forward+backward"),  # an inference-only kernel
])
def test_flops_names_itself_when_the_counted_forward_raises(when, phase):
    case, module, x, dy, _ = _prep(zoo.SwiGLU)
    module = raises_when(when)(case.d, case.h).to(torch.float64)
    if phase == "forward+backward":
        with torch.no_grad():
            module(torch.as_tensor(x))  # the no-grad forward passes
    f = _fails("flops", C.check_flops, module, case, x, dy)
    assert "the module's forward raised RuntimeError: refused this input" in f.message
    assert f.case is case


# ---------------------------------------------------------------- bounds and vacuity


@pytest.mark.parametrize("act_eval,first,second", [
    ("fused", "fused", None), ("op-by-op", "op-by-op", None), ("auto", "fused", "op-by-op")])
def test_bounds_are_those_of_the_cases_act_eval(act_eval, first, second):
    """act_eval names the bound judged first, and auto adds the op-by-op one; the two
    differ in bfloat16 (SiLU op by op rounds several times), so a swap shows."""
    from ffnverify.testing import tolerances as T

    case, _, _, _, p = _prep(zoo.SwiGLU, "bfloat16")
    case.act_eval = act_eval
    plain = T.plain_errors("swiglu", p.weights, p.x, p.dy, "bfloat16", "cpu", p.ref)
    want = {e: T.bounds("swiglu", p.weights, p.x, p.dy, "bfloat16", plain, e)
            for e in ("fused", "op-by-op")}
    assert np.any(want["op-by-op"]["y"] > want["fused"]["y"])
    got = []
    _passes(lambda: got.append(C._bounds(case, p.weights, p.x, p.dy, "bfloat16", p.ref)))
    ((bound, wide),) = got
    for k in p.ref:
        np.testing.assert_array_equal(bound[k], want[first][k])
        if second is None:
            assert wide is None
        else:
            np.testing.assert_array_equal(wide[k], want[second][k])


def test_bounds_run_the_plain_computation_on_the_cases_device():
    """On the meta device the plain computation has no numbers to give: it is refused
    there rather than silently done on the CPU."""
    case, _, _, _, p = _prep(zoo.SwiGLU, "float32")
    case.device = "meta"
    _raises(NotImplementedError, "meta", C._bounds, case, p.weights, p.x, p.dy, "float32", p.ref)


def test_an_empty_tensor_or_input_is_vacuous_not_a_crash():
    _raises(C.Vacuous, r"\[float32\] y: bound 0 vs max \|reference\| 0", C.assert_not_vacuous,
            "float32", {"y": np.zeros((0, 3))}, {"y": np.zeros((0, 3))}, "")
    case, _, _, _, p = _prep(zoo.SwiGLU, "float32")
    p.x = p.x[:0]  # no tokens: no pre-activation to scale
    _raises(C.Vacuous, "x @ W is zero", C.saturated, p, case)


# ---------------------------------------------------------------- params


class TwoExtraParameters(zoo.SwiGLU):
    """Right otherwise; two parameters no layout reads (a learned scale and shift)."""

    def __init__(self, d, h, bias=False):
        super().__init__(d, h, bias)
        self.scale = nn.Parameter(torch.ones(d))
        self.shift = nn.Parameter(torch.zeros(d))


def test_params_names_every_parameter_the_layout_does_not_read():
    case = C.Case(TwoExtraParameters, "swiglu", "hf", False, 3, 4, 2, 0)
    module = C._build(case)
    f = _fails("params", C.check_params, module, case)
    assert f.message.endswith("= 36; not read by the layout: scale, shift")  # 3·3·4
    assert "module has 42 parameters" in f.message
    assert f.case is case and "reproduce:" in f.report()


class GateInsideUp(nn.Module):
    """A packed gate+up tensor under the name up_proj and no gate_proj: the right count,
    every parameter read, but the hf layout finds no W_gate."""

    def __init__(self, d, h, bias=False):
        super().__init__()
        self.up_proj = nn.Linear(d, 2 * h, bias=False)
        self.down_proj = nn.Linear(h, d, bias=False)

    def forward(self, x):
        gate, up = self.up_proj(x).chunk(2, dim=-1)
        return self.down_proj(F.silu(gate) * up)


def test_params_names_a_tensor_the_layout_cannot_find():
    case = C.Case(GateInsideUp, "swiglu", "hf", False, 3, 4, 2, 0)
    f = _fails("params", C.check_params, C._build(case), case)
    assert f.message == "layout finds no W_gate (expected shape (3, 4))"
    assert f.tensor == "W_gate" and f.case is case and "reproduce:" in f.report()


def test_params_shape_and_stray_tensor_failures_name_the_case():
    m = zoo.SwiGLU(8, 12, False).double()
    m.up_proj = nn.Linear(12, 8, bias=False).double()  # d and h swapped: the same count
    case = C.Case(zoo.SwiGLU, "swiglu", "hf", False, 8, 12, 2, 0)
    f = _fails("params", C.check_params, m, case)
    assert f.tensor == "W_up" and f.case is case and "reproduce:" in f.report()
    # down's bias declared outside the FFN (not counted) but still read by the layout
    case = C.Case(zoo.SwiGLU, "swiglu", "hf", {"gate": True, "up": True, "down": False},
                  8, 12, 2, 0, extra=("down_proj.bias",))
    f = _fails("params", C.check_params, zoo.SwiGLU(8, 12, True).double(), case)
    assert "unexpected tensors ['b_down']" in f.message
    assert f.case is case and "reproduce:" in f.report()
