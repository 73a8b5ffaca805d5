"""Every reproducer the kit prints runs as printed and fails the same way: the CLI's
(`--layout auto` kept, `--call`, `--extra-params`, `--d-multiple-of`, `--h-of`), the
`python -c` line (its imports included) and identify's."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from ffnverify.cli import main  # noqa: E402
from ffnverify.targets import h_rule  # noqa: E402
from ffnverify.testing import check_ffn, identify_ffn  # noqa: E402
from ffnverify.testing import conformance as C  # noqa: E402

from . import broken  # noqa: E402
from .zoo import GateUpSwapped, PackedHalvesSwapped  # noqa: E402

pytestmark = pytest.mark.torch
ROOT = Path(__file__).resolve().parents[2]

CASES = [  # (id, factory, variant, check_ffn options)
    ("auto layout", GateUpSwapped, "swiglu", {"bias": False}),
    ("explicit layout, bias", broken.DownBiasUnused, "swiglu", {"layout": "hf", "bias": True}),
    ("fused, auto", PackedHalvesSwapped, "swiglu", {"layout": "phi3", "bias": False}),
    ("call", broken.MegatronScaled, "swiglu",
     {"layout": "megatron", "bias": False, "call": broken.first_output}),
    ("extra params", broken.WithNormGeluOff, "gelu_tanh",
     {"bias": False, "extra_params": ("norm.*",)}),
    ("shape rules", broken.PickyResidual, "swiglu",
     {"bias": False, "d_multiple_of": 4, "h_of": h_rule("3*d")}),
]


def report_lines(text):
    """The failure's identifying lines: the check and message, the worst element, the
    drawn case and the diagnosis (Hypothesis or a traceback may print around them)."""
    start = text.index("FFN conformance failure")
    lines = text[start:].splitlines()
    keep = [lines[0]] + [t.strip() for t in lines[1:] if t.strip().startswith(
        ("worst at:", "error:", "drawn:", "diagnosis:"))]
    return keep


def reproduce(line, capsys):
    """Run a printed reproducer; its output."""
    argv = shlex.split(line)
    if argv[0] == "ffnverify":
        code = main(argv[1:])
        out = capsys.readouterr()
        assert code == 1, out.out + out.err
        return out.out
    assert argv[:2] == ["python", "-c"], line
    # (pytest imports these test modules as conformance.*, from tests/: so does the line)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    done = subprocess.run([sys.executable, "-c", argv[2]], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode != 0 and "ConformanceFailure" in done.stderr, done.stderr
    return done.stderr


@pytest.mark.parametrize("name,factory,variant,opts", CASES, ids=[c[0] for c in CASES])
def test_the_printed_reproducer_fails_the_same_way(name, factory, variant, opts, capsys,
                                                   monkeypatch):
    monkeypatch.chdir(ROOT)
    with pytest.raises(C.ConformanceFailure) as info:
        check_ffn(factory, variant, max_examples=10, **opts)
    first = info.value.report()
    line = re.search(r"reproduce: (.*)", first).group(1)
    assert line.startswith("ffnverify check "), line  # every option has a CLI form here
    if opts.get("layout", "auto") == "auto":
        assert "--layout auto" in line
    again = reproduce(line, capsys)
    assert report_lines(again) == report_lines(first)


def test_the_python_reproducer_imports_what_it_names_and_fails_the_same_way(capsys):
    """A per-projection bias has no CLI form: the python -c line runs as printed."""
    with pytest.raises(C.ConformanceFailure) as info:
        check_ffn(broken.UpBiasOnlyScaled, "gelu", "hf", bias={"up": True, "down": False},
                  max_examples=5, dtypes=("float64",))
    first = info.value.report()
    line = re.search(r"reproduce: (.*)", first).group(1)
    assert line.startswith('python -c "from ffnverify.testing import check_example; from '
                           f'{broken.__name__} import UpBiasOnlyScaled; '), line
    assert report_lines(reproduce(line, capsys)) == report_lines(first)


def test_identify_failure_prints_an_identify_reproducer_that_runs(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    with pytest.raises(C.ConformanceFailure) as info:
        identify_ffn(broken.PickyResidual, bias=False)  # the probe d=6 is not a multiple of 4
    first = info.value.report()
    line = re.search(r"reproduce: (.*)", first).group(1)
    assert line == (f"ffnverify identify {broken.__name__}:PickyResidual --d 6 "
                    "--h 15 --bias false")
    again = reproduce(line, capsys)
    assert report_lines(again) == report_lines(first)
    # with the shape rules, identify gets a buildable probe and diagnoses the residual
    code = main(["identify", f"{broken.__name__}:PickyResidual", "--bias", "false",
                 "--d-multiple-of", "4", "--h-of", "3*d"])
    out = capsys.readouterr().out
    assert code == 1 and "the residual added inside" in out, out
