"""Activations evaluated op by op at the working precision: the bound that covers them, and
what it still catches.

transformers' gelu_new (GPT-2, GPT-J, CodeGen, Phi, MT5's gated-gelu), FastGELU and
x*sigmoid(x) round every tensor operation to bfloat16/float16; in the negative tail
1 + tanh(q) cancels, so the error is u·|z|/2 where the value is ~0. The kit's
`tolerances.op_by_op_errors` derives that from the roundings; these tests check it
element by element on a dense grid of representable z, then through the whole kit.
"""

import os

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from ffnverify.backends.activations import ACTIVATIONS  # noqa: E402
from ffnverify.backends.torch_ffn import TORCH_ACTIVATIONS  # noqa: E402
from ffnverify.testing import check_example, check_ffn  # noqa: E402
from ffnverify.testing import tolerances as T  # noqa: E402
from ffnverify.testing.conformance import Case, ConformanceFailure, Report, run_case  # noqa: E402

from .zoo import GPT2, OP_BY_OP, SCALED_IN_MAPPING, op_by_op, scaled_in  # noqa: E402

pytestmark = pytest.mark.torch

LOW = ("bfloat16", "float16")
SATURATION = {"bfloat16": 40.0, "float16": 12.0, "float32": 40.0}
IMPLS = [(v, name) for v, names in OP_BY_OP.items() for name in names]
FUSED = {"gelu_tanh": lambda z: torch.nn.functional.gelu(z, approximate="tanh"),
         "silu": torch.nn.functional.silu, "gelu": torch.nn.functional.gelu,
         "sigmoid": torch.sigmoid, "tanh": torch.tanh,
         "relu2": TORCH_ACTIVATIONS["relu2"]}


def _grid(dtype):
    lim = SATURATION[dtype]
    z = torch.linspace(-lim, lim, 40001, dtype=torch.float64).to(getattr(torch, dtype))
    return z.unique()


def _errors(fn, act_name, z):
    """|fn(z) − act(z)| and |autograd's act'(z) − act'(z)| at representable z."""
    f, df = ACTIVATIONS[act_name]
    z64 = z.double().numpy()
    x = z.clone().requires_grad_(True)
    y = fn(x)
    y.backward(torch.ones_like(y))
    return (np.abs(y.detach().double().numpy() - f(z64)),
            np.abs(x.grad.double().numpy() - df(z64)), z64)


@pytest.mark.parametrize("dtype", LOW + ("float32",))
@pytest.mark.parametrize("impl", IMPLS, ids=[f"{v}-{n}" for v, n in IMPLS])
def test_op_by_op_error_model_holds_and_is_tight(impl, dtype):
    variant, name = impl
    act_name = T.lookup(variant)[0]
    errf, errb, z64 = _errors(OP_BY_OP[variant][name], act_name, _grid(dtype))
    ef, eb = T.activation_errors(act_name, z64, dtype, "op-by-op")
    assert np.all(errf <= ef), (errf / ef).max()
    assert np.all(errb <= eb), (errb / eb).max()
    if dtype in LOW:  # the model is not 100x the real error
        assert (errf / ef).max() > 0.2 and (errb / eb).max() > 0.2


@pytest.mark.parametrize("dtype", LOW)
@pytest.mark.parametrize("act_name", sorted(FUSED))
def test_fused_activations_stay_in_the_fused_bound(act_name, dtype):
    errf, errb, z64 = _errors(FUSED[act_name], act_name, _grid(dtype))
    ef, eb = T.activation_errors(act_name, z64, dtype, "fused")
    assert np.all(errf <= ef) and np.all(errb <= eb)


@pytest.mark.parametrize("dtype", LOW)
def test_gelu_new_leaves_the_fused_bound(dtype):
    """The false alarm's cause: gelu_new's rounding is not a float32-then-round-once one."""
    errf, _, z64 = _errors(OP_BY_OP["gelu_tanh"]["new_gelu"], "gelu_tanh", _grid(dtype))
    ef, _ = T.activation_errors("gelu_tanh", z64, dtype, "fused")
    worst = np.argmax(errf / ef)
    assert errf[worst] > 2 * ef[worst] and z64[worst] < -2  # in the negative tail


def test_op_by_op_widens_only_the_activation_terms():
    """Nothing changes for an identity gate; for GELU the extra is the activation's."""
    rng = np.random.default_rng(3)
    w = {"W_gate": rng.standard_normal((4, 6)) / 2, "W_up": rng.standard_normal((4, 6)) / 2,
         "W_down": rng.standard_normal((6, 4)) / 3}
    x, dy = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    for dtype in LOW:
        a = T.first_order_bounds("bilinear", w, x, dy, dtype, "fused")
        b = T.first_order_bounds("bilinear", w, x, dy, dtype, "op-by-op")
        for k in a:
            assert np.allclose(a[k], b[k], rtol=1e-12, atol=1e-30), k
        a = T.first_order_bounds("geglu_tanh", w, x, dy, dtype, "fused")
        b = T.first_order_bounds("geglu_tanh", w, x, dy, dtype, "op-by-op")
        assert all(np.all(b[k] >= a[k]) for k in a) and np.any(b["y"] > a["y"])
    with pytest.raises(ValueError, match="act_eval"):
        T.first_order_bounds("swiglu", w, x, dy, "bfloat16", "sometimes")


