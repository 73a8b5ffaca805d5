"""Diagnoses (ffnverify.testing.diagnose): a module broken the way a reviewer would guess is
rejected with the diagnosis that fits it at every drawn point, in check and in identify;
a correct module, and one broken in a way no hypothesis covers, gets none."""

import pytest

torch = pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from ffnverify.testing import check_ffn, diagnose, identify_ffn  # noqa: E402
from ffnverify.testing import conformance as C  # noqa: E402

from . import zoo  # noqa: E402
from .broken import BROKEN, FalconH1Like  # noqa: E402

pytestmark = pytest.mark.torch


def failure_of(factory, variant, layout, bias, **kw):
    with pytest.raises(C.ConformanceFailure) as info:
        check_ffn(factory, variant, layout, bias=bias, max_examples=10, **kw)
    return info.value


@pytest.mark.parametrize("name,factory,variant,layout,bias,kind,words", BROKEN,
                         ids=[b[0] for b in BROKEN])
def test_the_failure_names_the_diagnosis(name, factory, variant, layout, bias, kind, words):
    failure = failure_of(factory, variant, layout, bias)
    report = failure.report()
    assert [d.kind for d in failure.diagnoses] == [kind], report
    assert words in report, report
    assert "it then matches at every drawn point" in report


# identify has no variant for these (the others are a variant read through another layout)
IDENTIFY = [b for b in BROKEN if b[5] in ("swap", "bias", "constant", "scale", "residual")
            and b[3] == "hf"]


@pytest.mark.parametrize("name,factory,variant,layout,bias,kind,words", IDENTIFY,
                         ids=[b[0] for b in IDENTIFY])
def test_identify_names_the_diagnosis(name, factory, variant, layout, bias, kind, words):
    found = identify_ffn(factory, bias=bias)
    text = found.summary()
    assert found.best is None and text.startswith("none of the variants"), text
    assert words in text, text
    # (quick_gelu's alpha = 1.7 is also silu's beta = 1.7: the same function, both listed)
    assert (variant, kind) in [(d.variant, d.kind) for d in found.diagnoses], text
    assert {d.kind for d in found.diagnoses} == {kind}, text


def test_explanations_the_numbers_cannot_tell_apart_are_all_listed():
    """Without biases, FalconH1's gate multiplier on silu(g)·u is also an input scale (u
    then carries the factor to the output): both are listed, and said to be alike."""
    failure = failure_of(FalconH1Like, "swiglu", "hf", False)
    text = failure.report()
    assert "2 explanations fit identically (the numbers cannot tell them apart)" in text
    assert sorted(d.what for d in failure.diagnoses) == [
        "the gate's pre-activation scaled by 0.5 and the output scaled by 2.25",
        "the input scaled by 0.5 and the output scaled by 4.5"]


class _FalconH1Half(FalconH1Like):
    gate_multiplier, down_multiplier = 0.5, 2.0


def test_a_scale_reaching_a_constant_is_listed_beside_it():
    """FalconH1's mlp_multipliers (0.5, 2): 2·silu(0.5·g)·u = g·σ(0.5·g)·u is swish's
    beta = 0.5 (one constant), and the config's scales (two) are listed beside it; a scale
    pair with a scale of 1 (the one-constant answer in disguise) is not."""
    failure = failure_of(_FalconH1Half, "swiglu", "hf", False)
    text = failure.report()
    assert sorted(d.what for d in failure.diagnoses) == [
        "the gate's pre-activation scaled by 0.5 and the output scaled by 2",
        "the input scaled by 0.5 and the output scaled by 4",
        "the silu constant beta = 0.5 (correct 1)"], text
    assert "3 explanations fit identically (the numbers cannot tell them apart)" in text
    found = identify_ffn(_FalconH1Half, bias=False)
    assert {d.kind for d in found.diagnoses} == {"constant", "scale"}, found.summary()


def _points(factory, variant, layout, bias=False):
    case = C.Case(factory, variant, layout, bias, 6, 15, 5, 3, shapes={})
    module = C._build(case)
    import numpy as np

    rng = np.random.default_rng(0)
    C.fill(module, case, rng)
    return diagnose.points_for(module, case, rng.standard_normal((5, 6)), fills=2), case


