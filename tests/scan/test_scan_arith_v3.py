"""Arithmetic written in prose, tables and inline code (issue 27, docs/architecture.md §5.2): `≠`, a share
stated of two figures, a table's share column, a step carried from the result before it,
a factor applied to a figure named before it, and a formula evaluated at the values a
later unit binds.

Each rule has a right input it must read right, wrong inputs (mutants with a wrong
result) it must flag, and hostile inputs it must not read wrongly (a rounded figure that
is right, a range, a hedge, numbers that are not one computation).
"""

import pytest
from verdicts import case, decide, only

from ffnverify.scan.read import Context, reading
from ffnverify.scan.units import _is_arithmetic, _is_formula


def statement(result, starts):
    got = [s for s in result["statements"] if s["text"].startswith(starts)]
    assert got, [s["text"] for s in result["statements"]]
    return got[0]


# ---- ≠: the negation of = under every reading ---------------------------------------------

@pytest.mark.parametrize("text,status,verdict", [
    ("2048 * 4KB != 640MB", "checked", "true"),  # 8 MB (or 8 MiB) under every reading
    ("3 × 4 ≠ 13", "checked", "true"),
    ("3 × 4 ≠ 12", "checked", "false"),  # mutant: equal as written
    ("2048 * 4KB != 8.192MB", "checked", "false"),  # mutant: equal in decimal units
    ("2048 * 4KB != 8MB", "checked", "false"),  # mutant: 8.192 MB rounds to 8 MB
    # hostile: unequal in decimal (8.192 MB) but equal in binary (8 MiB ≈ 8.39 MB), so
    # neither TRUE nor FALSE is certain
    ("2048 * 4KB != 8.4MB", "suggested", "true"),
    ("8,192 × 8,192 ≠ 67.1M", "checked", "false"),  # 67.1M states a rounded 67,108,864
])
def test_unequal_holds_only_when_no_reading_makes_the_sides_equal(engine, text, status,
                                                                   verdict):
    case(engine, text, status, verdict)


# ---- X is P% of Y --------------------------------------------------------------------

@pytest.mark.parametrize("text,status,verdict", [
    ("Which means that token input/output embeddings make a total of 38M which is 58% of "
     "a total of 65M parameters.", "checked", "true"),
    ("The FFN holds 4.3B parameters, or 64% of the 6.7B total.", "checked", "true"),
    ("58% of 65M is 38M.", "checked", "true"),
    ("Embeddings make 38M, which is 68% of 65M.", "checked", "false"),  # mutant
    ("The FFN holds 4.3B parameters, or 46% of the 6.7B total.", "checked", "false"),
    # hostile: 38/65 = 58.46% is not 59% as written, but 38M and 65M are rounded figures
    # whose intervals reach it
    ("Embeddings make 38M, which is 59% of 65M.", "suggested", "true"),
    ("Embeddings make 38M, about 60% of 65M.", "suggested", "true"),  # a hedge
])
def test_a_share_of_two_figures(engine, text, status, verdict):
    case(engine, text, status, verdict)


@pytest.mark.parametrize("text", [
    "38–40M which is 58% of 65M",  # a range is no one figure
    "It has 38M parameters and uses 58% of the 65M budget.",  # not X is P% of Y
    "A 38M model trained 58% faster than the 65M one.",
    "The 7B model, which is 10% of Llama 2 70B",  # a model's name is no figure
    "The 8B model scores 66.6, which is 95% of the 70B's 79.5.",  # 70B is a name here
])
def test_numbers_that_are_no_share_are_not_read_as_one(text):
    r = reading(text, Context())
    assert r is None or not any(p.reading.startswith("a share") for p in r.parts)


# ---- a table's share column ----------------------------------------------------------

_TABLE = """| Component | Total Parameters | Share |
|---|---|---|
| Embedding | 617,558,016 | 0.4% |
| Key | 14,495,514,624 | 8.3% |
| Up-projection | 57,982,058,496 | {up}% |
| Down-projection | 57,982,058,496 | 33% |
| Other | 44,000,000,000 | 25% |
| Total | | 100% |
"""


