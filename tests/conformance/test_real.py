"""Real implementations pass the kit with a named layout: transformers' LlamaMLP, GemmaMLP,
T5DenseGatedActDense, Phi3MLP and torchtune's FeedForward (tox -e hf); GPT2MLP's run with
the gpt2 layout is test_hf_classes.py's."""

import importlib.util
import warnings

import pytest

pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from ffnverify.testing import check_ffn
from ffnverify.testing.conformance import ConformanceFailure

from .real_modules import REAL, gemma_mlp

pytestmark = [pytest.mark.hf, pytest.mark.torch]


def _importable(pkg):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if pkg == "torchtune":
                import torchtune.modules  # noqa: F401  (needs a torchao it can load)
            return importlib.util.find_spec(pkg) is not None
    except Exception:
        return False


@pytest.mark.parametrize("real", REAL, ids=[r[0] for r in REAL])
def test_real_implementation_is_conformant(real):
    _name, factory, variant, layout, bias, pkg = real
    if not _importable(pkg):
        pytest.skip(f"{pkg} is not installed or not importable (tox -e hf installs it)")
    report = check_ffn(factory, variant, layout, bias=bias, max_examples=25)
    assert all(k == 25 for k in report.examples.values()), report.summary()


def test_gemma_with_exact_gelu_is_rejected():
    """The transformers PR #29402 mix-up: GemmaMLP given exact GELU fails the kit."""
    if not _importable("transformers"):
        pytest.skip("transformers is not installed (tox -e hf installs it)")
    import torch

    def exact(d, h, bias=False):
        m = gemma_mlp(d, h, bias)
        m.act_fn = torch.nn.GELU()
        return m

    with pytest.raises(ConformanceFailure) as info:
        check_ffn(exact, "geglu_tanh", "hf", bias=False, max_examples=10, shrink=False)
    assert info.value.check == "forward"
