"""GPT-3 identity, a negation outside a refuted quotation, and the layout of the split
reader (helper S2): each with the wrong readings it must not make."""

from fractions import Fraction
from pathlib import Path

import pytest

from ffnverify.scan import arithmetic, fields, read, rows, variants, words
from ffnverify.scan.detect import models, near_misses
from ffnverify.scan.numbers import tokens
from ffnverify.scan.read import reading

SCAN = Path(__file__).resolve().parents[2] / "ffnverify" / "scan"


def _strict(text):
    r = reading(text)
    return [(p.strict, p.sure) for p in r.parts] if r else []


def test_bare_gpt3_is_the_175b_row():
    assert [m[2] for m in models("GPT-3 has 96 layers.")] == ["gpt-3-175b"]
    assert _strict("GPT-3 has 80 layers.") == [("layers(gpt-3-175b) == 80", True)]


@pytest.mark.parametrize("text, sibling", [
    ("GPT-3 Small has 12 layers.", "Small"),
    ("GPT-3 6.7B has 32 layers.", "6.7B"),
    ("GPT-3 XL has 24 layers.", "XL"),
])
def test_a_gpt3_sibling_is_a_near_miss_naming_the_row(text, sibling):
    assert models(text) == ()
    misses = near_misses(text)
    assert [(m[2], m[3].split()[0]) for m in misses] == [("gpt-3-175b", sibling)]
    r = reading(text)
    assert not (r and r.parts)  # nothing checked against the 175B row
    assert r and any("gpt-3-175b" in n for n in r.notes)


def test_a_size_after_a_sized_name_is_the_longer_name_not_a_sibling():
    assert [m[2] for m in models("GPT-3 175B has 96 layers.")] == ["gpt-3-175b"]
    assert [m[2] for m in models("GPT-2 small has 12 layers.")] == ["gpt2-small"]


def test_the_clause_subject_owns_the_figure_with_gpt3():
    got = _strict("Unlike GPT-2 XL, GPT-3 has 48 layers.")
    assert got == [("layers(gpt-3-175b) == 48", True)]


def test_a_negation_outside_a_refuted_belief_is_read():
    r = reading("Contrary to popular belief, GPT-3 does not have 96 attention heads.")
    assert [p.strict for p in r.parts] == ["not (heads(gpt-3-175b) == 96)"]
    assert not r.sure
    r = reading("Contrary to popular belief, GPT-3 has 96 attention heads.")
    assert [p.strict for p in r.parts] == ["heads(gpt-3-175b) == 96"]  # not negated


def test_reader_modules_hold_their_jobs_and_stay_small():
    for mod in (read, arithmetic, variants, fields, rows, words):
        assert mod.__doc__ and len(mod.__doc__) > 80
        lines = Path(mod.__file__).read_text(encoding="utf-8").count("\n")
        assert lines <= 600, mod.__name__
    # the public names kept on read
    assert read.arithmetic is arithmetic.arithmetic and read.Context is variants.Context
    assert read.learn is variants.learn and read.rounding is arithmetic.rounding
    # one table of field nouns
    assert fields.words.FIELD_RES is words.FIELD_RES


def test_a_small_multiple_before_width_is_a_multiple_of_d():
    got = _strict("SwiGLU at 8/3 width cuts the FFN parameters by 33% compared with a "
                  "ReLU FFN at 4× width.")
    assert got == [("1 - params(swiglu, d, (8/3)*d) / params(relu, d, 4*d) ≈ 33%", False)]
    # "at 4× width" is the width, never a ratio of the two counts
    got = _strict("SwiGLU at 8/3 width has the same parameters as a ReLU FFN at 4× width.")
    assert got == [("params(swiglu, d, (8/3)*d) == params(relu, d, 4*d)", False)]


def test_a_count_before_width_is_no_multiple():
    assert variants.widths(tokens("a 4096 width SwiGLU")) == []
    assert [w[1] for w in variants.widths(tokens("SwiGLU at 8/3 width"))] == [Fraction(8, 3)]


@pytest.mark.parametrize("text, claim, verdict", [
    # a size said apart from its family (`detect._split_names`)
    ("The 7B variant of Llama 2 has 32 layers.", "layers(llama-2-7b) == 32", "true"),
    ("Llama 2's 7B model uses 32 attention heads.", "heads(llama-2-7b) == 32", "true"),
    ("For the 13B version of Llama 2, the hidden size is 4096.", "d_model(llama-2-13b) == 4096",
     "false"),  # mutant: the 7B's width
])
def test_a_size_said_apart_from_its_family(scan_text, text, claim, verdict):
    (s,) = scan_text(text, "doc.md")["statements"]
    assert s["claim"] == claim and s["verdict"] == verdict, s


def test_a_size_no_single_row_of_the_family_has_is_no_name(scan_text):
    (s,) = scan_text("The 7B variant of Llama has 32 layers.", "doc.md")["statements"]
    assert s["verdict"] is None, s  # LLaMA 1 7B or Llama 2 7B
