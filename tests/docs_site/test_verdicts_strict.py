"""The docs build fails on any claim that is not as expected, `unknown` and `error`
included, and when the audit gives no JSON at all; the message lists the claims."""

import json

import pytest

from docs_build import verdicts

SLOW = "(d + h + n + 1)**300 - (d + h + n)**300 >= 1"


def _index(*claims):
    return {"page.md": {c["line"]: c for c in claims}}


@pytest.mark.parametrize("verdict,expect", [("unknown", "true"), ("error", "true"),
                                            ("false", "true"), ("true", "false"),
                                            ("unknown", "false")])
def test_every_verdict_that_is_not_the_expectation_is_a_miss(verdict, expect):
    miss = {"line": 3, "verdict": verdict, "expect": expect, "ok": False,
            "detail": "why\x1b[2J\nnext"}
    good = {"line": 4, "verdict": "true", "expect": "true", "ok": True}
    (line,) = verdicts.misses(_index(miss, good))
    assert line.startswith(f"page.md:3: {verdict}, expected {expect}"), line
    assert "\x1b" not in line and "\n" not in line  # escaped, never raw in the build log


def test_a_record_without_ok_counts_as_a_miss_and_expected_ones_do_not():
    assert verdicts.misses(_index({"line": 1, "verdict": "true"})) == \
        ["page.md:1: true, expected true"]
    assert verdicts.misses(_index({"line": 1, "verdict": "false", "expect": "false",
                                   "ok": True})) == []


@pytest.mark.slow
def test_a_real_audit_reports_an_unknown_claim_as_a_miss(tmp_path):
    (tmp_path / "page.md").write_text(
        f"# Page\n\n```claim\n1 + 1 == 2\n{SLOW}\n```\n", encoding="utf-8")
    index, message = verdicts.run_audit(tmp_path)
    assert index is not None, message
    (miss,) = verdicts.misses(index)
    assert miss.startswith("page.md:5: unknown, expected true"), miss
    assert "--timeout" in miss


def test_no_json_from_the_audit_is_none_not_an_empty_index(tmp_path, monkeypatch):
    class Done:
        stdout = "Traceback (most recent call last): ..."

    monkeypatch.setattr(verdicts.subprocess, "run", lambda *a, **k: Done())
    index, message = verdicts.run_audit(tmp_path)
    assert index is None and "no JSON" in message


def test_the_build_hook_fails_on_a_miss_and_on_no_json(monkeypatch, tmp_path):
    pytest.importorskip("mkdocs", reason="the build hook needs MkDocs (the docs tox env)")
    pytest.importorskip("matplotlib", reason="the build hook needs matplotlib (the docs tox env)")
    from mkdocs.exceptions import PluginError

    from docs_build import hooks

    miss = {"line": 7, "verdict": "unknown", "expect": "true", "ok": False,
            "detail": "not decided within the time budget of 2 CPU s"}
    monkeypatch.setattr(verdicts, "run_audit", lambda *a, **k: (_index(miss), "1 claim"))
    with pytest.raises(PluginError, match=r"page\.md:7: unknown, expected true"):
        hooks.on_pre_build({"docs_dir": str(tmp_path)})
    monkeypatch.setattr(verdicts, "run_audit", lambda *a, **k: (None, "no verdicts: no JSON"))
    with pytest.raises(PluginError, match="no JSON"):
        hooks.on_pre_build({"docs_dir": str(tmp_path)})
    good = {"line": 7, "verdict": "true", "expect": "true", "ok": True}
    monkeypatch.setattr(verdicts, "run_audit", lambda *a, **k: (_index(good), "1 claim"))
    hooks.on_pre_build({"docs_dir": str(tmp_path)})
    assert hooks._verdicts == _index(good)
    assert json.dumps(hooks._verdicts)  # what annotate reads: plain JSON data