def test_a_share_column_is_read_against_the_columns_total(scan_text):
    rows = scan_text(_TABLE.format(up="33"))["statements"]
    got = {r["text"].split(" |")[0]: (r["status"], r["verdict"]) for r in rows
           if r["claim"]}
    # 617,558,016 / 175,095,189,632 = 0.353%: rounded to 0.4% it is right
    assert got["Embedding"] == ("suggested", "true")
    assert got["Key"] == ("suggested", "true")
    assert got["Up-projection"] == ("suggested", "true")
    assert "sum of the column" in statement({"statements": rows}, "Key")["detail"]


def test_a_wrong_share_in_a_whole_table_is_flagged(scan_text):
    rows = scan_text(_TABLE.format(up="43"))["statements"]  # mutant: 43% for 33.1%
    up = statement({"statements": rows}, "Up-projection")
    assert (up["status"], up["verdict"]) == ("suggested", "false")
    key = statement({"statements": rows}, "Key")
    assert key["verdict"] == "true"


def test_a_share_column_that_is_not_of_one_whole_is_not_read(scan_text):
    doc = ("| Model | Params | MMLU % |\n|---|---|---|\n| A | 7,000,000,000 | 45.3% |\n"
           "| B | 13,000,000,000 | 54.8% |\n| C | 70,000,000,000 | 68.9% |\n")
    rows = scan_text(doc)["statements"]
    assert not any("share of the table" in r["detail"] for r in rows)


def test_a_stated_total_count_is_the_denominator(scan_text):
    doc = ("| Part | Params | Share |\n|---|---|---|\n| Attention | 2,000 | 20% |\n"
           "| FFN | 6,000 | 50% |\n| Total | 10,000 | 100% |\n")
    rows = {r["text"].split(" |")[0]: r for r in scan_text(doc)["statements"]}
    assert rows["Attention"]["verdict"] == "true"
    assert rows["FFN"]["verdict"] == "false"  # 6,000 of the stated 10,000 is 60%
    assert "total row's 10,000" in rows["FFN"]["detail"]


# ---- a step carried from the result before it ------------------------------------------

_HEADS = ("The matrix will have a dimension of 512 × 64 for the base model, which is "
          "32,768 parameters. For a single head, that value will be $$\\times 3 = {one}$$. "
          "For the multi-head, that value will be $$\\times h = \\times 8 = {all}$$ "
          "parameters for the base model.\n")


def test_a_step_with_no_left_operand_carries_the_result_before_it(scan_text):
    rows = scan_text(_HEADS.format(one="98,304", all="786,432"))["statements"]
    one, multi = statement({"statements": rows}, "For a single"), statement(
        {"statements": rows}, "For the multi")
    assert (one["status"], one["verdict"]) == ("suggested", "true")
    assert one["claim"] == "32768 * 3 == 98304"
    assert (multi["status"], multi["verdict"]) == ("suggested", "true")
    assert multi["claim"] == "98304 * 8 == 786432"


def test_a_carried_step_with_a_wrong_result_is_flagged(scan_text):
    rows = {"statements": scan_text(_HEADS.format(one="98,305", all="786,440"))[
        "statements"]}
    got = statement(rows, "For a single")
    assert (got["status"], got["verdict"]) == ("suggested", "false"), got
    # the next step carries the result as stated: 98,305 × 8 = 786,440 is right
    assert statement(rows, "For the multi")["verdict"] == "true"
    rows = {"statements": scan_text(_HEADS.format(one="98,304", all="780,432"))[
        "statements"]}
    got = statement(rows, "For the multi")
    assert (got["status"], got["verdict"]) == ("suggested", "false"), got


def test_a_step_with_no_anaphor_or_with_a_left_operand_is_not_carried(scan_text):
    rows = scan_text("The layer holds 32,768 parameters. Multiply: × 3 = 98,305.\n\n"
                     "It is (2 + 1) × 3 = 9.\n")["statements"]
    assert not any("carried" in r["detail"] for r in rows)


# ---- a factor applied to a figure named before it ----------------------------------------

_WIDTH = ("For Llama 3.1 8B, hidden_size is 4,096 but intermediate_size is 14,336. In "
          "standard FFNs, the ratio is typically 4× (giving {four}). SwiGLU uses 2/3 of "
          "that (≈{two}) but rounds to a GPU-friendly number.\n")


