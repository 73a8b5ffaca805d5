"""An optimizer's state read as memory (`scan/optimizer.py`): at 2, 4, 8 or 12 bytes a
parameter, charitably, always to confirm; only when the figure is the state's alone.
Sentences written for these tests. 70B × 12 = 840 GB; 13B × 12 = 156 GB; Llama 2 7B
(6,738,415,616 parameters) × 8 = 53.9 GB; 7B × 2 = 14 GB."""

import pytest
from verdicts import only

from ffnverify.scan.numbers import tokens


@pytest.mark.parametrize("text,verdict", [
    ("For a 70B parameter model trained with standard Adam in mixed precision, the "
     "optimizer state alone consumes 840 GB.", "true"),
    ("A 13b model will need about 156GB GPU memory solely for optimizer states.", "true"),
    ("For Llama 2 7B, Adam optimizer states take 54 GB.", "true"),
    ("With 8-bit Adam, the optimizer state of a 7B model shrinks to 14 GB.", "true"),
    ("A 7B model needs 200 GB for its optimizer states.", "false"),  # no convention gives it
])
def test_the_optimizer_state_at_every_convention(scan_text, text, verdict):
    got = only(scan_text, text)
    assert (got["status"], got["verdict"]) == ("suggested", verdict), got


@pytest.mark.parametrize("text", [
    "Weights, gradients and optimizer states of a 7B model take 112 GB.",
    # "only" far from the state says nothing of it
    "Fine-tuning a 7B model with full gradients and Adam state consumes roughly 112 GB; "
    "adapters train only a tiny fraction.",
])
def test_a_figure_of_more_than_the_state_is_not_read_as_it(scan_text, text):
    got = only(scan_text, text)
    assert got["verdict"] != "false", got


def test_a_lower_case_size_before_its_noun_is_a_size():
    sizes = [(t.value, t.scale) for t in tokens("a 13b model and 350m parameters")
             if t.kind == "NUM"]
    assert sizes == [(13 * 10**9, "B"), (350 * 10**6, "M")]
    assert [t.scale for t in tokens("an 8b quantization") if t.kind == "NUM"] == [""]


@pytest.mark.parametrize("text,verdict", [
    ("Full fine-tuning an 8B model with Adam occupies roughly 56 GB — weights, gradients, "
     "and both optimizer moments — before a single activation is stored.", "false"),  # ≥ 96 GB
    ("Fine-tuning a 7B-parameter model with full gradients and Adam state consumes roughly "
     "112 GB of GPU memory.", "true"),                                  # 7B × 16
    ("Full fine-tuning Llama 2 7B with AdamW needs about 108 GB.", "true"),  # 6.74B × 16
])
def test_full_fine_tuning_with_adam_at_every_convention(scan_text, text, verdict):
    got = only(scan_text, text)
    assert (got["status"], got["verdict"]) == ("suggested", verdict), got


@pytest.mark.parametrize("text", [
    "Full fine-tuning a 7B model with Adam needs 60 GB including activations.",
    "With LoRA, fine-tuning a 7B model with Adam takes 16 GB.",
    "Full fine-tuning a 7B model with Adam and ZeRO-3 takes 20 GB per GPU.",
])
def test_another_run_or_more_than_the_states_is_not_read_as_full_fine_tuning(scan_text, text):
    assert only(scan_text, text)["verdict"] != "false"


def test_it_after_a_short_phrase_is_the_model_before(scan_text):
    """"Llama 2 13B needs 26 GB in fp16. In int8 it needs 13 GB.": "it" after "In int8"
    (no comma) speaks of Llama 2 13B, suggested."""
    got = {s["text"]: s for s in scan_text("Llama 2 13B needs 26 GB in fp16. In int8 it "
                                           "needs 13 GB.\n")["statements"]}
    s = got["In int8 it needs 13 GB."]
    assert (s["status"], s["verdict"]) == ("suggested", "true"), s
    assert "weight_bytes(llama-2-13b, dtype=int8)" in s["claim"]


@pytest.mark.parametrize("text", [
    "The optimizer state of a 7B model is not 56 GB.",   # 84 GB at 12 bytes: true then
    "Full fine-tuning a 7B model with Adam does not take 112 GB.",
])
def test_a_negated_convention_figure_is_not_read(scan_text, text):
    """The negation of "one of the conventions gives it" is no charitable reading."""
    assert only(scan_text, text)["verdict"] is None


# ---- a figure said to hold the weights and their gradients (`weights_and_gradients`) --

@pytest.mark.parametrize("text, verdict, per", [
    ("Full fine-tuning a 7B model needs ~28GB VRAM (fp16 weights + gradients).", "true", 4),
    ("Full fine-tuning a 7B model needs ~56GB VRAM (fp32 weights + gradients).", "true", 8),
    ("Full fine-tuning a 7B model needs 42 GB (bf16 weights + gradients).", "false", 4),
    ("A 13B model needs about 52 GB for weights and gradients.", "true", 4),
])
def test_weights_and_gradients_are_twice_the_format(scan_text, text, verdict, per):
    (s,) = scan_text(text, "doc.md")["statements"]
    assert s["status"] == "suggested" and s["verdict"] == verdict, s
    assert f"* {per}" in s["claim"], s


@pytest.mark.parametrize("text", [
    "Full fine-tuning a 7B model needs ~28GB VRAM (fp16 weights + gradients + activations).",
    "Full fine-tuning a 7B model with Adam needs ~112GB (fp16 weights + gradients).",
    "LoRA on a 7B model needs ~28GB (fp16 weights + gradients).",
    "Full fine-tuning a 7B model needs ~28GB VRAM (fp16 weights + fp32 gradients).",
])
def test_more_than_weights_and_gradients_is_not_read_as_them(scan_text, text):
    got = scan_text(text, "doc.md")["statements"]
    assert not any("weights and gradients" in s["detail"] for s in got), got