@pytest.mark.parametrize("name,make,layout,variants,biases", zoo.CORRECT,
                         ids=[c[0] for c in zoo.CORRECT])
def test_a_correct_module_gets_no_diagnosis(name, make, layout, variants, biases):
    for variant in variants[:3] + variants[-2:]:
        points, case = _points(zoo.correct(make, variant), variant, layout, biases[-1])
        assert len(points) == 4
        assert diagnose.diagnose(points, variant, case.layout_name, C._table(case)) == []


UNEXPLAINED = [  # broken in ways no hypothesis covers: rejected, never misdiagnosed
    ("output nudged by 1e-7", zoo.Nudged1e7, "forward"),
    ("activation after the product", zoo.ActivationAfterProduct, "forward"),
    ("output replaced by x*x", zoo.XformersIssue1165, "forward"),
    ("token mixing", zoo.TokenMixing, "independence"),
]


@pytest.mark.parametrize("name,factory,check", UNEXPLAINED, ids=[u[0] for u in UNEXPLAINED])
def test_no_diagnosis_fits_a_bug_outside_the_hypotheses(name, factory, check):
    failure = failure_of(factory, "swiglu", "hf", False)
    assert failure.check == check and failure.diagnoses == [], failure.report()
    assert "diagnosis" not in failure.report()


class _Scaled(zoo.SwiGLU):
    factor = 1.0

    def forward(self, x):
        return super().forward(x) * self.factor


@settings(max_examples=6, deadline=None, database=None)
@given(st.integers(11, 999).filter(lambda m: m % 10 and m != 100), st.integers(-2, 1))
def test_a_drawn_output_scale_is_reported_exactly(mantissa, exponent):
    factor = float(f"{mantissa}e{exponent - 2}")
    cls = type("S", (_Scaled,), {"factor": factor})
    points, case = _points(cls, "swiglu", "hf")
    (found,) = diagnose.diagnose(points, "swiglu", "hf", C._table(case))
    assert found.kind == "scale" and found.fitted == {"output": (factor, 1.0)}


class _GeluC(zoo.HF):
    c = 0.044715

    def __init__(self, d, h, bias=False):
        super().__init__("gelu_tanh", d, h, bias)

    def forward(self, x):
        import math

        z = self.up_proj(x)
        inner = math.sqrt(2 / math.pi) * (z + self.c * z**3)
        return self.down_proj(0.5 * z * (1 + torch.tanh(inner)))


@settings(max_examples=6, deadline=None, database=None)
@given(st.integers(300, 600).filter(lambda m: m != 447))
def test_a_drawn_gelu_constant_is_fitted_and_reported_beside_the_correct_one(m):
    c = m / 10_000
    cls = type("G", (_GeluC,), {"c": c})
    points, case = _points(cls, "gelu_tanh", "hf")
    (found,) = diagnose.diagnose(points, "gelu_tanh", "hf", C._table(case))
    assert found.fitted == {"c": (c, 0.044715)}
    assert f"c = {c:.12g} (correct 0.044715)" in found.text()


def test_too_few_numbers_fit_no_constant():
    """One token of width one cannot pin a constant down: no fitted diagnosis."""
    import numpy as np

    cls = type("S", (_Scaled,), {"factor": 2.0})
    case = C.Case(cls, "swiglu", "hf", False, 1, 1, 1, 0, shapes={})
    module = C._build(case)
    C.fill(module, case, np.random.default_rng(0))
    x = np.ones((1, 1))
    with torch.no_grad():
        y = module(torch.as_tensor(x)).numpy()
    point = diagnose.Point(module, C._table(case), x, y)
    assert diagnose.diagnose([point], "swiglu", "hf", C._table(case)) == []


def test_identify_of_a_forward_raising_at_d_ne_h_diagnoses_it_at_d_eq_h():
    from .broken import GateWeightTransposed

    with pytest.raises(C.ConformanceFailure) as info:
        identify_ffn(GateWeightTransposed, bias=False)
    text = info.value.report()
    assert "forward raised RuntimeError" in text and "it runs at d = h = 6" in text, text
    assert [d.kind for d in info.value.diagnoses] == ["transposed"], text
    assert "gate_proj.weight used transposed" in text
