"""Three binding rules found on the first half of the fresh2 corpus: a figure followed by
a field noun of its own is not taken by the field before it ("eight experts of 22B
parameters each" was read as experts == 22B, CHECKED FALSE); a parameter count "each"
is the size of one part, not of the model (it was read as the FFN's total); and "two
experts routed per token" counts the active experts, not the experts."""

import pytest


@pytest.mark.parametrize("text, status, verdict, claim_has, claim_lacks", [
    ("Mixtral 8x22B is a sparse MoE model: eight experts of 22B parameters each, with two "
     "experts routed per token.", "suggested", "true", "active_experts(mixtral-8x22b) == 2",
     "22000000000"),
    ("Mixtral 8x7B has three experts used per token.", "checked", "false",
     "active_experts(mixtral-8x7b) == 3", "experts(mixtral-8x7b) == 3 "),
    ("Mixtral 8x7B has 8 experts routed by a gating network.", "checked", "true",
     "experts(mixtral-8x7b) == 8", "active_experts"),  # no "per token": the experts
    ("Mixtral 8x7B has 8 experts of 5.6B parameters each.", "suggested", "true",
     "experts(mixtral-8x7b) == 8", "params_total"),
    ("Llama 2 7B has 32 layers of 202M parameters each.", "suggested", "true",
     "layers(llama-2-7b) == 32", "params_total"),
])
def test_binding(scan_text, text, status, verdict, claim_has, claim_lacks):
    st = scan_text(text + "\n")["statements"][0]
    assert (st["status"], st["verdict"]) == (status, verdict), st
    assert claim_has in st["claim"] and claim_lacks not in st["claim"], st["claim"]
