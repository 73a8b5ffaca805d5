"""timm.layers' MLP classes pass the kit with a built-in or auto-detected layout, with
timm's per-projection `bias=(True, False)`, and `identify_ffn` names each one's variant
(tox -e timm: timm needs torchvision, which needs its own torch build; see tox.ini).

GluMlp keeps the gate in fc1's second half (gate_last=True: x1 * act(x2), layout
timm-glu); SwiGLUPacked is GluMlp(act_layer=SiLU, gate_last=False), the gate first
(timm-glu-gate-first). The kit finds both from the numbers, not from the class name.
"""

import importlib.util
import os
import warnings

import pytest

pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from ffnverify.testing import check_ffn, identify_ffn

from .hf_modules import TIMM_CLASSES

pytestmark = [pytest.mark.timm, pytest.mark.torch]
# examples per bias setting, as in test_hf_classes (tox -e timm takes 25)
EXAMPLES = int(os.environ.get("FFNVERIFY_HF_EXAMPLES", "100"))
LAYOUTS = {"timm GluMlp": "timm-glu", "timm GluMlp(GELU)": "timm-glu",
           "timm SwiGLUPacked": "timm-glu-gate-first", "timm SwiGLU": "timm-swiglu",
           "torchvision MLP": "torchvision", "torchvision MLP(GELU)": "torchvision"}


def _importable():
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import timm.layers  # noqa: F401  (imports torchvision)
        return True
    except Exception as exc:  # torchvision built for another torch fails at import
        pytest.skip(f"timm.layers does not import ({type(exc).__name__}: {exc}); "
                    "tox -e timm installs a matching torch and torchvision")


@pytest.mark.parametrize("entry", TIMM_CLASSES, ids=[e[0] for e in TIMM_CLASSES])
def test_timm_class_passes_with_an_auto_layout_and_is_identified(entry):
    name, factory, variant, bias, _kw, pkg = entry
    if importlib.util.find_spec(pkg) is None:
        pytest.skip(f"{pkg} is not installed (tox -e timm installs it)")
    _importable()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = identify_ffn(factory, bias=True)
        assert found.variant == variant, found.summary()
        assert found.layout == LAYOUTS.get(name, "fc"), found.summary()
        report = check_ffn(factory, variant, bias=bias, max_examples=EXAMPLES)
    assert report.layout == found.layout, (report.summary(), found.summary())
    want = {b if not isinstance(b, dict) else ", ".join(f"{k}={v}" for k, v in b.items())
            for b in bias}  # timm's per-projection bias=(True, False) ran as its flags
    assert set(report.examples) == want, report.summary()
    assert all(k == EXAMPLES for k in report.examples.values()), report.summary()


def test_a_timm_mlp_that_drops_its_fc1_bias_is_caught():
    """The per-projection flags are checked, not assumed: a module that ignores
    bias=(True, False) fails the params check."""
    from ffnverify.testing.conformance import ConformanceFailure

    from .hf_modules import timm_mlp

    if importlib.util.find_spec("timm") is None:
        pytest.skip("timm is not installed (tox -e timm installs it)")
    _importable()
    mlp = timm_mlp("Mlp")

    def ignores(d, h, bias=True):
        return mlp(d, h, False)
    with pytest.raises(ConformanceFailure) as info:
        check_ffn(ignores, "gelu", "fc", bias={"up": True, "down": False}, max_examples=2)
    assert info.value.check == "params"
