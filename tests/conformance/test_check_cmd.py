"""`ffnverify check`: exit 0 conformant, 1 not (with the report), 2 error; the reproducer works."""

import re
import shlex
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from ffnverify.cli import main  # noqa: E402

from .zoo import SwiGLU  # noqa: E402

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

    from ffnverify.cli.check import Progress

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


@pytest.mark.parametrize("args,message", [
    (["--h-of", "x*d"], "expected K*d, K*d/M or MODULE:FUNCTION"),
    (["--h-of", "0*d"], "must be positive"),
    (["--call", "no_such_module_xyz:f"], "ModuleNotFoundError"),
    (["--d-multiple-of", "0"], "at least 1"),
    (["--experts", "-1"], "at least 0"),
    (["--layout", '{"W_gate": ["gate_proj.weight", "T"], "W_nope": ["x"]}'],
     "is not one of"),
    (["--layout", "{not json"], "not valid JSON"),
])
def test_bad_module_options_exit_2(capsys, args, message):
    code, out = check(capsys, "examples.ffn_modules:swiglu", "--variant", "swiglu", *args)
    assert code == 2 and message in out, out


def test_the_python_api_options_on_the_command_line(capsys):
    """--call, --extra-params, --d-multiple-of and --h-of reach the kit: a module whose
    config needs heads | d and h = 3d, with a norm outside the FFN, called through an
    adapter, passes; without the options its factory rejects the drawn widths."""
    target = "tests.conformance.test_check_cmd:picky_with_norm"
    code, out = check(capsys, target, "--variant", "swiglu", "--bias", "false",
                      "--max-examples", "3", "--no-shrink")
    assert code == 1 and "check 'factory'" in out, out
    code, out = check(capsys, target, "--variant", "swiglu", "--bias", "false",
                      "--max-examples", "5", "--d-multiple-of", "4", "--h-of", "3*d",
                      "--extra-params", "norm.*", "--call",
                      "tests.conformance.test_check_cmd:pair_call")
    assert code == 0, out


def test_identify_takes_the_same_options_and_a_layout(capsys):
    target = "tests.conformance.test_check_cmd:picky_with_norm"
    assert main(["identify", target, "--bias", "false", "--d-multiple-of", "4", "--h-of",
                 "3*d", "--extra-params", "norm.*", "--call",
                 "tests.conformance.test_check_cmd:pair_call", "--layout", "hf"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("variant swiglu (activation silu), layout hf"), out
    mapping = ('{"W_gate": ["up_proj.weight", "T"], "W_up": ["gate_proj.weight", "T"], '
               '"W_down": ["down_proj.weight", "T"]}')  # gate and up read the wrong way
    assert main(["identify", target, "--bias", "false", "--d-multiple-of", "4", "--h-of",
                 "3*d", "--extra-params", "norm.*", "--call",
                 "tests.conformance.test_check_cmd:pair_call", "--layout", mapping]) == 1
    out = capsys.readouterr().out
    assert "none of the variants" in out and "gate and up swapped" in out, out


def test_a_json_layout_is_accepted_wherever_a_name_is():
    """layouts.mapping reads a JSON mapping (bench passes --layout through it)."""
    from ffnverify.testing import layouts

    table = layouts.mapping(True, '{"W_gate": ["a.weight", "T"], "W_up": ["b.weight"], '
                                  '"W_down": "c.weight"}')
    assert table == {"W_gate": ("a.weight", "T"), "W_up": ("b.weight", "id"),
                     "W_down": ("c.weight", "id")}


class _PickyWithNorm(SwiGLU):
    """A config that validates widths, a norm outside the FFN, a (y, None) return."""

    def __init__(self, d, h, bias=False):
        if d % 4 or h != 3 * d:
            raise ValueError(f"4 heads must divide d={d} and h={h} must be 3d")
        super().__init__(d, h, bias)
        self.norm = torch.nn.LayerNorm(d)

    def forward(self, x):
        return super().forward(x), "not a tensor"


def picky_with_norm(d, h, bias=False):
    return _PickyWithNorm(d, h, bias)


def pair_call(module, x):
    return module(x)[0]


def test_progress_while_shrinking_names_the_smaller_failing_case():
    import io
    from types import SimpleNamespace

    from ffnverify.cli.check import Progress

    out = io.StringIO()
    p = Progress(out)
    now = [p.start]
    p.clock = lambda: now[0]
    p.shrinking(SimpleNamespace(d=3, h=5, n=2), 4.2)
    p.shrinking(SimpleNamespace(d=1, h=5, n=2), 4.4)  # throttled: within a second
    now[0] += 1.5
    p.shrinking(SimpleNamespace(d=1, h=1, n=2), 5.9)
    assert out.getvalue() == ("ffnverify check: shrinking: fails at d=3 h=5 n=2 (4 s)\n"
                              "ffnverify check: shrinking: fails at d=1 h=1 n=2 (6 s)\n")
