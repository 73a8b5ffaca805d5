"""Which units the scan lists as statements, by family (found on the A halves of fresh/,
fresh2/ and fresh3/, tests/scan/corpus_v3/README.md; the sentences here are written for
these tests): a table's header row names its columns and is no statement; a plain-text
line of figures under a line ending in a figure is a row of its own; a footnote mark
opens no statement; a paragraph set as lines of figures is one statement per line; a
fraction or a multiple in words about a model quantity is a statement. Each family has
its negative cases: what must not be listed, or not be cut."""

from ffnverify.scan.detect import is_statement


def _texts(result):
    return [(s["line"], s["text"]) for s in result["statements"]]


# ---- a table's header row ----------------------------------------------------------------

def test_a_header_row_with_sizes_is_no_statement(scan_text):
    doc = ("| Context | 8B model | 70B model |\n|---|---|---|\n"
           "| 4K tokens | 0.5 GB | 1.25 GB |\n| 32K tokens | 4 GB | 10 GB |\n")
    got = _texts(scan_text(doc))
    assert [line for line, _ in got] == [3, 4], got


def test_a_header_row_naming_a_card_is_no_statement(scan_text):
    doc = ("| Precision | Bytes per weight | Fits a 24GB card? |\n|---|---|---|\n"
           "| FP16 | 2 | no |\n| INT4 | 0.5 | yes |\n")
    got = _texts(scan_text(doc))
    assert all(line != 1 for line, _ in got), got


def test_a_table_of_one_row_is_still_a_row(scan_text):
    doc = "| Llama 2 7B has 32 layers and 4096 hidden units |\n|---|\n"
    got = _texts(scan_text(doc))
    assert [line for line, _ in got] == [1], got


def test_html_header_row_is_no_statement(scan_text):
    doc = ("<table><thead><tr><th>Model</th><th>1k tokens</th><th>16k tokens</th></tr>"
           "</thead>\n<tbody><tr><td>Llama 2 7B</td><td>0.5 GB</td><td>8 GB</td></tr>"
           "</tbody></table>\n")
    got = _texts(scan_text(doc, name="t.html"))
    assert len(got) == 1 and got[0][1].startswith("Llama 2 7B"), got


# ---- plain text: a line of figures is a row --------------------------------------------

def test_lines_of_figures_under_a_figure_are_rows(scan_text):
    doc = ("Family Source Params Context Tokens\n"
           "Model A first release 7B 2k 1.0T\n"
           "13B 2k 1.0T\n"
           "30B 2k 1.4T\n")
    got = _texts(scan_text(doc, name="t.txt"))
    assert [line for line, _ in got] == [2, 3, 4], got
    assert got[1][1] == "13B 2k 1.0T"


def test_a_wrapped_sentence_still_goes_on(scan_text):
    doc = "The model has a total of\n7 billion parameters and 32 layers.\n"
    got = _texts(scan_text(doc, name="t.txt"))
    assert len(got) == 1 and got[0][0] == 1, got


def test_a_formula_wrapped_after_an_operator_goes_on(scan_text):
    doc = "Its FFN holds 3 × 4096 ×\n11008 = 135M parameters per layer.\n"
    got = _texts(scan_text(doc, name="t.txt"))
    assert len(got) == 1, got


def test_a_line_of_words_and_figures_under_a_figure_goes_on(scan_text):
    doc = "The layer count is 32\n80 for the largest model, with 8 KV heads.\n"
    got = _texts(scan_text(doc, name="t.txt"))
    assert len(got) == 1, got


# ---- a footnote mark ------------------------------------------------------------------------

def test_a_footnote_mark_opens_no_statement(scan_text):
    doc = "† The vocabulary has 32000 entries, of which 31990 are used.\n"
    got = scan_text(doc, name="t.txt")["statements"]
    assert got[0]["text"].startswith("The vocabulary"), got
    assert got[0]["col"] == 3


def test_a_dagger_inside_a_sentence_stays(scan_text):
    doc = "The 7B model† has 32 layers.\n"
    got = scan_text(doc, name="t.txt")["statements"]
    assert got[0]["text"] == "The 7B model† has 32 layers.", got


# ---- a paragraph set as lines of figures ------------------------------------------------------

def test_lines_that_each_end_in_a_figure_are_statements(scan_text):
    doc = ("Per layer the counts are:\n\n"
           "Attention weights per layer: 4 x 5120 x 5120\n"
           "MLP weights per layer: 3 x 5120 x 13824\n"
           "40 layers, vocab size 32000\n")
    got = _texts(scan_text(doc))
    assert [line for line, _ in got] == [3, 4, 5], got


