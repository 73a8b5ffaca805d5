"""FLOPs stated in one sentence and turned into GPU time in the next
(`scan/carried_compute.py`), always a reading to confirm. Sentences written for these
tests, not taken from the corpus. 6.3e23 FLOPs at 400 TFLOPS: 1.575e9 s = 437,500 h."""

import pytest


def _got(scan_text, doc):
    return {s["text"]: (s["status"], s["verdict"]) for s in scan_text(doc)["statements"]}


def test_that_points_back_to_the_flops_before(scan_text):
    got = _got(scan_text, "Pretraining needs 6.3e23 FLOPs. At 400 TFLOPS, that takes about "
                          "437,500 GPU-hours.\n\nPretraining needs 6.3e23 FLOPs. At 400 TFLOPS "
                          "and 50% MFU, this would take roughly 2,000 GPU-hours.\n")
    assert got["At 400 TFLOPS, that takes about 437,500 GPU-hours."] == ("suggested", "true")
    assert got["At 400 TFLOPS and 50% MFU, this would take roughly 2,000 GPU-hours."] == (
        "suggested", "false")  # 875,000 GPU-hours


def test_gpu_days_and_seconds(scan_text):
    got = _got(scan_text, "Pretraining needs 6.3e23 FLOPs. At 400 TFLOPS, that takes about "
                          "18,229 GPU-days.\n")
    assert got["At 400 TFLOPS, that takes about 18,229 GPU-days."] == ("suggested", "true")


def test_an_effective_rate_is_read_with_and_without_the_utilisation(scan_text):
    got = _got(scan_text, "Pretraining needs 6.3e23 FLOPs. At 50% MFU (400 TFLOPS effective), "
                          "that takes about 437,500 GPU-hours.\n")
    (status, verdict), = [v for k, v in got.items() if k.startswith("At 50%")]
    assert verdict == "true" and status == "suggested"


def test_nothing_carried_where_it_is_not_clear(scan_text):
    docs = [
        # two FLOPs counts before: which one "that" points to is not clear
        "Pretraining needs 6.3e23 FLOPs and fine-tuning 1e21 FLOPs. At 400 TFLOPS, that "
        "takes about 5 GPU-hours.\n",
        # no pointing back: a new figure, not the one before
        "Pretraining needs 6.3e23 FLOPs. At 400 TFLOPS a small run takes 5 GPU-hours.\n",
        # the sentence states its own FLOPs: `compute` reads it
        "Pretraining needs 6.3e23 FLOPs. At 400 TFLOPS, 1e21 FLOPs take about 694 GPU-hours.\n",
    ]
    for doc in docs:
        for s in scan_text(doc)["statements"]:
            assert "630000000000000000000000" not in (s.get("claim") or ""), (doc, s)


@pytest.mark.parametrize("second,verdict", [
    ("At $2 per GPU-hour, the run costs about $187,000.", "true"),   # 93,000 × $2
    ("At $2 per GPU-hour, it costs about $500,000.", "false"),
])
def test_a_price_turns_the_gpu_hours_before_it_into_cost(scan_text, second, verdict):
    doc = f"The run takes about 93,000 GPU-hours.\n\n{second}\n"
    got = [s for s in scan_text(doc)["statements"] if s["line"] == 3]
    assert [(s["status"], s["verdict"]) for s in got] == [("suggested", verdict)], got


def test_a_price_with_gpu_hours_of_its_own_is_read_within_the_sentence(scan_text):
    doc = ("The run takes about 93,000 GPU-hours.\n\n"
           "At $2 per GPU-hour, 10,000 GPU-hours cost $20,000.\n")
    got = [s for s in scan_text(doc)["statements"] if s["line"] == 3]
    assert "93000" not in (got[0]["claim"] or ""), got
