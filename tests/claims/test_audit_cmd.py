"""`ffnverify audit`: exit codes, the four formats (JSON exactly as docs/architecture.md §5), the HTML
hook, garbage input, and the bundled docs/examples passing."""

import json
import random
import time
from pathlib import Path

import pytest

from ffnverify.claims import report_html
from ffnverify.cli import main

ROOT = Path(__file__).resolve().parents[2]
GOOD = '[[claim]]\nexpr = "params(swiglu, 4, 8) == 96"\n\n' \
       '[[claim]]\nid = "myth"\nexpr = "8/3*4096 == 10922"\nexpect = "false"\n'
WRONG = '[[claim]]\nexpr = "params(swiglu, d, h) == 2*d*h"\n'
BROKEN = '[[claim]]\nexpr = "params(swiglu, 4, 8) == 96"\n\n[[claim]]\nexpr = "1 +"\n'


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "good.toml").write_text(GOOD)
    (tmp_path / "wrong.toml").write_text(WRONG)
    (tmp_path / "broken.toml").write_text(BROKEN)
    return tmp_path


def audit(capsys, *args):
    code = main(["audit", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_exit_codes(project, capsys):
    assert audit(capsys, "good.toml")[0] == 0
    assert audit(capsys, "good.toml", "wrong.toml")[0] == 1
    assert audit(capsys, "good.toml", "wrong.toml", "broken.toml")[0] == 2
    assert audit(capsys, "missing.md")[0] == 2
    with pytest.raises(SystemExit) as e:
        main(["audit", "good.toml", "--format", "yaml"])
    assert e.value.code == 2


def test_text_output(project, capsys):
    _code, out, _ = audit(capsys, "wrong.toml", "broken.toml", "--color", "never")
    lines = out.splitlines()
    assert lines[0].startswith("wrong.toml:2:9: FALSE ✗ params(swiglu, d, h) == 2*d*h — ")
    assert "counterexample d=1, h=1" in lines[0]
    assert lines[2].startswith("broken.toml:5:12: ERROR ✗ 1 + — expected a number")
    assert lines[-1].startswith("3 claims: 1 true, 1 false, 0 unknown, 1 error, 0 skipped")
    _, coloured, _ = audit(capsys, "wrong.toml", "--color", "always")
    assert "\x1b[31mFALSE\x1b[0m" in coloured


def test_json_is_exactly_the_spec_shape(project, capsys):
    code, out, _ = audit(capsys, "good.toml", "wrong.toml", "--format", "json")
    doc = json.loads(out)
    assert code == 1
    assert list(doc) == ["version", "claims", "summary"] and doc["version"] == 1
    keys = ["id", "file", "line", "col", "expr", "verdict", "expect", "ok", "value", "detail"]
    assert all(list(c) == keys for c in doc["claims"])
    assert doc["claims"][1] == {
        "id": "myth", "file": "good.toml", "line": 6, "col": 9, "expr": "8/3*4096 == 10922",
        "verdict": "false", "expect": "false", "ok": True,
        "value": "32768/3 (10922.7) vs 10922", "detail": "differs by 2/3 (0.666667)"}
    assert doc["summary"] == {"total": 3, "true": 1, "false": 2, "unknown": 0, "error": 0,
                              "skipped": 0, "ok": 2, "failed": 1}


def test_sarif(project, capsys):
    _, out, _ = audit(capsys, "good.toml", "wrong.toml", "broken.toml", "--format", "sarif")
    doc = json.loads(out)
    assert doc["version"] == "2.1.0"
    run = doc["runs"][0]
    rule_ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert rule_ids == ["ffnverify/false", "ffnverify/true", "ffnverify/unknown",
                        "ffnverify/error", "ffnverify/skipped"]
    results = run["results"]
    assert [r["ruleId"] for r in results] == ["ffnverify/false", "ffnverify/error"]
    loc = results[0]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "wrong.toml", "uriBaseId": "%SRCROOT%"}
    assert loc["region"]["startLine"] == 2
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"].startswith("file://")
    fp = results[0]["partialFingerprints"]["claimHash/v1"]
    # the fingerprint survives the claim moving down the file
    (project / "wrong.toml").write_text("# moved\n\n" + WRONG)
    _, again, _ = audit(capsys, "wrong.toml", "--format", "sarif")
    moved = json.loads(again)["runs"][0]["results"][0]
    assert moved["partialFingerprints"]["claimHash/v1"] == fp
    assert moved["locations"][0]["physicalLocation"]["region"]["startLine"] == 4


def test_github_annotations(project, capsys):
    _, out, _ = audit(capsys, "wrong.toml", "broken.toml", "--format", "github")
    lines = out.splitlines()
    assert lines[0].startswith("::error file=wrong.toml,line=2,col=9,title=ffnverify%3A the "
                               "claim is false::params(swiglu, d, h) == 2*d*h — ")
    assert lines[1].startswith("::error file=broken.toml,line=5,col=12,")
    assert len(lines) == 3  # the claim that is ok gets no annotation


def test_output_file(project, capsys):
    code, out, err = audit(capsys, "good.toml", "--format", "json", "--output", "r.json")
    assert code == 0 and out == "" and "3 claims" not in err
    assert json.loads((project / "r.json").read_text())["summary"]["total"] == 2


def test_html_is_delegated_to_report_html(project, capsys, monkeypatch):
    seen = []
    monkeypatch.setattr(report_html, "render", lambda result: seen.append(result) or "<html/>")
    code, out, _err = audit(capsys, "good.toml", "--format", "html")
    assert code == 0 and out == "<html/>"
    assert seen and seen[0]["summary"]["total"] == 2 and seen[0]["version"] == 1


def test_progress_bar(project, capsys):
    _code, _, err = audit(capsys, "good.toml", "--progress", "always")
    assert "audit [" in err and "2/2" in err
    assert "audit [" not in audit(capsys, "good.toml")[2]  # not a terminal: no bar


def test_random_bytes_and_garbage_give_errors_not_tracebacks(project, capsys):
    rng = random.Random(3)
    def random_lines(n):  # n lines of random bytes
        return b"\n".join(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60)))
                           .replace(b"\n", b"") for _ in range(n))

    (project / "bytes.md").write_bytes(random_lines(10_000))
    (project / "bytes.toml").write_bytes(random_lines(10_000))
    lines = ["".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0x80, 0x2000)]))
                     for _ in range(rng.randrange(1, 80))).replace("`", "'")
             for _ in range(10_000)]
    (project / "garbage.md").write_text("```claim\n" + "\n".join(lines) + "\n```\n")
    t0 = time.monotonic()
    code, out, err = audit(capsys, "bytes.md", "bytes.toml", "garbage.md", "--format", "json")
    elapsed = time.monotonic() - t0
    doc = json.loads(out)
    print(f"10,000 garbage lines + random bytes: {elapsed:.2f} s")
    assert code == 2
    assert "Traceback" not in err
    verdicts = [c["verdict"] for c in doc["claims"]]
    assert verdicts[:2] == ["error", "error"]
    assert all("not UTF-8" in c["detail"] for c in doc["claims"][:2])
    assert doc["summary"]["error"] >= 9_000
    assert set(verdicts) <= {"error", "unknown", "false", "true"}
    # its time is a benchmark (benchmarks/test_bench_audit.py), not an assertion here