def test_a_card_line_after_a_size_is_its_own(scan_text):
    doc = "INT8 8 bits / value\n~70 GB\nHalf the memory FP16 needs, 140 GB\n"
    got = _texts(scan_text(doc))
    assert [line for line, _ in got] == [1, 3], got


def test_wrapped_prose_is_not_cut_at_a_line_end(scan_text):
    doc = ("The model keeps 8 KV heads where the original keeps\n"
           "64 query heads, and its FFN width is 28672\n"
           "which is 3.5 times 8192.\n")
    got = _texts(scan_text(doc))
    assert len(got) == 1, got


def test_a_spec_written_one_setting_a_line_stays_one(scan_text):
    doc = "The base model:\n\nL = 12\nA = 12\nH = 768\n"
    got = _texts(scan_text(doc))
    assert [line for line, _ in got] == [3], got


def test_a_line_ending_in_a_figure_before_prose_goes_on(scan_text):
    doc = "It was trained on 2T tokens over 2048\nGPUs for about three weeks.\n"
    got = _texts(scan_text(doc))
    assert len(got) == 1, got


# ---- fractions and multiples in words --------------------------------------------------------

def test_fractions_and_multiples_in_words_about_a_model_are_statements():
    assert is_statement("Two-thirds of the block's weights sit in the FFN.")
    assert is_statement("Storing the KV cache in FP8 halves it again.")
    assert is_statement("Half the memory of FP32 is enough for inference.")
    assert is_statement("Each layer holds sixteen separate feed-forward experts.")
    assert is_statement("The router picks two of these experts for every token.")


def test_fractions_and_multiples_in_words_about_nothing_are_not():
    assert not is_statement("Half of the team joined in the spring.")
    assert not is_statement("We doubled our efforts after the review.")
    assert not is_statement("Two of these chapters are optional.")
    assert not is_statement("One of the experts on the panel disagreed.")


def test_a_row_of_scaled_figures_is_a_statement():
    assert is_statement("13B 2k 1.0T")
    assert is_statement("70B 4k 2.0T")


def test_rows_of_plain_numbers_dates_and_versions_are_not():
    assert not is_statement("2023 2024")
    assert not is_statement("10 20 30")
    assert not is_statement("1.2.3")
    assert not is_statement("[12] [13]")
    assert not is_statement("13B")  # one size alone: a name as often as a figure


# ---- a heading that states a figure -------------------------------------------------------

def test_headings_that_state_a_figure():
    from ffnverify.scan.detect import heading_states

    assert heading_states("Where the 350M of our small model goes")
    assert heading_states("The cache estimate is off by ~4x for grouped heads")
    assert heading_states("A mixture of experts with only 3.1B active parameters")
    assert heading_states("1.3b parameter decoder with a long context")  # a size, lower case
    assert heading_states("Why Adam Needs 12 Bytes per Parameter")  # a unit
    assert heading_states("Llama 2 13B: 40 Layers")  # a named model's count


def test_headings_that_are_titles():
    from ffnverify.scan.detect import heading_states

    assert not heading_states("Serving a 13B model on one card")
    assert not heading_states("Example 2: a 7 Billion Parameter Model in FP16")
    assert not heading_states("Running Llama 2 70B on an A100 80GB")
    assert not heading_states("2.3.1 Memory of the KV cache")
    assert not heading_states("Step 4: 32 layers")  # a plain count in a title
    assert not heading_states("Section 3 Layers of the model")
    assert not heading_states("Release notes for 2024")
    assert not heading_states("1.3 Bigger models")


def test_a_heading_with_a_figure_is_listed_and_a_title_is_not(scan_text):
    doc = ("# Serving a 13B model on one card\n\n"
           "## The estimate overcounts the cache by ~8x\n\n"
           "Llama 2 13B has 40 layers.\n")
    got = _texts(scan_text(doc))
    assert [line for line, _ in got] == [3, 5], got


# ---- training, inference, optimizer, throughput and cost words -----------------------------

def test_compute_memory_and_cost_words_make_a_statement():
    assert is_statement("Fine-tuning needs 2–3x more than serving for optimizer states.")
    assert is_statement("The cluster links its nodes at 400 Gbps.")
    assert is_statement("The run took about 1.2 million GPU-hours.")
    assert is_statement("The hardware alone would come to around $25 million.")
    assert is_statement("Inference throughput tops out near 40 tokens a second.")


