"""A memory figure said as what running a model takes ("needs 16 GB of VRAM", "16GB at
minimum", "requires 150 GB") counts the weights and what the text leaves unstated (the KV
cache, activations, buffers): leniently at least the weights, so a figure above them is
a reading to confirm, never FALSE; one below them is still FALSE. A figure said of the
weights themselves ("its weights need 20 GB") is the weights, as before."""

import pytest
from verdicts import only


@pytest.mark.parametrize("text", [
    "Llama 2 7B needs 16 GB of VRAM in fp16.",
    "Running Llama 2 13B in fp16 requires 32 GB.",
    "The model needs 16GB at minimum to load Llama 2 7B in fp16.",
    "Llama 2 70B needs about 150 GB of GPU memory in fp16.",
])
def test_requirement_above_the_weights_is_never_false(scan_text, text):
    st = only(scan_text, text)
    assert st["verdict"] == "true" and st["status"] == "suggested", st


@pytest.mark.parametrize("text", [
    "Llama 2 7B needs 8 GB of VRAM in fp16.",          # less than its 13.5 GB of weights
    "Running Llama 2 13B in fp16 requires 16 GB.",
    "Llama 2 7B's weights need 20 GB in fp16.",         # the weights themselves
    "Llama 2 7B has 32 layers and 6.7B parameters, so in fp16 its weights need 20 GB.",
])
def test_requirement_below_the_weights_or_of_the_weights_is_false(scan_text, text):
    st = only(scan_text, text)
    assert st["verdict"] == "false", st


@pytest.mark.parametrize("text", [
    "Llama 2 7B needs 13.5 GB in fp16.",
    "Llama 2 7B takes 13.5 GB in fp16.",
])
def test_the_weights_figure_is_still_checked(scan_text, text):
    st = only(scan_text, text)
    assert st["status"] == "checked" and st["verdict"] == "true", st


def test_a_stated_bound_keeps_its_meaning(scan_text):
    st = only(scan_text, "Llama 2 7B requires at most 10 GB of memory in fp16.")
    assert st["verdict"] == "false", st


@pytest.mark.parametrize("text,verdict", [
    ("A 70B model in INT4 runs on a single 48GB GPU.", "true"),
    ("At 4-bit, a 70B model runs on one 24 GB card.", "false"),   # 35 GB of weights
    ("Llama 2 7B in fp16 runs comfortably on a 16 GB GPU.", "true"),
    ("Llama 2 70B runs on a single 48 GB GPU with CPU offloading.", None),  # not a bound
])
def test_what_a_model_runs_on_bounds_its_weights(scan_text, text, verdict):
    got = only(scan_text, text)
    assert got["verdict"] == verdict, got


# ---- what devices hold, set against what a model needs (`memory_words.CAPACITY_AFTER`) ----
# "Two 80 GB GPUs give 160 GB, enough for the weights of a 70B model in 16-bit" was
# SUGGESTED FALSE as 70B × 2 bytes == 160 GB: the 160 GB is what is there, not what is
# needed. Such a figure is no result; the devices' memory is still read as a bound.

@pytest.mark.parametrize("text", [
    "Two 80 GB GPUs give 160 GB, enough for the weights of a 70B model in 16-bit.",
    "Eight H100s give you 640 GB, which is plenty for Llama 2 70B in fp16.",
    "A node has 320 GB, more than enough for Llama 2 70B in fp16.",
    "That leaves 48 GB to spare once Llama 2 13B is loaded in fp16.",
])
def test_a_capacity_is_no_requirement(scan_text, text):
    for st in scan_text(text + "\n")["statements"]:
        assert st["verdict"] != "false", st


def test_a_capacity_too_small_for_the_model_is_still_caught(scan_text):
    # mutant: one 80 GB GPU cannot hold 140 GB of fp16 weights
    st = only(scan_text, "Llama 2 70B in fp16 fits on one 80 GB GPU.")
    assert st["verdict"] == "false", st


# ---- one device's share (`figure.per_device`) -----------------------------------------
# "Llama 2 70B needs 35 GB per GPU with tensor parallelism over 4 GPUs in fp16" was
# SUGGESTED FALSE against the whole 138 GB: the figure is each device's share.