def test_bundled_docs_and_examples_pass(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    code, out, _ = audit(capsys, "docs", "examples")
    assert code == 0, out
    summary = out.splitlines()[-1]
    assert "all as expected" in summary


def test_errors_always_say_where(project, capsys):
    (project / "keys.toml").write_text('[[claim]]\nexpr = "1 == 1"\ncolour = "red"\n')
    _, out, _ = audit(capsys, "keys.toml", "--format", "json")
    (bad,) = json.loads(out)["claims"]  # one claim, reported once: as an error at the key
    assert (bad["line"], bad["col"], bad["verdict"]) == (3, 1, "error")
    assert bad["detail"].startswith("3:1: unknown key 'colour'")
    assert bad["expr"] == "1 == 1"


@pytest.mark.slow
def test_pre_commit_hook_runs_the_audit(monkeypatch, capsys):
    yaml = pytest.importorskip("yaml", reason="PyYAML reads .pre-commit-hooks.yaml")
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    hook = hooks["ffnverify-audit"]
    assert hook["id"] == "ffnverify-audit" and hook["language"] == "python"
    assert hook["pass_filenames"] is False
    program, command, *options = hook["entry"].split()
    assert (program, command) == ("ffnverify", "audit")
    assert {"--allow-empty", "--quiet"} <= set(options)
    monkeypatch.chdir(ROOT)
    code, out, _ = audit(capsys, *options, *hook["args"])  # what pre-commit runs here
    assert code == 0, out
    assert out.splitlines()[-1].endswith("all as expected") and len(out.splitlines()) == 1
