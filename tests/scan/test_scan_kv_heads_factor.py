"""In a KV-cache formula written out ("2 × 80 layers × 8 heads × 128 × 2 bytes"), a
factor of "heads" may be the KV heads the cache keeps: leniently either, a reading to
confirm; "64 heads" said outside a product stays the query heads. Sentences written for
these tests."""

import pytest
from verdicts import only

KV = "Llama 2 70B's KV cache per token is 320 KiB in fp16 (2 × 80 layers × {} heads × 128 × 2 bytes)."


@pytest.mark.parametrize("heads,verdict", [(8, "true"), (64, "true"), (16, "false")])
def test_a_heads_factor_in_a_kv_formula(scan_text, heads, verdict):
    got = only(scan_text, KV.format(heads))
    assert got["verdict"] == verdict, got


def test_heads_outside_a_product_are_the_query_heads(scan_text):
    got = only(scan_text, "Llama 2 70B has 8 heads and a KV cache of 320 KiB per token in fp16.")
    assert (got["status"], got["verdict"]) == ("checked", "false"), got
