"""Fields written with symbols (`scan/fields.py`): the symbol a text gives a field in
parentheses after its noun ("Number of decoder layers (L): 24") leaves the noun bound to
its figure; a figure set to a conventional symbol ("GPT-2 medium has d = 1024 and L = 24")
is that field, to confirm — not where the letter may be another quantity (a sequence
length, a head's width) or beside a field bound by its noun. Sentences written for these
tests, not taken from the corpus. GPT-2 medium: d_model 1024, 24 layers, 16 heads."""

import pytest


def _got(scan_text, doc):
    return [(s["text"], s["status"], s["verdict"], s.get("claim"))
            for s in scan_text(doc)["statements"]]


def test_a_symbol_in_parentheses_after_the_noun():
    from ffnverify.scan.read import reading
    r = reading("GPT-2 medium: number of decoder layers (L): 24")
    assert [(p.strict, p.sure) for p in r.parts] == [("layers(gpt2-medium) == 24", True)]
    r = reading("GPT-2 medium: number of attention heads (n_head) = 12")
    assert [(p.strict, p.sure) for p in r.parts] == [("heads(gpt2-medium) == 12", True)]


def test_an_attention_form_in_parentheses_is_no_symbol():
    from ffnverify.scan.read import reading
    r = reading("GPT-2 medium: heads (MQA): 1")
    # (nearness may still pair them, to confirm: never bound by the noun)
    assert r is None or not any("heads(gpt2-medium) == 1" in p.strict and p.sure
                                for p in r.parts)


def test_conventional_symbols_are_read_to_confirm(scan_text):
    got = _got(scan_text, "GPT-2 medium has d = 1024 and L = 24.\n\n"
                          "GPT-2 medium has d = 1280 and L = 24.\n")
    assert [(s, v) for _, s, v, _ in got] == [("suggested", "true"), ("suggested", "false")]
    assert "d_model(gpt2-medium) == 1024" in got[0][3] and "layers(gpt2-medium) == 24" in got[0][3]


def test_symbols_that_may_be_another_quantity_are_not_read(scan_text):
    for doc in ("GPT-2 medium runs with L = 1024 tokens.\n",
                "GPT-2 medium (L=24, H=16 heads, d=64)\n",
                "GPT-2 medium uses h = 4096 in its FFN.\n"):
        for _, _, _, claim in _got(scan_text, doc):
            assert "d_model(" not in (claim or "") and "layers(gpt2-medium) == 1024" not in (
                claim or ""), (doc, claim)


def test_a_symbol_beside_a_model_is_a_claim_not_a_premise(scan_text):
    # "with d = 1024" said of GPT-2 medium states its width: unread, the statement is not
    # checked on its layers alone (it was, before: "with d = 2048" was CHECKED TRUE), and a
    # wrong symbol's figure never leaves it CHECKED TRUE
    for d in ("1024", "2048"):
        (row,) = _got(scan_text, f"GPT-2 medium, with d = {d}, has 24 layers.\n")
        assert row[1] != "checked", row
    for doc in ("Llama-3-70B (L=80, H=8 KV heads, d=128)\n",
                "Llama-3-70B (L=64, H=8 KV heads, d=128)\n"):
        (row,) = _got(scan_text, doc)
        assert row[1] != "checked", row
    # where no model is spoken of, a symbol set to a figure stays a premise
    (row,) = _got(scan_text, "With d = 4096, the FFN holds 3 * 4096 * 11008 = 135266304 weights.\n")
    assert (row[1], row[2]) == ("checked", "true"), row


@pytest.mark.parametrize("text", [
    "For Llama 2 70B: 80 decoder layers num_kv_heads = 8 head_dim = d_model / n_heads = "
    "8192 / 64 = 128.",
    "For Llama 2 70B: num_kv_heads = 8 head_dim = 128.",
])
def test_a_figure_set_to_a_symbol_is_not_the_next_nouns(scan_text, text):
    # the 8 is num_kv_heads'; head_dim(llama-2-70b) is 128 (was CHECKED FALSE as 8)
    (s,) = scan_text(text)["statements"]
    assert s["verdict"] != "false" and "head_dim(llama-2-70b) == 8" not in (s["claim"] or ""), s


@pytest.mark.parametrize("text, claim", [
    ("First, under 2048 context length, for llama-2-7b,", None),
    ("We measured Llama 2 7B under 2048 context length.", None),
    ("Under 2048 context length, for llama-2-7b, the cache is small.", None),
    ("Llama 2 7B's context is under 8192 tokens.", "context(llama-2-7b) < 8192"),
])
def test_a_context_a_run_is_set_under_is_no_claim_of_the_models(scan_text, text, claim):
    (s,) = scan_text(text)["statements"]
    assert s["claim"] == claim and s["verdict"] != "false", s
