"""An expert's size that a mixture-of-experts name writes (the 7B of "Mixtral 8x7B") is a
name, as "70B" is of "Llama 2 70B": a table's parameter column holding it is not a
measurement to call false; eight times it (56B) is a claim, and is checked (found by a
probe in the eleventh session; the text here is written for the tests)."""

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
    assert names_size(seven, "mixtral-8x7b") and not names_size(fifty_six, "mixtral-8x7b")
    assert not names_size(seven, "mixtral-8x22b")