@pytest.mark.parametrize("text, verdict", [
    ("Llama 2 70B needs 35 GB per GPU with tensor parallelism over 4 GPUs in fp16.", "true"),
    ("Llama 2 70B split over 2 GPUs in fp16 needs 70 GB each.", "true"),
    ("Each of the 8 GPUs holds 17.5 GB of Llama 2 70B's fp16 weights.", "true"),
    # mutant: twice the share ("needs" would be a requirement, leniently at least it)
    ("Each of the 8 GPUs holds 35 GB of Llama 2 70B's fp16 weights.", "false"),
])
def test_a_figure_per_device_is_its_share(scan_text, text, verdict):
    st = only(scan_text, text)
    assert (st["status"], st["verdict"]) == ("suggested", verdict), st


def test_a_figure_per_device_with_no_count_is_not_read(scan_text):
    st = only(scan_text, "Llama 2 70B in fp16 needs 35 GB per GPU.")
    assert st["verdict"] is None, st


# ---- what several devices give together (`device_totals`) -------------------------------

@pytest.mark.parametrize("text, verdict", [
    ("Each H100 has 80 GB, so eight of them give 640 GB in total.", "true"),
    ("8x H100 80GB for a total of 640 GB.", "true"),
    ("Four 24 GB RTX 4090s give 96 GB combined.", "true"),
    ("Two 80 GB GPUs give 180 GB.", "false"),  # mutant
    ("8x H100 80GB for a total of 320 GB.", "false"),  # mutant
])
def test_devices_memory_said_as_their_total(scan_text, text, verdict):
    st = only(scan_text, text)
    assert (st["status"], st["verdict"]) == ("suggested", verdict), st


def test_two_memory_figures_of_no_devices_are_no_total(scan_text):
    st = only(scan_text, "The cache takes 40 GB and the weights give 140 GB in total.")
    assert "devices ×" not in st["detail"], st


@pytest.mark.parametrize("text, status, verdict", [
    # what a figure leaves out ("before accounting for gradients") is not what it counts
    ("At bfloat16 precision, simply loading 70 billion parameters requires 140GB of device "
     "memory before accounting for gradients, optimizer states, and training data.",
     "checked", "true"),
    ("Loading 70 billion parameters in bf16 takes 70GB, not counting optimizer states.",
     "checked", "false"),  # mutant: one byte a parameter
])
def test_what_a_figure_leaves_out_does_not_block_it(scan_text, text, status, verdict):
    st = only(scan_text, text)
    assert (st["status"], st["verdict"]) == (status, verdict), st


def test_training_state_still_blocks_a_weights_reading(scan_text):
    st = only(scan_text, "Training 70 billion parameters in bf16 with gradients and "
                         "optimizer states requires 140GB.")
    assert st["verdict"] is None, st


@pytest.mark.parametrize("text, verdict", [
    # "A100-80GB": the card and its memory (`numbers._CARD_MEMORY`)
    ("Llama 2 70B in fp16 fits on two A100-80GB GPUs.", "true"),
    ("Llama 2 70B in fp16 fits on one A100-80GB.", "false"),  # mutant: 138 GB on one
    ("Two A100-80GBs give you 160GB.", "true"),
])
def test_a_card_written_with_its_memory(scan_text, text, verdict):
    st = only(scan_text, text)
    assert st["verdict"] == verdict, st


@pytest.mark.parametrize("text", [
    # what remains of a device's memory is no weights figure (`memory_words.LEFT_BEFORE`,
    # `CAPACITY_AFTER`): the second figure was CHECKED FALSE as the weights at fp8
    "Qwen2.5 7B's weights take ~15 GB in FP16, so ~65 GB looks free.",
    "Llama 2 7B in fp16 takes 13.5 GB, with 66 GB left on an 80 GB A100.",
    "Llama 2 7B in fp16 takes 13.5 GB, leaving 66 GB on an 80 GB A100.",
])
def test_what_remains_is_no_weights_figure(scan_text, text):
    st = only(scan_text, text)
    assert st["verdict"] != "false", st


def test_the_weights_beside_what_remains_are_still_caught(scan_text):
    st = only(scan_text, "Llama 2 7B in fp16 takes 20 GB, with 60 GB left on an 80 GB A100.")
    assert st["verdict"] == "false", st  # mutant: 13.5 GB
