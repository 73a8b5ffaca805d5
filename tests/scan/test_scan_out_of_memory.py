"""A statement that the memory runs out ("OOM on 24GB VRAM", "runs out of memory on a
24 GB GPU") names a capacity the model does not fit, never the model's size: its byte
figure is not read as the weights (a true report was CHECKED FALSE as weights ≈ 24 GB).
Sentences written for these tests; the family was found on fresh4's half B, read once at
the end of the session as the closing checklist asks."""

import pytest


@pytest.mark.parametrize("text", [
    "70B model OOM on 24GB VRAM even with 4-bit weights",
    "Llama 2 70B goes out of memory on a 24 GB card at 4-bit.",
    "Our 7B run hit an out-of-memory error at 16 GB in fp16.",
])
def test_a_capacity_that_runs_out_is_not_the_size(scan_text, text):
    for got in scan_text(text + "\n")["statements"]:
        assert got["verdict"] != "false", got
        assert got["status"] != "checked", got


def test_a_fit_still_is_read(scan_text):
    got = scan_text("A 70B model at 4-bit fits on a single 24 GB GPU.\n")["statements"]
    assert [s["verdict"] for s in got] == ["false"], got
