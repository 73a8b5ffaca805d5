"""KV-cache tables whose header gives the context, the batch or the dtype
(`scan/kv_tables.py`), the model a paragraph ending with a colon gives the rows under a
table's header (`structure.introduces`), and a family's row of the size a row's first
cell gives (`read._member`). Sentences written for these tests, not taken from the corpus.

Llama 2 7B: 32 layers × 32 KV heads × 128 = 524,288 bytes a token at 16 bits (0.5 MiB);
Mistral 7B v0.1 (8 KV heads, window 4096): 131,072 bytes a token."""


def _rows(result):
    return {s["text"]: s for s in result["statements"] if " | " in s["text"]}


CONTEXT_IN_HEADER = """\
# Cache sizes

| Model | KV cache at 2k tokens (FP16) | KV cache at 8k tokens (FP16) |
|---|---|---|
| Llama 2 7B | 1 GiB | 4 GiB |
| Llama 2 7B | 1 GiB | 9 GiB |
"""


def test_the_context_a_columns_header_states(scan_text):
    rows = list(_rows(scan_text(CONTEXT_IN_HEADER)).values())
    good, bad = rows[-2], rows[-1]
    assert (good["status"], good["verdict"]) == ("checked", "true"), good
    assert "kv_cache_bytes(llama-2-7b, 8000, dtype=fp16)" in good["claim"] or \
        "kv_cache_bytes(llama-2-7b, 8192, dtype=fp16)" in good["claim"], good
    assert (bad["status"], bad["verdict"]) == ("checked", "false"), bad


BATCH_IN_HEADER = """\
## How the cache grows

Here is the KV cache of Llama 2 7B in FP16:

| Sequence length | 1 user | 4 users |
|---|---|---|
| 2,048 tokens | ~1 GiB | ~4 GiB |
| 4,096 tokens | ~2 GiB | ~3 GiB |
"""


def test_the_batch_a_columns_header_states_and_the_model_over_the_table(scan_text):
    rows = _rows(scan_text(BATCH_IN_HEADER))
    good = rows["2,048 tokens | ~1 GiB | ~4 GiB"]
    assert (good["status"], good["verdict"]) == ("suggested", "true"), good
    assert "batch=4" in good["claim"], good
    bad = rows["4,096 tokens | ~2 GiB | ~3 GiB"]  # 4 users at 4,096 tokens: 8 GiB
    assert (bad["status"], bad["verdict"]) == ("suggested", "false"), bad


def test_the_header_row_is_not_said_of_the_model_over_the_table(scan_text):
    rows = _rows(scan_text(BATCH_IN_HEADER))
    head = rows.get("Sequence length | 1 user | 4 users")
    assert head is None or head["status"] == "unchecked", head


def test_a_paragraph_that_compares_gives_no_model(scan_text):
    doc = BATCH_IN_HEADER.replace("Here is the KV cache of Llama 2 7B in FP16:",
                                  "Here is the KV cache compared with Llama 2 7B in FP16:")
    for s in _rows(scan_text(doc)).values():
        assert "llama-2-7b" not in (s.get("claim") or ""), s


FAMILY_ROWS = """\
# Llama 2 memory notes

The table lists the KV cache in FP16.

| Model Size | 4k tokens |
|---|---|
| 7B | 2 GB |
| 13B | 9 GB |
"""


def test_a_size_row_under_a_family_is_that_familys_row(scan_text):
    rows = _rows(scan_text(FAMILY_ROWS))
    seven = rows["7B | 2 GB"]  # 524,288 × 4,096 = 2 GiB (2.1 GB): 2 GB as GiB
    assert (seven["status"], seven["verdict"]) == ("suggested", "true"), seven
    assert "llama-2-7b" in seven["claim"], seven
    thirteen = rows["13B | 9 GB"]  # 40 layers × 40 heads × 128 × 2 × 2 × 4096 = 3.4 GB
    assert (thirteen["status"], thirteen["verdict"]) == ("suggested", "false"), thirteen


def test_keys_or_values_columns_and_weights_are_not_the_cache(scan_text):
    doc = ("| Model | Context | Keys | Values |\n|---|---|---|---|\n"
           "| Llama 2 7B | 4096 tokens | 1 GiB | 1 GiB |\n")
    for s in _rows(scan_text(doc)).values():
        assert "kv_cache_bytes" not in (s.get("claim") or ""), s
    doc = ("# KV cache notes\n\n| Model | Weights at 4k tokens |\n|---|---|\n"
           "| Llama 2 7B | 13 GB |\n")
    for s in _rows(scan_text(doc)).values():
        assert "kv_cache_bytes" not in (s.get("claim") or ""), s


def test_a_table_about_something_else_reads_no_cache(scan_text):
    doc = ("| Model | Download at 2k tokens/s |\n|---|---|\n| Llama 2 7B | 13 GB |\n")
    for s in _rows(scan_text(doc)).values():
        assert "kv_cache_bytes" not in (s.get("claim") or ""), s


def test_a_sliding_window_is_read_as_either(scan_text):
    doc = ("| Model | KV cache at 32k tokens (BF16) |\n|---|---|\n"
           "| Mistral 7B v0.1 | 0.5 GiB |\n")
    (row,) = [s for s in _rows(scan_text(doc)).values() if s["text"].startswith("Mistral")]
    assert row["verdict"] == "true", row  # 131,072 × 4096 (the window) = 0.5 GiB
