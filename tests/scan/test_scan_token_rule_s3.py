"""FLOPs a token with no rule written (`scan/compute.py`, `_unstated_token_rule`): the
usual 2N for a forward pass (6N where the sentence speaks of training), suggested, never
checked; not where the sentence names a context, a batch or attention (the author may
count more than N). Sentences written for these tests, not taken from the corpus."""


def _got(scan_text, doc):
    return [(s["status"], s["verdict"], s.get("claim") or "")
            for s in scan_text(doc)["statements"]]


def test_the_usual_rules_are_suggested(scan_text):
    (fwd,) = _got(scan_text, "A 13B model: about 26 GFLOPs per token.\n")
    assert fwd[:2] == ("suggested", "true") and "2 * 13000000000" in fwd[2], fwd
    (train,) = _got(scan_text, "Training a 13B model costs about 78 GFLOPs per token.\n")
    assert train[:2] == ("suggested", "true") and "6 * 13000000000" in train[2], train
    (bad,) = _got(scan_text, "A 13B model needs 52 GFLOPs per generated token.\n")
    assert bad[:2] == ("suggested", "false"), bad


def test_a_named_model_is_read_at_its_count(scan_text):
    (s,) = _got(scan_text, "Llama 2 13B costs about 26 GFLOPs per token.\n")
    assert s[:2] == ("suggested", "true") and "params_total(llama-2-13b)" in s[2], s


def test_more_than_n_is_not_read(scan_text):
    for doc in ("A 13B model at 8K context costs 30 GFLOPs per token.\n",
                "With attention, a 13B model costs 30 GFLOPs per token.\n",
                "A 13B model costs 30 GFLOPs per token at batch 8.\n",
                "A 13B model costs 26 GFLOPs in total.\n"):
        for s in _got(scan_text, doc):
            assert "13000000000" not in s[2], (doc, s)
