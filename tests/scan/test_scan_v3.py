"""docs/architecture.md §5.2 (v3): how the scan reads — charitable verdicts, binding, polarity, scope,
identity, wholeness, coverage, tables, inline arithmetic, and the reading shown.

Each rule has sentences that are true, sentences that are false (mutants it must still
catch) and hostile sentences (ones a careless reader would mark CHECKED wrongly). The
status and verdict are the scan's: each part's strict and lenient readings are decided by
the engine and combined by `scan.settle` (statcheck's rule).
"""

import json
from fractions import Fraction

import pytest
from verdicts import case, decide

from ffnverify.claims.files import Claim
from ffnverify.scan import precision, report, suggest
from ffnverify.scan.numbers import tokens
from ffnverify.scan.read import Context, reading

# ---- charitable verdicts: both readings agree, or the statement is only suggested ----

@pytest.mark.parametrize("text,status,verdict", [
    ("8,192 × 8,192 = 67,108,864", "checked", "true"),
    ("8,192 × 8,192 = 67.1M", "checked", "true"),  # a scaled figure states its precision
    ("8,192 × 8,192 = 67.2M", "checked", "false"),  # false at every precision
    ("8,192 × 8,192 = 67,100,000", "suggested", "true"),  # trailing zeros: rounding
    ("8,192 × 8,192 = 67,200,000", "checked", "false"),
    ("3 × 32 = 100", "checked", "false"),  # one significant digit is not a rounding
    ("8/3 × 4096 = 10923", "suggested", "true"),  # 10922.67 rounded
    ("8/3 × 4096 = 10922", "checked", "false"),  # truncated: no rounding gives it
])
def test_figures_at_their_stated_precision(engine, text, status, verdict):
    case(engine, text, status, verdict)


@pytest.mark.parametrize("text,status,verdict", [
    ("Llama 2 70B has ~69B parameters", "checked", "true"),  # 68.98B within ±0.5B
    ("Llama 2 7B has about 6.9B parameters", "suggested", "true"),  # only a hedge's 5%
    ("Llama 2 7B has about 9B parameters", "checked", "false"),  # no reading saves it
    ("Llama 2 7B has roughly 200M parameters per layer", "suggested", "true"),  # 202.4M
    ("Llama 3 70B has ~60B parameters", "checked", "false"),
])
def test_hedges_at_their_looser_tolerance(engine, text, status, verdict):
    case(engine, text, status, verdict)


def test_the_hedge_tolerance_is_the_documented_one():
    t = next(x for x in tokens("about 13.5 GB") if x.kind == "NUM")
    loose = precision.lenient("x", t)
    # 5% of the figure is wider than one unit (0.1 GB); GB is also read as GiB
    assert "approx(x, 13500000000, abs=675000000)" in loose and "14495514624" in loose
    t = next(x for x in tokens("~70B") if x.kind == "NUM")
    assert precision.lenient("x", t) == "approx(x, 70000000000, abs=5000000000)"
    assert precision.strict("x", t) == "approx(x, 70000000000, abs=500000000)"


@pytest.mark.parametrize("text,status,verdict", [
    ("Llama 2 7B has a 4K context window", "checked", "true"),  # 4096 within 4K ± 0.5K
    ("Llama 3.1 8B has a 128K context window", "suggested", "true"),  # only as 128·1024
    ("Llama 3.1 8B has a 64K context window", "checked", "false"),
])
def test_k_in_a_context_length_is_decimal_or_binary(engine, text, status, verdict):
    case(engine, text, status, verdict)


def test_gb_is_read_as_gb_or_gib(engine):
    t = next(x for x in tokens("12.55 GB") if x.kind == "NUM")
    lhs = "weight_bytes(llama-2-7b, dtype=fp16)"  # 13.48e9 bytes = 12.55 GiB
    assert engine.evaluate(precision.strict(lhs, t))["verdict"] == "false"
    assert engine.evaluate(precision.lenient(lhs, t))["verdict"] == "true"
    t = next(x for x in tokens("20 GB") if x.kind == "NUM")
    assert engine.evaluate(precision.lenient(lhs, t))["verdict"] == "false"


