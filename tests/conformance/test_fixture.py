"""The `ffn_conformance` fixture from the ffnverify pytest plugin."""

import pytest

pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from .zoo import GateUpSwapped, SwiGLU

pytestmark = pytest.mark.torch


def test_fixture_accepts_a_correct_module(ffn_conformance):
    report = ffn_conformance(SwiGLU, "swiglu", layout="hf", max_examples=3)
    assert report.examples == {False: 3, True: 3}


def test_fixture_failure_is_an_assertion_error_with_the_report(ffn_conformance):
    with pytest.raises(AssertionError, match=r"check 'forward'\[float64\]"):
        ffn_conformance(GateUpSwapped, "swiglu", max_examples=3, shrink=False)


def test_plugin_module_registers_the_fixture():
    import ffnverify.pytest_plugin as plugin

    assert hasattr(plugin, "ffn_conformance")


@pytest.mark.slow
def test_fixture_failure_shows_the_kits_report_not_its_internals(tmp_path):
    """No compare() traceback, no Hypothesis block: the report, as the CLI prints it."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    (tmp_path / "test_user.py").write_text(
        "from conformance.zoo import SwiGLU\n\n\n"
        "class Big(SwiGLU):  # wrong only where Hypothesis draws large shapes\n"
        "    def forward(self, x):\n"
        "        y = super().forward(x)\n"
        "        return y * 1.01 if x.reshape(-1, x.shape[-1]).shape[0] > 4 else y\n\n\n"
        "def test_user(ffn_conformance):\n"
        "    ffn_conformance(Big, 'swiglu', bias=False, max_examples=20,\n"
        "                    dtypes=('float64',))\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(root / "tests")])}
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           str(tmp_path / "test_user.py"), "--rootdir", str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    out = done.stdout
    assert done.returncode == 1, out
    # the class's home is testing/results.py since the split (issue 25 §4)
    assert "E       ffnverify.testing.results.ConformanceFailure: FFN conformance " \
           "failure: check '" in out, out
    assert "diagnosis: the module computes swiglu" in out, out
    for internal in ("def compare(", "Falsifying example", "Hypothesis", "run_case(",
                     "conformance.py:", "checks.py:"):
        assert internal not in out, f"{internal!r} in the fixture's failure:\n{out}"
