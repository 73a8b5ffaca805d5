"""The catalogue's lookup and checking functions, as a user meets them: a near name gets the
closest rows, by difflib at cutoff 0.5 (so "bert" finds both BERTs), an unknown one a
message naming what to try; `check` names its row and carries the derived total; a width
rule that cannot give a width says which row and why. (The survivors of the full mutation
run of the whole-model area, issue 26: each a property a real bug would break.)"""

import dataclasses

import pytest

from ffnverify.catalogue import (
    MODELS,
    UnknownModel,
    check,
    closest,
    derived_width,
    get,
    params_total,
)


def test_closest_gives_three_rows_by_default_and_as_many_as_asked():
    assert len(closest("llama")) == 3
    assert len(closest("llama", 5)) == 5
    assert closest("llama-2-7")[0] == "llama-2-7b"


def test_closest_reaches_a_name_half_alike():
    # "bert" is 0.5 alike to "bert-large" (difflib's ratio): found at the cutoff of 0.5
    assert closest("bert") == ["bert-base", "bert-large"]


def test_an_unknown_name_is_told_what_to_try():
    with pytest.raises(UnknownModel) as near:
        get("bert")
    assert str(near.value) == "unknown model 'bert'; did you mean bert-base, bert-large?"
    with pytest.raises(UnknownModel) as far:
        get("zzqqxx")
    assert str(far.value) == "unknown model 'zzqqxx'; see `ffnverify models`"
    assert str(UnknownModel()) == ""


@pytest.mark.parametrize("name", sorted(MODELS))
def test_check_names_its_row_and_carries_the_derived_total(name):
    got = check(name)
    assert got.name == name
    assert got.derived_total == params_total(name)


def test_a_width_rule_that_gives_no_width_says_which_row_and_why():
    row = MODELS["gpt2-small"]
    with pytest.raises(ValueError, match=r"^gpt2-small: unknown width rule 'bogus'$"):
        derived_width(dataclasses.replace(row, width_rule="bogus"))
    odd = dataclasses.replace(row, d_model=769)  # 4 × 769 is whole; 8/3 × 769 is not
    assert derived_width(odd) == 4 * 769
    with pytest.raises(ValueError, match=r"^gpt2-small: the ratio rule gives a non-integer"):
        derived_width(dataclasses.replace(odd, width_params={"ratio": "8/3"}))
