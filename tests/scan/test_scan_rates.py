"""An amount at a rate of the same unit and the time it takes (`compute.amount_at_rate`:
bytes at a bandwidth, tokens at a speed), and FLOPs at a rate on one device
(`compute.throughput`), each figure as written. Sentences written for these tests:
140 GB / 2 TB/s = 70 ms; 1,000 tokens / 50 per second = 20 s; 140 GFLOPs / 1000 TFLOP/s =
0.14 ms; the carried GPU-seconds, GPU-hours and GPU-days still read (`carried_compute`).
"""

import pytest


def _one(scan_text, text):
    (s,) = scan_text(text, "doc.md")["statements"]
    return s


@pytest.mark.parametrize("text, verdict", [
    ("Reading 140 GB at 2 TB/s takes 70 ms.", "true"),
    ("Reading 140 GB at 2 TB/s takes 7 ms.", "false"),
    ("Generating 1,000 tokens at 50 tokens per second takes 20 seconds.", "true"),
    ("Generating 1,000 tokens at 50 tokens/s takes 2 minutes.", "false"),
])
def test_an_amount_at_a_rate_takes_its_time_as_written(scan_text, text, verdict):
    s = _one(scan_text, text)
    assert s["status"] == "checked" and s["verdict"] == verdict, s


def test_a_rounded_time_holds_at_its_precision(scan_text):
    # 140 GB / 3 TB/s = 46.7 ms: "47ms" holds only read at its precision, to confirm
    s = _one(scan_text, "Reading 140GB of weights per token at 3TB/s takes 47ms.")
    assert s["status"] == "suggested" and s["verdict"] == "true", s
    s = _one(scan_text, "Reading 140GB of weights per token at 3TB/s takes 30ms.")
    assert s["verdict"] == "false", s


@pytest.mark.parametrize("text", [
    "Reading 140 GB split across 2 GPUs at 2 TB/s each takes 35 ms.",
    "Serving 1,000 tokens to 8 users at 50 tokens per second takes 20 seconds.",
    "A batch of 1,000 tokens at 50 tokens per second takes 2 seconds.",
])
def test_an_amount_shared_among_devices_or_users_is_not_read(scan_text, text):
    got = scan_text(text, "doc.md")["statements"]
    assert not any("per second" in s["detail"] and s["verdict"] == "false" for s in got), got


@pytest.mark.parametrize("text, verdict", [
    ("At 1000 TFLOP/s effective, 140 GFLOPs per token is 0.14 ms per token.", "true"),
    ("At 1000 TFLOP/s effective, 140 GFLOPs per token is 14 ms per token.", "false"),
])
def test_flops_at_a_rate_on_one_device_is_a_reading_to_confirm(scan_text, text, verdict):
    s = _one(scan_text, text)
    assert s["status"] == "suggested" and s["verdict"] == verdict, s
    assert "on one device" in s["detail"], s


def test_a_time_on_several_devices_is_not_read_as_one_devices(scan_text):
    got = scan_text("At 400 TFLOPS, 6.3e23 FLOPs on the cluster's GPUs takes 30 days.",
                    "doc.md")["statements"]
    assert not any("on one device" in s["detail"] for s in got), got


@pytest.mark.parametrize("time, verdict", [
    ("1.575e9 GPU-seconds", "true"), ("437,500 GPU-hours", "true"), ("437,500 GPU-hrs", "true"),
    ("18,229 GPU-days", "true"), ("1,823 GPU-days", "false"),
])
def test_gpu_time_carried_from_the_sentence_before_in_each_unit(scan_text, time, verdict):
    # 6.3e23 FLOPs / 400 TFLOPS = 1.575e9 s = 437,500 h = 18,229 days
    got = scan_text(f"Pretraining needs 6.3e23 FLOPs. At 400 TFLOPS, that takes about {time}.\n",
                    "doc.md")["statements"]
    s = next(s for s in got if "that takes" in s["text"])
    assert s["status"] == "suggested" and s["verdict"] == verdict, s


@pytest.mark.parametrize("text, claim", [
    ("Reading 140 GB at 2 TB/s takes at least 70 ms.", ">= 70"),
    ("Reading 140 GB at 2 TB/s takes under 80 ms.", "< 80"),
])
def test_a_bound_on_the_time_is_read_by_its_meaning(scan_text, text, claim):
    s = _one(scan_text, text)
    assert s["verdict"] == "true" and claim in (s["claim"] or ""), s


# ---- a factor written beside the rate or the FLOPs (`compute._factors_beside`) ------------
# "1e23 FLOPs / (312e12 FLOP/s × 0.5) ≈ 6.4e8 s ≈ 178,000 GPU-hours" was CHECKED FALSE: the
# GPU-hours step was rebuilt as 1e23 / 312e12 / 3600, leaving out the 0.5 written beside
# the rate. A bare fraction multiplying the rate is read as its utilisation, to confirm; any
# other factor leaves the time to the written arithmetic.

@pytest.mark.parametrize("text, verdict", [
    ("1e23 FLOPs / (312e12 FLOP/s × 0.5) ≈ 6.4e8 s ≈ 178,000 GPU-hours", "true"),
    ("1e23 FLOPs / (312e12 FLOP/s × 0.5) ≈ 6.4e8 s ≈ 17,800 GPU-hours", "false"),  # mutant
])
def test_a_fraction_beside_the_rate_is_its_utilisation_to_confirm(scan_text, text, verdict):
    s = _one(scan_text, text)
    assert s["status"] == "suggested" and s["verdict"] == verdict, s


def test_another_factor_beside_the_rate_leaves_the_time_unread(scan_text):
    # × 2 (two devices, say) is not a utilisation: never a FALSE from a rebuilt step
    s = _one(scan_text, "1e23 FLOPs / (312e12 FLOP/s × 2) ≈ 1.6e8 s ≈ 44,500 GPU-hours")
    assert s["verdict"] != "false" and s["status"] != "checked", s
    assert "44,500" in s["unread"], s


def test_a_stated_utilisation_still_makes_the_time_sure(scan_text):
    s = _one(scan_text, "Training takes 1e23 FLOPs; at 312 TFLOP/s and 50% MFU that is "
                        "1,781 GPU-hours.")
    assert s["status"] == "checked" and s["verdict"] == "false", s
