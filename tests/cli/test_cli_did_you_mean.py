"""A mistyped command, option, choice or variant is answered with the closest name, and a
bad option prints the subcommand's usage, not the top level's (exit 2 in every case)."""

from pathlib import Path

import pytest
from helpers import run_cli

from ffnverify import cli
from ffnverify.backends.variants import lookup


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
    code, _, err = run_cli(capsys, *argv)
    assert code == 2
    assert usage in err, err
    assert hint in err, err


@pytest.mark.parametrize("argv", [["frobnicate"], ["audit", "docs", "--zzzzzz"]])
def test_an_unrelated_word_suggests_nothing(argv, capsys):
    code, _, err = run_cli(capsys, *argv)
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


@pytest.mark.parametrize("argv, hint", [
    (["derive", "params", "swiglue"], "unknown variant 'swiglue' for params (did you mean 'swiglu'?)"),
    (["derive", "match", "relu", "swiglue"], "unknown variant 'swiglue' for match (did you mean 'swiglu'?)"),
    (["derive", "activation", "sillu"], "unknown activation 'sillu' for activation (did you mean 'silu'?)"),
    (["derive", "flops", "gelu-tanh"], "(did you mean 'gelu_tanh'?)"),
    (["models", "lama-2-7b"], "did you mean llama-2-7b"),
    (["check-counter", "nosuch:f", "--quantity", "params", "--variant", "swiglue"],
     "did you mean 'swiglu'?"),
])
def test_a_mistyped_variant_activation_or_model_names_the_closest(argv, hint, capsys):
    code, _, err = run_cli(capsys, *argv)
    assert code == 2 and hint in err, err
    assert "known: " in err or argv[0] in ("models", "check-counter"), err


def test_an_unrelated_variant_in_derive_lists_the_known_ones_only(capsys):
    code, _, err = run_cli(capsys, *["derive", "params", "transformer"])
    assert code == 2 and "did you mean" not in err and "known: relu" in err, err


@pytest.mark.parametrize("command", ["check", "bench", "identify"])
def test_a_mistyped_variant_or_layout_in_a_target_command_names_the_closest(command, capsys,
                                                                           monkeypatch):
    """check, bench and identify: the layout through the one `read_layout` (before the
    factory is built), the variant through backends.variants.lookup."""
    pytest.importorskip("torch", reason="check, bench and identify need PyTorch")
    pytest.importorskip("hypothesis")
    monkeypatch.chdir(Path(__file__).parents[2])  # `examples.ffn_modules` imports from here
    target = "examples.ffn_modules:swiglu"
    variant = [] if command == "identify" else ["--variant", "swiglu"]
    code, _, err = run_cli(capsys, *[command, target, *variant, "--layout", "torchtun"])
    assert code == 2 and "unknown layout 'torchtun' (did you mean 'torchtune'?)" in err, err
    assert "built-in layouts: dbrx-experts" in err
    code, _, err = run_cli(capsys, *[command, target, *variant, "--layout", "qqqqqq"])
    assert code == 2 and "unknown layout 'qqqqqq'; built-in" in err, err
    assert "did you mean" not in err
    if command != "identify":
        code, _, err = run_cli(capsys, *[command, target, "--variant", "swiglue"])
        assert code == 2 and "unknown FFN variant 'swiglue' (did you mean 'swiglu'?)" in err, err


def test_a_built_in_layout_and_a_json_mapping_pass_read_layout():
    from ffnverify.cli.target import read_layout

    assert read_layout("auto") == "auto" and read_layout("torchtune") == "torchtune"
    assert read_layout('{"W_up": ["fc1.weight", "T"]}') == {"W_up": ("fc1.weight", "T")}
