"""A serving engine's or a runtime's context setting ("max_model_len=4096", "n_ctx 8192")
is the context a KV-cache figure is computed at (probes of issue-thread sentences, written
for the tests, in the eleventh session)."""

import pytest

from tests.scan.verdicts import decide


@pytest.mark.parametrize("text, status, verdict", [
    ("Llama 3 8B with max_model_len 8192 needs 1 GB of KV cache per sequence.",
     "suggested", "true"),  # no dtype stated: 16 bits assumed
    ("With max_model_len=4096 and 256 sequences, the KV cache for Llama 2 7B needs 512 GB "
     "in fp16.", "suggested", "true"),  # 512 GiB: GB read as GiB too
    ("With max_model_len=4096 and 256 sequences, the KV cache for Llama 2 7B needs 256 GB "
     "in fp16.", "checked", "false"),
    ("With n_ctx = 4096, the KV cache of Llama 2 7B in fp16 is 2 GB.", "checked", "true"),
])
def test_a_context_setting_is_the_kv_caches_context(engine, text, status, verdict):
    got = decide(engine, text)
    assert got[:2] == (status, verdict), got[3]
    assert "kv_cache_bytes(" in got[2], got[3]


def test_a_context_setting_beside_a_weights_figure_is_not_read_into_it(engine):
    got = decide(engine, "With max_model_len=4096, Llama 2 7B needs 14 GB in fp16.")
    assert "kv_cache_bytes(" not in (got[2] or "") and got[1] == "true", got[3]