def test_a_factor_applied_to_a_figure_before_it(scan_text):
    rows = {"statements": scan_text(_WIDTH.format(four="16,384", two="10,922"))[
        "statements"]}
    four, two = statement(rows, "In standard"), statement(rows, "SwiGLU uses")
    assert (four["status"], four["verdict"]) == ("suggested", "true")
    assert "4096 * 4 == 16384" in four["claim"]
    assert (two["status"], two["verdict"]) == ("suggested", "true")  # 10,922.67, ≈


def test_a_factor_with_a_wrong_result_is_flagged(scan_text):
    # 18,432 is no 4× of a figure before it; 11,500 is not ≈ 2/3 of 18,432 (12,288)
    rows = {"statements": scan_text(_WIDTH.format(four="18,432", two="11,500"))[
        "statements"]}
    for starts in ("In standard", "SwiGLU uses"):
        got = statement(rows, starts)
        assert (got["status"], got["verdict"]) == ("suggested", "false"), got


def test_a_smaller_factor_divides_and_a_figure_in_a_name_is_no_base(scan_text):
    rows = {"statements": scan_text(
        "The KV cache holds 4,096 entries per layer. GQA makes the KV cache 8× smaller "
        "(giving 512 entries).\n\nLlama 2 70B has 80 layers. Its KV cache is 2× larger "
        "(giving 150 layers).\n\nLlama 2 70B is a large model. Its KV cache is 2× "
        "larger (giving 140 GB).\n")["statements"]}
    assert statement(rows, "GQA makes")["verdict"] == "true"
    assert "4096 / 8 == 512" in statement(rows, "GQA makes")["claim"]
    larger = [r for r in rows["statements"] if r["text"].startswith("Its KV cache")]
    assert "80 * 2" in larger[0]["claim"] and larger[0]["verdict"] == "false"
    assert "a factor applied" not in larger[1]["detail"]  # 70 and 2 are the name's


# ---- a formula stated above, at the values a unit binds -----------------------------------

_FORMULA = ("Formula:\n\n- `4 * d^2` (Q, K, V, O)\n- `12 * d^2 * L + 2 * V * d`\n\n"
            "Example: For GPT-2 small (d=768, L=12, V=50257), the formula yields ~{n}M "
            "parameters.\n")


def test_a_formula_is_evaluated_at_the_values_the_next_unit_binds(scan_text):
    right = statement(scan_text(_FORMULA.format(n="162")), "Example")
    assert (right["status"], right["verdict"]) == ("suggested", "true")
    assert "12 * 768 ** 2 * 12 + 2 * 50257 * 768" in right["claim"]
    wrong = statement(scan_text(_FORMULA.format(n="124")), "Example")  # 162,129,408
    assert (wrong["status"], wrong["verdict"]) == ("suggested", "false")


def test_a_formula_with_an_unbound_symbol_or_none_before_is_not_evaluated(scan_text):
    got = statement(scan_text(_FORMULA.format(n="124").replace(", V=50257", "")), "Example")
    assert "formula stated before" not in got["detail"]
    got = statement(scan_text("Example: for d=768, L=12, the formula yields ~124M "
                              "parameters.\n"), "Example")
    assert "formula stated before" not in got["detail"]


def test_inline_code_with_a_symbol_formula_is_math_and_not_cut_at_its_stars():
    assert _is_formula("12 * d^2 * L + 2 * V * d")  # read when it is the whole unit
    assert not _is_formula("params(swiglu, 4096, 11008)")
    assert not _is_formula("x * y")  # no number: code as likely as math
    assert not _is_arithmetic("12 * d^2 * L + 2 * V * d")  # in a sentence it stays code


# ---- a total stated with its parts ----------------------------------------------------

@pytest.mark.parametrize("text,verdict", [
    ("Serving 10 users requires 240 GB: 140 GB for weights and 100 GB for the KV cache.",
     "true"),
    ("Serving 10 users requires 260 GB: 140 GB for weights and 100 GB for the KV cache.",
     "false"),  # mutant: 140 + 100 is 240
    ("Weights take 14 GB plus 2 GB for the cache, for a total of 16 GB.", "true"),
    ("Weights take 14 GB plus 2 GB for the cache, for a total of 18 GB.", "false"),
])
def test_a_total_and_its_parts(engine, text, verdict):
    case(engine, text, "suggested", verdict)


