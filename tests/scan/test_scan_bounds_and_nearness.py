"""A bound on a rounded figure, and a figure no word binds (`precision.lenient`,
`scan.settle`).

- "up to 46.7B total parameters" (Mixtral 8x7B: 46,702,792,704) was SUGGESTED FALSE: the
  bound took 46.7B as exact. A bound with `<=`/`>=` on a figure stated with decimals (a
  rounded measurement) reaches the edge of its precision in the lenient reading; a round
  threshold ("under 32K", "at most 70B") stays as written.
- "selects from a set of 8 distinct groups of parameters" was SUGGESTED FALSE as
  Mixtral's FFN parameters == 8: a field paired with a figure by nearness only is never a
  FALSE verdict, only a note naming what it would be.
- "3.14×10²³ FLOPs / (312×10¹² FLOPs/s × 86,400 s/day) ≈ 11,600 A100-days" was read with
  86,400 as the time: a figure between two units of time is a conversion factor.

Sentences written for these tests.
"""

import pytest


def _one(scan_text, text):
    (s,) = scan_text(text, "doc.md")["statements"]
    return s


@pytest.mark.parametrize("text, status, verdict", [
    ("Mixtral 8x7B has up to 46.7B total parameters.", "suggested", "true"),
    ("Mixtral 8x7B has at most 46.7B parameters.", "suggested", "true"),
    ("Llama 2 7B has at most 6.7B parameters.", "suggested", "true"),  # 6,738,415,616
    ("Llama 2 7B has at most 6.6B parameters.", "checked", "false"),  # mutant
    ("Mixtral 8x7B has at least 46.8B parameters.", "checked", "false"),  # mutant
    ("Mistral 7B supports under 32K tokens of context.", "checked", "false"),  # a threshold
])
def test_a_bound_on_a_rounded_figure_reaches_its_precision(scan_text, text, status, verdict):
    s = _one(scan_text, text)
    assert (s["status"], s["verdict"]) == (status, verdict), s


def test_a_figure_paired_by_nearness_only_is_never_false(scan_text):
    s = _one(scan_text, "Mixtral 8x7B is built on a Sparse Mixture of Experts architecture, "
                        "which means the feedforward block selects from a set of 8 distinct "
                        "groups of parameters.")
    assert s["verdict"] != "false", s
    assert "nearness only, it would be false" in s["detail"], s


def test_a_figure_bound_by_its_noun_is_still_false(scan_text):
    s = _one(scan_text, "Mixtral 8x7B has 8 billion parameters in total.")  # mutant
    assert s["verdict"] == "false", s


def test_a_factor_between_units_of_time_is_no_time(scan_text):
    s = _one(scan_text, "3.14×10²³ FLOPs / (312×10¹² FLOPs/s × 86,400 s/day) ≈ 11,600 "
                        "A100-days")
    assert s["verdict"] != "false", s
    assert "== 86400" not in (s.get("claim") or ""), s


# ---- "over" and "under" as prepositions, not bounds (`words.BOUNDS`) ---------------------
# "Mixtral 8x7B uses a top-2 router over 8 experts" was CHECKED FALSE as experts > 8.

@pytest.mark.parametrize("text, verdict", [
    ("Mixtral 8x7B uses a top-2 router over 8 experts.", "true"),
    ("Llama 2 70B has over 60B parameters.", "true"),
    ("GPT-3 has well over 100B parameters.", "true"),
    ("Llama 2 70B has over 80B parameters.", "false"),  # mutant: a bound still
    ("Mistral 7B supports under 32K tokens of context.", "false"),
])
def test_over_is_a_bound_only_after_a_word_that_takes_an_amount(scan_text, text, verdict):
    s = _one(scan_text, text)
    assert s["verdict"] == verdict, s


# ---- a bound on a model's nominal size (`fields`): "over 175 billion" of GPT-3 ---------
# GPT-3 has 174.6B parameters and is known as 175B: "With over 175 billion parameters,
# GPT-3 …" was CHECKED FALSE; the bound is read at the nominal size's rounding, to confirm.

@pytest.mark.parametrize("text, status, verdict", [
    ("With over 175 billion parameters, GPT-3 has taken the field to new heights.",
     "suggested", "true"),
    ("GPT-3 has over 180 billion parameters.", "checked", "false"),  # no nominal size
    ("GPT-3 has over 200 billion parameters.", "checked", "false"),
])
def test_a_bound_on_the_nominal_size(scan_text, text, status, verdict):
    s = _one(scan_text, text)
    assert (s["status"], s["verdict"]) == (status, verdict), s
