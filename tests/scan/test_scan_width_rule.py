"""Meta's width rule is read only where the text speaks of it: a config that names a
Llama model and lists its d and d_ff claims no rule (a wrong SUGGESTED FALSE found by a
probe in the eleventh session: Llama 3 8B's true config was flagged because 14336 is not
the Llama 1/2 rule's width at 4096)."""

import pytest

from ffnverify.scan.variants import llama_width
from tests.scan.verdicts import decide


@pytest.mark.parametrize("text", [
    "Llama 3 8B: d_model = 4096, n_layers = 32, n_heads = 32, d_ff = 14336.",
    "Llama 2 13B: d = 5120, hidden = 13824, 40 layers.",
])
def test_a_llama_config_claims_no_width_rule(engine, text):
    assert llama_width(text) == []
    _status, verdict, claim, record = decide(engine, text)
    assert "width(llama" not in (claim or "") and verdict == "true", record


@pytest.mark.parametrize("text, claim", [
    ("With Meta's rule, d = 4096 gives h = 11008.", "width(llama, 4096) == 11008"),
    ("The Llama width rule at d = 4096 is h = 11008.", "width(llama, 4096) == 11008"),
    ("8/3 of d = 4096, rounded up to a multiple of 256, is d_ff = 11008.",
     "width(llama, 4096) == 11008"),
])
def test_the_rule_is_read_where_the_text_speaks_of_it(text, claim):
    assert llama_width(text) == [claim]


def test_the_rule_read_is_checked(engine):
    assert decide(engine, "By Meta's rule, d = 4096 gives h = 11008.")[1] == "true"
    assert decide(engine, "By Meta's rule, d = 4096 gives h = 14336.")[1] == "false"