def test_the_same_words_without_a_figure_of_their_own_are_not():
    assert not is_statement("Training started on March 28.")
    assert not is_statement("See section 4.2 for the training setup.")
    assert not is_statement("The cost model is described in [12].")


# ---- dates and training settings -----------------------------------------------------------

def test_days_of_months_are_dates():
    assert not is_statement("On June 5, the lab released the open-weights model.")
    assert not is_statement("Released | Aug 9, 2024")
    assert not is_statement("The model card was updated on 14 Feb.")
    assert is_statement("On June 5 the lab released a model with 48 layers.")


def test_training_settings_are_no_sizes():
    assert not is_statement("We train with a weight decay of 0.05 and a dropout of 0.1.")
    assert not is_statement("The optimizer uses β1=0.9, β2=0.98 and eps=10^-6.")
    assert not is_statement("A learning rate of 2e-4 with a warmup of 500 steps is used.")
    assert is_statement("A learning rate of 2e-4 is used for the model with 24 layers.")


def test_a_reference_marker_after_a_space_is_no_figure():
    assert not is_statement("The model is described in [12].")
    assert not is_statement("The model family is compared in [3, 4] and [7–9].")
    assert is_statement("The model uses hidden sizes [64, 128] in its two stages.")
    assert is_statement("The model's input has shape [2, 768].")


# ---- a row in a table of statements ---------------------------------------------------------

def test_a_total_row_under_rows_of_counts_is_a_statement(scan_text):
    doc = ("| Part | Formula | Value |\n|---|---|---|\n"
           "| Embedding | V · d | 25.7 M |\n| Attention blocks | L · 4d² | 28.3 M |\n"
           "| Total | | ≈ 54.0 M |\n")
    got = _texts(scan_text(doc))
    assert [line for line, _ in got] == [3, 4, 5], got


def test_rows_of_a_table_that_states_nothing_stay_unlisted(scan_text):
    doc = ("| Item | Value |\n|---|---|\n| Release | 4 M downloads |\n"
           "| Stars | 12 K |\n")
    got = _texts(scan_text(doc))
    assert got == [], got


def test_a_row_with_no_scaled_figure_is_not_carried(scan_text):
    doc = ("| Part | Value |\n|---|---|\n| Attention blocks | 28.3 M |\n"
           "| Revision | 3 |\n")
    got = _texts(scan_text(doc))
    assert [line for line, _ in got] == [3], got


# ---- links, commit hashes, licences, years ----------------------------------------------------

def test_links_hashes_licences_and_years_state_nothing():
    assert not is_statement("The model card is at https://example.org/models/7b-v2/1024.")
    assert not is_statement("Merged model card fix (org/model-3b, commit a3f9c21, card only)")
    assert not is_statement("The decoder model follows Smith et al, 2019[4].")
    assert not is_statement("The model is released under an Apache 2.0 license.")
    assert not is_statement("In early 2024 the lab released its next model.")


def test_figures_beside_links_and_hashes_still_count():
    assert is_statement("See example.org/models for the model's 48 layers.")
    assert is_statement("The 4096dff block of the model is wide.")  # no hash: no digit after a letter
    assert is_statement("The model has 4096 hidden units (commit a3f9c21).")


def test_a_price_unrelated_to_a_model_is_no_statement():
    assert not is_statement("This is a 10-minute read, part 2 of 5, and it costs $0 to join.")
    assert not is_statement("Tickets cost $40 and the venue seats 300 people.")


# ---- a field's name in inline code -------------------------------------------------------

def test_a_field_named_in_inline_code_makes_its_figure_a_statement(scan_text):
    doc = ("The `num_hidden_layers` is 28 here.\n\n"
           "- `n_kv_heads` (4) is below `n_heads` (32)\n\n"
           "Run `pip install accelerate` on 2 machines.\n\n"
           "Call `load(3)` before the second step.\n")
    got = _texts(scan_text(doc))
    assert [line for line, _ in got] == [1, 3], got
    assert all(s["status"] == "unchecked" for s in scan_text(doc)["statements"])


def test_groups_alone_are_no_model_word():
    assert not is_statement("The class was split into two groups for the exam.")


def test_a_fraction_far_from_any_model_word_is_not_a_statement():
    assert not is_statement("Each run starts with cold caches, for the central functions of "
                            "the package, and takes up to half a minute.")
    assert is_statement("Quantizing the KV cache to FP8 halves it.")