@pytest.mark.parametrize("text,status,verdict", [
    ("Llama 2 7B has at least 30 layers", "checked", "true"),
    ("Llama 2 7B has at most 30 layers", "checked", "false"),
    ("Llama 2 7B has no more than 32 layers", "checked", "true"),
    ("Llama 2 7B has fewer than 40 layers", "checked", "true"),
    ("Llama 2 7B has more than 32 layers", "checked", "false"),
    ("Llama 2 7B has over 6B parameters", "checked", "true"),
    ("Llama 2 7B has under 6B parameters", "checked", "false"),
    ("Llama 2 7B has up to 4K tokens of context", "suggested", "true"),  # ≤ 4096 only
])
def test_bound_words_by_their_meaning(engine, text, status, verdict):
    case(engine, text, status, verdict)


@pytest.mark.parametrize("text,status,verdict", [
    ("Llama 2 7B has 30–35 layers", "checked", "true"),
    ("Llama 2 7B has 40–48 layers", "checked", "false"),
    ("Llama 2 7B has between 30 and 35 layers", "checked", "true"),
    ("Llama 2 7B has between 40 and 48 layers", "checked", "false"),
    ("Llama 2 13B has 7–9B parameters", "checked", "false"),
    ("Llama 2 7B has 7–9B parameters", "suggested", "true"),  # 6.74B: only as [6.5, 9.5]
])
def test_ranges_as_intervals(engine, text, status, verdict):
    case(engine, text, status, verdict)


def test_a_size_repeating_the_name_is_a_name(engine):
    # "70B" for Llama 2 70B (68.98B) is its name, not a measurement: never false
    _status, verdict, _, record = decide(engine, "The 70B model, Llama 2 70B, has 70B parameters")
    assert verdict != "false", record
    assert "70B" not in record["unread"]


# ---- binding: through the words attached to a number --------------------------------

@pytest.mark.parametrize("text,status,verdict", [
    ("Llama 2 70B has 80 layers", "checked", "true"),
    ("Llama 2 70B has 8 KV heads", "checked", "true"),
    ("Llama 2 70B has 64 attention heads (with 8 key/value heads)", "checked", "true"),
    ("Llama 2 70B has 64 attention heads (with 16 key/value heads)", "checked", "false"),
    ("Llama 2 70B is a 80-layer model", "checked", "true"),
    ("The layers of Llama 2 7B number 32", "suggested", "true"),  # nearness only
    # nearness only and false: no verdict (a misreading more often than an error; it is
    # named in the detail, `scan.settle`)
    ("The layers of Llama 2 7B number 40", "unchecked", None),
])
def test_binding_by_noun(engine, text, status, verdict):
    case(engine, text, status, verdict)


@pytest.mark.parametrize("text,status,verdict", [
    ("GPT-2 XL has 48 layers while Llama 2 7B has 32 layers", "checked", "true"),
    ("GPT-2 XL has 32 layers while Llama 2 7B has 48 layers", "checked", "false"),
    ("Unlike GPT-2 XL, Llama 2 70B has 80 layers", "checked", "true"),
])
def test_two_models_bind_by_grammar(engine, text, status, verdict):
    case(engine, text, status, verdict)


@pytest.mark.parametrize("text", [
    "Unlike GPT-2 XL, GPT-3 has 96 layers",  # GPT-3 is no row: 96 is not GPT-2 XL's
    "Both Llama 2 7B and Mistral 7B have 40 layers",  # a coordinated subject
    "The architecture is eight Mistral 7B experts, giving 47B total parameters",  # modifier
    "Llama-3-8B at 128K context needs 16 GB of cache",  # a chosen input, not the field
])
def test_hostile_binding_is_never_checked_false(engine, text):
    status, verdict, _, record = decide(engine, text)
    assert not (status == "checked" and verdict == "false"), record
    assert status != "checked" or verdict == "true", record


# ---- polarity ---------------------------------------------------------------------------

