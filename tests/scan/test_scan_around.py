"""What the text around a unit tells the scan (docs/architecture.md §5.2, binding): the model named in the
paragraph just before a table, and the table's header words ("Context | KV cache"), make
a row's figures readable — always as a reading to confirm (`suggested`), never `checked`,
true and false alike."""


def _rows(scan_text, doc):
    return {r["text"]: r for r in scan_text(doc)["statements"]}


KV_TABLE = ("Llama-3-{size} (L={layers}, H=8 KV heads, d=128)\n\n"
            "| Context | KV cache |\n|---|---|\n| 4K tokens | {a} |\n| 128K tokens | {b} |\n")


def test_a_kv_table_under_a_paragraph_naming_the_model_is_read_as_suggested(scan_text):
    got = _rows(scan_text, KV_TABLE.format(size="8B", layers=32, a="0.5 GB", b="16 GB"))
    for row in ("4K tokens | 0.5 GB", "128K tokens | 16 GB"):  # 2·32·8·128·2 bytes/token
        assert (got[row]["status"], got[row]["verdict"]) == ("suggested", "true"), got[row]
        assert "kv_cache_bytes(llama-3-8b" in got[row]["claim"]


def test_a_wrong_kv_table_row_is_suggested_false(scan_text):
    # Llama 3 70B: 80 layers → 2·80·8·128·2 = 327,680 bytes a token; 4K tokens ≈ 1.3 GB
    got = _rows(scan_text, KV_TABLE.format(size="70B", layers=80, a="5 GB", b="160 GB"))
    for row in ("4K tokens | 5 GB", "128K tokens | 160 GB"):
        assert (got[row]["status"], got[row]["verdict"]) == ("suggested", "false"), got[row]


def test_the_lead_model_is_forgotten_after_a_heading_or_a_paragraph_naming_none(scan_text):
    doc = ("Llama-3-8B (L=32, H=8 KV heads, d=128)\n\n## Other\n\n"
           "| Context | KV cache |\n|---|---|\n| 4K tokens | 5 GB |\n\n"
           "Llama-3-8B is small.\n\nSome models are larger.\n\n"
           "| Context | KV cache |\n|---|---|\n| 4K tokens | 7 GB |\n")
    for r in scan_text(doc)["statements"]:
        if "|" in r["text"]:
            assert r["status"] == "unchecked", r  # no model around it: nothing read


def test_sub_items_speak_of_the_model_their_parent_item_names(scan_text):
    doc = ("- Configurations:\n\n    - **GPT2-small**:\n        - \"emb_dim\" = 768\n"
           "        - \"n_layers\" = 12\n\n    - **GPT2-medium:**\n"
           "        - \"n_heads\" = 12\n\n- Other:\n    - \"n_layers\" = 7\n")
    got = [(r["text"], r["status"], r["verdict"]) for r in scan_text(doc)["statements"]]
    assert ('"emb_dim" = 768', "suggested", "true") in got
    assert ('"n_layers" = 12', "suggested", "true") in got
    assert ('"n_heads" = 12', "suggested", "false") in got  # GPT-2 medium has 16 heads
    assert ('"n_layers" = 7', "unchecked", None) in got  # its parent names no model


def test_config_keys_name_their_fields(engine):
    from ffnverify.scan.read import Context, reading

    for text, claim in [('"n_layers" = 12', "layers(gpt2-small) == 12"),
                        ("n_heads: 12", "heads(gpt2-small) == 12"),
                        ("n_embd = 768", "d_model(gpt2-small) == 768"),
                        ('"emb_dim" = 768', "d_model(gpt2-small) == 768")]:
        r = reading(text, Context(), subject="gpt2-small")
        assert [(p.strict, p.sure) for p in r.parts] == [(claim, False)], text
    r = reading('"n_heads" = 13', Context(), subject="gpt2-small")
    assert engine.evaluate(r.parts[0].lenient)["verdict"] == "false"


def test_a_range_of_bytes_is_read_as_its_interval(engine):
    from ffnverify.scan.read import Context, reading

    # Llama 2 7B, 4096 tokens, fp16: 2·32·32·128·2·4096 = 2,147,483,648 bytes (2.1 GB)
    for text, verdict in [("At 4096 tokens in fp16, Llama 2 7B's KV cache takes 1.5–2.5 GB.",
                           "true"),
                          ("At 4096 tokens in fp16, Llama 2 7B's KV cache takes between "
                           "3 GB and 4 GB.", "false"),
                          ("At 4096 tokens in fp16, Llama 2 7B's KV cache takes 2.5–3 GB.",
                           "false")]:
        r = reading(text, Context())
        assert len(r.parts) == 1 and not r.unread, (text, r)
        p = r.parts[0]
        assert "<=" in p.strict, p  # the interval, not its high end alone
        got = {engine.evaluate(p.strict)["verdict"], engine.evaluate(p.lenient)["verdict"]}
        assert got == {verdict}, (text, p)


def test_a_range_of_bytes_never_binds_as_a_parameter_count():
    from ffnverify.scan.read import Context, reading

    r = reading("Llama 2 7B in fp16 weights take 13–14 GB.", Context())
    assert not any("params_total" in p.strict for p in r.parts), r.parts
    assert any("weight_bytes(llama-2-7b" in p.strict and "<=" in p.strict for p in r.parts)


