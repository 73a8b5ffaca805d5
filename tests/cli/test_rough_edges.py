"""What a new user meets first (issue 25 §6): a missing file is an input error, not a claim,
and its position is said once; a scan of nothing claims no coverage; the HTML report's
coverage cell says what the text report says."""

import json

from ffnverify import cli
from ffnverify.claims import report
from ffnverify.claims.audit import is_input_error, summary
from ffnverify.scan import report as scan_report


def test_a_missing_file_is_not_counted_as_a_claim(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["audit", "nosuch.md"]) == 2
    out = capsys.readouterr().out
    first, last = out.strip().splitlines()
    assert first == "nosuch.md:1:1: ERROR ✗ — no such file or folder"  # the position once
    assert last.startswith("0 claims: ") and last.endswith("1 file could not be read")
    assert "1 error" not in last


def test_a_missing_file_beside_real_claims(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.md").write_text("```claim\n1 + 1 == 2\n2 + 2 == 5  # expect: false\n```\n")
    assert cli.main(["audit", "c.md", "nosuch.md"]) == 2
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last == ("2 claims: 1 true, 1 false, 0 unknown, 0 error, 0 skipped — 2 ok, "
                    "all as expected; 1 file could not be read")


def test_a_claim_error_keeps_its_count_and_says_its_position_once(tmp_path, capsys,
                                                                   monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.md").write_text("```claim\nparams(swiglu, d, h) ==\n```\n")
    assert cli.main(["audit", "c.md", "--format", "json"]) == 2
    s = json.loads(capsys.readouterr().out)["summary"]
    assert (s["total"], s["error"]) == (1, 1)
    assert cli.main(["audit", "c.md"]) == 2
    first, last = capsys.readouterr().out.strip().splitlines()
    assert first.startswith("c.md:2:24: ERROR ✗ params(swiglu, d, h) == — expected")
    assert first.count("2:24") == 1
    assert last.startswith("1 claim: ") and "1 error" in last and "could not be read" not in last


def test_the_summary_counts_input_errors_apart():
    records = [{"verdict": "error", "expr": "", "ok": False},
               {"verdict": "true", "expr": "1 == 1", "ok": True}]
    s = summary(records)  # docs/architecture.md §5's JSON summary: the unreadable file is a record
    assert (s["total"], s["error"], s["failed"]) == (2, 1, 1)
    assert [is_input_error(r) for r in records] == [True, False]
    line = report.summary_line(s, 1)
    assert line.startswith("1 claim: 1 true, 0 false, 0 unknown, 0 error")
    assert line.endswith("all as expected; 1 file could not be read")


def test_a_scan_of_nothing_claims_no_coverage(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["scan", "nosuch.md"]) == 2
    out = capsys.readouterr().out
    assert "coverage n/a" in out and "100%" not in out


def test_the_html_coverage_cell_is_the_text_reports_percentage():
    s = {"total": 23, "covered": 10, "checked": 5, "suggested": 4, "unchecked": 4, "false": 1,
         "coverage": 0.6522}
    page = scan_report.html({"summary": s, "statements": [], "errors": []})
    assert '<td data-key="coverage">65%</td>' in page and "0.6522" not in page
    assert "coverage 65%" in scan_report.summary_line(s)
