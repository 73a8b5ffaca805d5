"""KV-cache figures stated for an attention form (docs/architecture.md §5.2, charitable reading and
binding): "with MHA" of a model with grouped KV heads is the same model with kv_heads =
heads, a hypothetical read as 2·layers·heads·head_dim·bytes per token and never `checked`;
a form that is the model's own is its real cache; an attention form bound to a byte
figure says the figure is the cache (a reading to confirm); GQA of a model without
grouped heads (group count unstated) is not read.

Llama 2 70B: 80 layers, 64 heads, 8 KV heads, head_dim 128. At 2 bytes a token: MHA
2·80·64·128·2 = 2,621,440 B (2.5 MiB), GQA 327,680 B (320 KiB), MQA 40,960 B (40 KiB).
Llama 2 7B (MHA, 32 layers, 32 heads, 128): 2·32·32·128·2 = 524,288 B (512 KiB)."""

import pytest


def _one(scan_text, text):
    rows = [r for r in scan_text(text)["statements"] if r["text"].strip()]
    assert len(rows) == 1, rows
    return rows[0]


@pytest.mark.parametrize("text", [
    "Llama 2 70B with MHA would need about 2.5 MB of memory per token in fp16.",
    "With MHA, the KV cache of Llama 2 70B in fp16 is 2.5 MiB per token.",
    "Llama 2 70B with multi-head attention would need 336 MB of KV cache for 128 tokens "
    "in fp16.",
    "With MQA, Llama 2 70B would need 40 KB of KV cache per token in fp16.",
])
def test_a_hypothetical_form_is_read_as_that_model_and_only_suggested(scan_text, text):
    r = _one(scan_text, text)
    assert (r["status"], r["verdict"]) == ("suggested", "true"), r
    assert "layers(llama-2-70b)" in r["claim"], r  # the formula, not the model's own cache
    assert "hypothetical" in r["detail"], r


@pytest.mark.parametrize("text", [
    "Llama 2 70B with MHA would need about 523 KB of memory per token in fp16.",  # the doc's
    "With MHA, the KV cache of Llama 2 70B in fp16 is 320 KiB per token.",  # its GQA size
    "Llama 2 70B with MHA requires ~67 GB (FP16) for 128 token context.",
    "With MQA, Llama 2 70B would need 80 KB of KV cache per token in fp16.",
])
def test_a_wrong_figure_for_a_hypothetical_form_is_suggested_false(scan_text, text):
    r = _one(scan_text, text)
    assert (r["status"], r["verdict"]) == ("suggested", "false"), r


def test_a_form_that_is_the_models_own_reads_its_real_cache(scan_text):
    r = _one(scan_text, "Llama 2 7B with MHA needs 512 KiB of KV cache per token in fp16.")
    assert (r["status"], r["verdict"]) == ("checked", "true"), r
    assert "kv_cache_bytes(llama-2-7b, 1, dtype=fp16)" in r["claim"], r
    r = _one(scan_text, "Llama 2 7B with MHA needs 64 KiB of KV cache per token in fp16.")
    assert (r["status"], r["verdict"]) == ("checked", "false"), r


def test_a_form_without_a_cache_word_is_read_as_the_cache_only_suggested(scan_text):
    r = _one(scan_text, "Llama 2 70B with GQA needs 320 KB of memory per token in fp16.")
    assert (r["status"], r["verdict"]) == ("suggested", "true"), r
    assert "kv_cache_bytes(llama-2-70b, 1, dtype=fp16)" in r["claim"], r
    r = _one(scan_text, "Llama 2 70B with GQA needs 65 KB of memory per token in fp16.")
    assert (r["status"], r["verdict"]) == ("suggested", "false"), r


@pytest.mark.parametrize("text", [
    "Llama 2 7B with GQA would need 64 KB of KV cache per token in fp16.",  # groups unstated
    "Llama 2 70B needs 65 KB of memory per token.",  # no cache word, no form: not the cache
])
def test_what_cannot_be_read_is_not_given_a_verdict(scan_text, text):
    r = _one(scan_text, text)
    assert r["verdict"] is None or ("kv_cache" not in (r["claim"] or "") and \
        "layers(" not in (r["claim"] or "")), r


def test_a_per_token_list_under_a_model_heading_reads_each_form(scan_text):
    doc = ("## Example: Llama 2 70B\n\n- Memory per Token (MHA): ~2.5 MB\n"
           "- Memory per Token (GQA): ~65 KB\n")
    got = {r["text"].strip(): r for r in scan_text(doc)["statements"]}
    mha, gqa = got["Memory per Token (MHA): ~2.5 MB"], got["Memory per Token (GQA): ~65 KB"]
    assert (mha["status"], mha["verdict"]) == ("suggested", "true"), mha
    assert (gqa["status"], gqa["verdict"]) == ("suggested", "false"), gqa


@pytest.mark.parametrize("per", ["per sequence", "for one request", "per user"])
def test_a_cache_said_of_one_sequence_takes_no_batch_named_after_it(scan_text, per):
    # 2·80·8·128·4096·2 bytes = 1.25 GiB for one sequence of Llama 2 70B; the batch of 8 is
    # the next figure's
    doc = (f"Llama 2 70B's KV cache at 4096 tokens in fp16 is 1.25 GiB {per}, for a batch of 8 "
           "that is 10 GiB.\n")
    (s,) = scan_text(doc)["statements"]
    assert s["verdict"] == "true" and "batch=8" not in s["claim"], s
