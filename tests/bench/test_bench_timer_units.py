"""The bench's timers give seconds, on the CPU and on CUDA.

`torch.cuda.Event.elapsed_time` returns milliseconds (PyTorch's documentation: "Returns
the time elapsed in milliseconds after the event was recorded and before the end_event
was recorded"); the bench reports seconds, like `time.perf_counter`. A fake event and a
fake clock stand for the device and the wall: the conversion is checked without a GPU, on
values whose seconds are known exactly.
"""

import pytest

from ffnverify.bench import measure


class _Clock:
    """A perf_counter that advances by `step` seconds per call."""

    def __init__(self, step):
        self.t, self.step = 100.0, step

    def __call__(self):
        self.t += self.step
        return self.t


def test_the_cpu_timer_is_the_wall_clock_in_seconds(monkeypatch):
    monkeypatch.setattr(measure.time, "perf_counter", _Clock(0.25))
    ran = []
    assert measure._timer("cpu")(lambda: ran.append(1)) == pytest.approx(0.25, abs=1e-12)
    assert ran == [1]


@pytest.mark.parametrize("ms", [1500.0, 0.125, 7.0])
def test_the_cuda_timer_turns_event_milliseconds_into_seconds(monkeypatch, ms):
    torch = pytest.importorskip("torch")
    log = []

    class FakeEvent:
        def __init__(self, enable_timing=False):
            assert enable_timing  # without it elapsed_time raises on a real device
            self.name = "start" if not log or log[-1] != "start-made" else "end"
            log.append(f"{self.name}-made")

        def record(self):
            log.append(f"{self.name}-record")

        def synchronize(self):
            log.append(f"{self.name}-sync")

        def elapsed_time(self, end):
            assert end is not self
            return ms

    monkeypatch.setattr(torch.cuda, "Event", FakeEvent)
    seconds = measure._timer("cuda:0")(lambda: log.append("run"))
    assert seconds == pytest.approx(ms / 1000, rel=1e-12)
    # the run is bracketed by the two records, and the end is waited for before reading
    assert log.index("start-record") < log.index("run") < log.index("end-record") \
        < log.index("end-sync")


def test_the_cuda_timer_measures_a_real_gpu_in_seconds():
    """On a machine with a GPU: the event time of a spin of known wall length agrees with
    the wall clock in seconds (within a factor of 2: launch and sync overheads)."""
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    import time

    timed = measure._timer("cuda")
    torch.cuda._sleep(1_000)  # warm the context
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    event_s = timed(lambda: torch.cuda._sleep(200_000_000))
    wall_s = time.perf_counter() - t0
    assert 0.5 * wall_s <= event_s <= 1.05 * wall_s, (event_s, wall_s)
