"""Memory and MoE statements real documents make (docs/architecture.md §5.2): weights memory at a count the
text before names (a reading to confirm), bytes per parameter stated as copies, a byte
figure explained by the product after it or the pieces it is split into, a KV cache in a
document about the KV cache, MoE totals and experts per token. Each rule has a right input
it must read right, wrong inputs (mutants) it must flag, and hostile inputs it must not
read."""

import pytest


def _by_text(scan_text, doc):
    return {r["text"]: r for r in scan_text(doc)["statements"]}


def _verdict(row):
    return row["status"], row["verdict"]


# ---- weights memory at a count named before the unit --------------------------------

CHAIN = ("Full-precision (FP32) weights for a 7B model consume roughly 28 GB of memory. "
         "BF16 halves that to ~{bf16} GB. INT8 takes it to ~{int8} GB.\n")


def test_a_count_from_the_sentence_before_reads_the_next_figures_as_suggested(scan_text):
    got = _by_text(scan_text, CHAIN.format(bf16=14, int8=7))
    assert _verdict(got["BF16 halves that to ~14 GB."]) == ("suggested", "true")
    assert "7000000000 * bytes(bf16)" in got["BF16 halves that to ~14 GB."]["claim"]
    assert "named before it" in got["BF16 halves that to ~14 GB."]["detail"]
    assert _verdict(got["INT8 takes it to ~7 GB."]) == ("suggested", "true")


@pytest.mark.parametrize("bf16, int8", [(25, 7), (14, 12)])
def test_a_wrong_figure_at_a_carried_count_is_suggested_false(scan_text, bf16, int8):
    got = _by_text(scan_text, CHAIN.format(bf16=bf16, int8=int8))
    wrong = f"BF16 halves that to ~{bf16} GB." if bf16 != 14 else f"INT8 takes it to ~{int8} GB."
    assert _verdict(got[wrong]) == ("suggested", "false")


def test_a_count_from_the_heading_reads_list_items_under_it(scan_text):
    doc = ("## VRAM for fine-tuning a 7B model\n\n- FP32: ~28GB\n- FP16: ~25GB\n")
    got = _by_text(scan_text, doc)
    assert _verdict(got["FP32: ~28GB"]) == ("suggested", "true")
    assert _verdict(got["FP16: ~25GB"]) == ("suggested", "false")


@pytest.mark.parametrize("doc, figure", [
    # two counts before: which model the next sentence speaks of is not clear
    ("A 7B model and a 13B model take 28 GB and 52 GB in FP32. BF16 halves that to 14 GB.\n",
     "BF16 halves that to 14 GB."),
    # the unit gives a size of its own, bound or not
    ("A 7B model in FP32 takes 28 GB.\n\n- 13B: ~26 GB in FP16\n", "13B: ~26 GB in FP16"),
    # a catalogue model named in between forgets the count
    ("A 7B model in FP32 takes 28 GB. Llama 2 13B is larger. BF16 halves that to 9 GB.\n",
     "BF16 halves that to 9 GB."),
    # the dtype is bound to another quantity: the cache, activations, a device, runtime
    ("A 7B model in FP32 takes 28 GB. Its KV cache in FP16 adds 9 GB.\n",
     "Its KV cache in FP16 adds 9 GB."),
    ("A 7B model in FP32 takes 28 GB. Activations in BF16 add 9 GB.\n",
     "Activations in BF16 add 9 GB."),
    ("A 7B model in FP32 takes 28 GB. In FP16 it needs 9 GB of VRAM to run.\n",
     "In FP16 it needs 9 GB of VRAM to run."),
    ("A 7B model in FP32 takes 28 GB. Mixed precision: ~21GB (FP16 + partial FP32 copy)\n",
     "Mixed precision: ~21GB (FP16 + partial FP32 copy)"),
])
def test_a_carried_count_is_not_read_where_the_binding_is_unclear(scan_text, doc, figure):
    row = _by_text(scan_text, doc)[figure]
    assert row["status"] != "checked"
    assert "named before it" not in (row["detail"] or ""), row


def test_a_negated_figure_at_a_carried_count_is_read_as_the_negation(scan_text):
    got = _by_text(scan_text, "A 7B model in FP32 takes 28 GB. BF16 does not cut it to 14 GB.\n")
    row = got["BF16 does not cut it to 14 GB."]
    assert row["status"] != "checked"
    assert row["verdict"] != "true"


