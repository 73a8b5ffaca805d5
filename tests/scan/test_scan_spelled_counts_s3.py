"""Parameter counts written with a scale word (`scan/spelled.py`): "forty billion
parameters", "a forty-billion-parameter model", "a 40-billion-parameter model" are counts
at that scale, read as "40B parameters" is; and the qualifier nearer a weights figure is
its own (a format after the figure, not a bytes-per-parameter stated for another figure).
Sentences written for these tests, not taken from the corpus."""

from fractions import Fraction

from ffnverify.scan import spelled
from ffnverify.scan.numbers import normalise, tokens


def _worded(text):
    toks, _ = spelled.as_tokens(tokens(normalise(text)), text)
    return [(t.kind, t.text, t.scale) for t in toks]


def test_a_cardinal_ending_in_a_scale_word_is_a_count_at_that_scale():
    toks, _ = spelled.as_tokens(tokens("forty billion parameters"), "forty billion parameters")
    (num,) = [t for t in toks if t.kind == "NUM"]
    assert (num.value, num.unit, num.scale) == (40 * 10**9, 10**9, "billion")
    assert spelled.is_spelled(num)


def test_a_cardinal_without_a_scale_word_stays_exact():
    toks, _ = spelled.as_tokens(tokens("forty layers"), "forty layers")
    (num,) = [t for t in toks if t.kind == "NUM"]
    assert (num.value, num.unit, num.scale) == (40, Fraction(0), "")


def test_hyphenated_counts_split_into_the_count_and_its_noun():
    # the hyphen before the noun may stay on the word or be its own token: either way the
    # count is followed by its noun
    def count_and_noun(text):
        toks = [(k, t.lstrip("-"), sc) for k, t, sc in _worded(text) if (k, t) != ("OP", "-")]
        return toks[1:3]

    assert count_and_noun("a forty-billion-parameter model") == [
        ("NUM", "forty-billion", "billion"), ("WORD", "parameter", "")]
    assert count_and_noun("a 40-billion-parameter model") == [
        ("NUM", "40-billion", "billion"), ("WORD", "parameter", "")]
    # the article before a figure in digits is no cardinal ("a billion")
    assert _worded("a 40-billion-parameter model")[0] == ("WORD", "a", "")


def test_hyphenated_words_without_a_scale_word_are_unchanged():
    assert _worded("a well-known model")[1] == ("WORD", "well-known", "")
    assert [t for t in _worded("twenty-four layers") if t[0] == "NUM"] == [
        ("NUM", "twenty-four", "")]


def _status(scan_text, doc):
    return [(s["status"], s["verdict"]) for s in scan_text(doc)["statements"]]


def test_weights_of_a_spelled_count(scan_text):
    assert _status(scan_text, "A forty-billion-parameter model takes about 80 GB in BF16.\n") \
        == [("checked", "true")]
    assert _status(scan_text, "A 40-billion-parameter model takes about 20 GB in BF16.\n") \
        == [("checked", "false")]
    assert _status(scan_text, "Forty billion parameters in int8 come to roughly 40 GB.\n") \
        == [("checked", "true")]


def test_a_spelled_count_is_read_at_its_scale_not_exactly(scan_text):
    # 13.4 GB is 6.7e9 × 2: "seven billion" is a rounded count, as "7B" is
    assert _status(scan_text, "Seven billion parameters at FP16 take 13.4 GB.\n") == [
        ("suggested", "true")]


def test_the_format_nearer_a_figure_is_its_own(scan_text):
    doc = ("A 40B model needs about 80GB at FP16 (2 bytes per parameter), or about 20GB "
           "once quantized to 4-bit.\n")
    (s,) = scan_text(doc)["statements"]
    assert (s["status"], s["verdict"]) == ("checked", "true"), s
    assert "bytes(int4)" in s["claim"], s
    # 10GB is below the 4-bit weights (20GB) under every reading; 60GB would not be false:
    # what a model "needs" may hold more than its weights (a memory requirement)
    doc = ("A 40B model needs about 80GB at FP16 (2 bytes per parameter), or about 10GB "
           "once quantized to 4-bit.\n")
    (s,) = scan_text(doc)["statements"]
    assert s["verdict"] == "false", s
