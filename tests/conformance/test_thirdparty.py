"""Third-party FFN classes (issue 24 "Done when"), run through identify and check in the
thirdparty env (tox -e thirdparty): each passes with the variant it computes, or is rejected
for the named reason. Skipped where the library is not installed. (REJECTED is empty now:
its test is skipped saying so until a library is left out again.)"""

import importlib.util
import os
import warnings

import pytest

pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from ffnverify.testing import check_ffn, identify_ffn
from ffnverify.testing.results import ConformanceFailure

from .thirdparty import BROKEN, ENTRIES, MOE, MOE_BROKEN, REJECTED

pytestmark = [pytest.mark.thirdparty, pytest.mark.torch]
EXAMPLES = int(os.environ.get("FFNVERIFY_THIRDPARTY_EXAMPLES", "20"))
MOE_EXAMPLES = max(2, EXAMPLES // 4)  # each MoE example runs E experts in four dtypes


def _need(pkg):
    try:
        found = importlib.util.find_spec(pkg) is not None
    except Exception as exc:  # a package whose import machinery itself fails
        pytest.skip(f"{pkg} cannot be located: {type(exc).__name__}: {exc}")
    if not found:
        pytest.skip(f"{pkg} is not installed (tox -e thirdparty installs it)")


def _shape_kw(kw):
    return {k: kw[k] for k in ("h_of", "experts", "d_multiple_of") if k in kw}


@pytest.mark.parametrize("entry", ENTRIES, ids=[e[0] for e in ENTRIES])
def test_third_party_class_is_identified_and_conformant(entry):
    _name, factory, variant, bias, kw, pkg = entry
    _need(pkg)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = identify_ffn(factory, bias=bias[-1], **_shape_kw(kw))
        assert found.best is not None and found.best.variant == variant, found.summary()
        report = check_ffn(factory, variant, bias=bias, max_examples=EXAMPLES, **kw)
    assert report.variant == variant and report.layout == found.best.layout, report.summary()


@pytest.mark.parametrize("entry", BROKEN, ids=[e[0] for e in BROKEN])
def test_falcon_h1_multipliers_are_rejected_with_a_diagnosis(entry):
    """FalconH1 with gate 0.5 and output 2.0 multipliers computes 2·down(silu(0.5·gate)·up),
    which is x·σ(0.5x) gating: rejected, and the diagnosis says what fits exactly."""
    _name, factory, variant, bias, kw, pkg = entry
    _need(pkg)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = identify_ffn(factory, bias=bias[-1])
        assert found.best is None, found.summary()
        with pytest.raises(ConformanceFailure) as info:
            check_ffn(factory, variant, bias=bias, max_examples=EXAMPLES, **kw)
    text = info.value.report()
    assert "diagnosis:" in text and "matches at every drawn point" in text, text
    # silu(0.5·g)·u·2 = g·σ(0.5·g)·u: swish's beta = 0.5, and listed beside it the scales
    # the config applies (the numbers cannot tell them apart)
    assert "the silu constant beta = 0.5 (correct 1)" in text, text
    assert "the gate's pre-activation scaled by 0.5 and the output scaled by 2" in text, text
    assert "the numbers cannot tell them apart" in text, text


def _moe_marks(entries):
    """The transformers blocks run in the hf env too (-m hf), the others here only."""
    return [pytest.param(e, id=e[0], marks=[pytest.mark.hf] if e[-1] == "transformers"
                         else []) for e in entries]


@pytest.mark.parametrize("entry", _moe_marks(MOE))
def test_moe_block_is_conformant_through_its_routing(entry):
    """The whole block: its router's top-k and gates from its own weights, each token's
    output = Σ gate·expert(x); the gating the class computes is identified."""
    from ffnverify.testing.moe import check_moe

    _name, factory, variant, top_k, gating, bias, pkg = entry
    _need(pkg)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = check_moe(factory, variant, top_k, bias=bias, max_examples=MOE_EXAMPLES)
    assert report.gating == gating and report.experts == 4, report.summary()
    assert report.compared > 0, report.summary()


@pytest.mark.parametrize("entry", _moe_marks(MOE_BROKEN))
def test_moe_block_against_a_wrong_statement_is_diagnosed(entry):
    from ffnverify.testing.moe import check_moe

    _name, factory, variant, top_k, gating, words, pkg = entry
    _need(pkg)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ConformanceFailure) as info:
            check_moe(factory, variant, top_k, gating=gating, max_examples=MOE_EXAMPLES)
    text = info.value.report()
    assert info.value.check == "moe-forward" and words in text, text


def test_every_library_of_the_issue_has_an_entry():
    """Issue 24's "Done when" list, each library or class in ENTRIES or MOE (or left out in
    REJECTED with its reason)."""
    named = " ".join(e[0] for e in ENTRIES + MOE + REJECTED)
    for want in ("Nemotron", "Arcee", "Persimmon", "OpenAI-GPT", "T5DenseActDense", "Jamba",
                 "FalconH1", "CLIPMLP", "SiglipMLP", "MixtralExperts", "DbrxExperts",
                 "litgpt LLaMAMLP", "litgpt GemmaMLP", "litgpt GptNeoxMLP", "LLaMAMoE",
                 "olmo-core FeedForward", "torchtitan FeedForward", "open_clip MLP"):
        assert want in named, want


@pytest.mark.parametrize("entry", [pytest.param(e, id=e[0]) for e in REJECTED] or [
    pytest.param(None, id="none", marks=pytest.mark.skip(
        reason="no library of issue 24 is left out (thirdparty.REJECTED is empty)"))])
def test_a_library_left_out_is_reported_with_its_reason(entry):
    """Not silently absent: skipped with the named reason, and failed once it imports
    (then it belongs in ENTRIES)."""
    name, where, reason = entry
    top = where.split(".")[0]
    if importlib.util.find_spec(top) is None:
        pytest.skip(f"{name} rejected: {reason}")
    try:
        importlib.import_module(where)
    except (ImportError, RuntimeError) as exc:
        pytest.skip(f"{name} rejected: {reason}; here: {type(exc).__name__}: {exc}")
    pytest.fail(f"{where} imports here: add {name} to thirdparty.ENTRIES")