@pytest.mark.parametrize("text", [
    "The model needs 16 GB: 14 GB in fp16 or 7 GB in int8.",  # alternatives, not parts
    "It runs on two 80 GB GPUs, a total of 160 GB.",  # a part counted twice
    "It has 32 layers: 4096 wide and 11008 in the FFN.",  # counts of different things
])
def test_figures_that_are_no_parts_are_not_summed(text):
    r = reading(text, Context())
    assert r is None or not any(p.reading.startswith("a total") for p in r.parts)


def test_a_total_may_add_to_the_figure_said_before_it(scan_text):
    doc = ("A 7B-parameter model stored in float32 occupies about 28 GB. Full fine-tuning "
           "with Adam adds gradients (another 28 GB) plus two momentum buffers (56 GB more), "
           "totalling roughly {n} GB before activations.\n")
    got = statement(scan_text(doc.format(n="112")), "Full fine-tuning")
    assert (got["status"], got["verdict"]) == ("suggested", "true")
    got = statement(scan_text(doc.format(n="140")), "Full fine-tuning")  # mutant
    assert (got["status"], got["verdict"]) == ("suggested", "false")


# ---- a cell derived in its row --------------------------------------------------------

_DERIVED = ("| Parameter | Symbol | Value | Source |\n|---|---|---|---|\n"
            "| KV heads (GQA-8) | H_kv | {kv} | H_total=64 / GQA_ratio=8 |\n"
            "| Per-head dimension | D | {d} | model_dim(8192) / H_total(64) |\n"
            "| Layers | L | 80 | Published architecture |\n")


def test_a_cell_derived_in_its_row(scan_text):
    rows = {"statements": scan_text(_DERIVED.format(kv="8", d="128"))["statements"]}
    for starts, claim in (("KV heads", "64 / 8 == 8"), ("Per-head", "8192 / 64 == 128")):
        got = statement(rows, starts)
        assert (got["status"], got["verdict"], got["claim"]) == ("suggested", "true", claim)
    rows = {"statements": scan_text(_DERIVED.format(kv="16", d="96"))["statements"]}
    for starts in ("KV heads", "Per-head"):  # mutants
        assert statement(rows, starts)["verdict"] == "false"
    assert "derived" not in statement(rows, "Layers")["detail"]  # no arithmetic cell


# ---- the statement's polarity still governs these readings -----------------------------

def test_a_question_or_a_negation_is_not_checked_as_stated(engine):
    assert decide(engine, "Is 2048 * 4KB != 640MB?")[0] == "unchecked"  # a question
    status, verdict, _, _ = decide(engine, "Embeddings are not 38M, which is 58% of 65M.")
    assert status != "checked" or verdict != "true"


# ---- Python's power, `**`, between two operands: not Markdown's bold --------------------

@pytest.mark.parametrize("text,status,verdict", [
    ("The count is `12 * 768**2 * 12 = 84,934,656` here.", "checked", "true"),
    ("The FFN has 8 * 768**2 = 4,718,592 weights.", "checked", "true"),
    ("In Python, `2**10 = 1024`.", "checked", "true"),
    ("The FFN has 8 * 768**2 = 4,718,593 weights.", "checked", "false"),  # mutant
    ("`12 * 768**2 * 12 = 84,934,665`", "checked", "false"),  # mutant
    ("The FFN has **8 × 768 = 6,144** weights.", "checked", "true"),  # bold: left out
])
def test_a_python_power_is_a_power(scan_text, text, status, verdict):
    got = only(scan_text, text)
    assert (got["status"], got["verdict"]) == (status, verdict), got


# ---- `*` that CommonMark takes for emphasis inside a product (`inline._product`) ---------
# "4096*4096*4" renders as 4096<em>4096</em>4 in CommonMark (intraword `*` emphasis): the
# scan read "409640964". Stars within a word with a digit beside them stay as text.

@pytest.mark.parametrize("text,status,verdict", [
    ("It needs 2*32*4096*2 = 524,288 bytes.", "checked", "true"),
    ("It needs 2*32*4096*2 = 524,289 bytes.", "checked", "false"),  # mutant
    ("Note: 12*768*768 = 7,077,888.", "checked", "true"),
])
def test_stars_between_figures_are_products_not_emphasis(scan_text, text, status, verdict):
    got = only(scan_text, text)
    assert (got["status"], got["verdict"]) == (status, verdict), got
    assert "*" in got["text"], got  # shown as written


