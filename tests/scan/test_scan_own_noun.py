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


def test_a_dim_before_heads_is_the_head_dimension(scan_text):
    """The issue's own example: "8 KV heads × 128-dim heads × 126 layers"."""
    doc = ("Llama 3.1 405B's attention geometry (8 KV heads × 128-dim heads × 126 layers) "
           "sets the cache.\n\nLlama 2 7B has a 4096-dim residual stream.\n")
    got = scan_text(doc)["statements"]
    assert "head_dim(llama-3.1-405b) == 128" in got[0]["claim"], got[0]
    assert got[0]["verdict"] == "true" and got[1]["claim"] == "d_model(llama-2-7b) == 4096"


def test_a_space_before_a_compound_groups_no_thousands():
    from ffnverify.scan.numbers import tokens

    nums = [t.text for t in tokens("32 128-dimensional heads") if t.kind == "NUM"]
    assert nums == ["32", "128"]
    assert [t.text for t in tokens("4 590 844 bytes") if t.kind == "NUM"] == ["4 590 844"]


def test_an_experts_size_each_is_not_the_moe_total(scan_text):
    """Found reading every CHECKED FALSE at the end: the MoE reader took "7B parameters
    each" for the model's total, as the field reader once did."""
    st = scan_text("Mixtral 8x7B uses eight expert networks of 7B parameters each with a "
                   "routing mechanism that activates two experts per token.\n")["statements"][0]
    assert "params_total" not in st["claim"] and st["verdict"] == "true", st