def test_only_snake_case_field_names_in_code_count(scan_text):
    doc = ("- `--timeout` (60 by default) turns a `MemoryError` into an error verdict\n\n"
           "- `max_position_embeddings` is 4096 here\n")
    got = _texts(scan_text(doc))
    assert [line for line, _ in got] == [3], got


# ---- a figure-and-noun fragment ends the sentence before it ---------------------------------

def test_a_bare_figure_fragment_stays_with_the_sentence_before(scan_text):
    doc = "Small model: 6 layers, 8 heads, d_model=512. 38M parameters. It trains fast.\n"
    got = _texts(scan_text(doc))
    assert got[0][1] == "Small model: 6 layers, 8 heads, d_model=512. 38M parameters.", got


def test_a_sentence_with_a_verb_after_a_figure_is_its_own(scan_text):
    doc = "The model has 24 layers. 2048 hidden units are used in each.\n"
    got = _texts(scan_text(doc))
    assert [t for _, t in got] == ["The model has 24 layers.",
                                   "2048 hidden units are used in each."], got


def test_a_figure_question_leads_into_its_answer(scan_text):
    doc = "**Why 14,336?** The usual rule puts the FFN at about 3.5x d_model. It is wide.\n"
    got = _texts(scan_text(doc))
    assert got[0][1].startswith("Why 14,336? The usual rule"), got


def test_a_question_with_words_is_its_own_sentence(scan_text):
    doc = "Why is the FFN 4x wider than d_model? It holds 2/3 of the weights.\n"
    got = _texts(scan_text(doc))
    assert [t for _, t in got] == ["Why is the FFN 4x wider than d_model?",
                                   "It holds 2/3 of the weights."], got


def test_a_value_line_ends_its_unit_before_a_capital(scan_text):
    doc = "FP8 8 bits / value\n~70 GB\nHalves the memory of BF16, with little loss\n"
    got = _texts(scan_text(doc))
    assert [line for line, _ in got] == [1, 3], got


def test_a_value_line_before_lower_case_goes_on(scan_text):
    doc = "The weights take\n~70 GB\nin FP8 and twice that in BF16.\n"
    got = _texts(scan_text(doc))
    assert len(got) == 1, got


def test_a_formula_in_inline_code_makes_its_sentence_a_statement(scan_text):
    doc = ("So the attention holds `2h^2+kv_heads/n_heads*2h^2` weights, not `4h^2`.\n\n"
           "See `runs/exp3/config.yaml` and install `torch==2.1` on 2 boxes.\n")
    got = scan_text(doc)["statements"]
    assert [s["line"] for s in got] == [1], got
    assert got[0]["status"] == "unchecked"


def test_a_reading_time_is_no_figure():
    assert not is_statement("The Transformer Block · 12 min")
    assert not is_statement("A 6-minute read on the model's memory")
    assert is_statement("The 7B model trains in 12 min on 8 GPUs.")
    assert is_statement("Training time of the model | 12 min")


def test_a_bit_width_spelling_out_its_dtype_is_a_name():
    assert not is_statement("We use FP16 (16-bit floating point) precision throughout.")
    assert not is_statement("Switch the model to INT8 (8-bit integer) weights.")
    assert is_statement("Each parameter of the model is a 32-bit float.")  # no dtype named
    assert is_statement("INT8 (8-bit) weights take 7 GB for the 7B model.")


# ---- references, enumerations, pull-request headers, greetings ---------------------------

def test_references_enumerations_and_pr_headers_state_nothing():
    assert not is_statement("Fig. 3 | Growth of the KV cache during generation.")
    assert not is_statement("See Eq. 7 for the memory of the model.")
    assert not is_statement("We use: (1) GQA for the cache, (2) paged attention, (3) FP8.")
    assert not is_statement("someone wants to merge 3 commits into main from model-fix")


def test_a_single_parenthesised_figure_is_still_one():
    assert is_statement("n_kv_heads (8) is less than n_heads (64) in the model")
    assert is_statement("The model (2) has 32 layers")


def test_a_greeting_line_opens_no_statement(scan_text):
    doc = "Hi @someone\nwhy is the FFN width of the 7B model 11008, not 11264?\n"
    got = scan_text(doc)["statements"]
    assert [(s["line"], s["text"][:6]) for s in got] == [(2, "why is")], got
