"""A figure with a unit of another quantity (FLOPs, bytes, time, percent) is never the value
of a catalogue field by nearness: no layer count, width or vocabulary is measured in those.
Found with hostile prose: '… 1e999999 layers and 222222 FLOPs' (the layer count unread, past
the exponent bound) gave 'layers == 222222' bound by nearness, SUGGESTED FALSE."""

import pytest
from verdicts import FALSE, TRUE, judged, only


@pytest.mark.parametrize("text", [
    "Llama 2 7B has 1e999999 layers and 222222 FLOPs.",
    "Llama 2 7B has 1e999999 layers and 13.5 GB of weights.",
    "Llama 2 7B has 1e999999 layers and 40 ms of latency per token.",
    "Llama 2 7B has 1e999999 layers and took 3 GPU-hours to fine-tune.",
    "Llama 2 7B has 1e999999 layers and 20% of its weights in attention.",
])
def test_a_figure_in_another_unit_is_no_field_value(scan_text, text):
    st = only(scan_text, text)
    assert st["verdict"] != "false", st
    assert "layers(" not in (st["claim"] or ""), st


@pytest.mark.parametrize("text,expect", [
    # the field's own figure is still read beside a figure in another unit
    ("Llama 2 7B has 32 layers and 13.5 GB of weights in fp16.", TRUE),
    ("Llama 2 7B has 40 layers and needs 14 GFLOPs per token.", FALSE),
    # tokens count a vocabulary and a context: not another quantity's unit
    ("Llama 2 7B has a vocabulary of 32,000 tokens.", TRUE),
    ("Llama 2 7B has a vocabulary of 50,000 tokens.", FALSE),
])
def test_the_fields_own_figures_are_still_read(scan_text, text, expect):
    judged(scan_text, text, expect)
