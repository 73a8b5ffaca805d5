"""The scan, on what its first mutation run (issue 26, docs/mutation.md: 40 sampled
mutants and 16 of the first phase) showed no selected test checked. Sentences and tables
written for these tests; each checks a reading against its own arithmetic or against
another form of the same text, not the scan's output of today."""

from verdicts import only

from ffnverify.scan import pytest_scan
from ffnverify.scan.doc_markdown import read_markdown
from ffnverify.scan.doc_rst import read_rst


def test_an_rst_outline_has_the_heading_levels_of_the_same_markdown_outline():
    # kills doc_rst._rst_level mutmut_15 (a section one level deeper in a document
    # without a title of its own)
    rst = read_rst("Alpha\n=====\n\nOne.\n\nSub\n---\n\nTwo.\n\nBeta\n====\n\nThree.\n")
    md = read_markdown("# Alpha\n\nOne.\n\n## Sub\n\nTwo.\n\n# Beta\n\nThree.\n")
    levels = [(b.kind, b.level) for b in rst.blocks]
    assert levels == [(b.kind, b.level) for b in md.blocks]
    assert [lv for kind, lv in levels if kind == "heading"] == [1, 2, 1]


def test_an_earlier_multiplier_is_no_base_of_a_later_step(scan_text):
    # kills anaphora._factors mutmut_1 (the earlier factor `2×` offered as a base of the
    # next step: 2 × 4 = 8 would make it hold); the bases are the figures 4,096 and 8,192
    got = only(scan_text, "The hidden size is 4,096 and the ratio is 2× (giving 8,192); "
                          "then typically 4× (giving 8).")
    assert (got["status"], got["verdict"]) == ("suggested", "false"), got
    assert got["claim"] == "4096 * 2 == 8192 and (8192 * 4 == 8 or 4096 * 4 == 8)", got


def test_an_expansion_between_two_scaled_sizes_keeps_their_scales(scan_text):
    # kills arithmetic.expansions mutmut_80 (both sides made bare when the first has a
    # scale: 500 MB → 2 GB read as 500 → 2); 2 GB / 500 MB = 4
    got = only(scan_text, "The KV cache goes 500 MB → 2 GB, a 4× expansion.")
    assert (got["status"], got["verdict"]) == ("checked", "true"), got
    got = only(scan_text, "The KV cache goes 500 MB → 2 GB, a 3× expansion.")
    assert got["verdict"] == "false", got


def test_the_figures_a_derived_cell_uses_are_read(scan_text):
    # kills derived.derived_cells mutmut_41 (the part covers no figure: 64 listed unread)
    got = only(scan_text, "| Parameter | Symbol | Value | Source |\n|---|---|---|---|\n"
                          "| KV heads (GQA-8) | H_kv | 8 | H_total=64 / GQA_ratio=8 |")
    assert (got["claim"], got["verdict"]) == ("64 / 8 == 8", "true"), got
    assert got["unread"] == [], got


def test_a_figure_in_a_column_no_field_reads_is_unread_not_part_of_the_name(scan_text):
    # kills rows.row_claims mutmut_101 (the name cell's span measured from the second
    # cell: a figure at its start taken for part of the row's name)
    result = scan_text("## Llama 2\n\n| Size | Batch | Layers |\n|---|---|---|\n"
                       "| 7B | 99 | 32 |\n")
    [got] = [s for s in result["statements"] if s["text"].startswith("7B")]
    assert (got["claim"], got["verdict"]) == ("layers(llama-2-7b) == 32", "true"), got
    assert got["unread"] == ["99"], got


def test_a_symbol_set_to_a_power_is_a_computation_not_a_premise(scan_text):
    # kills read._givens mutmut_62 (`n = 2^12` taken as a premise: its 2 silently read);
    # a power is as much a computation as a product
    power = only(scan_text, "Llama 2 7B has 32 layers, with n = 2^12 tokens.")
    product = only(scan_text, "Llama 2 7B has 32 layers, with n = 2 × 12 tokens.")
    assert power["unread"] == product["unread"] == ["2", "12"], (power, product)