@pytest.mark.parametrize("impl", IMPLS, ids=[f"{v}-{n}" for v, n in IMPLS])
def test_op_by_op_modules_pass_the_kit_and_the_report_says_so(impl):
    variant, name = impl
    report = check_ffn(op_by_op(variant, name), variant, "hf", bias=(False, True),
                       dtypes=LOW, max_examples=15)
    assert all(k == 15 for k in report.examples.values()), report.summary()


def _gpt2_new_gelu(d, h, bias=True):
    """GPT-2's MLP as transformers writes it: Conv1D (addmm) and gelu_new op by op."""
    m = GPT2("gelu_tanh", d, h, bias)
    m.act = OP_BY_OP["gelu_tanh"]["new_gelu"]
    return m


def test_the_false_alarm_and_its_fix():
    """The draw that failed GPT2MLP: act_eval="fused" (one rounding) rejects it in the
    saturation check, "auto" accepts it and names the dtype that needed op by op."""
    case = dict(layout="gpt2", bias=True, seed=0, d=3, h=1, n=2, dtypes=("bfloat16",))
    with pytest.raises(ConformanceFailure) as info:
        check_example(_gpt2_new_gelu, "gelu_tanh", act_eval="fused", **case)
    assert (info.value.check, info.value.dtype) == ("saturation", "bfloat16")
    assert "act_eval=fused" in info.value.report()
    assert "--act-eval fused" in info.value.report() or "act_eval='fused'" in info.value.report()
    check_example(_gpt2_new_gelu, "gelu_tanh", **case)
    drawn = Case(_gpt2_new_gelu, "gelu_tanh", "gpt2", True, 3, 1, 2, 0)
    run_case(drawn, ("bfloat16",))
    assert drawn.notes == {"bfloat16"}  # what the Report names
    report = Report("gelu_tanh", "gpt2", dtypes=("bfloat16",), op_by_op=("bfloat16",))
    assert "op by op at the working precision in bfloat16" in report.summary()
    report = check_ffn(_gpt2_new_gelu, "gelu_tanh", "gpt2", bias=True, max_examples=100)
    assert report.examples[True] == 100


def test_fused_modules_need_no_op_by_op_bound():
    from .zoo import HF, correct

    report = check_ffn(correct(HF, "gelu_tanh"), "gelu_tanh", "hf", bias=True, dtypes=LOW,
                       max_examples=20)
    assert report.op_by_op == () and "rounded once" in report.summary()


def test_a_2_percent_error_in_bfloat16_is_still_caught():
    with pytest.raises(ConformanceFailure) as info:
        check_ffn(scaled_in(torch.bfloat16, 1.02), "gelu_tanh", SCALED_IN_MAPPING, bias=True,
                  max_examples=20, shrink=False)
    assert info.value.dtype == "bfloat16" and info.value.check in ("forward", "backward")


def test_a_1e5_relative_error_in_float32_is_still_caught():
    with pytest.raises(ConformanceFailure) as info:
        check_ffn(scaled_in(torch.float32, 1 + 1e-5), "gelu_tanh", SCALED_IN_MAPPING,
                  bias=True, max_examples=20, shrink=False)
    assert (info.value.check, info.value.dtype) == ("forward", "float32")


# the seeds of the 1,000-example runs: FFNVERIFY_SLOW_SEEDS="4,5,6" runs others
SLOW_SEEDS = [int(s) for s in os.environ.get("FFNVERIFY_SLOW_SEEDS", "1,2,3").split(",")
              if s.strip()]


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("FFNVERIFY_SLOW") != "1",
                    reason="long run: set FFNVERIFY_SLOW=1 (1,000 examples per seed; "
                           "FFNVERIFY_SLOW_SEEDS picks the seeds, 1,2,3 by default)")
@pytest.mark.parametrize("seed", SLOW_SEEDS)
@pytest.mark.parametrize("impl", [("gelu_tanh", "new_gelu"), ("gelu_tanh", "fast_gelu"),
                                  ("silu", "x*sigmoid(x)")], ids=["gelu_new", "FastGELU",
                                                                  "x*sigmoid(x)"])
def test_no_false_alarm_in_1000_examples(impl, seed):
    variant, name = impl
    report = check_ffn(op_by_op(variant, name), variant, "hf", bias=True, dtypes=LOW,
                       max_examples=1000, seed=seed)
    assert report.examples[True] == 1000, report.summary()


