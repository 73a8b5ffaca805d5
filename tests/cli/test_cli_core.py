"""The `derive` and `width` subcommands: closed forms and widths printed, bad input exit 2
with a message that says what is wrong, and no option ever ignored."""

import shutil
import subprocess

import helpers
import pytest
import sympy as sp

from derivations import activations
from derivations.flops import flops, macs
from derivations.memory import activation_memory
from derivations.params import params
from derivations.variants import VARIANTS
from derivations.widths import match_width


def run_cli(capsys, *argv):  # stdout stripped: the closed forms are compared whole
    return helpers.run_cli(capsys, *argv, strip=True)


def test_derive_params_swiglu(capsys):
    assert run_cli(capsys, "derive", "params", "swiglu") == (0, "3*d*h", "")


def test_derive_params_swiglu_bias(capsys):
    code, out, _ = run_cli(capsys, "derive", "params", "swiglu", "--bias")
    assert code == 0 and out == sp.sstr(params("swiglu", bias=True)) == "3*d*h + d + 2*h"


def test_derive_latex(capsys):
    code, out, _ = run_cli(capsys, "derive", "params", "swiglu", "--latex")
    assert code == 0 and out == sp.latex(params("swiglu")) == "3 d h"


@pytest.mark.parametrize("name", list(VARIANTS))
def test_derive_prints_the_derivation_for_every_variant(capsys, name):
    _d, _h, _n = sp.symbols("d h n", positive=True, integer=True)
    cases = [
        (["params", name], params(name)),
        (["params", name, "--bias"], params(name, bias=True)),
        (["flops", name], flops(name)),
        (["flops", name, "--pass", "train", "--no-input-grad"],
         flops(name, pass_="train", input_grad=False)),
        (["macs", name, "--count", "all", "--bias", "--pass", "backward"],
         macs(name, pass_="backward", count="all", bias=True)),
        (["memory", name, "--convention", "recompute"],
         activation_memory(name, convention="recompute")),
    ]
    for argv, expected in cases:
        code, out, _ = run_cli(capsys, "derive", *argv)
        assert (code, out) == (0, sp.sstr(expected)), argv


@pytest.mark.parametrize("name", list(activations.ACTIVATIONS))
def test_derive_activations_and_their_derivatives(capsys, name):
    for argv, expected in [(["activation", name], activations.expr(name)),
                           (["derivative", name], activations.derivative(name)),
                           (["derivative", name, "--textbook"],
                            activations.DERIVATIVE_FORMS[name])]:
        code, out, _ = run_cli(capsys, "derive", *argv)
        assert (code, out) == (0, sp.sstr(expected)), argv


def test_derive_matched_widths(capsys):
    d = sp.Symbol("d", positive=True, integer=True)
    assert run_cli(capsys, "derive", "match", "relu", "swiglu")[:2] == (0, "8*d/3")
    code, out, _ = run_cli(capsys, "derive", "match", "relu", "geglu", "--bias")
    assert (code, out) == (0, sp.sstr(match_width("relu", 4 * d, "geglu", d, True)))
    assert out == "4*d*(2*d + 1)/(3*d + 2)"


@pytest.mark.parametrize(("argv", "message"), [
    (["params", "relu", "--pass", "train"], "--pass does not apply to params"),
    (["params", "relu", "--count", "all"], "--count does not apply to params"),
    (["params", "relu", "--convention", "store"], "--convention does not apply to params"),
    (["memory", "relu", "--bias"], "--bias does not apply to memory"),
    (["memory", "relu", "--pass", "forward"], "--pass does not apply to memory"),
    (["flops", "relu", "--convention", "recompute"], "--convention does not apply to flops"),
    (["flops", "relu", "--no-input-grad"], "--no-input-grad applies only with --pass backward"),
    (["flops", "relu", "--pass", "forward", "--no-input-grad"], "--no-input-grad applies only"),
    (["activation", "silu", "--bias"], "--bias does not apply to activation"),
    (["activation", "silu", "--textbook"], "--textbook does not apply to activation"),
    (["params", "relu", "--textbook"], "--textbook does not apply to params"),
    (["match", "relu"], "match needs two variants"),
    (["params", "relu", "swiglu"], "params takes one name"),
    (["activation", "swiglu"], "unknown activation 'swiglu'"),
    (["params", "silu2"], "unknown variant 'silu2'"),
    (["match", "relu", "swigloo"], "unknown variant 'swigloo'"),
])
def test_derive_rejects_what_does_not_apply(capsys, argv, message):
    code, out, err = run_cli(capsys, "derive", *argv)
    assert (code, out) == (2, ""), argv
    assert f"ffnverify derive: error: {message}" in err


@pytest.mark.parametrize(("value", "shown"), [
    ("4096.5", "'4096.5'"), ("0", "'0'"), ("-3", "'-3'"), ("abc", "'abc'"), ("1e3", "'1e3'"),
    ("\x1b[31m", "'\\x1b[31m'"),  # a control character is shown escaped, never raw
])
def test_width_errors_say_what_is_wrong(capsys, value, shown):
    code, _, err = run_cli(capsys, "width", "--d", value)
    assert code == 2
    assert f"argument --d: expected a positive whole number, got {shown}" in err
    assert "_positive_int" not in err and "\x1b" not in err


def test_derive_flops_by_hand(capsys):
    # swiglu train without the input gradient: forward 6ndh, backward 12ndh − 4ndh
    assert run_cli(capsys, "derive", "flops", "swiglu", "--pass", "train",
                   "--no-input-grad")[:2] == (0, "14*d*h*n")


@pytest.mark.parametrize(("argv", "out"), [
    (["--d", "4096"], "11008"),
    (["--d", "4096", "--multiple-of", "1024", "--multiplier", "1.3"], "14336"),
    (["--d", "8192", "--multiple-of", "4096", "--multiplier", "1.3"], "28672"),
    (["--d", "16384", "--multiple-of", "4096", "--multiplier", "1.2"], "53248"),
    (["--d", "17", "--multiple-of", "1", "--multiplier", "1.4"], "63"),  # exact, not float
])
def test_width(capsys, argv, out):
    assert run_cli(capsys, "width", *argv) == (0, out, "")


@pytest.mark.parametrize("argv", [
    ["derive", "params", "swigloo"],
    ["derive", "parameters", "swiglu"],
    ["derive", "params"],
    ["derive", "flops", "relu", "--pass", "sideways"],
    ["width"],
    ["width", "--d", "0"],
    ["width", "--d", "-3"],
    ["width", "--d", "1.5"],
    ["width", "--d", "4096", "--multiple-of", "0"],
    ["width", "--d", "4096", "--multiplier", "abc"],
    ["width", "--d", "4096", "--multiplier", "nan"],
    ["width", "--d", "4096", "--multiplier", "inf"],
    ["width", "--d", "4096", "--multiplier", "-1"],
    ["width", "--d", "4096", "--multiplier", "1/0"],
    ["width", "--d", "4096", "--multiplier", "1e100000000"],
    ["width", "--d", "4096", "--multiplier=--"],
    ["frobnicate"],
    [],
])
def test_bad_input_exits_2(capsys, argv):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2, f"{argv}: exit {code}, stdout {out!r}"
    assert "error" in err and "Traceback" not in err


def test_console_script():
    exe = shutil.which("ffnverify")
    if exe is None:
        pytest.skip("the ffnverify console script is not on PATH (package not installed)")
    proc = subprocess.run([exe, "derive", "params", "swiglu"], capture_output=True, text=True,
                          timeout=60)
    assert (proc.returncode, proc.stdout) == (0, "3*d*h\n"), proc.stderr
