"""A scale word joined by a hyphen or dash ("a 7-billion-parameter model", "13–billion")
is the figure's scale, not a bare 7 compared with a parameter count; and a per-parameter
size in parentheses after one memory figure ("140GB (2 bytes per parameter), or 35–40GB
at 4-bit") explains that figure, not the next one."""

import pytest

from ffnverify.scan.numbers import tokens


@pytest.mark.parametrize("text,value", [
    ("a 7-billion-parameter model", 7 * 10**9),
    ("a 7–billion-parameter model", 7 * 10**9),
    ("a 175-billion parameter model", 175 * 10**9),
    ("13 million rows", 13 * 10**6),
])
def test_hyphenated_scale_words(text, value):
    nums = [t for t in tokens(text) if t.kind == "NUM"]
    assert nums[0].value == value, nums


@pytest.mark.parametrize("text", ["pages 6-7 billion", "a 7-bit format", "rank-8 billionaires"])
def test_no_scale_where_none_is_joined(text):
    nums = [t for t in tokens(text) if t.kind == "NUM"]
    assert all(t.value < 10**6 for t in nums[:1]), nums


@pytest.mark.parametrize("text", [
    "We introduce Mistral 7B, a 7–billion-parameter language model.",
    "Llama 2 70B is a 70-billion-parameter model.",
])
def test_a_nominal_size_in_words_is_never_false(scan_text, text):
    for st in scan_text(text + "\n")["statements"]:
        assert st["verdict"] != "false", st


def test_a_parenthetical_explains_the_figure_before_it(scan_text):
    text = ("A 70-billion-parameter LLM needs about 140GB of VRAM for FP16 inference (2 bytes "
            "per parameter), or roughly 35–40GB when quantized to 4-bit.\n")
    st = scan_text(text)["statements"][0]
    assert st["verdict"] == "true", st
    assert "bytes(int4)" in st["claim"], st


def test_a_parenthetical_around_the_figure_still_binds(scan_text):
    st = scan_text("A 7B model takes 14 GB (2 bytes per parameter).\n")["statements"][0]
    assert st["verdict"] == "true" and "* 2" in st["claim"], st