@pytest.mark.parametrize("text,verdict", [
    ("Llama 2 7B does not have 40 layers", "true"),
    ("Llama 2 7B doesn't have 32 layers", "false"),
    ("It is not true that Llama 2 7B has 32 layers", "false"),
    ("It is a myth that Llama 2 7B has 40 layers", "true"),
    ("It is a common myth that SwiGLU with 2.67·d saves 33% of the parameters of ReLU "
     "with 4·d", "true"),
    ("Contrary to some posts claiming 40 layers for Llama 2 7B, it is 32", "true"),
])
def test_negation_and_refutation_are_read_as_such_and_only_suggested(engine, text, verdict):
    status, got, claim, record = decide(engine, text)
    assert (status, got) == ("suggested", verdict), record
    assert "not (" in claim


@pytest.mark.parametrize("text", [
    "Does Llama 2 7B have 40 layers?",
    "If Llama 2 7B had 40 layers, it would have 8B parameters.",
    "Suppose a model with 40 layers and 6.7B parameters.",
])
def test_questions_and_conditionals_are_never_checked(engine, text):
    status, _verdict, _, record = decide(engine, text)
    assert status != "checked", record


def test_arithmetic_in_a_conditional_still_holds(engine):
    case(engine, "If d = 4096, then 3 × 4096 = 12288", "checked", "true")
    case(engine, "If d = 4096, then 3 × 4096 = 12289", "checked", "false")


def test_a_negation_outside_the_figures_clause_keeps_the_binding(engine):
    case(engine, "Llama 2 70B has 80 layers, but it does not use biases", "checked", "true")


# ---- scope --------------------------------------------------------------------------

@pytest.mark.parametrize("text,status,verdict", [
    ("Llama 2 7B has 202,383,360 parameters per layer", "checked", "true"),
    ("Llama 2 7B has 6,738,415,616 parameters per layer", "checked", "false"),  # not total
    ("Each Llama 2 7B layer holds 135,266,304 FFN parameters", "checked", "true"),
    ("Mixtral 8x7B has 12.9B active parameters", "checked", "true"),
    ("Mixtral 8x7B has 46.7B active parameters", "checked", "false"),
    ("Mixtral 8x7B has 46.7B parameters", "checked", "true"),
    ("Llama 2 7B's embedding has 131M parameters", "checked", "true"),
    ("Llama 2 7B has 6.48B non-embedding parameters", "suggested", "true"),  # less the head
])
def test_scope_is_compared_with_the_matching_quantity(engine, text, status, verdict):
    case(engine, text, status, verdict)


# ---- identity ---------------------------------------------------------------------------

@pytest.mark.parametrize("text,row", [
    # v0.3 became a row of its own (mistral-7b-v0.3); v0.2 is still a release the
    # catalogue does not hold
    ("Mistral-7B-v0.2 has 32 layers", "mistral-7b"),
    ("Llama 2 7B Chat has 40 layers", "llama-2-7b"),
    ("Code Llama 7B Python has 40 layers", "codellama-7b"),
    ("Qwen2.5-7B-Instruct has 40 layers", "qwen2.5-7b"),
])
def test_a_near_miss_is_unchecked_and_names_the_row(engine, text, row):
    status, _verdict, _, record = decide(engine, text)
    assert status == "unchecked" and row in record["detail"], record


@pytest.mark.parametrize("text,status,verdict", [
    ("Mistral-7B-v0.1 has 32 layers", "checked", "true"),
    ("BERT-base has 12 layers", "checked", "true"),
    ("BERT-base has 24 layers", "checked", "false"),
    ("meta-llama/Llama-2-7b-hf has 32 layers", "checked", "true"),
    # once a near miss of mistral-7b (v0.1); now its own row, read of v0.3 itself
    ("Mistral-7B-v0.3 has 32 layers", "checked", "true"),
    ("Mistral-7B-v0.3 has a vocabulary of 32,768 tokens", "checked", "true"),
    ("Mistral-7B-v0.3 has a vocabulary of 32,000 tokens", "checked", "false"),
    # once a near miss of llama-1-7b; Code Llama has rows now, written as one word or two
    ("Code Llama 7B has 40 layers", "checked", "false"),
    ("Code Llama 7B has a vocabulary of 32,016 tokens", "checked", "true"),
    ("CodeLlama-34B has 48 layers", "checked", "true"),
])
def test_names_from_the_catalogue(engine, text, status, verdict):
    case(engine, text, status, verdict)


