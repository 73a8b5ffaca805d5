"""benchmarks.kernels' summary (median and range per shape × target × kernel, the target
verdict) and the plot's kernels row, on hand-made records (nothing is timed here)."""

import json

import pytest

from benchmarks import kernels


def _records():
    out = []
    for kernel, ratios in (("haswell", [0.95, 0.91, 0.99]), ("auto", [0.85, 0.80, 0.88])):
        for i, r in enumerate(ratios):
            out.append({"shape": "llm", "target": "numpy", "kernel": kernel, "repeat": i,
                        "ratio_to_gemm": r, "ratio_to_gemm_median": r - 0.01,
                        "gemm_gflops": 100.0 + i, "load_before": 1.0 + i, "load_after": 2.0})
    return out


def test_summary_medians_ranges_and_verdicts():
    s = kernels.summarise(_records(), {"haswell": ["Haswell"], "auto": ["SkylakeX"]})
    by = {x["architecture"]: x for x in s}
    assert (by["Haswell"]["median"], by["Haswell"]["min"], by["Haswell"]["max"]) == (0.95, 0.91, 0.99)
    assert by["SkylakeX"]["median"] == 0.85 and by["SkylakeX"]["repeats"] == 3
    assert (by["Haswell"]["load_min"], by["Haswell"]["load_max"]) == (1.0, 3.0)
    table = kernels.table(s)
    assert "| ≥ 0.90: yes |" in table and "no (−0.050)" in table


def test_kernel_env_sets_or_removes_both_variables(monkeypatch):
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Zen")
    assert kernels.kernel_env("haswell")["OPENBLAS_CORETYPE"] == "Zen"  # the environment wins
    assert kernels.kernel_env("haswell")["OPENBLAS_L2_SIZE"] == "512"
    assert not set(kernels.KERNEL_VARS) & set(kernels.kernel_env("auto"))


def test_plot_draws_the_kernels_row(tmp_path):
    pytest.importorskip("matplotlib", reason="the plot needs matplotlib (bench extra)")
    from benchmarks import plot

    s = kernels.summarise(_records(), {"haswell": ["Haswell"], "auto": ["SkylakeX"]})
    k = tmp_path / "k.json"
    k.write_text(json.dumps({"summary": s}))
    out = tmp_path / "p.png"
    assert plot.main(["--kernels", str(k), "--output", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
