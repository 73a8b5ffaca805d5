"""A mistyped command, option, choice or variant is answered with the closest name, and a
bad option prints the subcommand's usage, not the top level's (exit 2 in every case)."""

import pytest

from ffnverify import cli
from ffnverify.backends.variants import lookup


def run(argv, capsys) -> tuple[int, str]:
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    return stop.value.code, capsys.readouterr().err


@pytest.mark.parametrize("argv, usage, hint", [
    (["audti", "docs"], "usage: ffnverify [-h]", "did you mean 'audit'?"),
    (["sacn", "docs"], "usage: ffnverify [-h]", "did you mean 'scan'?"),
    (["audit", "docs", "--fromat", "json"], "usage: ffnverify audit", "did you mean '--format'?"),
    (["scan", "docs", "--fromat=json"], "usage: ffnverify scan", "did you mean '--format'?"),
    (["audit", "docs", "--format", "jsn"], "usage: ffnverify audit", "did you mean 'json'?"),
    (["width", "--d", "4096", "--multiple-off", "256"], "usage: ffnverify width",
     "did you mean '--multiple-of'?"),
])
def test_a_typo_gets_the_closest_name_and_its_own_usage(argv, usage, hint, capsys):
    code, err = run(argv, capsys)
    assert code == 2
    assert usage in err, err
    assert hint in err, err


@pytest.mark.parametrize("argv", [["frobnicate"], ["audit", "docs", "--zzzzzz"]])
def test_an_unrelated_word_suggests_nothing(argv, capsys):
    code, err = run(argv, capsys)
    assert code == 2 and "did you mean" not in err, err


def test_did_you_mean_picks_the_closest_or_nothing():
    assert cli.did_you_mean("audti", ["audit", "derive"]) == " (did you mean 'audit'?)"
    assert cli.did_you_mean("qqqq", ["audit", "derive"]) == ""


@pytest.mark.parametrize("typo, meant", [("swiglue", "swiglu"), ("gelu-tanh", "gelu_tanh"),
                                         ("regul", "reglu")])
def test_a_mistyped_variant_names_the_closest(typo, meant):
    with pytest.raises(KeyError, match=f"did you mean '{meant}'"):
        lookup(typo)


def test_an_unrelated_variant_lists_the_known_ones_only():
    with pytest.raises(KeyError) as e:
        lookup("transformer")
    assert "did you mean" not in str(e.value) and "known: relu" in str(e.value)