def test_a_total_before_its_parts_is_found_after_a_parenthesis_that_is_none(scan_text):
    # kills totals.totals mutmut_174 (the search stopped at the first candidate, `16 GB (`,
    # whose one figure in parentheses is no list of parts); 16 + 8 = 24, 16 + 20 != 24
    text = "The budget is 16 GB (12 GB used), and the total is 24 GB: 16 GB plus {} GB."
    got = only(scan_text, text.format(8))
    assert got["verdict"] == "true" and "a total before its parts: 24 GB" in got["detail"]
    assert only(scan_text, text.format(20))["verdict"] == "false"


def test_every_option_of_the_pytest_plugin_is_documented():
    # kills pytest_scan.pytest_addoption mutmut_23 (an option without help in pytest --help)
    added = []

    class Group:
        def addoption(self, *names, **kw):
            added.append((names, kw))

    class Parser:
        def getgroup(self, name):
            return Group()

    pytest_scan.pytest_addoption(Parser())
    assert [names for names, _ in added] == [("--ffnverify-scan",), ("--ffnverify-scan-strict",)]
    for names, kw in added:
        assert isinstance(kw.get("help"), str) and len(kw["help"].split()) >= 4, names
    assert "--ffnverify-scan" in added[1][1]["help"]  # strict is a mode of the scan


def test_a_family_statement_true_of_some_members_shows_both_readings(scan_text):
    # kills scan.settle mutmut_55 (the family part taken as agreed: the detail then drops
    # the lenient reading, the one that says which members it is true of); GPT-2 XL alone
    # has 48 layers
    got = only(scan_text, "GPT-2 has 48 layers.")
    assert (got["status"], got["verdict"]) == ("unchecked", None), got
    detail = got["detail"]
    assert "(layers(gpt2-small) == 48) and (layers(gpt2-medium) == 48)" in detail
    assert detail.endswith("read leniently, (layers(gpt2-small) == 48) or (layers("
                           "gpt2-medium) == 48) or (layers(gpt2-large) == 48) or (layers("
                           "gpt2-xl) == 48): true"), detail


# ---- from the larger sample (a count of 120, docs/mutation.md) --------------------------


def test_the_ffns_share_of_a_layer_is_two_thirds_not_one_third(scan_text):
    # kills variants.thirds mutmut_49 (Fraction(1, None) is 1: "one third" is no longer a
    # share the rule reads); per layer the FFN's 8·d² of 12·d² (attention 4·d²) is 2/3
    text = "In a standard transformer layer the FFN holds {} of the parameters."
    got = {share: only(scan_text, text.format(share))["verdict"]
           for share in ("two thirds", "1/2", "one third")}
    assert got == {"two thirds": "true", "1/2": "false", "one third": "false"}, got


def test_the_json_document_is_the_documented_one(scan_text):
    # kills scan.scan mutmut_225 (the "version" key misspelt); docs/scan.md shows the
    # document: {"version": 1, "statements": [...], "summary": {...}}
    result = scan_text("Llama 2 7B has 32 layers.\n")
    assert result["version"] == 1
    assert {"version", "statements", "summary"} <= set(result)


def test_the_html_report_heads_its_columns_with_the_records_keys(scan_text):
    # kills report.html mutmut_177 (a column head in capitals, unlike the others)
    import re

    from ffnverify.scan import report

    result = scan_text("Llama 2 7B has 32 layers.\n")
    heads = re.findall(r"<th[^>]*>([^<]*)</th>", report.html(result))
    record = result["statements"][0]
    table = heads[heads.index("#"):]  # the statements' table, after the summary's
    named = [h for h in table if h.lower() in record]
    assert named == [h.lower() for h in named]  # spelled as the JSON record's keys
    assert {"status", "verdict", "claim", "unread", "detail"} <= set(named), table