def test_a_conditional_at_a_carried_count_is_never_checked(scan_text):
    got = _by_text(scan_text, "A 7B model in FP32 takes 28 GB. If you use INT4, it is 3.5 GB.\n")
    assert got["If you use INT4, it is 3.5 GB."]["status"] != "checked"


def test_a_quantized_format_allows_its_block_scales(scan_text):
    # 7B at 4 bits is 3.5 GB; with scales (Q4_K about 4.5 bits a weight) about 4 GB
    got = _by_text(scan_text, "A 7B model in FP32 takes 28 GB. INT4 takes it to ~4 GB.\n")
    assert _verdict(got["INT4 takes it to ~4 GB."]) == ("suggested", "true")
    got = _by_text(scan_text, "A 7B model in FP32 takes 28 GB. INT4 takes it to ~6 GB.\n")
    assert _verdict(got["INT4 takes it to ~6 GB."]) == ("suggested", "false")


# ---- bytes per parameter stated as copies -------------------------------------------

COPIES = ("## Fine-tuning a 7B model\n\n"
          "- Using AdamW: ~{adam}GB (3 copies at 4 bytes/parameter)\n"
          "- Using 8-bit optimizers: ~{eight}GB (1 FP32 copy + 2 8-bit copies)\n")


def test_copies_at_stated_bytes_are_read_as_written(scan_text):
    got = _by_text(scan_text, COPIES.format(adam=84, eight=42))
    adam = got["Using AdamW: ~84GB (3 copies at 4 bytes/parameter)"]
    assert _verdict(adam) == ("suggested", "true")
    assert "3 * 4" in adam["claim"]
    eight = got["Using 8-bit optimizers: ~42GB (1 FP32 copy + 2 8-bit copies)"]
    assert _verdict(eight) == ("suggested", "true")
    assert "1 * bytes(fp32) + 2 * bytes(int8)" in eight["claim"]


def test_wrong_copies_are_flagged(scan_text):
    got = _by_text(scan_text, COPIES.format(adam=56, eight=28))
    assert _verdict(got["Using AdamW: ~56GB (3 copies at 4 bytes/parameter)"]) == (
        "suggested", "false")
    assert _verdict(got["Using 8-bit optimizers: ~28GB (1 FP32 copy + 2 8-bit copies)"]) == (
        "suggested", "false")


# ---- a byte figure and the arithmetic given for it ------------------------------------

def test_a_product_in_parentheses_is_read_as_arithmetic_to_confirm(scan_text):
    """Suggested, never checked: a parenthesis is no equals sign (a held-out document's
    parenthesis after a byte figure held something else, a CHECKED verdict wrong)."""
    got = _by_text(scan_text, "- Full precision (FP32): ~28GB (7B x 4 bytes)\n")
    assert _verdict(got["Full precision (FP32): ~28GB (7B x 4 bytes)"]) == ("suggested", "true")


@pytest.mark.parametrize("text", ["Full precision (FP32): ~28GB (7B x 2 bytes)",
                                  "Half precision (FP16): ~28GB (7B x 2 bytes)"])
def test_a_wrong_product_in_parentheses_is_flagged(scan_text, text):
    got = _by_text(scan_text, f"- {text}\n")
    assert got[text]["verdict"] == "false"


@pytest.mark.parametrize("text", ["A 7B model needs ~28GB (2x faster with FP16).",
                                  "It takes ~28GB (see 4 × 7 in the table)."])
def test_parentheses_that_are_no_product_of_bytes_are_not_read_as_one(scan_text, text):
    row = _by_text(scan_text, text + "\n").get(text)
    assert row is None or "product in the parentheses" not in (row["detail"] or "")


def test_pieces_a_figure_is_split_into_are_its_product(scan_text):
    doc = "The request holds 640 MB of KV cache, split into 2048 disjoint 4KB blocks.\n"
    row = _by_text(scan_text, doc)[doc.strip()]
    assert row["verdict"] == "false" and "2048 * 4000" in row["claim"]
    doc = "The request holds 8 MB of KV cache, split into 2048 disjoint 4KB blocks.\n"
    row = _by_text(scan_text, doc)[doc.strip()]
    assert row["verdict"] == "true"


# ---- a KV cache in a document about the KV cache --------------------------------------

KV_DOC = "# KV cache sizes\n\n## After compression\n\n{model} at 128K context (baseline: {gb} GB)\n"


