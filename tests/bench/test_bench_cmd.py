"""`ffnverify bench` on the command line, and the `ffn_bench` fixture in a user's test run."""

import json

import pytest

from derivations.flops import flops
from ffnverify.cli import main

pytest_plugins = ["pytester"]
FAST = ["--rounds", "1", "--warmup", "0"]


def test_json_output_of_the_numpy_target(capsys):
    assert main(["bench", "numpy", "--variant", "gelu", "--shape", "8,4,6", "5,3,7",
                 "--format", "json", *FAST]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["n"], r["pass"]) for r in rows] == [(8, "forward"), (8, "train"),
                                                  (5, "forward"), (5, "train")]
    for r in rows:
        assert r["flops"] == flops("gelu", r["d"], r["h"], r["n"], r["pass"])
        assert r["ratio_to_gemm"] == r["gemm_s"] / r["seconds"]
        assert (r["memory"] is None) == (r["pass"] == "forward")
    assert rows[1]["memory"]["convention"] == "store"
    assert rows[1]["memory"]["saved_elements"] == 8 * 4 + 2 * 8 * 6  # x, z, a


def test_text_output_names_the_convention(capsys):
    assert main(["bench", "numpy", "--variant", "swiglu", "--shape", "8,4,6", "--pass",
                 "train", *FAST]) == 0
    out = capsys.readouterr().out
    assert "ratio_to_gemm" in out and "matches store" in out and "forward " not in out


@pytest.mark.parametrize("argv, message", [
    (["--shape", "8,4"], "expected n,d,h"),
    (["--shape", "8,0,6"], ">= 1"),
    (["--dtype", "bfloat16"], "float32 on the cpu only"),
    (["--device", "cuda"], "float32 on the cpu only"),
    (["--rounds", "0"], "--rounds"),
])
def test_usage_errors_exit_2(capsys, argv, message):
    assert main(["bench", "numpy", "--variant", "swiglu", *argv]) == 2
    assert message in capsys.readouterr().err


def test_unknown_variant_exits_2(capsys):
    assert main(["bench", "numpy", "--variant", "swishglu", *FAST]) == 2
    assert "unknown FFN variant" in capsys.readouterr().err


@pytest.mark.hf
@pytest.mark.torch
def test_llama_mlp_target_and_a_wrong_layout(capsys):
    pytest.importorskip("transformers", reason="needs transformers")
    target = "tests.conformance.real_modules:llama_mlp"
    assert main(["bench", target, "--variant", "swiglu", "--shape", "6,4,10",
                 "--format", "json", *FAST]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[1]["memory"]["convention"] == "store" and rows[1]["layout"] == "hf"
    assert main(["bench", target, "--variant", "swiglu", "--layout", "torchtune",
                 "--shape", "6,4,10", *FAST]) == 2
    assert "not a swiglu FFN in layout 'torchtune'" in capsys.readouterr().err


@pytest.mark.hf
@pytest.mark.torch
def test_torchtune_feedforward_target_with_the_layout_detected(capsys):
    pytest.importorskip("torchtune", reason="needs torchtune")
    target = "tests.conformance.real_modules:torchtune_feedforward"
    assert main(["bench", target, "--variant", "swiglu", "--shape", "6,4,10",
                 "--format", "json", *FAST]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["layout"] for r in rows] == ["torchtune", "torchtune"]
    assert rows[1]["memory"]["convention"] == "store"
    assert rows[1]["memory"]["saved_elements"] == 6 * 4 + 4 * 6 * 10  # x, z_gate, z_up, a, p
    assert main(["bench", target, "--variant", "gelu", "--shape", "6,4,10", *FAST]) == 2
    assert "gelu" in capsys.readouterr().err


USER_TEST = """
def test_fast_enough(ffn_bench):
    r = ffn_bench("numpy", "swiglu", (16, 8, 12), rounds=2, warmup=1)
    assert r.pass_ == "train" and r.ratio_to_gemm > 0
    assert r.memory.convention == "store"

def test_too_slow(ffn_bench):
    r = ffn_bench("numpy", "relu", (16, 8, 12), pass_="forward", rounds=1, warmup=0)
    assert r.ratio_to_gemm >= 1e9
"""

WITH_PYTEST_BENCHMARK = """
def test_with_pytest_benchmark(ffn_bench, benchmark):
    ffn_bench("numpy", "gelu", (16, 8, 12), rounds=2, warmup=0)
"""


def test_fixture_in_a_users_test(pytester):
    pytester.makepyfile(test_user=USER_TEST)
    xml = pytester.path / "junit.xml"
    result = pytester.runpytest("-p", "no:cacheprovider", "-p", "no:benchmark",
                                f"--junitxml={xml}")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*test_too_slow*", "*assert * >= 1000000000.0*"])
    assert 'name="ffn_bench"' in xml.read_text()  # the figures reach the JUnit report


def test_fixture_feeds_pytest_benchmark(pytester, monkeypatch):
    pytest.importorskip("pytest_benchmark", reason="pytest-benchmark is not installed")
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)  # else it disables itself
    pytester.makepyfile(test_user=WITH_PYTEST_BENCHMARK)
    out = pytester.path / "bench.json"
    result = pytester.runpytest("-p", "no:cacheprovider", f"--benchmark-json={out}")
    result.assert_outcomes(passed=1)
    (bench,) = json.loads(out.read_text())["benchmarks"]
    info = bench["extra_info"]
    assert info["flops"] == flops("gelu", 8, 12, 16, "train")
    assert info["convention"] == "store" and info["ratio_to_gemm"] > 0
    assert bench["stats"]["rounds"] == 2
