"""Equations and names a careful reader does not take as written (found on the first half
of corpus fresh10/, tests/scan/corpus_v3/README.md; the sentences here are written for the
tests): a size mapped to a shape ("7B = 32×4096") is a label, not an equality; a fraction
said as a factor ("0.099 = ~10×") is the factor it divides by; arithmetic whose result is
then given to a model as its total is not checked on the arithmetic alone; and a "Long"
release is not its base model."""

import pytest

from ffnverify.scan import equation_forms
from ffnverify.scan.numbers import tokens
from tests.scan.verdicts import decide


@pytest.mark.parametrize("text", [
    "Shapes of GPT-3: 175B = 96×12288, 13B = 40×5120.",
    "The 7B = 32×4096 and the 13B = 40×5120 in the family table.",
])
def test_a_size_mapped_to_its_shape_is_a_label_not_a_false_equality(engine, text):
    _status, verdict, claim, record = decide(engine, text)
    assert verdict != "false", record
    assert "96 * 12288" not in (claim or "") and "32 * 4096" not in (claim or "")


@pytest.mark.parametrize("text, verdict", [
    ("So 4096 × 4096 = 16.7B weights in one matrix.", "false"),  # one scale word off: read
    ("So 4096 × 4096 = 16.8M weights in one matrix.", "true"),
    ("So 16.7B = 4096 × 4096 weights in one matrix.", "false"),  # 1000× apart: a slip, read
])
def test_a_slip_of_one_scale_word_is_still_read(engine, text, verdict):
    assert decide(engine, text)[1] == verdict, decide(engine, text)[3]


def test_the_label_gap_is_wider_than_a_scale_word():
    assert equation_forms.LABEL_GAP > 1000
    toks = tokens("7B = 32×4096")
    left, right = toks[:1], toks[2:]
    assert equation_forms.is_label(left, right, 32 * 4096)
    assert not equation_forms.is_label(left, right, 7 * 10**9 // 1000)


@pytest.mark.parametrize("text, verdict", [
    ("The ternary weights take 0.74 GB of 7.45 GB: ratio = 0.099 = ~10×.", "true"),
    ("The ternary weights take 0.74 GB of 7.45 GB: ratio = 0.099 = ~10× (not ~8×).", "true"),
    ("The ternary weights take 0.74 GB of 7.45 GB: ratio = 0.099 = ~8× (not ~10×).", "false"),
    ("The ternary ratio is 0.74 / 7.45 = ~10× smaller.", "true"),
    ("The ternary ratio is 0.74 / 7.45 = ~8× smaller.", "false"),
])
def test_a_fraction_said_as_a_factor_is_read_as_the_factor_it_divides_by(engine, text, verdict):
    got = decide(engine, text)
    assert got[1] == verdict, got[3]


@pytest.mark.parametrize("text, verdict", [
    ("It keeps 0.74 GB of 7.45 GB, a ratio of 0.099.", "true"),
    ("It keeps 0.74 GB of 7.45 GB, a ratio of 0.2.", "false"),
    ("It grows from 4,096 to 14,336, a ratio of 3.5.", "true"),
])
def test_a_ratio_below_one_is_the_smaller_over_the_larger(engine, text, verdict):
    got = decide(engine, text)
    assert got[1] == verdict, got[3]


def test_a_factor_above_one_is_not_inverted(engine):
    assert "1 / (" not in (decide(engine, "Then 2 = 2×, trivially, and 3 = 3× as well.")[2] or "")


@pytest.mark.parametrize("text", [
    "The large alternative is Mixtral, with an architecture totaling 8*7B=56B.",
    "Mixtral 8x7B, in total 8 × 7B = 56B.",
    "Mixtral 8x7B comes to 8 × 7B = 56B.",
])
def test_arithmetic_given_to_a_model_as_its_total_is_not_checked_on_the_arithmetic(engine, text):
    status, verdict, _, record = decide(engine, text)
    assert status != "checked" or verdict == "false", record


def test_arithmetic_totalled_without_a_model_is_still_checked(engine):
    status, verdict, _, record = decide(engine, "The blocks total 8 × 4 = 32 layers of work.")
    assert (status, verdict) == ("checked", "true"), record


@pytest.mark.parametrize("text", [
    "Phi-3 Mini Long has a context of 128,000 tokens.",
    "Llama 2 7B Long has a context of 32,768 tokens.",
])
def test_a_long_release_is_a_near_miss_not_its_base_model(engine, text):
    status, _verdict, _, record = decide(engine, text)
    assert status == "unchecked" and "another release" in record["detail"], record


def test_the_base_model_is_still_read(engine):
    _status, verdict, _, record = decide(engine, "Phi-3 Mini has a context of 128,000 tokens.")
    assert verdict == "false", record
