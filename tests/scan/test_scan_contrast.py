"""Two readings a careful reader would not make (found on the first half of the fresh
corpus, tests/scan/corpus_v3/README.md): one field given two values in one sentence is a
contrast (a config against a convention), not a claim of both; and "a sequence length of
16K" is an input someone chose, not the model's context."""

import pytest

from ffnverify.claims.parser import ClaimSyntaxError, parse
from ffnverify.scan.read import reading


def _strict(text):
    r = reading(text)
    return [p.strict for p in r.parts] if r else []


def test_one_field_given_two_values_is_a_contrast_and_neither_is_read():
    text = ('Llama 3.1 70B\'s config.json says "intermediate_size": 28672 but the yml '
            'config wants "intermediate_size": 86016.')
    assert not any("d_ff" in p for p in _strict(text))
    assert any("given two values" in n for n in reading(text).notes)


def test_one_value_per_field_is_still_read():
    assert _strict("Llama 2 7B has 32 layers and 32 heads.") == [
        "layers(llama-2-7b) == 32", "heads(llama-2-7b) == 32"] or set(
        _strict("Llama 2 7B has 32 layers and 32 heads.")) == {
        "layers(llama-2-7b) == 32", "heads(llama-2-7b) == 32"}
    assert _strict("Llama 2 7B has 40 layers.") == ["layers(llama-2-7b) == 40"]


def test_a_sequence_length_is_an_input_not_the_context():
    text = "Mistral 7B is about 2x faster with a sequence length of 16K."
    assert not any("context(" in p for p in _strict(text))


def test_the_maximum_sequence_length_is_the_context():
    assert any(p.startswith("context(llama-2-7b)") for p in
               _strict("Llama 2 7B has a maximum sequence length of 4096 tokens."))


def test_a_sliding_window_caps_the_kv_cache_reading(scan_text):
    """Mistral 7B (v0.1) attends to 4096 tokens in every layer: at 32K tokens its cache may
    hold 4096 tokens (0.5 GiB in fp16) or all 32K (4 GiB); a figure that no reading
    gives is still false."""
    doc = ("Mistral 7B at 32K tokens in fp16 needs a KV cache of 0.5 GiB.\n\n"
           "Mistral 7B at 32K tokens in fp16 needs a KV cache of 4 GiB.\n\n"
           "Mistral 7B at 32K tokens in fp16 needs a KV cache of 9 GiB.\n\n"
           "Llama 3 8B at 32K tokens in fp16 needs a KV cache of 0.5 GiB.\n")
    got = [(s["status"], s["verdict"]) for s in scan_text(doc)["statements"]]
    assert [v for _, v in got] == ["true", "true", "false", "false"], got


def test_training_flops_with_no_rule_written_suggest_6nd(scan_text):
    """6·N·D is the usual training rule; unstated, it is only suggested (never checked),
    and a scale word before FLOPs is read at its scale (84 quintillion = 8.4·10¹⁹)."""
    doc = ("Training a 7B model on 2T tokens takes about 8.4e22 FLOPs.\n\n"
           "Training a 7 billion parameter model on 2 trillion tokens takes roughly "
           "84 quintillion FLOPs.\n\n"
           "Training a 7 billion parameter model on 2 trillion tokens takes roughly "
           "84 sextillion FLOPs.\n")
    got = [(s["status"], s["verdict"]) for s in scan_text(doc)["statements"]]
    assert got == [("suggested", "true"), ("suggested", "false"), ("suggested", "true")], got


def test_the_claim_language_reads_no_scale_word():
    with pytest.raises(ClaimSyntaxError, match="e18 for quintillion"):
        parse("x == 84 quintillion")


def test_training_flops_written_as_arithmetic_stay_checked_as_written(scan_text):
    doc = "Training a 7B model on 2T tokens takes 6 × 7B × 2T = 8.4e22 FLOPs.\n"
    (st,) = scan_text(doc)["statements"]
    assert (st["status"], st["verdict"]) == ("checked", "true")
    assert "6ND" not in st.get("detail", "")


def test_more_readings_than_a_claim_holds_give_no_lenient_claim():
    """Dropping readings past a cap could leave a FALSE that a dropped one rescues: past
    the cap the lenient side is no claim (the statement gets no verdict), and the count
    is bounded before the readings are built."""
    from fractions import Fraction

    from ffnverify.scan import figure
    from ffnverify.scan.numbers import tokens

    result = next(t for t in tokens("32 GB") if t.kind == "NUM")
    two = [figure.const(Fraction(2)), figure.const(Fraction(3))]
    few = figure.compare([two, two], result)
    assert figure.TOO_MANY_READINGS not in few[1]
    many = figure.compare([two] * 12, result)  # 4096 combinations
    assert many[1] == figure.TOO_MANY_READINGS
    assert many[0] != figure.TOO_MANY_READINGS  # the strict reading is still the figure's
