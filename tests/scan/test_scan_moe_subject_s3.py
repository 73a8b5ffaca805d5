"""A mixture of experts' count said of the sentence's subject (`scan/moe.py`): "The
activated parameters of Mixtral 8x7B are 13B", "The total parameter count of Mixtral 8x7B
is 46.7B" — the subject's noun names the role. Sentences written for these tests, not
taken from the corpus. Mixtral 8x7B: 46,702,792,704 in all, 12,879,925,248 active."""

import pytest

from ffnverify.scan import moe
from ffnverify.scan.detect import models
from ffnverify.scan.numbers import normalise, tokens


def _parts(text):
    clean = normalise(text)
    return [(p.strict, p.sure) for p in moe.parameters(tokens(clean), clean, models(clean))]


def test_the_subjects_noun_names_the_role():
    assert _parts("The activated parameters of Mixtral 8x7B are 12.9B.") == [
        ("approx(params_active(mixtral-8x7b), 12900000000, abs=50000000)", True)]
    assert _parts("The total parameter count of Mixtral 8x7B is 46.7B.") == [
        ("approx(params_total(mixtral-8x7b), 46700000000, abs=50000000)", True)]
    assert _parts("The activation parameters of Mixtral 8x7B are roughly 1.3 billion.")[0][0] \
        .startswith("approx(params_active(mixtral-8x7b), 1300000000")


def test_a_subject_that_names_no_role_or_a_dense_model_reads_nothing_here():
    assert _parts("The parameters of Mixtral 8x7B are 46.7B.") == []
    assert _parts("The total parameters of Llama 2 7B are 6.7B.") == []  # `fields` reads it
    assert _parts("The activated parameters of Mixtral 8x7B are not 46.7B.") == []


def test_a_false_active_count_is_flagged(scan_text):
    doc = "The activated parameters of Mixtral 8x7B are 1.3 billion.\n"
    (s,) = scan_text(doc)["statements"]
    assert (s["status"], s["verdict"]) == ("checked", "false"), s


def test_a_mixture_of_experts_model_is_a_kind_not_its_experts_part(scan_text):
    doc = ("Mixtral 8x7B is a 46.7 billion-parameter Mixture-of-Experts model.\n\n"
           "Mixtral 8x7B is a 40 billion-parameter Mixture-of-Experts model.\n\n"
           "Mixtral 8x7B has 45.1B parameters in its experts.\n")
    got = [(s["status"], s["verdict"], s["claim"]) for s in scan_text(doc)["statements"]]
    assert got[0][:2] == ("checked", "true") and "part=ffn" not in got[0][2], got
    assert got[1][:2] == ("checked", "false") and "part=ffn" not in got[1][2], got
    assert "part=ffn" in got[2][2], got  # its experts: the FFN's part


@pytest.mark.parametrize("text, verdict", [
    ("Mixtral 8x7B has 46.7 billion parameters, but only 12.9 billion are used per token.",
     "true"),
    ("Mixtral 8x7B has 46.7 billion parameters, but only 22 billion are used per token.",
     "false"),
    ("Mixtral 8x7B has 46.7 billion parameters, but only 12.9 billion parameters are used "
     "per token.", "true"),
    ("Mixtral 8x7B has 46.7B parameters and 12.9B parameters per token.", "true"),
])
def test_a_count_used_per_token_is_the_active_count(scan_text, text, verdict):
    got = scan_text(text, "doc.md")["statements"]
    assert len(got) == 1 and got[0]["status"] == "checked", got
    assert got[0]["verdict"] == verdict and "params_active(mixtral-8x7b)" in got[0]["claim"], got


@pytest.mark.parametrize("text", ["Mixtral 8x7B routes each token to two experts.",
                                  "Mixtral 8x7B sends every token to two of its eight experts.",
                                  "Mixtral 8x7B routes each token to two experts out of eight."])
def test_experts_per_token_in_words_are_the_active_ones(scan_text, text):
    # "two experts" after "each token to" counts the experts a token meets, not the model's
    got = scan_text(text, "doc.md")["statements"]
    assert len(got) == 1 and (got[0]["status"], got[0]["verdict"]) == ("checked", "true"), got
    assert "experts(mixtral-8x7b) == 2" not in got[0]["claim"].replace("active_experts", ""), got


@pytest.mark.parametrize("text, status", [
    ("Unlike Mixtral 8x7B, this model has 46.7 billion parameters of which 12.9 billion are "
     "used per token.", "unchecked"),
    ("Compared with Llama 2 7B, our model has 48 layers.", "unchecked"),
    ("Mixtral 8x7B, unlike Llama 2 70B, has 46.7 billion parameters.", "suggested"),
])
def test_figures_beside_a_model_set_against_are_not_its_own(scan_text, text, status):
    got = scan_text(text, "doc.md")["statements"]
    assert len(got) == 1 and got[0]["status"] == status, got
    if status == "unchecked":
        assert "set against" in got[0]["detail"], got