def test_a_figure_at_a_context_in_a_kv_document_is_its_cache_to_confirm(scan_text):
    got = _by_text(scan_text, KV_DOC.format(model="Llama-3-8B", gb=16))
    row = got["Llama-3-8B at 128K context (baseline: 16 GB)"]
    assert _verdict(row) == ("suggested", "true") and "kv_cache_bytes(llama-3-8b" in row["claim"]
    got = _by_text(scan_text, KV_DOC.format(model="Llama-3-70B", gb=160))
    assert _verdict(got["Llama-3-70B at 128K context (baseline: 160 GB)"]) == (
        "suggested", "false")


def test_without_the_topic_or_with_another_quantity_the_figure_is_not_the_cache(scan_text):
    doc = "# Serving notes\n\nLlama-3-70B at 128K context (baseline: 160 GB)\n"
    row = _by_text(scan_text, doc)["Llama-3-70B at 128K context (baseline: 160 GB)"]
    assert "kv_cache_bytes" not in (row["claim"] or "")
    doc = "# KV cache sizes\n\nLlama-3-70B at 128K context needs 160 GB in total, weights included.\n"
    row = _by_text(scan_text, doc)[doc.split("\n\n")[1].strip()]
    assert "kv_cache_bytes" not in (row["claim"] or "")


# ---- MoE: totals and experts per token ------------------------------------------------

@pytest.mark.parametrize("text, verdict", [
    ("Mixtral 8x7B is a transformer with 8 experts (only 2 used at a time).", "true"),
    ("Mixtral 8x7B is a transformer with 8 experts (only 3 used at a time).", "false"),
    ("Mixtral 8x7B has 8 experts, only 2 of them active per token.", "true"),
    ("Mixtral 8x7B routes each token to 2 experts.", "true"),
    ("Mixtral 8x7B routes each token to 4 experts.", "false"),
    ("Mixtral 8x7B (46.7B parameters) has a router that activates two per token.", "true"),
    ("Mixtral 8x7B (46.7B parameters) has a router that activates three per token.", "false"),
    ("Mixtral 8x7B: Total Parameters: 46.7 billion", "true"),
    ("Mixtral 8x7B: Total Parameters: 45 billion", "false"),
    ("Mixtral 8x7B activates 12.9B parameters per token.", "true"),
    ("Mixtral 8x7B activates 46.7B parameters per token.", "false"),
    ("Mixtral 8x7B has 46.7B total parameters but uses only 12.9B per token.", "true"),
    ("Mixtral 8x7B activates only 2 of 8 expert blocks per token.", "true"),  # not layers
    ("Mixtral 8x7B activates only 2 of 16 expert blocks per token.", "false"),
    ("Mixtral 8x7B has 46.7B total parameters but uses only 20B per token.", "false"),
])
def test_moe_statements_are_read_and_checked(scan_text, text, verdict):
    row = _by_text(scan_text, text + "\n")[text]
    assert _verdict(row) == ("checked", verdict), row


@pytest.mark.parametrize("text", [
    "Mixtral 8x7B was trained on a total of 8T tokens.",  # a total of something else
    "Mixtral 8x7B: total training tokens: 8T",
    "If Mixtral 8x7B had 16 experts with 4 active, it would be larger.",  # counterfactual
    "Llama 2 7B and Mixtral 8x7B: 8 experts (2 active).",  # two models
    "Mixtral 8x7B processes 1.2B tokens per token.",  # a count of something else
])
def test_moe_hostile_inputs_are_not_checked(scan_text, text):
    row = _by_text(scan_text, text + "\n").get(text)
    assert row is None or row["status"] != "checked" or row["verdict"] != "false", row
    assert row is None or "params_total(mixtral-8x7b), 8" not in (row["claim"] or "")
    if row is not None and ("two" in text or "If" in text or "and Mixtral" in text):
        assert row["status"] != "checked", row


def test_a_total_without_the_word_is_not_read_as_the_moe_total_of_a_dense_model(scan_text):
    # a dense model's "total parameters" is the fields reader's, not the MoE one: the
    # MoE rule without activity words is only for models the catalogue knows as MoE
    from ffnverify.scan import moe
    from ffnverify.scan.numbers import normalise, tokens
    text = normalise("Llama 2 7B: Total Parameters: 6.7 billion")
    assert moe.parameters(tokens(text), text, ((0, 10, "llama-2-7b"),)) == []
    text = normalise("Mixtral 8x7B: Total Parameters: 45 billion")
    got = moe.parameters(tokens(text), text, ((0, 12, "mixtral-8x7b"),))
    assert [p.strict for p in got] == ["approx(params_total(mixtral-8x7b), 45000000000, "
                                       "abs=500000000)"]


