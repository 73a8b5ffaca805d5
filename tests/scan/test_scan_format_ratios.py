"""One number format's memory against another's (`format_ratios`): read as a claim on
bytes(A) / bytes(B), always to confirm. Right sentences it must read true, mutants (a
wrong factor) it must read false, and sentences it must leave alone (speed, one format,
no reference, two formats of one size). Sentences written for these tests."""

import pytest

from ffnverify.scan.format_ratios import ratios
from ffnverify.scan.numbers import normalise, tokens


def _one(scan_text, text):
    (s,) = scan_text(text, "doc.md")["statements"]
    return s


@pytest.mark.parametrize("text, verdict", [
    ("FP16 halves the memory compared to FP32.", "true"),
    ("INT8 uses a quarter of the memory of FP32.", "true"),
    ("INT8 uses half the memory of FP32.", "false"),  # mutant: a quarter
    ("4-bit quantization reduces memory by 75% compared to FP16.", "true"),
    ("4-bit quantization reduces memory by 50% compared to FP16.", "false"),  # mutant
    ("Going from FP32 to INT8 cuts memory by 4x.", "true"),
    ("Going from FP32 to INT8 cuts memory by 2x.", "false"),  # mutant
    ("INT8 is 2x smaller than FP16.", "true"),
    ("FP16 needs twice the memory of INT8.", "true"),
    ("INT4 takes 25% of the memory of FP16.", "true"),
    ("FP16 → INT8 halves the weight memory.", "true"),
    ("FP32 → FP16 cuts the model size by 4x.", "false"),  # mutant
])
def test_two_formats_memory_is_read_as_their_bytes(scan_text, text, verdict):
    s = _one(scan_text, text)
    assert (s["status"], s["verdict"]) == ("suggested", verdict), s
    assert "bytes(" in s["claim"], s


@pytest.mark.parametrize("text", [
    "FP16 is 2x faster than FP32.",            # speed, not memory
    "INT8 halves the memory.",                 # one format
    "FP16 and BF16 use half the memory of FP32 between them.",  # three formats
    "FP16 uses the same memory as BF16, about 2x.",   # one size
    "FP16 and INT8 each cut memory by 2x.",    # no reference
])
def test_what_is_no_ratio_of_two_formats_is_left_alone(text):
    clean = normalise(text)
    assert ratios(tokens(clean), clean) == []
