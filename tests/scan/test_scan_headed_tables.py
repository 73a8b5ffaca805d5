"""A memory table under a heading that names one model ("### Mistral 7B VRAM" over
"| FP16 | ~14 GB |") is read as that model's weights at the row's format, a reading to
confirm; a column of what running it takes (VRAM, GPU memory, minimum) is leniently at
least the weights, so more than the weights is never FALSE there, while less is.
Documents written for these tests. Also a column of the bytes one number takes, bound by
its header ("Precision | Bytes" over "INT4 | 0.5")."""

import pytest


def _rows(scan_text, text):
    return {s["text"].split(" | ")[0]: (s["status"], s["verdict"])
            for s in scan_text(text)["statements"]}


def test_a_vram_column_under_a_model_heading(scan_text):
    got = _rows(scan_text, "### Mistral 7B VRAM\n\n| Quantization | VRAM | Minimum GPU |\n"
                "|---|---|---|\n| FP16 | ~14 GB | RTX 4080 16GB |\n| FP32 | 34 GB | A100 |\n"
                "| INT8 | 4 GB | RTX 3070 |\n")
    assert got == {"FP16": ("suggested", "true"), "FP32": ("suggested", "true"),
                   "INT8": ("suggested", "false")}, got


def test_a_weights_column_is_the_weights_alone(scan_text):
    got = _rows(scan_text, "### Mistral 7B\n\n| Precision | Weights |\n|---|---|\n"
                "| FP16 | 14.5 GB |\n| FP32 | 34 GB |\n")
    assert got == {"FP16": ("suggested", "true"), "FP32": ("suggested", "false")}, got


def test_a_heading_naming_two_models_gives_the_rows_none(scan_text):
    got = _rows(scan_text, "### Mistral 7B and Llama 2 7B VRAM\n\n| Quantization | VRAM |\n"
                "|---|---|\n| FP16 | 4 GB |\n")
    assert got["FP16"] == ("unchecked", None), got


def test_a_kv_cache_per_token_column(scan_text):
    got = _rows(scan_text, "| Model | KV cache per token (fp16) |\n|---|---|\n"
                "| Llama 2 7B | 512 KiB |\n| Llama 2 70B | 320 KiB |\n| Mistral 7B | 512 KiB |\n")
    assert got == {"Llama 2 7B": ("checked", "true"), "Llama 2 70B": ("checked", "true"),
                   "Mistral 7B": ("checked", "false")}, got


# ---- a column of bytes per number (`formats._bytes_by_header`) --------------------------

_BYTES_TABLE = "| {h0} | {h1} |\n|---|---|\n| FP32 | {a} |\n| INT4 | {b} |\n"


@pytest.mark.parametrize("h1", ["Bytes", "Bytes/param", "Bytes per parameter", "bytes"])
def test_a_bytes_column_binds_the_size_of_the_rows_format(scan_text, h1):
    got = {s["line"]: s for s in scan_text(_BYTES_TABLE.format(h0="Precision", h1=h1, a="4",
                                                                 b="0.5"))["statements"]}
    assert got[3]["status"] == "checked" and got[3]["claim"] == "bytes(fp32) == 4", got
    assert got[4]["status"] == "checked" and got[4]["verdict"] == "true", got


def test_a_wrong_size_in_a_bytes_column_is_false(scan_text):
    got = {s["line"]: s for s in scan_text(_BYTES_TABLE.format(h0="Precision", h1="Bytes",
                                                                 a="4", b="1"))["statements"]}
    assert got[4]["status"] == "checked" and got[4]["verdict"] == "false", got


@pytest.mark.parametrize("row", ["| Q4_K_M | 0.56 |", "| FP16 + FP32 master | 6 |",
                                 "| FP16 | ~2 |"])
def test_a_row_of_no_one_sized_format_or_a_hedged_size_is_not_bound(scan_text, row):
    doc = "| Precision | Bytes |\n|---|---|\n" + row + "\n"
    got = scan_text(doc)["statements"]
    assert not any(s["status"] == "checked" for s in got), got


def test_a_korean_header_is_glossed(scan_text):
    doc = "| 정밀도 | 바이트 |\n|---|---|\n| FP16 | 2 |\n| INT8 | 1 |\n"
    got = scan_text(doc)["statements"]
    assert [s["verdict"] for s in got] == ["true", "true"], got
    assert all(s["status"] in ("checked", "suggested") for s in got), got


def test_a_column_headed_ffn_is_the_ffn_width(scan_text):
    # `rows._WIDTH_HEADER`: "FFN", "MLP", "Intermediate" over a plain integer is d_ff; over
    # a scaled figure ("135M") it is the FFN's parameters, no width
    got = {s["text"]: s for s in scan_text(
        "| Model | Layers | FFN |\n|---|---|---|\n| Llama 2 7B | 32 | 11008 |\n"
        "| Llama 2 13B | 40 | 14336 |\n| Llama 2 70B | 80 | 135M |\n", "doc.md")["statements"]}
    assert got["Llama 2 7B | 32 | 11008"]["verdict"] == "true"
    assert got["Llama 2 7B | 32 | 11008"]["status"] == "checked"
    assert got["Llama 2 13B | 40 | 14336"]["verdict"] == "false"  # mutant: 13824
    assert "d_ff" not in (got["Llama 2 70B | 80 | 135M"].get("claim") or "")


@pytest.mark.parametrize("text, claim", [
    ("Llama 2 7B has 32 heads of dimension 128.", "head_dim(llama-2-7b) == 128"),
    ("Mistral 7B has 32 layers, 4096 hidden, 14336 FFN and 8 KV heads.",
     "d_ff(mistral-7b) == 14336"),
])
def test_bare_field_words_after_a_figure(scan_text, text, claim):
    (s,) = scan_text(text, "doc.md")["statements"]
    assert claim in s["claim"] and s["verdict"] == "true", s


def test_bare_field_words_catch_a_wrong_figure(scan_text):
    (s,) = scan_text("Mistral 7B has 32 layers, 4096 hidden, 11008 FFN and 8 KV heads.",
                     "doc.md")["statements"]
    assert s["verdict"] == "false", s  # mutant: Llama 2 7B's width
