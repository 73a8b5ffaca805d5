"""A memory table under a heading that names one model ("### Mistral 7B VRAM" over
"| FP16 | ~14 GB |") is read as that model's weights at the row's format, a reading to
confirm; a column of what running it takes (VRAM, GPU memory, minimum) is leniently at
least the weights, so more than the weights is never FALSE there, while less is.
Documents written for these tests."""


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
