"""An expert's size that a mixture-of-experts name writes (the 7B of "Mixtral 8x7B") is a
name in a table's parameter column, as "70B" is of "Llama 2 70B": not a measurement to
call false; eight times it (56B) is a claim, and is checked; in prose, "experts of 7B
parameters each" is the myth it is, and never checked as a name (found by a probe in the
eleventh session, and a tuning half's statement; the text here is written for the tests)."""

import pytest

from ffnverify.scan.fields import names_size
from ffnverify.scan.numbers import tokens

TABLE = "| Model | Parameters |\n|---|---|\n| {model} | {size} |\n"


@pytest.mark.parametrize("model, size", [("Mixtral 8x7B", "7B"), ("Mixtral 8x22B", "22B"),
                                         ("Llama 2 70B", "70B")])
def test_a_size_the_name_writes_is_not_read(scan_text, model, size):
    st = scan_text(TABLE.format(model=model, size=size))["statements"][0]
    assert st["verdict"] is None, st


@pytest.mark.parametrize("size, verdict", [("56B", "false"), ("46.7B", "true"), ("40B", "false")])
def test_other_sizes_of_a_moe_are_checked(scan_text, size, verdict):
    st = scan_text(TABLE.format(model="Mixtral 8x7B", size=size))["statements"][0]
    assert (st["status"], st["verdict"]) == ("checked", verdict), st


def test_names_size_of_a_moe():
    seven, fifty_six = (next(t for t in tokens(x) if t.kind == "NUM") for x in ("7B", "56B"))
    assert names_size(seven, "mixtral-8x7b", cell=True)
    assert not names_size(fifty_six, "mixtral-8x7b", cell=True)
    assert not names_size(seven, "mixtral-8x22b", cell=True)
    assert not names_size(seven, "mixtral-8x7b")  # in prose, the expert's size is a claim


def test_experts_of_the_names_size_each_stay_a_claim(engine):
    from tests.scan.verdicts import decide
    got = decide(engine, "Mixtral 8x7B uses eight expert networks of 7B parameters each, "
                         "routing each token to 2 experts.")
    assert got[0] != "checked", got[3]
