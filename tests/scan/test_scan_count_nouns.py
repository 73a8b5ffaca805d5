"""A parameter count a memory figure is computed from, bound by its noun wherever the
noun stands (`memory.counts`): after it ("a 7B model's weights"), before it ("the total
parameter count for this model is 57B", "Number of parameters: 13B"), or a format before
a count in billions ("INT4 quantised 70B"). The sentences are written for these tests.
"""

import pytest


def _one(scan_text, text):
    got = scan_text(text, "doc.md")["statements"]
    assert len(got) == 1, got
    return got[0]


@pytest.mark.parametrize("text, verdict, claim", [
    ("The total parameter count for this model is 57B, so loading it in 16-bit floats "
     "needs at least 114 GB.", "true", "57000000000 * bytes(bf16) >= 114000000000"),
    ("The total parameter count for this model is 57B, so loading it in 16-bit floats "
     "needs at least 150 GB.", "false", "57000000000 * bytes(bf16) >= 150000000000"),
    ("Number of parameters: 13B, so the fp16 weights take 26 GB.", "true",
     "13000000000 * bytes(fp16)"),
    ("The model's parameter count is 70B; in int4 that is 35 GB.", "true",
     "70000000000 * bytes(int4)"),
    ("A 7B model's fp16 weights take 14 GB.", "true", "7000000000 * bytes(fp16)"),
    ("A 7B model's fp16 weights take 28 GB.", "false", "7000000000 * bytes(fp16)"),
    ("INT4 quantised 70B runs on a 48GB workstation GPU.", "true",
     "70000000000 * bytes(int4) <= 48000000000"),
    ("INT8 quantized 70B fits on a 40 GB card.", "false",
     "70000000000 * bytes(int8) <= 40000000000"),
])
def test_a_count_bound_by_its_noun_sizes_the_weights(scan_text, text, verdict, claim):
    s = _one(scan_text, text)
    assert s["status"] == "checked" and s["verdict"] == verdict, s
    assert claim in s["claim"], s


@pytest.mark.parametrize("text", [
    "The 70B runs on a 48GB workstation GPU.",          # no format: a name, no count
    "INT4 quantised 70B tokens fit on a 48GB GPU.",     # a count of tokens
    "The batch count is 57, so it needs 114GB in fp16.",  # no parameter noun
])
def test_a_figure_without_the_parameter_noun_sizes_nothing(scan_text, text):
    got = scan_text(text, "doc.md")["statements"]
    assert not any("bytes(" in (s.get("claim") or "") and s["status"] == "checked"
                   for s in got), got


@pytest.mark.parametrize("text, verdict", [
    ("A 7B LLM needs 14 GB in fp16.", "true"),
    ("A 7B LLM needs 7 GB in fp16.", "false"),
])
def test_an_llm_is_a_count_noun_like_model(scan_text, text, verdict):
    s = _one(scan_text, text)
    assert s["status"] == "checked" and s["verdict"] == verdict, s