def test_an_unchecked_statement_is_a_notice_and_a_false_one_is_red(scan_text):
    # kills report._kind mutmut_20 (an unchecked statement with nothing unread given no
    # annotation) and report._label mutmut_23 (a false verdict not coloured as false)
    from ffnverify.scan import report

    result = scan_text("The cache took 16 GB on our card.\n\nLlama 2 7B has 33 layers.\n")
    unchecked, false = result["statements"]
    assert (unchecked["status"], unchecked["unread"]) == ("unchecked", []), unchecked
    assert false["verdict"] == "false", false
    notices = [ln for ln in report.github(result).splitlines() if ln.startswith("::notice")]
    assert len(notices) == 1 and f"line={unchecked['line']}" in notices[0], notices
    red = f"\x1b[{report.COLOURS['false']}m"
    coloured = report.text(result, colour=True)
    assert coloured.count(red) >= 1 and red + report._label(false, False) in coloured


# ---- the second run of the larger sample (a count of 120, docs/mutation.md) -------------


def test_a_counted_fraction_of_a_figure_before_it_is_that_many_parts(scan_text):
    # kills anaphora._fraction_at's `count == 1` as `count != 1` (a plural fraction with a
    # count word, "two thirds", left unread); 4,096 × 2/3 ≈ 2,731 and 4,096 × 1/3 ≈ 1,365
    text = "The hidden size is 4,096; the FFN uses {} of that (≈{})."
    got = {(share, value): only(scan_text, text.format(share, value))
           for share, value in (("two thirds", "2,731"), ("one third", "1,365"),
                                ("two thirds", "1,365"))}
    assert {k: g["verdict"] for k, g in got.items()} == {
        ("two thirds", "2,731"): "true", ("one third", "1,365"): "true",
        ("two thirds", "1,365"): "false"}, got
    assert "4096 * (2/3)" in got["two thirds", "2,731"]["claim"]


def test_an_arrow_links_a_factor_to_its_result(scan_text):
    # kills anaphora.multipliers' `is_op(toks[j], "=", "→")` with the arrow dropped (then
    # "4× larger → 16,384" is no factor applied to the hidden size); 4,096 × 4 = 16,384
    text = "The hidden size is 4,096, so the FFN is 4× larger → {}."
    right, wrong = only(scan_text, text.format("16,384")), only(scan_text, text.format("12,288"))
    assert (right["claim"], right["verdict"]) == ("4096 * 4 == 16384", "true"), right
    assert (wrong["claim"], wrong["verdict"]) == ("4096 * 4 == 12288", "false"), wrong


def test_a_parameter_count_in_millions_has_no_binary_reading(scan_text):
    # kills arithmetic._compared's rounded-input reading with `binary=True` (12.2M read as
    # 12.2 × 2^20 = 12.79 million makes 6.4M × 2 = 12.2M hold); M of a count is 10^6 alone
    text = "The embedding has 6.4M × 2 = {} parameters."
    right, wrong = only(scan_text, text.format("12.8M")), only(scan_text, text.format("12.2M"))
    assert (right["status"], right["verdict"]) == ("checked", "true"), right
    assert (wrong["status"], wrong["verdict"]) == ("checked", "false"), wrong
    assert "12845056" not in wrong["claim"] + wrong["detail"]  # 12.25 × 2^20


def test_an_expansion_written_from_one_figure_to_another_is_read(scan_text):
    # kills arithmetic.expansions' "from" dropped from the words before `N to M`
    text = "The FFN width goes from 4,096 to 16,384, a {}× expansion."
    four, three = only(scan_text, text.format(4)), only(scan_text, text.format(3))
    assert (four["claim"], four["verdict"]) == ("16384 / 4096 == 4", "true"), four
    assert (three["claim"], three["verdict"]) == ("16384 / 4096 == 3", "false"), three


def test_a_figure_that_starts_a_subtraction_is_no_worded_result(scan_text):
    # kills arithmetic.worded_results' `-` dropped from the operators after the result
    # (16,384 taken for "which is" 3 × 4,096: false); a difference reads as a sum does
    for op, value in (("-", "12,288"), ("+", "20,480")):
        got = only(scan_text, f"The width is 3 × 4,096, which is 16,384 {op} 4,096 = {value}.")
        assert got["claim"] == f"16384 {op} 4096 == {value.replace(',', '')}", got
        assert got["verdict"] == "true", got


