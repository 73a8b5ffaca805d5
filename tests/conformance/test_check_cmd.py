"""`ffnverify check`: exit 0 conformant, 1 not (with the report), 2 error; the reproducer works."""

import re
import shlex
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from ffnverify.cli import main  # noqa: E402

pytestmark = pytest.mark.torch
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # `examples.ffn_modules` imports from the current directory


def check(capsys, *args):
    code = main(["check", *args])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_correct_module_exits_0(capsys):
    code, out = check(capsys, "examples.ffn_modules:swiglu", "--variant", "swiglu",
                      "--max-examples", "5")
    assert code == 0, out
    assert out.startswith("conformant: variant swiglu, layout hf")
    assert "bias=False: 5 examples" in out and "bias=True: 5 examples" in out


def test_packed_module_with_its_layout_exits_0(capsys):
    code, out = check(capsys, "examples.ffn_modules:swiglu_packed", "--variant", "swiglu",
                      "--layout", "phi3", "--max-examples", "3")
    assert code == 0, out


def test_broken_module_exits_1_with_a_report_and_the_reproducer_reproduces(capsys):
    code, out = check(capsys, "examples.ffn_modules:swiglu_gate_up_swapped", "--variant",
                      "swiglu", "--max-examples", "5")
    assert code == 1, out
    assert "check 'forward'[float64]" in out
    for field in ("tensor:", "worst at:  index", "error:", "> bound", "drawn:     d=",
                  "reproduce: ffnverify check examples.ffn_modules:swiglu_gate_up_swapped"):
        assert field in out, field
    line = re.search(r"reproduce: (.*)", out).group(1)
    argv = shlex.split(line)
    assert argv[0] == "ffnverify"
    code2, out2 = check(capsys, *argv[2:])
    assert code2 == 1
    def report(text):  # (Hypothesis may print a warning first, e.g. on a slow shrink)
        lines = text.splitlines()
        return next(lines[i:i + 4] for i, t in enumerate(lines)
                    if t.startswith("FFN conformance failure"))
    assert report(out2) == report(out)  # the same failure, the same element


def test_wrong_variant_for_the_module_exits_1(capsys):
    code, out = check(capsys, "examples.ffn_modules:swiglu", "--variant", "geglu",
                      "--max-examples", "3", "--no-shrink")
    assert code == 1 and "check 'forward'" in out


def test_no_bias_option_needs_bias_false(capsys):
    code, out = check(capsys, "examples.ffn_modules:swiglu", "--variant", "swiglu",
                      "--bias", "false", "--dtypes", "float64", "--max-examples", "3")
    assert code == 0 and "bias=True" not in out


@pytest.mark.parametrize("args,message", [
    (["no_such_module_xyz:f", "--variant", "swiglu"], "cannot import"),
    (["examples.ffn_modules:nope", "--variant", "swiglu"], "cannot import"),
    (["examples.ffn_modules", "--variant", "swiglu"], "package.module:factory"),
    (["examples.ffn_modules:swiglu", "--variant", "swishy"], "unknown FFN variant"),
    (["examples.ffn_modules:swiglu", "--variant", "swiglu", "--layout", "gpt2"],
     "no gated form"),
    (["examples.ffn_modules:swiglu", "--variant", "swiglu", "--d", "4"], "go together"),
    (["examples.ffn_modules:swiglu", "--variant", "swiglu", "--dtypes", "float8"],
     "unknown dtype"),
])
def test_errors_exit_2(capsys, args, message):
    code, out = check(capsys, *args)
    assert code == 2 and message in out, out


def test_explicit_mapping_as_json(capsys):
    mapping = ('{"W_gate": ["gate_proj.weight", "T"], "W_up": ["up_proj.weight", "T"], '
               '"W_down": ["down_proj.weight", "T"], "b_gate": ["gate_proj.bias"], '
               '"b_up": ["up_proj.bias"], "b_down": ["down_proj.bias"]}')
    code, out = check(capsys, "examples.ffn_modules:swiglu", "--variant", "swiglu",
                      "--layout", mapping, "--max-examples", "3")
    assert code == 0, out


def test_progress_appears_only_after_a_delay_and_at_most_once_a_second():
    import io

    from ffnverify.testing.check_cmd import Progress

    out = io.StringIO()
    p = Progress(out)
    now = [p.start]
    p.clock = lambda: now[0]
    p(False, 1, 100)
    assert out.getvalue() == ""  # not before DELAY
    now[0] += 2
    p(False, 30, 100)
    now[0] += 0.5
    p(False, 31, 100)  # throttled
    assert out.getvalue() == "ffnverify check: bias=False: 30/100 examples (2 s)\n"


def test_max_examples_help_states_the_real_default(capsys):
    from ffnverify.testing import conformance

    with pytest.raises(SystemExit):
        main(["check", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"(default {conformance.DEFAULT_MAX_EXAMPLES})" in text