# ---- a compressed KV cache in a table under a paragraph stating model and context -----

COMPRESSED = ("Llama-3-70B at 128K context\n\n| Preset | Compression | KV cache after |\n"
              "|---|---|---|\n| high | 10x | {a} |\n| max | 33x | {b} |\n")


def test_a_compression_column_divides_the_cache_at_the_context_over_the_table(scan_text):
    # 2·80·8·128·131072·2 bytes = 40 GiB: 4 GiB after 10x, 1.21 GiB after 33x
    got = _by_text(scan_text, COMPRESSED.format(a="4 GB", b="1.2 GB"))
    for row in ("high | 10x | 4 GB", "max | 33x | 1.2 GB"):
        assert _verdict(got[row]) == ("suggested", "true"), got[row]
        assert "kv_cache_bytes(llama-3-70b, 131072" in got[row]["claim"] or \
            "kv_cache_bytes(llama-3-70b, 128000" in got[row]["claim"]
        assert "stated over the table" in got[row]["detail"]


def test_a_wrong_compressed_cache_is_suggested_false(scan_text):
    got = _by_text(scan_text, COMPRESSED.format(a="16 GB", b="4.8 GB"))
    for row in ("high | 10x | 16 GB", "max | 33x | 4.8 GB"):
        assert _verdict(got[row]) == ("suggested", "false"), got[row]


def test_without_a_context_over_the_table_a_compressed_row_is_not_read(scan_text):
    doc = COMPRESSED.format(a="16 GB", b="4.8 GB").replace(" at 128K context", "")
    got = _by_text(scan_text, doc)
    for row in got.values():
        assert "kv_cache_bytes" not in (row["claim"] or ""), row


def test_a_context_two_paragraphs_up_or_after_a_heading_is_not_carried(scan_text):
    doc = COMPRESSED.format(a="16 GB", b="4.8 GB").replace(
        "context\n\n|", "context\n\n## Results for Llama-3-70B\n\n|")
    got = _by_text(scan_text, doc)
    assert all("stated over the table" not in (r["detail"] or "") for r in got.values())


def test_a_ratio_that_is_no_compression_does_not_divide(scan_text):
    from ffnverify.scan.memory import compressions
    from ffnverify.scan.numbers import normalise, tokens
    for text, about, want in [("10x compression gives 1.6 GB", "", [0]),
                              ("compressed 4× to 4 GB", "", [1]),
                              ("high | 10x | 1.6 GB", "Preset | Compression | KV cache", [2]),
                              ("high | 10x | 1.6 GB", "Preset | Speedup | KV cache", []),
                              ("it is 10x faster at 1.6 GB", "", [])]:
        clean = normalise(text)
        toks = tokens(clean)
        assert [i for _, i in compressions(toks, clean, about)] == want, text


@pytest.mark.parametrize("row, verdict", [("8 total · 2 active", "true"),
                                          ("8 total · 4 active", "false"),
                                          ("16 total · 2 active", "false")])
def test_an_experts_row_under_the_models_heading_is_read_to_confirm(scan_text, row, verdict):
    doc = f"# Mixtral 8x7B\n\n| Field | Value |\n|---|---|\n| Experts | {row} |\n"
    got = _by_text(scan_text, doc)[f"Experts | {row}"]
    assert _verdict(got) == ("suggested", verdict), got
    assert "active_experts(mixtral-8x7b)" in got["claim"]


@pytest.mark.parametrize("text", ["Mixtral 8x7B: tokens are 8 total, 2 active.",
                                  "Mixtral 8x7B: experts are 8 total, 12 active.",
                                  "Mixtral 8x7B: experts are 8 total, 2 active, 4 active."])
def test_totals_that_are_no_experts_or_are_unclear_are_not_read_as_experts(scan_text, text):
    row = _by_text(scan_text, text + "\n").get(text)
    assert row is None or "active_experts" not in (row["claim"] or ""), row


# ---- a named model's weights at the dtype glued to each figure ------------------------

