"""Fast, honest failure: the smallest shapes first (a module wrong at every shape is
reported at once), a shrink bounded in time with progress, and the report of a small case."""

import types

import pytest

torch = pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from ffnverify.cli import main  # noqa: E402
from ffnverify.testing import check_ffn  # noqa: E402
from ffnverify.testing import conformance as C  # noqa: E402

from . import broken  # noqa: E402
from .zoo import SwiGLU  # noqa: E402

pytestmark = pytest.mark.torch


def test_a_failure_at_every_shape_is_reported_at_the_smallest_shape(capsys):
    """The issue's case: tanh-GELU with 0.044, the CLI's defaults (100 examples, both bias
    settings, four dtypes, shrinking on): reported at d=1 h=1 n=1. Its wall-clock bound
    (it took 3m52s; under 30 s) is benchmarks/test_bench_fast_failure.py (tox -e bench)."""
    code = main(["check", f"{broken.__name__}:GeluConstantOff", "--variant", "gelu_tanh"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "drawn:     d=1 h=1 n=1" in out
    assert "the gelu_tanh constant c = 0.044 (correct 0.044715)" in out


class WrongAtLargeN(SwiGLU):
    """Right at small shapes, wrong from 5 tokens on: Hypothesis must find it, the
    shrinker bring it down to n = 5."""

    def forward(self, x):
        y = super().forward(x)
        return y * 1.01 if x.reshape(-1, x.shape[-1]).shape[0] >= 5 else y


class Watch:
    def __init__(self):
        self.seen = []

    def __call__(self, bias, run, total):
        pass

    def shrinking(self, case, seconds):
        self.seen.append((case.d, case.h, case.n, seconds))


def test_the_shrink_reaches_the_smallest_failing_case_with_progress():
    watch = Watch()
    with pytest.raises(C.ConformanceFailure) as info:
        check_ffn(WrongAtLargeN, "swiglu", "hf", bias=False, max_examples=50,
                  dtypes=("float64",), progress=watch)
    case = info.value.case
    assert (case.d, case.h, case.n) == (1, 1, 5), info.value.report()
    assert watch.seen and watch.seen[-1][:3] == (1, 1, 5)
    assert "the output scaled by 1.01" in info.value.report()


def test_the_shrink_stops_at_its_time_bound(monkeypatch):
    """The kit's clock is a fake that each smaller case tried moves on by 0.3 s: with a bound
    of 0.5 s the shrink tries at most two, then reports the failure it holds. No wall-clock
    assertion (those are benchmarks: benchmarks/test_bench_fast_failure.py)."""
    clock = [0.0]
    monkeypatch.setattr(C, "time", types.SimpleNamespace(monotonic=lambda: clock[0],
                                                         perf_counter=lambda: clock[0]))
    tried, fails_alike = [], C._fails_alike

    def timed_fails_alike(case, *args):
        tried.append(case)
        clock[0] += 0.3
        return fails_alike(case, *args)

    monkeypatch.setattr(C, "_fails_alike", timed_fails_alike)
    with pytest.raises(C.ConformanceFailure) as info:
        check_ffn(WrongAtLargeN, "swiglu", "hf", bias=False, max_examples=50,
                  dtypes=("float64",), shrink_seconds=0.5)
    assert info.value.case.n >= 5  # (some smaller failing case, or the one found)
    assert 1 <= len(tried) <= 2, tried


def test_smallest_shapes_are_run_first_and_counted():
    report = check_ffn(SwiGLU, "swiglu", "hf", bias=False, max_examples=3)
    assert report.first == {False: 2}
    assert "first 2 runs at the smallest shapes" in report.summary()
