"""A byte unit spelled out ("140 gigabytes") is its symbol, and words a figure stands
between are no one number ("a 70 billion parameter model" holds no "a billion": the
eleventh session found that reading, a wrong CHECKED FALSE, once "gigabytes" was read;
the sentences here are written for the tests)."""

import pytest

from ffnverify.scan.numbers import normalise, tokens
from ffnverify.scan.spelled import spelled
from tests.scan.verdicts import decide


@pytest.mark.parametrize("written, symbol", [
    ("140 gigabytes", "140 GB"), ("140gigabytes", "140GB"), ("1 Terabyte", "1 TB"),
    ("512 kibibytes", "512 KiB"), ("16 GiB", "16 GiB"), ("12 megabytes", "12 MB"),
])
def test_a_spelled_byte_unit_after_a_figure_is_its_symbol(written, symbol):
    assert normalise(written) == symbol
    assert [t.scale for t in tokens(normalise(written)) if t.kind == "NUM"] == ["bytes"]


def test_a_byte_word_without_a_figure_is_left_alone():
    assert normalise("how many gigabytes does it need") == "how many gigabytes does it need"


@pytest.mark.parametrize("text, verdict", [
    ("At 16-bit precision, a 70 billion parameter model takes 140 gigabytes to load.", "true"),
    ("At 16-bit precision, a 70 billion parameter model takes 120 gigabytes to load.", "false"),
    ("In fp32 a 7 billion parameter model needs 28 gigabytes.", "true"),
])
def test_weights_in_spelled_gigabytes_are_read(engine, text, verdict):
    _status, got, claim, record = decide(engine, text)
    assert got == verdict, record
    assert "1000000000 *" not in claim, record  # no "a billion" read across the figure


@pytest.mark.parametrize("text, values", [
    ("a 70 billion parameter model", []),
    ("a billion parameters", [10**9]),
    ("one hundred and twenty layers", [120]),
    ("twenty, three", [20, 3]),
    ("seventy-billion-parameter", [70 * 10**9]),
])
def test_words_with_a_figure_or_a_sign_between_are_not_one_number(text, values):
    assert [s.value for s in spelled(text)] == values


@pytest.mark.parametrize("text, verdict", [
    ("Llama 3 8B in bf16 is 16GB.", "true"),
    ("In bf16, Llama 3 8B is about 16GB.", "true"),
    ("Llama 3 8B in bf16 is 10GB.", "false"),
])
def test_a_named_model_at_a_format_is_a_size_to_confirm(engine, text, verdict):
    status, got, claim, record = decide(engine, text)
    assert (status, got) == ("suggested", verdict), record
    assert claim.startswith("approx(weight_bytes(llama-3-8b, dtype=bf16)"), record


def test_a_model_without_a_format_is_no_size(engine):
    assert decide(engine, "Llama 3 8B is 16GB.")[0] == "unchecked"


@pytest.mark.parametrize("written, model", [
    ("this LLama2–7b is big", "llama-2-7b"), ("Mistral—7B is small", "mistral-7b"),
    ("Qwen2.5–7B is", "qwen2.5-7b"),
])
def test_a_dash_inside_a_name_is_its_hyphen(written, model):
    from ffnverify.scan.detect import models
    assert [n for _, _, n in models(normalise(written))] == [model]


@pytest.mark.parametrize("written", ["sizes 7B–70B", "between 7B—13B", "Llama 2–7B has",
                                     "32–40 layers"])
def test_a_dash_between_sizes_or_figures_stays_a_range(written):
    assert normalise(written) == written