# ---- wholeness --------------------------------------------------------------------------

def test_a_partly_read_statement_lists_its_unread_figures(engine):
    text = "Llama 2 70B has 8 KV heads, so at 4096 tokens in bf16 it needs 1 GiB of KV cache"
    status, _verdict, claim, record = decide(engine, text)
    # never CHECKED from kv_heads == 8 alone: either the cache is read too, or it is listed
    assert status != "checked" or "kv_cache" in claim, record
    if status != "checked":
        assert "4096" in record["unread"] and "1 GiB" in record["unread"]
        assert "unread figures: 4096, 1 GiB" in record["detail"]


def test_restated_operands_are_read(engine):
    case(engine, "Attention uses 32 heads of 128, so 32 × 128 = 4096", "checked", "true")


# ---- coverage -----------------------------------------------------------------------------

SENTENCES = "Llama 2 7B has 32 layers. Its FFN is 11008 wide and 3×11008 = 33024.\n"


def _claim(expr, quote="", source=""):
    return Claim("claims.toml", 1, 1, expr, quote=quote, source=source)


def test_a_quote_covers_only_the_whole_statement(scan_text):
    whole = _claim("layers(llama-2-7b) == 32", quote="Llama 2 7B has 32 layers.")
    piece = _claim("layers(llama-2-7b) == 32", quote="Llama 2 7B has 32")
    got = scan_text(SENTENCES, claims=[whole])["statements"]
    assert got[0]["status"] == "covered"
    got = scan_text(SENTENCES, claims=[piece])["statements"]
    assert got[0]["status"] != "covered"


def test_a_source_covers_only_a_statement_whose_figures_it_states(scan_text):
    where = scan_text(SENTENCES, claims=[])["statements"][0]["file"] + ":1"
    states = _claim("layers(llama-2-7b) == 32", source=where)
    other = _claim("d_model(llama-2-7b) == 4096", source=where)
    assert scan_text(SENTENCES, claims=[states])["statements"][0]["status"] == "covered"
    assert scan_text(SENTENCES, claims=[other])["statements"][0]["status"] != "covered"


def test_a_fence_covers_only_the_statements_whose_figures_it_mentions(scan_text):
    doc = SENTENCES + "\n```claim\nlayers(llama-2-7b) == 32\n```\n"
    got = scan_text(doc)["statements"]
    assert got[0]["status"] == "covered"
    assert got[1]["status"] == "checked"  # the fence says nothing of 11008: read instead


# ---- tables ---------------------------------------------------------------------------

def test_the_header_binds_each_column_and_a_size_column_is_a_name(scan_text):
    doc = ("| Model | Size | Layers | Hidden size |\n|---|---|---|---|\n"
           "| Llama 2 70B | 70B | 80 | 8192 |\n| Llama 2 13B | 13B | 48 | 5120 |\n")
    rows = scan_text(doc)["statements"]
    assert (rows[0]["status"], rows[0]["verdict"]) == ("checked", "true")
    assert "70B" not in rows[0]["unread"]
    assert (rows[1]["status"], rows[1]["verdict"]) == ("checked", "false")  # 40 layers


# ---- inline code -------------------------------------------------------------------------

def test_arithmetic_in_inline_code_is_read_and_code_blocks_stay_out(scan_text):
    doc = ("The three projections hold `4096 * 11008 * 3` = 135,266,304 weights.\n\n"
           "A call such as `params(swiglu, 4096, 11008)` is code.\n\n"
           "```\n4096 * 11008 * 3 = 135266305 weights\n```\n")
    got = scan_text(doc)["statements"]
    assert [(r["status"], r["verdict"]) for r in got] == [("checked", "true")]
    assert got[0]["claim"] == "4096 * 11008 * 3 == 135266304"


# ---- the reading is shown ---------------------------------------------------------------

