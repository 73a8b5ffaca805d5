"""Weights memory by number format where a table or a list lays it out (`scan/formats.py`):
a row's size cell times the format its column header (or a format cell) names, a line led
by a format for the count named before it, bytes under a "Bytes/Param" header, bits per
value. Sentences written for these tests, not taken from the corpus."""


def _by_text(result):
    return {s["text"]: (s["status"], s["verdict"]) for s in result["statements"]}


TABLE_BY_HEADER = """\
| Parameters | FP16 weights | INT8 | INT4 |
|---|---|---|---|
| 3B | ~6GB | ~3GB | ~1.5GB |
| 20B | ~40GB | ~20GB | ~10GB |
| 20B | ~90GB | ~20GB | ~10GB |
"""


def test_a_size_cell_times_the_format_its_column_header_names(scan_text):
    got = _by_text(scan_text(TABLE_BY_HEADER))
    assert got["3B | ~6GB | ~3GB | ~1.5GB"] == ("checked", "true")
    assert got["20B | ~40GB | ~20GB | ~10GB"] == ("checked", "true")
    # 20B at two bytes is 40 GB; no reading of 20B (19.5B..20.5B) gives 90 GB
    assert got["20B | ~90GB | ~20GB | ~10GB"] == ("checked", "false")


TABLE_BY_CELL = """\
| Model size | Precision | VRAM needed |
|---|---|---|
| 13B | FP16 | 26GB |
| 13B | INT4 | 6.5GB |
| 13B | FP32 | 26GB |
"""


def test_a_format_cell_in_the_row_with_a_runtime_column_is_to_confirm(scan_text):
    got = _by_text(scan_text(TABLE_BY_CELL))
    assert got["13B | FP16 | 26GB"] == ("suggested", "true")
    assert got["13B | INT4 | 6.5GB"] == ("suggested", "true")
    assert got["13B | FP32 | 26GB"] == ("suggested", "false")  # 52 GB at four bytes


def test_rows_that_are_not_weights_read_nothing_here(scan_text):
    kv = ("| Model size | FP16 KV cache |\n|---|---|\n| 13B | 3GB |\n")
    states = ("| Model size | Optimizer states (FP32) |\n|---|---|\n| 13B | 104GB |\n")
    no_size = ("| Backbone | FP16 |\n|---|---|\n| ResNet | 2GB |\n")
    for doc in (kv, states, no_size):
        for s in scan_text(doc)["statements"]:
            assert "bytes(fp" not in (s.get("claim") or ""), (doc, s)


def test_a_format_column_whose_cells_name_a_gpu_is_not_a_weights_figure(scan_text):
    doc = ("| Model size | FP16 | Fits on |\n|---|---|---|\n| 7B | 14GB | L40S 48GB |\n")
    (row,) = [s for s in scan_text(doc)["statements"] if s["text"].startswith("7B")]
    assert "48000000000" not in (row.get("claim") or ""), row


LIST_UNDER_SIZE_HEADINGS = """\
# Weights at a glance

## 2b

- fp16: 3.7gb
- 8bit: 1.9gb
- int4: 9gb

## 12b

- bf16: 22gb
"""


def test_a_line_led_by_a_format_reads_the_count_its_heading_names(scan_text):
    got = _by_text(scan_text(LIST_UNDER_SIZE_HEADINGS))
    assert got["fp16: 3.7gb"] == ("suggested", "true")   # 4e9 bytes = 3.73 GiB
    assert got["8bit: 1.9gb"] == ("suggested", "true")
    assert got["int4: 9gb"] == ("suggested", "false")    # 1 GB at half a byte, not 9
    assert got["bf16: 22gb"] == ("suggested", "true")    # 24e9 bytes = 22.4 GiB


def test_a_line_with_no_count_before_it_reads_nothing(scan_text):
    doc = "# Formats\n\n- fp16: 3.7gb\n- int8: 1.9gb\n"
    for s in scan_text(doc)["statements"]:
        assert s["status"] == "unchecked" or "bytes(" not in (s.get("claim") or ""), s


def test_a_line_led_by_a_format_that_speaks_of_the_cache_reads_no_weights(scan_text):
    doc = "## 8b\n\n- fp16 KV cache: 1gb\n"
    for s in scan_text(doc)["statements"]:
        assert "8000000000" not in (s.get("claim") or ""), s


def test_bytes_under_a_bytes_per_parameter_header(scan_text):
    doc = ("| Format | Bytes/Param | Notes |\n|---|---|---|\n| FP32 | 4 | x |\n"
           "| INT8 | 2 | y |\n")
    got = _by_text(scan_text(doc))
    assert got["FP32 | 4 | x"] == ("checked", "true")
    assert got["INT8 | 2 | y"] == ("checked", "false")


def test_bits_per_value_after_a_format():
    from ffnverify.scan.read import reading
    r = reading("BF16 16 bits / value")
    assert [p.strict for p in r.parts] == ["8 * bytes(bf16) == 16"]
    r = reading("INT4 8 bits per value")
    assert [p.strict for p in r.parts] == ["8 * bytes(int4) == 8"]
    r = reading("INT4 is used for 8 bits / value")  # the figure does not follow the format
    assert r is None or not any("bytes(int4)" in p.strict for p in r.parts)


def test_a_heading_that_is_only_a_size_carries_it():
    from ffnverify.scan.carried import size_only
    assert size_only("70b") == ["70B"]
    assert size_only("7B") == ["7B"]
    assert size_only("350m") == ["350M"]
    assert size_only("Results for 7B") == []
    assert size_only("2024") == []


def test_lower_case_byte_units_in_these_readers():
    from ffnverify.scan.formats import byte_figures
    from ffnverify.scan.numbers import tokens
    text = "fp16: 1.8gb and 512 mib"
    toks = byte_figures(tokens(text), text)
    nums = [t for t in toks if t.kind == "NUM"]
    assert [(t.scale, t.value) for t in nums] == [("bytes", 1_800_000_000),
                                                   ("bytes", 512 * 2**20)]
    text = "16 gbps"  # a rate, not a byte figure
    assert all(t.scale != "bytes" for t in byte_figures(tokens(text), text))


MODEL_ROWS = """\
| Model | FP16 weights | INT8 |
|---|---|---|
| Llama 2 13B | 26 GB | 13 GB |
| Llama 2 13B | 13 GB | 13 GB |
"""


def test_a_named_models_row_under_format_headers(scan_text):
    got = [(s["status"], s["verdict"], s.get("claim") or "")
           for s in scan_text(MODEL_ROWS)["statements"] if s["text"].startswith("Llama")]
    assert got[0][:2] == ("checked", "true"), got
    assert "weight_bytes(llama-2-13b, dtype=fp16)" in got[0][2], got
    assert got[1][:2] == ("checked", "false"), got  # 13.0B × 2 bytes is 26 GB, not 13


def test_a_byte_figure_under_weights_is_no_parameter_count(scan_text):
    doc = "| Model | Weights |\n|---|---|\n| Llama 2 7B | 13.5 GB |\n"
    for s in scan_text(doc)["statements"]:
        assert "params_total" not in (s.get("claim") or ""), s


def test_a_model_named_around_the_table_is_not_the_rows(scan_text):
    doc = ("# Llama 2 13B\n\n| Setting | FP16 weights |\n|---|---|\n| default | 13 GB |\n")
    for s in scan_text(doc)["statements"]:
        assert not (s["status"] == "checked" and s["verdict"] == "false"), s
