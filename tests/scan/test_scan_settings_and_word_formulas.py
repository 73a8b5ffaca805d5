"""Figures a statement sets rather than claims, and figures it names only by words.

- A table's context column beside a memory column is the context that memory is computed
  at (`rows._memory_columns`, `kv_tables._context_column`): "| Model | Context | KV cache
  (FP16) |" over "| Llama 7B | 4K | ~1 GB |" was read as Llama 1 7B's context window being
  4K (SUGGESTED FALSE: it is 2048), and its cache not at all.
- A formula in words evaluated at figures (`read._WORD_FORMULA`): "No of key vectors per
  token = Layers * attention heads = 32 * 32 = 1024 vectors" was CHECKED TRUE on its
  arithmetic, though what it claims of the model (key vectors per token; Mistral 7B caches
  8 KV heads, so 256) is not read: the arithmetic is a reading to confirm.

Sentences and tables written for these tests.
"""

import pytest


def _rows(scan_text, body):
    return {s["text"]: s for s in scan_text(body, "doc.md")["statements"]}


_KV_TABLE = """| Model | Context | KV cache (FP16) |
|---|---|---|
| Llama 2 7B | 4K | 2 GB |
| Llama 2 7B | 4096 | 2 GiB |
| Llama 2 7B | 4K | 1 GB |
| Llama 2 7B | 8K | 4 GB |
"""


def test_a_context_column_beside_a_kv_cache_column_is_its_setting(scan_text):
    got = _rows(scan_text, _KV_TABLE)
    assert (got["Llama 2 7B | 4K | 2 GB"]["status"], got["Llama 2 7B | 4K | 2 GB"]["verdict"]) \
        == ("checked", "true")
    assert got["Llama 2 7B | 4096 | 2 GiB"]["verdict"] == "true"
    assert got["Llama 2 7B | 8K | 4 GB"]["verdict"] == "true"  # 8K tokens: no claim of 8K context
    bad = got["Llama 2 7B | 4K | 1 GB"]  # mutant: half the cache
    assert (bad["status"], bad["verdict"]) == ("checked", "false"), bad
    for s in got.values():
        assert "context(" not in (s.get("claim") or ""), s


def test_a_context_column_without_memory_is_still_the_models(scan_text):
    got = _rows(scan_text, "| Model | Context |\n|---|---|\n| Llama 2 7B | 4096 |\n"
                           "| Llama 2 13B | 2048 |\n")
    assert got["Llama 2 7B | 4096"]["verdict"] == "true", got
    assert got["Llama 2 13B | 2048"]["verdict"] == "false", got  # mutant: Llama 1's


@pytest.mark.parametrize("text, verdict", [
    ("No of key vectors per token = Layers * attention heads = 32 * 32 = 1024 vectors",
     "true"),
    ("Total number of vectors per token = key vectors + value vectors = 1024 + 1024 = 2048",
     "true"),
    ("No of key vectors per token = Layers * attention heads = 32 * 32 = 1000 vectors",
     "false"),  # mutant: the arithmetic itself
])
def test_a_formula_in_words_is_read_but_not_checked(scan_text, text, verdict):
    (s,) = scan_text(text, "doc.md")["statements"]
    assert (s["status"], s["verdict"]) == ("suggested", verdict), s


def test_arithmetic_without_words_is_still_checked(scan_text):
    (s,) = scan_text("So 32 * 32 = 1024 vectors per token.", "doc.md")["statements"]
    assert (s["status"], s["verdict"]) == ("checked", "true"), s


@pytest.mark.parametrize("text, verdict", [
    ("Mixtral 8x22B supports a context window size of 64K tokens.", "true"),
    ("Mixtral 8x22B has a context window size of 65,536 tokens.", "true"),
    ("Mixtral 8x22B has a context window size of 32K tokens.", "false"),  # mutant
])
def test_a_context_window_size_is_the_context(scan_text, text, verdict):
    # "size of" after a cache or a memory is an amount (`words.INPUT_AMOUNT`); after
    # "context window" it is the field's own noun
    (s,) = scan_text(text, "doc.md")["statements"]
    assert s["verdict"] == verdict and s["status"] in ("checked", "suggested"), s


def test_the_cache_size_of_an_amount_of_tokens_is_still_no_context(scan_text):
    (s,) = scan_text("For Mixtral 8x22B, the cache size of 1K tokens is small.",
                     "doc.md")["statements"]
    assert "context(" not in (s.get("claim") or ""), s
