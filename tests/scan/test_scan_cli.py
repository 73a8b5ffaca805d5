"""`ffnverify scan`: exit codes, the JSON contract, the other formats (escaped), --suggest,
and the budget every statement's check runs under."""

import json

import helpers
import pytest

from ffnverify.claims.files import markdown_claims
from ffnverify.cli import scan as scan_cmd
from ffnverify.scan import report, suggest

GOOD = "# Sizes\n\nLlama 2 7B has 32 layers, and 3×32 = 96.\n"
FALSE = "Llama 2 7B has 40 layers.\n"
UNREAD = "SwiGLU models need 10-15% fewer training tokens.\n"
SUGGESTED = ("SwiGLU with intermediate dimension 2.67D matches ReLU with 4D — 33% "
             "parameter reduction.\n")


def run_cli(tmp_path, capsys, *args):
    return helpers.run_cli(capsys, "scan", *args)


def test_exit_codes(tmp_path, capsys):
    (tmp_path / "good.md").write_text(GOOD + UNREAD + SUGGESTED, encoding="utf-8")
    (tmp_path / "bad.md").write_text(FALSE, encoding="utf-8")
    code, out, _ = run_cli(tmp_path, capsys, tmp_path / "good.md")
    assert code == 0, out  # a suggested reading that is false does not fail the scan
    code, out, _ = run_cli(tmp_path, capsys, tmp_path / "good.md", "--strict")
    assert code == 1  # unchecked statements fail a strict scan
    code, out, _ = run_cli(tmp_path, capsys, tmp_path / "bad.md", "--format", "json")
    assert code == 1
    doc = json.loads(out)
    assert doc["statements"][0]["verdict"] == "false"
    code, _, _ = run_cli(tmp_path, capsys, tmp_path / "missing.md")
    assert code == 2


def test_json_contract(scan_text):
    result = scan_text(GOOD + UNREAD + SUGGESTED)
    doc = json.loads(report.json_report(result))
    assert set(doc) == {"version", "statements", "summary"} and doc["version"] == 1
    for r in doc["statements"]:
        assert set(r) == {"file", "line", "col", "end_line", "text", "status", "claim",
                          "verdict", "detail", "unread"}
    assert set(doc["summary"]) == {"total", "covered", "checked", "suggested", "unchecked",
                                   "false", "coverage"}
    s = doc["summary"]
    assert s["total"] == 3 and s["checked"] == 1 and s["suggested"] == 1 and s["unchecked"] == 1
    assert s["false"] == 1 and s["coverage"] == pytest.approx(1 / 3, abs=1e-4)
    sugg = next(r for r in doc["statements"] if r["status"] == "suggested")
    assert sugg["claim"] == "1 - params(swiglu, d, 2.67*d) / params(relu, d, 4*d) ≈ 33%"
    assert sugg["detail"].startswith("a reading to confirm")


HOSTILE = ("Llama 2 7B has 40 layers \x1b[31mred\x1b[0m and \u202eevil \u0007bell "
           "<script>alert(1)</script>.\n")


def test_control_characters_never_reach_a_terminal(scan_text):
    result = scan_text(HOSTILE, "hostile.txt")  # plain text keeps the markup as text
    for fmt in ("text", "github"):
        out = report.RENDERERS[fmt](result)
        assert "\x1b" not in out and "\u202e" not in out and "\x07" not in out
        assert "\\u202e" in out  # a bidi override is escaped; control sequences and
        # control characters the reader drops (blocks.CONTROL): a terminal shows none
    assert "red and" in result["statements"][0]["text"]
    html = report.html(result)
    assert "<script>alert" not in html and "&lt;script&gt;" in html
    assert "\x1b" not in report.json_report(result) and "u001b" not in report.json_report(result)
    sarif = json.loads(report.sarif(result))
    assert sarif["version"] == "2.1.0"


def test_sarif_and_github(scan_text):
    result = scan_text(FALSE + UNREAD)
    sarif = json.loads(report.sarif(result))
    results = sarif["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["ffnverify-scan/false", "ffnverify-scan/unchecked"]
    region = results[0]["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (1, 1)
    gh = report.github(result).splitlines()
    assert gh[0].startswith("::error file=") and ",line=1,col=1," in gh[0]
    assert gh[1].startswith("::notice file=")


def test_suggest_file_is_a_claim_file(scan_text, engine, tmp_path):
    result = scan_text(GOOD + UNREAD + SUGGESTED + "Some \x1b[2J``` text with 8 layers.\n")
    text = suggest.render(result)
    assert "\x1b" not in text
    claims = markdown_claims(text, "suggest.md")
    assert [c.expr for c in claims] == [
        "1 - params(swiglu, d, 2.67*d) / params(relu, d, 4*d) ≈ 33%"]
    assert all(c.problem is None for c in claims)
    assert engine.evaluate(claims[0].expr)["verdict"] == "false"
    assert text.count("# TODO") == 2 and "# quote: \"SwiGLU models need" in text


class StubEngine:
    """Stands in for budget.Engine: records what it is asked, answers unknown."""

    def __init__(self, *a, **kw):
        self.kw = kw
        self.asked = []
        StubEngine.last = self

    def evaluate_many(self, requests, progress=None):
        self.asked += list(requests)
        return [{"verdict": "unknown", "value": "", "detail": "over budget", "col": None}
                for _ in requests]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass


def test_every_check_goes_through_the_budgeted_engine(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(scan_cmd, "Engine", StubEngine)
    (tmp_path / "a.md").write_text(GOOD + FALSE + GOOD, encoding="utf-8")
    code, out, _ = run_cli(tmp_path, capsys, tmp_path / "a.md", "--timeout", "0.25",
                           "--format", "json")
    assert StubEngine.last.kw["timeout"] == 0.25
    asked = [t for t, _ in StubEngine.last.asked]
    assert len(asked) == len(set(asked))  # each distinct claim once
    assert "3 * 32 == 96" in asked and "layers(llama-2-7b) == 32" in asked  # each part
    assert "approx(3 * 32, 96, abs=0.5)" in asked  # and its lenient reading
    assert "layers(llama-2-7b) == 40" in asked
    doc = json.loads(out)
    assert {r["verdict"] for r in doc["statements"]} == {"unknown"}
    assert code == 0  # unknown is never reported as false (nor as true)


def test_bad_usage(tmp_path, capsys):
    (tmp_path / "a.md").write_text(GOOD, encoding="utf-8")
    code, _, err = run_cli(tmp_path, capsys, tmp_path / "a.md", "--timeout", "0")
    assert code == 2 and "usage: ffnverify scan" in err  # a usage error, as `audit` gives it
    (tmp_path / "a.toml").write_text("", encoding="utf-8")
    code, out, _ = run_cli(tmp_path, capsys, tmp_path / "a.toml")
    assert code == 2 and "not a document the scan reads" in out