def test_a_suggested_verdict_names_its_reading_and_what_would_make_it_true(engine):
    record = case(engine, "8,192 × 8,192 = 67,100,000", "suggested", "true")
    assert "holds only as approx(8192 * 8192, 67100000, abs=50000)" in record["detail"]
    assert record["claim"] == "approx(8192 * 8192, 67100000, abs=50000)"
    record = case(engine, "Llama 2 7B's KV cache is 3 MB per token.", "suggested", "false")
    assert "it would hold with the figure 524288 (512 KiB)" in record["detail"]
    record = case(engine, "The layers of Llama 2 7B number 40", "unchecked", None)
    assert "nearness only, it would be false" in record["detail"]
    assert "it would hold with the figure 32" in record["detail"]


def test_unread_figures_in_every_format_and_readings_in_suggest(scan_text):
    result = scan_text("Llama 2 70B has 8 KV heads and a 4096-token sliding window.\n")
    r = result["statements"][0]
    assert r["unread"] == ["4096"] and r["status"] == "suggested"
    assert "unread: 4096" in report.text(result)
    sarif = json.loads(report.sarif(result))
    assert sarif["runs"][0]["results"][0]["properties"]["unread"] == ["4096"]
    assert "unread: 4096" in report.github(result)
    assert "<td>4096</td>" in report.html(result)
    written = suggest.render(result)
    assert "kv_heads(llama-2-70b) == 8" in written and "# unread figures" in written


def test_tolerance_arithmetic_is_exact():
    t = next(x for x in tokens("67.1M") if x.kind == "NUM")
    assert t.value == 67_100_000 and precision.rounded_unit(t) == Fraction(100_000)


# ---- rules found on the dev corpus ---------------------------------------------------------

@pytest.mark.parametrize("text", [
    "If Llama 2 7B had 40 layers, it would have about 8.3B parameters.",
    "Were GPT-2 small to use 24 layers, it would have about 210M parameters.",
])
def test_a_counterfactual_says_nothing_of_the_real_model(engine, text):
    status, verdict, _, record = decide(engine, text)
    assert verdict != "false" and status != "checked", record


def test_a_byte_figure_never_binds_to_a_parameter_count(engine):
    text = "If you quantize Llama 2 7B to 4 bits, its weights take about 3.4 GB."
    _status, _verdict, claim, record = decide(engine, text)
    assert claim is None or "params_total" not in claim, record


@pytest.mark.parametrize("text,status,verdict", [
    ("GPT-2 large has 773M parameters", "suggested", "true"),  # without the positions
    ("GPT-2 large has 760M parameters", "checked", "false"),  # no convention gives it
    ("Llama 2 7B has 6.73B parameters", "checked", "false"),  # 6.738B: cut, not rounded
])
def test_sizes_may_be_counted_without_the_position_table_but_never_truncated(
        engine, text, status, verdict):
    case(engine, text, status, verdict)


def test_a_number_glued_to_a_word_is_not_a_count(engine):
    _status, verdict, _, record = decide(engine, "N(llama2-7b) = 6738149376, almost 7b parameters.")
    assert verdict != "false", record


def test_units_one_dash_is_not_a_list_and_a_variable_is_not_an_initial(scan_text):
    doc = ("Mixtral 8x7B (2 out of 8 experts) - Total TFLOPs: 287.78 for the whole run.\n\n"
           "With full fine-tuning P_trainable = P. With LoRA on a 7B model it is 0.01% of the "
           "parameters.\n\nThe gated unit is from N. Shazeer (2020), with 3 weight matrices.\n")
    texts = [r["text"] for r in scan_text(doc)["statements"]]
    assert texts[0].startswith("Mixtral 8x7B (2 out of 8 experts) - Total TFLOPs")
    assert any(t.startswith("With LoRA on a 7B model") for t in texts)
    assert any(t.startswith("The gated unit is from N. Shazeer (2020), with 3") for t in texts)