def test_emphasis_between_words_is_still_emphasis(scan_text):
    got = only(scan_text, "The *whole* model, **7B** of it, has 32 *layers*: 2*16 = 32.")
    assert "*whole*" not in got["text"] and "7B" in got["text"], got
    assert "2*16 = 32" in got["text"], got


# ---- a result restated in parentheses after it (`arithmetic._aside`) ----------------------

@pytest.mark.parametrize("text,status,verdict", [
    ("4096 × 4096 × 4 = 67,108,864 (~67M)", "checked", "true"),
    ("(768 × 3 + 1) × 12 = 27,660 (about 27.7K)", "checked", "true"),
    ("12 × 4096² ≈ 201M (0.2B)", "checked", "true"),
    ("4096 × 4096 × 4 = 67,108,864 (71M)", "checked", "false"),  # mutant: the aside
    ("4096 × 4096 × 4 = 67,108,865 (~67M)", "checked", "false"),  # mutant: the result
])
def test_a_rounder_restatement_of_the_result_is_read(engine, text, status, verdict):
    case(engine, text, status, verdict)


@pytest.mark.parametrize("text", [
    "The total is 12 × 768² × 12 = 84,934,656 (2020).",  # a year, not a rounder figure
    "175 × 10^9 = 175,000,000,000 (12%).",  # a share
    "32 × 128 = 4096 (32 heads).",  # a figure with its own noun
])
def test_a_parenthesis_that_restates_nothing_is_no_false(scan_text, text):
    for got in scan_text(text + "\n")["statements"]:
        assert got["verdict"] != "false", got


# ---- a share of the one named model's total (`shares._of_the_models_total`) --------------

@pytest.mark.parametrize("text,verdict", [
    ("The embedding of Llama 2 7B holds 131M parameters, about 2% of the total.", "true"),
    ("The FFN of Llama 2 7B holds 4.3B parameters, or 64% of the model.", "true"),
    ("The embedding of Llama 2 7B holds 131M parameters, about 20% of the total.", "false"),
])
def test_a_share_of_the_models_total(scan_text, text, verdict):
    got = only(scan_text, text)
    assert (got["status"], got["verdict"]) == ("suggested", verdict), got


def test_a_share_of_something_else_is_not_of_the_models_count(scan_text):
    got = only(scan_text, "Llama 2 7B uses 2% of the total VRAM.")
    assert got["verdict"] is None, got


def test_a_figure_before_hidden_is_the_width(scan_text):
    got = only(scan_text, "BERT-base has 12 layers, 768 hidden and 12 heads.")
    assert "d_model(bert-base) == 768" in got["claim"], got
    got = only(scan_text, "BERT-base has 12 layers, 1024 hidden and 12 heads.")  # mutant
    assert got["verdict"] == "false", got


def test_a_symbol_glued_to_the_operator_is_its_left_operand(scan_text):
    # "8d/3 = 10923" was SUGGESTED FALSE as a step "/ 3" carried from the 8 (`anaphora`)
    for got in scan_text("With d = 4096, 8d/3 = 10923, which Llama rounds up to 11008.\n",
                         "doc.md")["statements"]:
        assert got["verdict"] != "false", got


# ---- a power of ten whose superscript was lost in copying (`numbers.lost_superscripts`) ----

@pytest.mark.parametrize("text,status,verdict", [
    ("M = 70×109×2 bytes = 140 GB", "suggested", "true"),
    ("6 × 7×109 × 2×1012 = 8.4×1022", "suggested", "true"),
    ("M = 70×109×2 bytes = 150 GB", "suggested", "false"),  # mutant
    ("4 × 109 = 436", "checked", "true"),  # nothing large: as written
    ("2 × 1024 = 2048 bytes", "checked", "true"),  # 1024 is no lost 10²⁴
])
def test_a_lost_superscript_is_read_as_a_power(scan_text, text, status, verdict):
    got = only(scan_text, text)
    assert (got["status"], got["verdict"]) == (status, verdict), got


def test_a_total_of_one_part_is_no_sum(scan_text):
    # "38GB on each GPU -- total 76GB" was SUGGESTED FALSE as 38GB = 76GB (`totals`)
    got = only(scan_text, "With tensor_parallel_size = 2 the model takes 38GB on each GPU "
                          "-- total 76GB.")
    assert got["verdict"] != "false", got
