"""A scale letter written apart from its figure, before the noun it scales ("32 k tokens",
"46.7 B parameters"), is the figure's scale, as `32k` is; elsewhere a lone letter is a
word ("2 K heads" is no 2,000). Sentences written for these tests."""

import pytest
from verdicts import only

from ffnverify.scan.numbers import tokens


@pytest.mark.parametrize("text,value,scale", [
    ("a context of 32 k tokens", 32000, "k"),
    ("a 128 K context", 128000, "K"),
    ("46.7 B parameters", 46700000000, "B"),
    ("1.3 M params", 1300000, "M"),
])
def test_a_scale_apart_before_its_noun(text, value, scale):
    nums = [t for t in tokens(text) if t.kind == "NUM"]
    assert [(t.value, t.scale) for t in nums] == [(value, scale)], nums


@pytest.mark.parametrize("text", ["2 K heads", "32 k", "a 7 B model", "$3 M tokens", "32  k tokens"])
def test_no_scale_without_its_noun_or_glued_otherwise(text):
    assert all(not t.scale for t in tokens(text) if t.kind == "NUM" and not t.money), tokens(text)


@pytest.mark.parametrize("text,verdict", [
    ("Mixtral 8x7B has a context of 32 k tokens.", "true"),
    ("Mixtral 8x7B has 46.7 B parameters.", "true"),
    ("Mixtral 8x7B has a context of 8 k tokens.", "false"),
])
def test_read_as_written_together(scan_text, text, verdict):
    assert only(scan_text, text)["verdict"] == verdict
