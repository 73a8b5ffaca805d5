"""Russian byte units (ГБ, МиБ), a bare result beside terms in one scale ("13B × 2 = 26"),
and a part named by its conventional symbol (W_E, lm_head) or said to "account for" a
count. Families of three wrong CHECKED FALSE verdicts on fresh10's half B, read once in the
eleventh session's closing review (disclosed in its note); the sentences here are written
for the tests."""

import pytest

from ffnverify.scan.numbers import normalise
from tests.scan.verdicts import decide


@pytest.mark.parametrize("written, symbol", [
    ("26 ГБ", "26 GB"), ("26ГБ", "26GB"), ("512 КиБ", "512 KiB"), ("1,5 ТБ", "1,5 TB"),
    ("80 МБ", "80 MB"), ("4 ГиБ", "4 GiB"),
])
def test_russian_byte_units_are_their_symbols(written, symbol):
    assert normalise(written) == symbol


def test_a_russian_word_is_no_unit():
    assert normalise("ГБ памяти и 5 Гбит") == "ГБ памяти и 5 Гбит"


@pytest.mark.parametrize("text, verdict", [
    ("Для 13B в fp16: 13B × 2 = 26 ГБ.", "true"),
    ("Для 13B в int4: 13B × 0.5 = 6.5 ГБ.", "true"),
    ("Для 13B в fp16: 13B × 2 = 30 ГБ.", "false"),
    ("So 13B × 2 = 26, in billions of bytes.", "true"),
    ("So 13B × 2 = 28, in billions of bytes.", "false"),
    ("So 2 × 3 = 7.", "false"),  # no scale on the left: the result as written
    ("The weights (13B × 2 = 26) in billions of bytes.", "true"),
    ("The weights (13B × 2 = 28) in billions of bytes.", "false"),
])
def test_a_result_is_read_in_its_unit_or_the_terms_scale(engine, text, verdict):
    got = decide(engine, text)
    assert got[1] == verdict, got[3]


@pytest.mark.parametrize("text, claim", [
    ("In gpt2-small, W_E accounts for 39M params.", "params_total(gpt2-small, part=embedding)"),
    ("In gpt2-small, wte holds 39M parameters.", "params_total(gpt2-small, part=embedding)"),
    ("Llama 2 7B's lm_head holds 131M parameters.", "params_total(llama-2-7b, part=lm_head)"),
])
def test_a_part_named_by_its_symbol_is_that_part(engine, text, claim):
    got = decide(engine, text)
    assert claim in got[2] and got[1] == "true", got[3]


def test_a_count_an_unknown_part_accounts_for_is_not_the_total(engine):
    got = decide(engine, "In gpt2-small, the positional table accounts for 39M params.")
    assert got[0] != "checked" and got[1] != "false", got[3]
