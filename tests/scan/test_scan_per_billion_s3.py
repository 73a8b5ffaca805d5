"""Bytes per billion parameters at a format, a rule of thumb (`scan/formats.py`,
`per_billion`): "about 1 GB per billion parameters in int8". Sentences written for these
tests, not taken from the corpus."""

from ffnverify.scan.formats import per_billion
from ffnverify.scan.numbers import normalise, tokens


def _parts(text):
    clean = normalise(text)
    return [(p.strict, p.sure) for p in per_billion(tokens(clean), clean, ())]


def test_bytes_of_a_billion_parameters():
    assert _parts("Weights take about 1 GB per billion parameters in int8.") == [
        ("approx(1000000000 * bytes(int8), 1000000000, abs=500000000)", True)]
    assert _parts("Plan for 4GB of VRAM per 1B parameters in fp32.")[0][1] is False  # VRAM
    assert _parts("Weights need 3 GB per billion parameters in bf16.")[0][0].startswith(
        "approx(1000000000 * bytes(bf16), 3000000000")


def test_not_read_without_one_format_or_for_other_memory():
    assert _parts("Weights need about 2 GB per billion parameters.") == []
    assert _parts("Weights need 2 GB per billion parameters in fp16 or 1 GB in int8.") == []
    assert _parts("Adam states need 8 GB per billion parameters in fp32.") == []
    assert _parts("The KV cache needs 1 GB per billion parameters in fp16.") == []


def test_a_wrong_rule_is_false(scan_text):
    (s,) = scan_text("Weights need about 4 GB per billion parameters in int8.\n")["statements"]
    assert s["verdict"] == "false", s
