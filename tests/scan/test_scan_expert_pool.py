"""The experts a router chooses among are the pool, not the experts per token (a wrong
CHECKED FALSE found by a probe written for it in the eleventh session: "top-2 routing over
8 experts" read as 8 experts per token)."""

import pytest

from tests.scan.verdicts import decide


@pytest.mark.parametrize("text", [
    "With top-2 routing over 8 experts, Mixtral 8x7B uses about 13B parameters per token.",
    "Mixtral 8x7B routes each token across 8 experts, of which 2 fire.",
    "Mixtral 8x7B selects 2 experts from 8 experts per layer.",
    "Mixtral 8x7B picks among 8 experts for each token.",
])
def test_the_pool_routed_over_is_not_the_experts_per_token(engine, text):
    _status, verdict, claim, record = decide(engine, text)
    assert "active_experts(mixtral-8x7b) == 8" not in (claim or ""), record
    assert verdict != "false", record


@pytest.mark.parametrize("text, verdict", [
    ("Mixtral 8x7B routes each token to 2 experts.", "true"),
    ("Mixtral 8x7B routes each token to 3 experts.", "false"),
    ("Mixtral 8x7B activates 8 experts for every token.", "false"),
])
def test_the_experts_a_token_is_routed_to_are_still_read(engine, text, verdict):
    assert decide(engine, text)[1] == verdict, decide(engine, text)[3]
