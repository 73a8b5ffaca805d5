"""A figure restated in words in another scale or unit (`scan.restated`): "a 7B model has
7,000,000,000 parameters", Chinese 亿, bits against bytes. Always a reading to confirm (a
worded link may join a nominal size to a measured count), TRUE or FALSE; never CHECKED.
The sentences are written for these tests.
"""

import pytest


def _one(scan_text, text, name="doc.md"):
    got = scan_text(text, name)["statements"]
    assert len(got) == 1, got
    return got[0]


@pytest.mark.parametrize("text", [
    "A 7B model has 7,000,000,000 parameters.",
    "A 13B-parameter model, that is 13,000,000,000 parameters in all.",
    "A 1.5B model holds 1.5 × 10⁹ parameters.",
    "A 70B model has 70 billion parameters, i.e. 7 × 10¹⁰ parameters.",
])
def test_a_count_restated_in_another_scale_is_a_reading_to_confirm(scan_text, text):
    s = _one(scan_text, text)
    assert s["status"] == "suggested" and s["verdict"] == "true", s
    assert "restated" in s["detail"], s


@pytest.mark.parametrize("text, wrong", [
    ("A 13B model has 1,300,000 parameters.", "1300000"),
    ("A 7B model has 70,000,000,000 parameters.", "70000000000"),
])
def test_a_count_restated_wrong_is_suggested_false(scan_text, text, wrong):
    s = _one(scan_text, text)
    assert s["status"] == "suggested" and s["verdict"] == "false", s
    assert wrong in s["claim"], s


def test_a_nominal_size_beside_its_measured_count_holds_only_at_its_precision(scan_text):
    # "7B" is [6.5B, 7.5B]: 6.7B is in it, read leniently; as written 7B is not 6.7B
    s = _one(scan_text, "A 7B model has 6.7B parameters.")
    assert s["status"] == "suggested" and s["verdict"] == "true", s
    assert "holds only as" in s["detail"], s
    s = _one(scan_text, "A 7B model has 8.5B parameters.")
    assert s["verdict"] == "false", s


def test_chinese_yi_is_a_scale(scan_text):
    s = _one(scan_text, "例如，7B 模型有 70 亿个参数。")
    assert s["status"] == "suggested" and s["verdict"] == "true", s
    # read through the glossary, a FALSE is said, not flagged (the scan does not parse
    # the language's grammar)
    s = _one(scan_text, "例如，7B 模型有 7 亿个参数。")
    assert s["status"] == "unchecked" and "would be false" in s["detail"], s


@pytest.mark.parametrize("text, verdict", [
    ("One byte is 8 bits, so 32 bits require 4 bytes.", "true"),
    ("A byte is 8 bits, so 32 bits require 8 bytes.", "false"),
    ("A byte = 6 bits.", "false"),
    ("An fp16 value takes 2 bytes, i.e. 16 bits.", "true"),
    ("A nibble is 4 bits, or 0.5 bytes.", "true"),
    ("A nibble is 4 bits, or 2 bytes.", "false"),
])
def test_bits_and_bytes_restated(scan_text, text, verdict):
    s = _one(scan_text, text)
    assert s["status"] == "suggested" and s["verdict"] == verdict, s


@pytest.mark.parametrize("text", [
    "A 7B model has 32 layers and 4096 dimensions.",   # no count of parameters after
    "A 7B model trained on 2,000,000,000,000 tokens.",  # another noun
    "A 7B model has 7B parameters.",                    # the figure repeated
    "Models with 7B or 13B parameters fit on one GPU.",  # alternatives, one scale
    "Models of 7B, or 13B parameters, fit.",
])
def test_what_is_no_restatement_is_not_read_as_one(scan_text, text):
    got = scan_text(text, "doc.md")["statements"]
    assert not any("restated" in s["detail"] for s in got), got


def test_a_named_models_size_is_a_name_not_a_count(scan_text):
    # the model's own count is read against the catalogue, not against its name's "7B"
    s = _one(scan_text, "Llama 2 7B has 6,738,415,616 parameters.")
    assert "restated" not in s["detail"] and s["status"] == "checked", s