def test_config_keys_are_vocabulary_and_symbolic_comparisons_in_code_are_read(scan_text):
    doc = ('- "n_layers" = 12\n- "emb_dim" = 768\n\n'
           "The FFN holds `2*d*h = 2*4096*11008` weights, and `2N + 2*n_layer` is a formula.\n")
    got = scan_text(doc)["statements"]
    assert [r["text"] for r in got[:2]] == ['"n_layers" = 12', '"emb_dim" = 768']
    assert "2*4096*11008" in got[2]["text"].replace(" ", "")


def test_a_section_heading_names_the_subject_of_what_follows_as_a_reading(scan_text):
    doc = ("# Mixtral 8x7B\n\n| | |\n|---|---|\n| Total params | 46.7B |\n"
           "| Active params | 12.9B |\n\n- KV-Heads (MHA): 32\n\nThe model has 32 layers.\n")
    got = {r["text"]: r for r in scan_text(doc)["statements"]}
    assert (got["Total params | 46.7B"]["status"], got["Total params | 46.7B"]["verdict"]) \
        == ("suggested", "true")  # said of the heading's model: to confirm, never checked
    assert got["Active params | 12.9B"]["claim"].startswith("approx(params_active(mixtral")
    assert got["KV-Heads (MHA): 32"]["verdict"] != "false"  # a qualified field: not read
    assert got["The model has 32 layers."]["status"] == "suggested"


@pytest.mark.parametrize("text,claim", [
    ("It is usually 4 times the embedding dimension (768 × 4 = 3072).", "768 * 4 == 3072"),
    ("Step 2: 160 × 8 = 1,280 (× KV heads)", "160 * 8 == 1280"),
])
def test_arithmetic_inside_an_aside_is_read(engine, text, claim):
    assert case(engine, text, "checked", "true")["claim"] == claim


@pytest.mark.parametrize("text,status,verdict", [
    ("Llama 2 7B has not less than 30 layers", "checked", "true"),  # a bound, not a denial
    ("Llama 2 7B has not more than 30 layers", "checked", "false"),
    ("Llama 2 7B has not only 32 layers but also 32 heads", "checked", "true"),
])
def test_bound_phrases_with_not_are_no_negation(engine, text, status, verdict):
    case(engine, text, status, verdict)


@pytest.mark.parametrize("text", [
    "Llama 2 7B and 13B have 32 and 40 layers respectively",  # 40 is 13B's
    "Llama 2 7B has 48 layers fewer than Llama 2 70B",  # a difference, not a value
    "Llama 2 13B adds an extra 8 layers over Llama 2 7B",
    "Llama 2 7B's successor has 40 layers",
])
def test_hostile_differences_and_elided_names_are_never_checked_false(engine, text):
    status, verdict, _, record = decide(engine, text)
    assert not (status == "checked" and verdict == "false"), record


def test_a_result_said_of_a_named_models_quantity_is_only_suggested(engine):
    # the arithmetic holds, but the sentence also says Llama 3 8B's K and V projections
    # hold that many (they hold 2·4096·1024: grouped-query attention): not read, so never
    # CHECKED TRUE
    text = ("In Llama 3 8B, the K and V projections hold `2 * 4096 * 4096 = 33554432` "
            "parameters per layer.")
    status, _verdict, _, record = decide(engine, text.replace("`", ""))
    assert status == "suggested", record
    case(engine, "The up and gate projections each hold 4096 × 11008 = 45,088,768 weights.",
         "checked", "true")  # no model named: the arithmetic is the whole claim


def test_comparisons_read_their_own_widths_and_direction(engine):
    # a width the sentence states but no reader reads: no width from elsewhere stands in
    assert reading("SwiGLU at 8/3 width has the same FFN parameter count as a ReLU FFN "
                   "at 4× width.", Context(gated=Fraction(4), plain=Fraction(4))) is None
    # "from A to B adds 50%": B relative to A (3·d·h against 2·d·h at equal width)
    case(engine, "Moving from a ReLU FFN at 4d to a SwiGLU FFN at 4d adds 50% more FFN "
         "parameters.", "suggested", "true")


def test_a_scale_written_apart_is_not_dropped(engine):
    _status, verdict, _, record = decide(engine, "Llama 3 8B's vocabulary: 128 K tokens.")
    assert verdict != "false", record  # 128 K is not the count 128
