"""The kit's building blocks: comparison, anti-vacuity, structural checks, reports."""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from ffnverify.testing import check_example, check_ffn  # noqa: E402
from ffnverify.testing import conformance as C  # noqa: E402

from .zoo import HF, SwiGLU  # noqa: E402

pytestmark = pytest.mark.torch


def _case(**kw):
    args = dict(factory=SwiGLU, variant="swiglu", layout="hf", bias=False, d=3, h=4, n=2,
                seed=7)
    args.update(kw)
    return C.Case(**args)


def test_compare_passes_within_and_fails_beyond_the_bound():
    ref = np.array([[1.0, 2.0], [3.0, 4.0]])
    bound = np.full_like(ref, 1e-3)
    C.compare("forward", "y", ref + 5e-4, ref, bound, _case(), "float64")
    with pytest.raises(C.ConformanceFailure) as info:
        C.compare("forward", "y", ref + np.array([[0, 0], [0, 2e-3]]), ref, bound, _case(),
                  "float64")
    f = info.value
    assert (f.check, f.tensor, f.index) == ("forward", "y", (1, 1))
    assert f.error == pytest.approx(2e-3) and f.bound == 1e-3


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_compare_never_lets_nan_or_inf_through(bad):
    ref, bound = np.zeros((1, 2)), np.full((1, 2), np.inf)
    with pytest.raises(C.ConformanceFailure) as info:
        C.compare("saturation", "grad x", np.array([[0.0, bad]]), ref, bound, _case(), "float16")
    assert info.value.index == (0, 1)


def test_compare_rejects_a_wrong_shape():
    with pytest.raises(C.ConformanceFailure, match="shape"):
        C.compare("forward", "y", np.zeros((2, 3)), np.zeros((3, 2)), np.ones((3, 2)), _case(),
                  "float32")


def test_anti_vacuity():
    ref = {"y": np.array([1.0, -2.0])}
    C.assert_not_vacuous("float64", ref, {"y": np.array([1e-15, 1e-15])}, "")
    with pytest.raises(C.Vacuous, match="bound"):  # the bound is not far below the signal
        C.assert_not_vacuous("float32", ref, {"y": np.array([0.1, 0.1])}, "")
    with pytest.raises(C.Vacuous):  # a zero tensor cannot discriminate
        C.assert_not_vacuous("float64", {"y": np.zeros(2)}, {"y": np.zeros(2)}, "")
    with pytest.raises(C.Vacuous):  # out of float16's range
        C.assert_not_vacuous("float16", {"y": np.array([1e5])}, {"y": np.array([1.0])}, "",
                             ratio=False)


def test_factory_that_raises_or_returns_no_module_fails_as_factory():
    def raising(d, h, bias):
        raise RuntimeError("boom")

    with pytest.raises(C.ConformanceFailure) as info:
        check_example(raising, "swiglu")
    assert info.value.check == "factory" and "boom" in str(info.value)
    with pytest.raises(C.ConformanceFailure, match=r"not a torch\.nn\.Module"):
        check_example(lambda d, h, bias: 42, "swiglu")


def test_factory_ignoring_bias_fails_params():
    with pytest.raises(C.ConformanceFailure) as info:
        check_example(lambda d, h, bias: SwiGLU(d, h, False), "swiglu", bias=True)
    assert info.value.check == "params"
    assert "params(swiglu, d=8, h=12, bias=True)" in str(info.value)


def test_wrong_variant_fails_params_before_any_numerics():
    """A non-gated module checked as gated: the layout finds no gate_proj."""
    with pytest.raises(C.ConformanceFailure) as info:
        check_example(lambda d, h, bias: HF("relu", d, h, bias), "swiglu", layout="hf")
    assert info.value.check == "params"
    with pytest.raises(C.ConformanceFailure) as info:  # auto: no gated layout fits (judged
        check_example(lambda d, h, bias: HF("relu", d, h, bias), "swiglu")  # as check_ffn
    assert info.value.check == "layout" and "up_proj.weight (15, 6)" in str(info.value)


def test_output_dtype_must_follow_the_input():
    class Upcasts(SwiGLU):
        def forward(self, x):
            return super().forward(x).double()

    with pytest.raises(C.ConformanceFailure, match="output dtype"):
        check_example(Upcasts, "swiglu", dtypes=("float32",))


def test_report_counts_examples_per_bias():
    r = check_ffn(SwiGLU, "swiglu", max_examples=4, dtypes=("float64",))
    assert r.examples == {False: 4, True: 4}
    assert "bias=False: 4 examples" in r.summary() and r.seconds > 0


def test_kit_restores_torch_threads():
    before = torch.get_num_threads()
    check_example(SwiGLU, "swiglu", dtypes=("float64",))
    assert torch.get_num_threads() == before


def test_reproducer_for_a_factory_that_cannot_be_imported_is_a_python_call():
    case = _case(factory=lambda d, h, bias: None)
    assert case.reproducer("float32").startswith(
        'python -c "from ffnverify.testing import check_example; check_example(')
    case = _case(target="pkg.mod:make")
    assert case.reproducer("float32") == (
        "ffnverify check pkg.mod:make --variant swiglu --layout hf --bias false --dtypes "
        "float32 --device cpu --seed 7 --d 3 --h 4 --n 2")


def test_reproducer_of_a_mapping_layout_runs_as_it_stands():
    """A JSON mapping goes on the command line; a Python line imports what it names."""
    import shlex

    from .zoo import T5_MAPPING

    case = _case(target="tests.conformance.zoo:T5Like", layout=T5_MAPPING)
    line = case.reproducer("float64")
    argv = shlex.split(line)
    assert argv[:2] == ["ffnverify", "check"] and "--layout" in argv
    import json
    assert json.loads(argv[argv.index("--layout") + 1])["W_gate"] == ["wi_0.weight", "T"]
    case = _case(target="tests.conformance.zoo:SwiGLU", call=lambda m, x: m(x))
    line = case.reproducer("float64")
    assert line.startswith('python -c "from ffnverify.testing import check_example; '
                           'from tests.conformance.zoo import SwiGLU; check_example(SwiGLU,')
