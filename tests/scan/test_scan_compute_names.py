"""FLOPs, GPU-hours and cost with the accelerator named ("2M H800 GPU-hours", "$2 per
A100-hour") and a power of ten written with a caret ("2×10^6 GPU-hours"): the figure ends
after its exponent, and a GPU's name between a figure and its unit is part of the unit.
Sentences written for these tests."""

import pytest
from verdicts import only

from ffnverify.scan.numbers import tokens


def test_a_caret_power_of_ten_ends_after_its_exponent():
    text = "took 2×10^6 GPU-hours"
    (t,) = [t for t in tokens(text) if t.kind == "NUM"]
    assert (t.value, text[t.start:t.end]) == (2_000_000, "2×10^6")


@pytest.mark.parametrize("text,verdict", [
    ("Training took 2×10^6 GPU-hours; at $2 per GPU-hour that is $4M.", "true"),
    ("Training took 2×10^6 GPU-hours; at $2 per GPU-hour that is $5.6M.", "false"),
    ("Training took 2M H800 GPU-hours; at $2 per GPU-hour that is $4M.", "true"),
    ("Training took 2M H800 GPU-hours; at $2 per GPU-hour that is $5.6M.", "false"),
    ("Training took 3M A100 GPU-hours at $1.5 per A100-hour, so it cost $4.5M.", "true"),
    ("Training took 1,000 MI300X GPU-hours at $3 per GPU-hour: $3,000.", "true"),
])
def test_cost_with_an_accelerator_named(scan_text, text, verdict):
    assert only(scan_text, text)["verdict"] == verdict


@pytest.mark.parametrize("text,verdict", [
    ("Training Llama 2 7B on 2 trillion tokens takes about 8.4 × 10^22 FLOPs.", "true"),
    ("Training Llama 2 7B on 2 trillion tokens takes about 2.4 × 10^22 FLOPs.", "false"),
])
def test_flops_written_after_a_power_of_ten(scan_text, text, verdict):
    # the unit after "× 10^22" is the figure's: it was lost, and the statement unread
    assert only(scan_text, text)["verdict"] == verdict
