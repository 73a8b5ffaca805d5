"""The KV-cache reader when the document states no dtype (docs/architecture.md §5.2, charitable reading):
the cache is read at 16 bits strictly and at 32 and 8 bits leniently, so a figure that is
right at any common width is never FALSE; one no width makes true is FALSE under every
reading."""

import pytest

from ffnverify.scan.detect import models
from ffnverify.scan.numbers import normalise, tokens
from ffnverify.scan.quantities import read_quantities


def verdicts(engine, text):
    clean = normalise(text)
    parts = read_quantities(tokens(clean), clean, models(clean))
    kv = [p for p in parts if "KV cache" in p.reading]
    assert kv, f"no KV-cache reading of {text!r}"
    return [(engine.evaluate(p.strict)["verdict"], engine.evaluate(p.lenient)["verdict"], p)
            for p in kv]


# Llama 3 8B: 2 · 32 layers · 8 KV heads · 128 dims = 65,536 numbers a token
@pytest.mark.parametrize("text", [
    "Llama 3 8B needs 128 KB of KV cache per token.",     # 16 bits
    "Llama 3 8B needs 256 KB of KV cache per token.",     # 32 bits
    "Llama 3 8B needs 64 KB of KV cache per token.",      # 8 bits
    "Llama 3 8B needs 32 GB of KV cache at 128K tokens.",  # 32 bits, binary K and G
    "Llama 3 8B needs 8 GB of KV cache at 128K tokens.",   # 8 bits
])
def test_unstated_dtype_any_common_width_is_not_false(engine, text):
    for _strict, lenient, part in verdicts(engine, text):
        assert lenient == "true", (text, part)
        assert not part.sure  # the dtype was not stated: a reading to confirm


@pytest.mark.parametrize("text", [
    "Llama 3 8B needs 512 KB of KV cache per token.",
    "Llama 3 8B needs 20 KB of KV cache per token.",
    "Llama 3 8B needs 100 GB of KV cache at 128K tokens.",
])
def test_unstated_dtype_no_width_true_is_false(engine, text):
    for strict, lenient, part in verdicts(engine, text):
        assert (strict, lenient) == ("false", "false"), (text, part)


def test_stated_dtype_reads_only_that_width(engine):
    # 256 KB a token is right in fp32 only: stated bf16, it is false under every reading
    for strict, lenient, part in verdicts(engine, "Llama 3 8B needs 256 KB of KV cache "
                                                  "per token in bf16."):
        assert (strict, lenient) == ("false", "false"), part
        assert "fp32" not in part.lenient