def test_sizes_with_their_dtype_in_parentheses_are_read_to_confirm(scan_text):
    # Llama 2 7B: 6,738,415,616 parameters; 13.5 GB at 16 bits, 6.7 GB at 8, 3.4 GB at 4
    # (3.9 GB holds with the block scales of a 4-bit format)
    text = "Llama 2 7B: 13.5 GB (fp16), 6.7 GB (int8), 3.9 GB (int4)."
    row = _by_text(scan_text, text + "\n")[text]
    assert _verdict(row) == ("suggested", "true"), row
    text = "Llama 2 7B: 13.5 GB (fp16), 9 GB (int8)."
    assert _verdict(_by_text(scan_text, text + "\n")[text]) == ("suggested", "false")


@pytest.mark.parametrize("text", ["Llama 2 7B runs on a 24 GB GPU (fp16).",
                                  "Llama 2 7B: 2 GB (fp16) of activations.",
                                  "Llama 2 7B: 20 GB (fp16) with the overhead in practice."])
def test_a_glued_dtype_does_not_make_a_device_or_another_quantity_the_weights(scan_text, text):
    row = _by_text(scan_text, text + "\n").get(text)
    claim = (row or {}).get("claim") or ""
    # a device it runs on bounds the weights (`<=`), never equals them
    assert "weight_bytes" not in claim or ("<=" in claim and "approx" not in claim), row


def test_memory_of_a_gpu_is_an_amount_not_a_device(scan_text):
    text = "Mistral 7B in bfloat16 occupies 14.5 GB of GPU memory."
    row = _by_text(scan_text, text + "\n")[text]
    assert _verdict(row) == ("checked", "true"), row
    text = "Mistral 7B in bfloat16 occupies 10 GB of GPU memory."
    assert _verdict(_by_text(scan_text, text + "\n")[text]) == ("checked", "false")


# ---- gradients at a stated dtype, moments as copies -----------------------------------

@pytest.mark.parametrize("text, verdict", [
    ("For a 7B model, gradients in FP32 take another 28 GB.", "true"),
    ("For a 7B model, gradients in FP32 take another 14 GB.", "false"),
    ("For a 7B model, Adam keeps 2 fp32 moments: 56 GB.", "true"),
    ("For a 7B model, Adam keeps 2 fp32 moments: 28 GB.", "false"),
])
def test_gradients_and_moments_at_a_stated_dtype_are_read(scan_text, text, verdict):
    row = _by_text(scan_text, text + "\n")[text]
    assert _verdict(row) == ("checked", verdict), row


@pytest.mark.parametrize("text", [
    "For a 7B model, gradients and optimizer states in FP32 take 84 GB.",  # convention unsaid
    "For a 7B model with LoRA, gradients in FP32 take 40 MB.",  # only the adapters' gradients
    "For a 7B model, activations in bf16 take 10 GB.",
])
def test_state_memory_without_its_convention_is_not_read(scan_text, text):
    row = _by_text(scan_text, text + "\n").get(text)
    assert row is None or row["status"] == "unchecked" or "bytes(" not in (row["claim"] or ""), row


# ---- bytes of a number in the format a column's header names --------------------------

SIZE_TABLE = ("| Component | Size ({fmt}) |\n|---|---|\n| Model weights | {w} bytes × P |\n"
              "| Gradients | {g} bytes × P |\n| Optimiser state | 8 bytes × P |\n")


def test_bytes_under_a_format_header_are_read_for_weights_and_gradients(scan_text):
    got = _by_text(scan_text, SIZE_TABLE.format(fmt="float32", w=4, g=4))
    for row in ("Model weights | 4 bytes × P", "Gradients | 4 bytes × P"):
        assert _verdict(got[row]) == ("suggested", "true"), got[row]
    # an optimizer's state holds a number of numbers the table does not say: not read
    assert "bytes(fp32)" not in (got["Optimiser state | 8 bytes × P"]["claim"] or "")


def test_wrong_bytes_under_a_format_header_are_flagged(scan_text):
    got = _by_text(scan_text, SIZE_TABLE.format(fmt="bf16", w=4, g=2))
    assert _verdict(got["Model weights | 4 bytes × P"]) == ("suggested", "false")
    assert _verdict(got["Gradients | 2 bytes × P"]) == ("suggested", "true")


def test_a_mixed_precision_header_binds_no_one_format(scan_text):
    got = _by_text(scan_text, SIZE_TABLE.format(fmt="bf16 mixed precision", w=2, g=4))
    assert "bytes(bf16)" not in (got["Gradients | 4 bytes × P"]["claim"] or "")
