"""The one SARIF writer (ffnverify/claims/sarif.py): the audit's and the scan's SARIF logs
pass the same validation, and the validation catches the broken logs it is meant to.

`check_log` is the SARIF 2.1.0 that GitHub code scanning reads, written out as checks: one
run; a driver with its rules (unique ids, a level each); every result naming a rule by id
and by index, with a SARIF level, a message, one location (a relative URI under a declared
%SRCROOT%, percent-encoded, or an absolute file URI) and a region from 1; fingerprints as
strings; and no control, bidirectional or lone-surrogate character printed raw.
"""

import copy
import json
import re

import pytest

from ffnverify import __version__
from ffnverify.claims import report, sarif
from ffnverify.claims.audit import check, result_dict
from ffnverify.claims.budget import Engine
from ffnverify.claims.files import load
from ffnverify.scan import report as scan_report
from ffnverify.scan.scan import scan

# what must never appear raw in a log: C0 but the layout's newline, DEL, C1, the line and
# paragraph separators, the bidirectional controls and lone surrogates (printable.UNSAFE)
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f"
                 "\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
HOSTILE = "\u202eevil\u0085 \x1b[m"


def check_log(text: str) -> dict:
    """The SARIF document `text`, after every check above (AssertionError otherwise)."""
    assert text.endswith("\n")
    assert not RAW.search(text), RAW.search(text)
    doc = json.loads(text)
    assert doc["$schema"] == sarif.SCHEMA and doc["version"] == "2.1.0"
    (run,) = doc["runs"]
    assert run["columnKind"] == "unicodeCodePoints"
    bases = run["originalUriBaseIds"]
    assert bases["%SRCROOT%"]["uri"].startswith("file:///")
    assert bases["%SRCROOT%"]["uri"].endswith("/")
    driver = run["tool"]["driver"]
    assert driver["name"].startswith("ffnverify") and driver["version"] == __version__
    rules = driver["rules"]
    ids = [r["id"] for r in rules]
    assert len(set(ids)) == len(ids) and ids
    for r in rules:
        assert r["shortDescription"]["text"] and r["name"]
        assert r["defaultConfiguration"]["level"] in sarif.LEVELS
    for res in run["results"]:
        assert res["ruleId"] in ids and ids[res["ruleIndex"]] == res["ruleId"]
        assert res["level"] in sarif.LEVELS
        assert isinstance(res["message"]["text"], str) and res["message"]["text"]
        (loc,) = res["locations"]
        where = loc["physicalLocation"]["artifactLocation"]
        if "uriBaseId" in where:
            assert where["uriBaseId"] in bases
            assert not where["uri"].startswith("/") and ":" not in where["uri"]
            assert not re.search(r"[\s\"<>\\^`{|}]", where["uri"]), where["uri"]
        else:
            assert where["uri"].startswith("file:///")
        region = loc["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
        assert region.get("endLine", region["startLine"]) >= region["startLine"]
        prints = res["partialFingerprints"]
        assert prints and all(isinstance(v, str) and v for v in prints.values())
    return doc


@pytest.fixture(scope="module")
def engine():
    return Engine(isolate=False)


@pytest.fixture
def logs(tmp_path, monkeypatch, engine):
    """(the audit's SARIF, the scan's SARIF) of files with hostile names and text."""
    work, elsewhere = tmp_path / "work", tmp_path / "elsewhere"
    work.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(work)
    claims = work / "my claims #1.toml"
    claims.write_text('[[claim]]\nexpr = "params(swiglu, d, h) == 2*d*h"\n\n'
                      f'[[claim]]\nexpr = {json.dumps("1 + " + HOSTILE)}\n', encoding="utf-8")
    doc, outside = work / "a doc %20.md", elsewhere / "doc.md"
    for path in (doc, outside):  # outside the working directory: no relative URI exists
        path.write_text(f"Llama 2 7B has 40 layers {HOSTILE}.\n", encoding="utf-8")
    records = check(load(claims.name), engine)
    audited = report.sarif(result_dict(records))
    scanned = scan_report.sarif(scan([doc.name], engine))
    absolute = scan_report.sarif(scan([str(outside)], engine))
    return audited, scanned, absolute


def test_both_reports_pass_the_one_validation(logs):
    audited, scanned, absolute = (check_log(t) for t in logs)
    assert [r["ruleId"] for r in audited["runs"][0]["results"]] == [
        "ffnverify/false", "ffnverify/error"]
    assert "ffnverify-scan/false" in [r["ruleId"] for r in scanned["runs"][0]["results"]]
    # the same document around different rules and results: the one writer's
    for doc in (audited, scanned):
        run = doc["runs"][0]
        assert set(doc) == {"$schema", "version", "runs"}
        assert set(run) == {"tool", "originalUriBaseIds", "columnKind", "results"}
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]
            for d in (audited, scanned, absolute) for r in d["runs"][0]["results"]]
    assert {"uri": "my%20claims%20%231.toml", "uriBaseId": "%SRCROOT%"} in uris
    assert {"uri": "a%20doc%20%2520.md", "uriBaseId": "%SRCROOT%"} in uris
    assert any(u["uri"].startswith("file:///") and "uriBaseId" not in u for u in uris)


def test_the_hostile_text_survives_losslessly(logs):
    audited, scanned, _ = (json.loads(t) for t in logs)
    for doc in (audited, scanned):
        texts = [r["message"]["text"] for r in doc["runs"][0]["results"]]
        assert any("\u202eevil" in t for t in texts)  # escaped in the text, not lost


def _broken(doc, how):
    doc = copy.deepcopy(doc)
    res = doc["runs"][0]["results"][0]
    where = res["locations"][0]["physicalLocation"]
    if how == "rule index":
        res["ruleIndex"] += 1
    elif how == "unknown rule":
        res["ruleId"] = "ffnverify/nosuch"
    elif how == "level":
        res["level"] = "fatal"
    elif how == "absolute under the base":
        where["artifactLocation"]["uri"] = "/etc/passwd"
    elif how == "not encoded":
        where["artifactLocation"]["uri"] = "my claims.toml"
    elif how == "undeclared base":
        where["artifactLocation"]["uriBaseId"] = "%OTHER%"
    elif how == "line 0":
        where["region"]["startLine"] = 0
    elif how == "no fingerprint":
        res["partialFingerprints"] = {}
    elif how == "version":
        doc["version"] = "2.0.0"
    elif how == "duplicate rule":
        rules = doc["runs"][0]["tool"]["driver"]["rules"]
        rules.append(rules[0])
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("how", ["rule index", "unknown rule", "level",
                                 "absolute under the base", "not encoded", "undeclared base",
                                 "line 0", "no fingerprint", "version", "duplicate rule"])
def test_the_validation_catches_broken_logs(logs, how):
    for text in logs[:2]:
        doc = check_log(text)
        with pytest.raises(AssertionError):
            check_log(_broken(doc, how))


def test_a_raw_bidi_character_is_caught(logs):
    doc = json.loads(logs[1])
    with pytest.raises(AssertionError):  # json.dumps leaves U+202E raw; json_text does not
        check_log(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    check_log(sarif.log("ffnverify-scan", doc["runs"][0]["tool"]["driver"]["rules"],
                        doc["runs"][0]["results"]))
