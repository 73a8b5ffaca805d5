"""`ffnverify check-counter`: exit codes, report text, JSON, and bad input."""

import json

import pytest

from ffnverify.cli import main

COUNTER = '''
from fractions import Fraction

def megatron_mlp(hidden_size, ffn_hidden_size, tokens, swiglu=False):
    return 12 * tokens * hidden_size * ffn_hidden_size * (Fraction(3, 2) if swiglu else 1)

def calculator(hidden_size, ffn_hidden_size, tokens):
    return 2 * 3 * 4 * tokens * hidden_size * hidden_size
'''
ARGS = "d=hidden_size,h=ffn_hidden_size,n=tokens"


@pytest.fixture
def target(tmp_path, monkeypatch):
    (tmp_path / "my_counters.py").write_text(COUNTER)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return "my_counters"


def test_agreeing_counter_exits_0(target, capsys):
    rc = main(["check-counter", f"{target}:megatron_mlp", "--quantity", "flops", "--variant",
               "swiglu", "--pass", "train", "--args", ARGS, "--fixed", "swiglu=true",
               "--max-examples", "50"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "agrees" in out and "derived = 18·d·h·n" in out


def test_gated_as_ungated_exits_1_with_explanation(target, capsys):
    rc = main(["check-counter", f"{target}:megatron_mlp", "--quantity", "flops", "--variant",
               "geglu", "--pass", "train", "--args", ARGS, "--max-examples", "50"])
    out = capsys.readouterr().out
    assert rc == 1, out
    assert "counterexample:" in out and "yours   = 12·d·h·n" in out
    assert "likely explanation: geglu counted as ungated" in out


def test_width_ignored_as_json(target, capsys):
    rc = main(["check-counter", f"{target}:calculator", "--quantity", "flops", "--variant",
               "swiglu", "--args", ARGS, "--max-examples", "50", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert rc == 1 and data["ok"] is False
    assert data["explanations"][0]["key"] == "width_ignored"
    assert data["yours"] == "24·d^2·n" and data["derived"] == "6·d·h·n"


@pytest.mark.parametrize("argv", [
    ["no_such_module:f", "--quantity", "flops", "--variant", "relu"],
    ["{t}:missing", "--quantity", "flops", "--variant", "relu"],
    ["{t}:calculator", "--quantity", "flops", "--variant", "relu", "--args", "d=nope"],
    ["{t}:calculator", "--quantity", "flops", "--variant", "relu", "--args", "q=tokens"],
    ["{t}", "--quantity", "flops", "--variant", "relu"],
])
def test_bad_input_exits_2(target, capsys, argv):
    rc = main(["check-counter"] + [a.format(t=target) for a in argv])
    assert rc == 2
    assert "error" in capsys.readouterr().err


def test_unknown_variant_is_a_usage_error(target):
    with pytest.raises(SystemExit) as e:
        main(["check-counter", f"{target}:calculator", "--quantity", "flops",
              "--variant", "swiglu2"])
    assert e.value.code == 2