def test_the_order_of_added_and_subtracted_rounded_terms_changes_no_reading(scan_text):
    # kills figure.spread's `x in ("+", "-")` without "+" (after a `-`, a later `+` term
    # kept the subtracted direction: its interval reversed); 6.7B − 1.2B + 0.5B and
    # 6.7B + 0.5B − 1.2B both span [5.85B, 6.15B], which holds 6.12B at the inputs' rounding
    got = [only(scan_text, f"The model has {expr} = 6.12B parameters.")
           for expr in ("6.7B - 1.2B + 0.5B", "6.7B + 0.5B - 1.2B")]
    for g in got:
        assert (g["status"], g["verdict"]) == ("suggested", "true"), g
    assert got[0]["claim"].replace("- 1200000000 + 500000000", "+ 500000000 - 1200000000") \
        .replace("- 1250000000 + 450000000", "+ 450000000 - 1250000000") \
        .replace("- 1150000000 + 550000000", "+ 550000000 - 1150000000") == got[1]["claim"]


def test_a_row_repeated_in_a_second_table_is_read_in_both(scan_text):
    # kills formula_rows.formula_cells' `before is None or not before.given` as `and` (a
    # row whose text came before in another place has no one `before`: None, and the
    # mutant reads None.given); the same row under the same heading reads the same
    table = "| Size | Layers |\n|---|---|\n| 7B | 32 |\n"
    result = scan_text(f"## Llama 2\n\n{table}\nThe second table repeats it.\n\n{table}")
    rows = [s for s in result["statements"] if s["text"] == "7B | 32"]
    assert [(s["claim"], s["verdict"]) for s in rows] == [("layers(llama-2-7b) == 32", "true")] * 2


def test_a_formula_row_is_read_whatever_the_length_of_its_name_cell(scan_text):
    # kills formula_rows.formula_cells' `at = k + len(...)` as `k - len(...)` (the next
    # cell looked for from before the row's start: a negative offset, counted from its end,
    # finds no cell after a short name); 8 · 768² = 4,718,592 ≈ 4.7M, 4 · 768² ≈ 2.4M
    result = scan_text("We set d = 768 throughout.\n\n| Part | Formula | Parameters |\n"
                       "|---|---|---|\n| FFN | 8 · d^2 | 4.7M |\n"
                       "| Attention projections | 4 · d^2 | 2.4M |\n")
    rows = {s["text"].split(" |")[0]: s for s in result["statements"] if " | " in s["text"]}
    assert {k: (s["claim"], s["verdict"], s["unread"]) for k, s in rows.items()} == {
        "FFN": ("approx(8 * 768 ** 2, 4700000, abs=50000)", "true", []),
        "Attention projections": ("approx(4 * 768 ** 2, 2400000, abs=50000)", "true", [])}


def test_a_list_items_continuation_indented_by_tabs_is_read(scan_text):
    # kills inline.line_starts' `max(k, <the line's indent>)` as `max(k, None)` (a content
    # line that is no suffix of its source line: markdown-it turns the tab it partly
    # consumes into spaces; the mutant fails the whole document)
    result = scan_text("- a\n\t\tLlama 2 7B has 32 layers.\n")
    assert not result.get("errors"), result["errors"]
    [got] = result["statements"]
    assert (got["line"], got["col"], got["claim"], got["verdict"]) == (
        1, 3, "layers(llama-2-7b) == 32", "true"), got


def test_a_router_sending_each_token_to_k_reads_as_every_token_does(scan_text):
    # kills moe._per_token's `["each", "token", "to"]` misspelt (then only "every token
    # to 2" is the experts per token); Mixtral 8x7B activates 2 of its 8 experts
    for who in ("each", "every"):
        for k, verdict in ((2, "true"), (3, "false")):
            got = only(scan_text, f"In Mixtral 8x7B, the router sends {who} token to {k}.")
            assert (got["claim"], got["verdict"]) == (
                f"active_experts(mixtral-8x7b) == {k}", verdict), got


