"""An amount of context is no context length (`scan/fields.py`, `words.INPUT_AMOUNT`):
"every 2K tokens of context", "the KV cache of 2K tokens of context" choose an amount;
"supports 8K tokens of context", "a context length of 8192" state the model's maximum.
Sentences written for these tests, not taken from the corpus (Llama 3 8B: 8,192)."""

from ffnverify.scan.read import reading


def _context_parts(text):
    r = reading(text)
    return [p for p in (r.parts if r else []) if p.strict.startswith(("context(", "approx(context("))
            or "(approx(context(" in p.strict]


def test_an_amount_of_context_is_not_the_field():
    assert _context_parts("For Llama 3 8B in BF16, every 2K tokens of context take 256 MB.") == []
    assert _context_parts("For Llama 3 8B, the KV cache of 2K tokens of context is 256 MB.") == []
    assert _context_parts("Llama 3 8B: each 512 tokens of context add 64 MB.") == []


def test_the_models_maximum_is_still_the_field():
    (p,) = _context_parts("Llama 3 8B supports 8K tokens of context.")
    assert "8192" in p.lenient
    (p,) = _context_parts("Llama 3 8B has a context length of 8192.")
    assert p.strict == "context(llama-3-8b) == 8192" and p.sure


def test_no_checked_false_for_an_amount(scan_text):
    doc = "For Llama 3 8B in BF16, the KV cache of 2K tokens of context is about 256 MB.\n"
    (s,) = scan_text(doc)["statements"]
    assert not (s["status"] == "checked" and s["verdict"] == "false"), s
    assert "context(llama-3-8b)" not in (s.get("claim") or ""), s
