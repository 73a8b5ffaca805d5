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