def test_a_size_column_before_the_model_column_is_read_as_after_it(scan_text):
    # kills rows.row_claims' family-row test with `and not other_names(text) or
    # structure.parse_size(...)` (a first cell that is a size then made the row a family's
    # row, whatever model the row names: no family here, so nothing was read)
    for head, row in (("| Size | Model | Layers |", "| 7B | Llama 2 7B | 32 |"),
                      ("| Model | Size | Layers |", "| Llama 2 7B | 7B | 32 |")):
        got = only(scan_text, f"{head}\n|---|---|---|\n{row}")
        assert (got["claim"], got["verdict"]) == ("layers(llama-2-7b) == 32", "true"), got


def test_a_params_column_that_repeats_the_models_name_is_its_name(scan_text):
    # kills rows.row_claims' `SIZE_HEADER.match(head) or func is None` as `and` (the 7B
    # under "Params" read as params_total, not as the name it repeats, as under "Size")
    for head in ("Params", "Size", "Model size"):
        got = only(scan_text, f"| Model | {head} | Layers |\n|---|---|---|\n"
                              "| Llama 2 7B | 7B | 32 |")
        assert (got["claim"], got["unread"]) == ("layers(llama-2-7b) == 32", []), (head, got)


def test_a_claim_naming_some_of_a_statements_figures_does_not_cover_it(scan_text):
    # kills scan._mentions' default `every=True` as False (a claim placed at the statement
    # by its source, stating 32 but not 4096, covered both)
    from ffnverify.claims.files import Claim

    text = "Llama 2 7B has 32 layers and a 4096-wide residual stream.\n"
    where = scan_text(text)["statements"][0]["file"] + ":1"

    def status(expr):
        claim = Claim("claims.toml", 1, 1, expr, source=where)
        return [s["status"] for s in scan_text(text, claims=[claim])["statements"]]

    assert status("layers(llama-2-7b) == 32") != ["covered"]
    assert status("layers(llama-2-7b) == 32 and d_model(llama-2-7b) == 4096") == ["covered"]


def test_no_cardinal_without_a_scale_word_reaches_ten_thousand():
    # kills spelled._cardinal's `current < 100` before "hundred" as `current < 101` ("one
    # hundred zero hundred" read as 10,000): without "thousand" or a larger scale word the
    # largest is ninety-nine hundred and ninety-nine; every phrase of up to 4 of these words
    import itertools

    from ffnverify.scan.spelled import spelled

    vocabulary = ["a", "one", "zero", "nine", "ten", "ninety", "ninety-nine", "hundred", "and"]
    read = [(phrase, s.value) for n in range(1, 5)
            for phrase in map(" ".join, itertools.product(vocabulary, repeat=n))
            for s in spelled(phrase + " tokens") if s.kind == "cardinal"]
    assert max(v for _, v in read) == 9999
    assert [(p, v) for p, v in read if v >= 10000] == []


def test_weights_that_fit_on_a_gpu_are_bounded_by_it_not_equal_to_it(scan_text):
    # kills weights.weights' `compare(factors, res, bound(text, res), ...)` with the bound
    # dropped (None: "fit on a 24 GB GPU" then reads as weights == 24 GB), for a count in
    # the sentence, a named model and a count the sentence before states; FP16 weights of
    # 7B parameters are 14 GB (Llama 2 7B: 13.5 GB): at most 24 GB, not at most 10 GB
    for text, lhs in (("The weights of 7B parameters in FP16 fit on a {} GB GPU.",
                       "7000000000 * bytes(fp16)"),
                      ("Llama 2 7B's weights in FP16 fit on a {} GB GPU.",
                       "weight_bytes(llama-2-7b, dtype=fp16)")):
        for gb, verdict in ((24, "true"), (10, "false")):
            got = only(scan_text, text.format(gb))
            assert (got["claim"], got["verdict"]) == (f"{lhs} <= {gb}000000000", verdict), got
    result = scan_text("The model has 7B parameters.\n\nIts weights in FP16 fit on a 24 GB GPU.\n")
    got = result["statements"][-1]
    assert (got["claim"], got["verdict"]) == ("7000000000 * bytes(fp16) <= 24000000000", "true")