def test_weights_memory_is_read_once_by_the_memory_reader(engine):
    from ffnverify.scan.read import Context, reading

    for text, verdict in [("6.74 billion parameters in bf16 take about 13.5 GB", "true"),
                          ("6.74 billion parameters in bf16 take about 27 GB", "false")]:
        r = reading(text, Context())
        weights = [p for p in r.parts if "6740000000" in p.strict]
        assert len(weights) == 1 and weights[0].sure, r.parts  # one reader, one part
        assert engine.evaluate(weights[0].lenient)["verdict"] == verdict


def test_a_statement_whose_only_number_is_spelled_out_is_found(scan_text):
    from ffnverify.scan.detect import is_statement

    for text in ("Llama 2 70B has eighty layers.", "BERT-large has twice as many layers "
                 "as BERT-base.", "Mixtral 8x7B routes each token to a quarter of its experts."):
        assert is_statement(text), text
    for text in ("We tried two ideas.", "This is one of the best things.", "Twice a day."):
        assert not is_statement(text), text
    got = {r["text"]: r for r in scan_text("Llama 2 70B has eighty layers.\n\n"
                                           "Llama 2 7B has eighty layers.\n")["statements"]}
    assert got["Llama 2 70B has eighty layers."]["verdict"] == "true"
    assert got["Llama 2 7B has eighty layers."]["verdict"] == "false"  # it has 32


def test_a_model_named_for_comparison_or_in_a_list_item_does_not_lead_a_table(scan_text):
    table = "\n\n| Quantity | Value |\n|---|---|\n| layers | 24 |\n"
    for lead in ("* Gemma 2B, for comparison, has 18 layers.",
                 "Gemma 2B has fewer layers than ours.",
                 "We compare with Gemma 2B here."):
        rows = [r for r in scan_text(lead + table)["statements"] if "|" in r["text"]]
        assert [(r["status"], r["verdict"]) for r in rows] == [("unchecked", None)], lead
    rows = [r for r in scan_text("Gemma 2B (our reference)" + table)["statements"]
            if "|" in r["text"]]
    assert [(r["status"], r["verdict"]) for r in rows] == [("suggested", "false")]  # 18


def test_each_additional_token_is_per_token(engine):
    from ffnverify.scan.read import Context, reading

    # Llama 2 70B in fp16: 2·80·8·128·2 = 327,680 bytes a token (320 KiB)
    for text, verdict in [("Each additional token costs about 320 KB of KV cache for "
                           "Llama 2 70B in fp16.", "true"),
                          ("Each generated token costs about 65 KB of KV cache for "
                           "Llama 2 70B in fp16.", "false")]:
        r = reading(text, Context())
        assert [p.strict.split(",")[1].strip() for p in r.parts] == ["1"], r.parts
        assert engine.evaluate(r.parts[0].lenient)["verdict"] == verdict, text


def test_arithmetic_whose_result_is_said_in_words_is_a_reading_to_confirm(engine):
    from ffnverify.scan.read import Context, reading

    cases = [("The matrix is 512 × 64 for the base model, which is 32,768 parameters.", "true"),
             ("That is 4096 × 4096, i.e. 16,777,216 weights.", "true"),
             ("2 × 4096 is about 8.2K tokens.", "true"),
             ("The matrix is 512 × 64, which is 32,769 parameters.", "false"),
             ("3 × 4096 gives 12,289 weights.", "false"),
             ("3 × 4096 gives 12,000 weights.", "suggested")]
    for text, verdict in cases:
        r = reading(text, Context())
        assert r is not None and len(r.parts) == 1 and not r.parts[0].sure, (text, r)
        got = {engine.evaluate(r.parts[0].strict)["verdict"],
               engine.evaluate(r.parts[0].lenient)["verdict"]}
        assert got == ({"true", "false"} if verdict == "suggested" else {verdict}), \
            (text, r.parts[0])  # 12,000: true only as a rounding of 12,288
    for text in ("The ratio is typically 4× (giving 16,384).",  # a ratio, not arithmetic
                 "8 × 7B experts share attention, so the total is 47B.",  # no result link
                 "3 × 4 = 12, which is 12 cells."):  # already `=`: read once, as written
        r = reading(text, Context())
        assert not r or not any("words" in p.reading for p in r.parts), (text, r)


def test_a_paragraph_ending_with_a_colon_introduces_the_next_one(scan_text):
    doc = ("The GPT-3 175B model has reached a unique size:\n\n"
           "nparams = 175B, nlayers = 96, dmodel = 12288, nheads = 96\n\n"
           "Layers: 95\n")
    got = {r["text"]: r for r in scan_text(doc, "a.txt")["statements"]}
    first = got["nparams = 175B, nlayers = 96, dmodel = 12288, nheads = 96"]
    assert (first["status"], first["verdict"]) == ("suggested", "true"), first  # 175B: a name
    assert got["Layers: 95"]["status"] == "unchecked"  # only the next block is introduced
    doc = "The GPT-3 175B model has reached a unique size:\n\nnparams = 175.0B, nlayers = 96\n"
    row = scan_text(doc, "b.txt")["statements"][-1]
    assert (row["status"], row["verdict"]) == ("suggested", "false"), row  # 174.6B
