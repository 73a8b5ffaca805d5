"""Files that must not break an audit: FIFOs, devices, huge files, deep TOML, names that
are not UTF-8, control characters, Unicode line separators, CommonMark containers and
fences. Each case ends as exit 2 with an error at file:line:col (no traceback, no hang,
no lost claim), and the other files of the audit are still reported."""

import json
import os
import re
import sys
import threading
from html.parser import HTMLParser
from urllib.parse import quote

import pytest

from ffnverify.claims import files, report, report_html
from ffnverify.claims.audit import record, result_dict
from ffnverify.claims.files import collect, load, markdown_claims, toml_claims
from ffnverify.claims.printable import UNSAFE
from ffnverify.cli import main

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file kinds")


def audit(capsys, *args):
    code = main(["audit", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def problems(claims):
    return [(c.line, c.col, c.problem) for c in claims if c.problem]


def within(seconds, fn, *args):
    """fn(*args), failing (not hanging) if it takes longer than `seconds`."""
    box = []
    worker = threading.Thread(target=lambda: box.append(fn(*args)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"{fn.__name__} still running after {seconds} s"
    return box[0]


# ---- file kinds and sizes ---------------------------------------------------------------

@posix_only
def test_a_fifo_is_an_error_and_never_blocks(tmp_path):
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    (claim,) = within(10, load, fifo)
    assert "not a regular file" in claim.problem and "FIFO" in claim.problem
    assert (claim.line, claim.col) == (1, 1)
    # walked: reported too, and the other files still read
    (tmp_path / "ok.md").write_text("```claim\n1 == 1\n```\n")
    claims = within(10, collect, [tmp_path])
    assert [c.expr for c in claims if not c.problem] == ["1 == 1"]
    assert any("FIFO" in (c.problem or "") for c in claims)


@posix_only
def test_a_symlink_to_a_device_is_an_error(tmp_path):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    (tmp_path / "zero.md").symlink_to("/dev/zero")
    (tmp_path / "zero.toml").symlink_to("/dev/zero")
    (tmp_path / "real.md").write_text("```claim\n2 == 2\n```\n")
    (tmp_path / "link.md").symlink_to(tmp_path / "real.md")  # to a regular file: read
    claims = within(10, collect, [tmp_path])
    assert [c.expr for c in claims if not c.problem] == ["2 == 2", "2 == 2"]
    devices = [c for c in claims if c.problem]
    assert len(devices) == 2
    assert all("character device" in c.problem and (c.line, c.col) == (1, 1) for c in devices)
    (missing,) = collect([tmp_path / "zero.md", ])[:1]
    assert "character device" in missing.problem


def test_a_dangling_symlink_is_an_error(tmp_path):
    try:
        (tmp_path / "gone.md").symlink_to(tmp_path / "nowhere.md")
    except OSError:
        pytest.skip("no symlinks here")
    (claim,) = collect([tmp_path / "gone.md"])
    assert "cannot read" in claim.problem


def test_a_file_over_the_size_limit_is_an_error_before_it_is_read(tmp_path):
    huge = tmp_path / "huge.md"
    with open(huge, "wb") as f:  # sparse: no disk is used
        f.truncate(10 * files.MAX_FILE_BYTES)
    (claim,) = within(5, load, huge)
    assert "limit" in claim.problem and f"{files.MAX_FILE_BYTES:,}" in claim.problem
    just = tmp_path / "just.md"
    just.write_bytes(b"```claim\n1 == 1\n```\n" + b" " * (files.MAX_FILE_BYTES - 20))
    assert [c.expr for c in load(just)] == ["1 == 1"]  # at the limit: read


def test_one_huge_line_is_bounded_like_any_claim(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = "1 + " * 400_000 + "1 == 2"  # 1.6 MB: two of them fit the file limit
    (tmp_path / "long.md").write_text(f"```claim\n{line}\n1 == 1  # assume: {line}\n```\n")
    code, out, err = audit(capsys, "long.md", "--format", "json")
    doc = json.loads(out)
    assert code == 2 and "Traceback" not in err
    first, second = doc["claims"]
    assert "characters long" in first["detail"] and first["verdict"] == "error"
    assert len(first["expr"]) < 2100  # the report holds a bounded excerpt
    assert "assumption is" in second["detail"] and second["verdict"] == "error"


# ---- TOML -----------------------------------------------------------------------------

@pytest.mark.parametrize("opening, closing", [("[", "]"), ("{a = ", "}")])
def test_deep_toml_is_an_error_at_its_position(tmp_path, opening, closing):
    depth = 5000
    deep = tmp_path / "deep.toml"
    deep.write_text(f'[[claim]]\nexpr = "1 == 1"\nassume = {opening * depth}1{closing * depth}\n')
    (tmp_path / "ok.toml").write_text('[[claim]]\nexpr = "2 == 2"\n')
    claims = collect([deep, tmp_path / "ok.toml"])
    (line, col, problem), = problems(claims)
    assert "nested deeper than" in problem
    col_of_first = len("assume = ") + 1
    assert (line, col) == (3, col_of_first + files.MAX_TOML_DEPTH * len(opening))
    assert [c.expr for c in claims if not c.problem] == ["2 == 2"]


def test_toml_at_the_depth_limit_is_read(tmp_path):
    depth = files.MAX_TOML_DEPTH
    text = f'[[claim]]\nexpr = "1 == 1"\nquote = "[[[[ not nesting"\nx = {"[" * depth}{"]" * depth}\n'
    (claim,) = toml_claims(text, "d.toml")
    assert "unknown key 'x'" in claim.problem and claim.problem_at == (4, 1)


def test_deep_toml_outside_any_claim_and_in_strings(tmp_path):
    text = '[[claim]]\nexpr = "1 == 1"\n' + 'q = "' + "[" * 500 + '"\n'
    (claim,) = toml_claims(text, "s.toml")  # brackets in a string are not nesting
    assert "unknown key 'q'" in claim.problem


TOML_POSITIONS = '''\
[["claim"]]
"expr" = "1 \\u002B 1 == 3 +"
Expect = "False"

[[ claim ]]  # spaced
expr = """
  1 +
  2 == 3 +
"""
ID = 'second'

[[claim]]
expr = 'params(relu, 4, 8) == 64'
expect = true
Expect = false
'''


def test_toml_positions_with_quoted_headers_escapes_and_lines():
    first, second, third = toml_claims(TOML_POSITIONS, "p.toml")
    assert (first.line, first.col, first.expr, first.expect) == (2, 11, "1 + 1 == 3 +", "false")
    # the last '+' of the claim, behind a \u escape, is at column 27 of line 2
    assert first.position(len(first.expr) - 1) == (2, 27)
    assert (second.line, second.col, second.expr, second.id) == (7, 3, "1 + 2 == 3 +",
                                                                 "second")
    assert second.position(len(second.expr) - 1) == (8, 10)
    assert "repeats 'expect'" in third.problem and third.problem_at == (15, 1)


def test_errors_inside_a_toml_claim_point_at_the_character(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.toml").write_text(TOML_POSITIONS)
    code, out, _ = audit(capsys, "p.toml", "--format", "json")
    doc = json.loads(out)
    assert code == 2
    # claims in line order: the end of the first claim, then the second's last line
    assert [(c["line"], c["col"]) for c in doc["claims"]] == [(2, 28), (8, 11), (15, 1)]
    assert doc["claims"][0]["detail"].startswith("2:28: expected a number")


def test_a_claim_with_an_unknown_key_is_reported_once_at_the_key():
    text = '[[claim]]\nexpr = "1 == 1"\ncolour = "red"\nexpcet = "false"\n'
    (claim,) = toml_claims(text, "k.toml")
    assert claim.problem_at == (3, 1)
    assert "unknown key 'colour'" in claim.problem
    assert "unknown key 'expcet' in a claim; did you mean 'expect'?" in claim.problem
    rec = record(claim, None)
    assert (rec["line"], rec["col"], rec["verdict"]) == (3, 1, "error")


def test_sub_tables_of_a_claim_are_unknown_keys_at_their_header():
    text = '[[claim]]\nexpr = "1 == 1"\n\n[claim.extra]\nx = 1\n'
    (claim,) = toml_claims(text, "t.toml")
    assert "unknown key 'extra'" in claim.problem and claim.problem_at == (4, 1)


def test_toml_reports_follow_the_line_order(tmp_path):
    f = tmp_path / "o.toml"
    f.write_text('[[claim]]\nexpr = "1 == 1"\n\n[[claim]]\nexpr = "2 == 2"\n'
                 'bad = 1\n\n[[claim]]\nexpr = "3 == 3"\n\n[other]\nx = 1\n')
    claims = load(f)
    lines = [c.problem_at or (c.line, c.col) for c in claims]
    assert lines == sorted(lines) and len(claims) == 4


def test_a_capitalised_claim_table_gets_a_hint():
    (claim,) = toml_claims('[[Claim]]\nexpr = "1 == 1"\n', "c.toml")
    assert "did you mean [[claim]]?" in claim.problem and (claim.line, claim.col) == (1, 1)


def test_a_toml_string_with_control_characters_stays_one_claim():
    (claim,) = toml_claims('[[claim]]\nexpr = "1 == 1\\u001b[2J\\u2028"\n', "e.toml")
    assert claim.expr == "1 == 1\x1b[2J\u2028"  # held exactly, printed escaped


# ---- Markdown as CommonMark reads it ---------------------------------------------------

def md(text):
    return [(c.line, c.col, c.expr, c.problem) for c in markdown_claims(text, "m.md")]


def test_fences_in_block_quotes_and_list_items():
    text = ("> ```claim\n> 1 == 1  # Expect: FALSE\n>\n>     2 == 2\n> ```\n\n"
            "1. item\n\n   ~~~claim\n      3 == 3\n   ~~~\n\n"
            "- > - ```claim\n  >   4 == 4\n  >   ```\n")
    assert md(text) == [(2, 3, "1 == 1", None), (4, 7, "2 == 2", None),
                        (10, 7, "3 == 3", None), (14, 7, "4 == 4", None)]
    assert markdown_claims(text, "m.md")[0].expect == "false"


def test_a_fence_in_a_container_closes_where_the_container_ends():
    text = "> ```claim\n> 1 == 1\n\nnot a claim\n```\n"
    claims = md(text)
    assert claims[0] == (2, 3, "1 == 1", None)
    (line, col, _, problem), = [c for c in claims if c[3]]
    assert (line, col) == (1, 3) and "block quote or list item" in problem
    # the ``` at line 5 opens a new (non-claim) fence: 'not a claim' is prose
    assert "not a claim" not in [c[2] for c in claims]


def test_fence_lengths_and_closing_lines_follow_commonmark():
    assert md("````claim\n1 == 1\n```\n````\n") == [(2, 1, "1 == 1", None),
                                                   (3, 1, "```", None)]
    assert md("```claim\n1 == 1\n`````\n2 == 2\n") == [(2, 1, "1 == 1", None)]
    assert md("```claim\n1 == 1\n``` not a close\n```\n") == [
        (2, 1, "1 == 1", None), (3, 1, "``` not a close", None)]
    assert md("```claim\n1 == 1\n   ```\n2 == 2\n") == [(2, 1, "1 == 1", None)]
    assert md("    ```claim\n    1 == 1\n    ```\n") == []  # indented code, not a fence
    assert md("`````markdown\n```claim\n1 == 1\n```\n`````\n") == []  # an example of one
    assert md("```claim extra words\n1 == 1\n```\n") == [(2, 1, "1 == 1", None)]
    assert md("```claims\n1 == 1\n```\n") == []
    assert md("```&#99;laim\n1 == 1\n```\n") == [(2, 1, "1 == 1", None)]  # as rendered


def test_an_unclosed_fence_runs_to_the_end_of_the_file():
    claims = md("text\n\n```claim\n1 == 1\n2 == 2")
    assert claims[:2] == [(4, 1, "1 == 1", None), (5, 1, "2 == 2", None)]
    assert claims[2][:2] == (3, 1) and "end of the file" in claims[2][3]


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_line_endings_are_the_commonmark_ones(ending):
    text = ending.join(["# t", "", "```claim", "1 == 1", "", "  2 == 2  # id: b", "```",
                        "```claim", "3 == 3", "```", ""])
    assert [(c[0], c[1], c[2]) for c in md(text)] == [(4, 1, "1 == 1"), (6, 3, "2 == 2"),
                                                      (9, 1, "3 == 3")]


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x85", "\x0c", "\x0b", "\x1c"])
def test_unicode_line_separators_do_not_end_lines_or_fences(char):
    text = f"```claim\n1 == 1 {char} 2 == 2\n{char}```\n3 == 3\n```\n4 == 4\n"
    claims = markdown_claims(text, "m.md")
    assert [c.line for c in claims] == [2, 3, 4]  # line 3 is not a closing fence
    assert claims[0].expr == f"1 == 1 {char} 2 == 2"
    assert claims[2].expr == "3 == 3"


def test_claim_fences_nested_too_deep_are_errors_not_lost():
    deep = ">" * (files.MAX_MARKDOWN_NESTING + 5)
    text = f"{deep} ```claim\n{deep} 1 == 1\n{deep} ```\n\n```claim\n2 == 2\n```\n"
    claims = md(text)
    assert (6, 1, "2 == 2", None) in claims
    (problem,) = [c for c in claims if c[3]]
    assert problem[:2] == (1, len(deep) + 2) and "nested deeper" in problem[3]


def test_trailers_are_case_insensitive_and_typos_are_errors_at_their_token():
    text = ("```claim\n1 == 1  # EXPECT: False\n1 == 1  # expect: fals\n"
            "1 == 1  # expcet: false\n1 == 1  # note: a plain comment\n"
            "x  # Empirical: needs training # ID: e\n```\n")
    a, b, c, d, e = markdown_claims(text, "t.md")
    assert (a.expect, a.problem) == ("false", None)
    assert b.problem_at == (3, 19) and "did you mean 'false'?" in b.problem
    assert c.problem_at == (4, 11) and "unknown trailer 'expcet:'" in c.problem
    assert d.problem is None and d.expect == "true"
    assert (e.empirical, e.expect, e.id) == ("needs training", "skipped", "e")
    rec = record(b, None)
    assert rec["detail"].startswith("3:19: expect must be one of")


def test_a_file_that_is_not_utf8_is_an_error_at_the_byte(tmp_path):
    f = tmp_path / "b.md"
    f.write_bytes(b"a\r\nb\rc\xffd\n")
    (claim,) = load(f)
    assert (claim.line, claim.col) == (3, 2) and "not UTF-8" in claim.problem


# ---- names and text that are not safe to print -----------------------------------------

HOSTILE_NAMES = ["line\nbreak.md", "esc\x1b[31mred.md", "::warning title=x::y.md",
                 " ::error ::z.md", "nel\x85.md", "ls\u2028.md", "bidi\u202eevil.md"]


def raw_controls(text: str) -> list[str]:
    return [ch for ch in text if UNSAFE.match(ch) and ch != "\n"]


@posix_only
def test_hostile_names_in_every_format(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    names = [n for n in HOSTILE_NAMES]
    for name in names:
        (tmp_path / name).write_text("```claim\n1 +\n```\n")
    bad = os.fsencode(tmp_path) + b"/bad\xff\xfename.md"
    with open(bad, "wb") as f:
        f.write(b"```claim\n1 +\n```\n")
    expected_lines = len(names) + 2  # one error per file, plus the summary
    code, out, _ = audit(capsys, ".", "--format", "text", "--color", "always")
    assert code == 2
    lines = out.split("\n")[:-1]
    assert len(lines) == expected_lines
    assert not any(line.lstrip().startswith("::") for line in lines)
    assert not raw_controls(out.replace("\x1b[", "["))  # our own colour codes aside
    assert "bad\\xff\\xfename.md:2:4: " in out
    code, out, _ = audit(capsys, ".", "--format", "github")
    lines = out.split("\n")[:-1]
    assert len(lines) == expected_lines and not raw_controls(out)
    assert all(line.startswith("::error file=") for line in lines[:-1])
    assert all(line.count("::") == 2 for line in lines[:-1])  # only the command's own
    for fmt in ("json", "sarif"):
        code, out, _ = audit(capsys, ".", "--format", fmt)
        assert not raw_controls(out)
        doc = json.loads(out)
        shown = json.dumps(doc)
        assert "bad\\\\xff\\\\xfename.md" in shown  # escaped in the data itself
    files_in_json = {c["file"] for c in json.loads(audit(capsys, ".", "--format", "json")[1])
                     ["claims"]}
    assert set(names) | {"bad\\xff\\xfename.md"} == files_in_json
    sarif = json.loads(audit(capsys, ".", "--format", "sarif")[1])
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in sarif["runs"][0]["results"]}
    assert "bad%5Cxff%5Cxfename.md" in uris and all(" " not in u for u in uris)
    page = audit(capsys, ".", "--format", "html")[1]
    assert not raw_controls(page)
    text = []

    class Text(HTMLParser):
        def handle_data(self, data):
            text.append(data)

    Text().feed(page)
    assert "bad\\xff\\xfename.md:2:4" in "".join(text)
    assert "line\\nbreak.md" in "".join(text)


@posix_only
def test_output_to_a_name_that_is_not_utf8(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.md").write_text("```claim\n1 +\n```\n")
    target = os.fsdecode(b"r\xff.json")
    code, out, err = audit(capsys, "c.md", "--format", "json", "-o", target)
    assert code == 2 and out == ""
    assert json.loads((tmp_path / target).read_text())["summary"]["error"] == 1
    assert err.startswith("1 claim: ")
    code, _, err = audit(capsys, "c.md", "-o", os.fsdecode(b"no\xffdir/x\n.txt"))
    assert code == 2 and "cannot write no\\xffdir/x\\n.txt" in err


def test_every_file_level_case_is_exit_2_with_a_position(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cases = {
        "deep.toml": '[[claim]]\nexpr = "1 == 1"\nx = ' + "[" * 3000 + "]" * 3000 + "\n",
        "syntax.toml": '[[claim]]\nexpr = "1 == 1\n',
        "bytes.md": b"\xff",
        "unclosed.md": "```claim\n",
        "keys.toml": '[[claim]]\nexpr = "1 == 1"\nExpect = "nope"\n',
        "trailer.md": "```claim\n1 == 1 # expect: maybe\n```\n",
    }
    for name, content in cases.items():
        path = tmp_path / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    (tmp_path / "good.md").write_text("```claim\n1 + 1 == 2\n```\n")
    code, out, err = audit(capsys, ".", "--format", "json")
    doc = json.loads(out)
    assert code == 2 and "Traceback" not in err
    by_file = {}
    for c in doc["claims"]:
        by_file.setdefault(c["file"], []).append(c)
    for name in cases:
        errors = [c for c in by_file[name] if c["verdict"] == "error"]
        assert errors, name
        assert all(c["detail"].startswith(f"{c['line']}:{c['col']}: ") for c in errors), name
    assert by_file["good.md"][0]["verdict"] == "true"  # no lost claim


# ---- the command line -------------------------------------------------------------------

def test_no_claims_is_exit_2_unless_allowed(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "prose.md").write_text("# nothing to check\n")
    code, out, err = audit(capsys, "prose.md", ".")
    assert code == 2 and "no claims found in prose.md ." in err
    code, out, err = audit(capsys, "--allow-empty", ".")
    assert code == 0 and "no claims found in ." in err
    assert out.startswith("0 claims: ") and "nothing was checked" in out


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-1", "1e999", "soon"])
def test_timeout_must_be_finite_and_positive(value, tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        main(["audit", str(tmp_path), f"--timeout={value}"])
    assert e.value.code == 2
    assert "not a finite number of CPU seconds above 0" in capsys.readouterr().err


def test_engine_refuses_a_bad_timeout():
    from ffnverify.claims.budget import Engine

    for bad in (float("nan"), float("inf"), 0, -2):
        with pytest.raises(ValueError):
            Engine(timeout=bad)


def test_quiet_prints_only_what_failed(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.md").write_text("```claim\n1 + 1 == 2\n1 +\n2 == 3  # expect: false\n```\n")
    code, out, _ = audit(capsys, "c.md", "-q")
    lines = out.splitlines()
    assert code == 2 and len(lines) == 2
    assert lines[0].startswith("c.md:3:4: ERROR") and lines[1].startswith("3 claims: ")


def test_summary_grammar():
    one = {"total": 1, "true": 1, "false": 0, "unknown": 0, "error": 0, "skipped": 0,
           "ok": 1, "failed": 0}
    assert report.summary_line(one).startswith("1 claim: ")
    assert report.summary_line(one | {"total": 2}).startswith("2 claims: ")


def test_github_titles_say_what_is_wrong():
    claims = [{"id": "x", "file": "f.md", "line": 1, "col": 1, "expr": "e",
               "verdict": v, "expect": "true" if v != "true" else "false", "ok": False,
               "value": "", "detail": "d"} for v in ("false", "true", "unknown", "error")]
    out = report.github(result_dict(claims))
    titles = [line.split("title=")[1].split("::")[0] for line in out.splitlines()[:-1]]
    assert titles == ["ffnverify%3A the claim is false",
                      "ffnverify%3A the claim holds%2C against its expectation",
                      "ffnverify%3A the claim could not be decided",
                      "ffnverify%3A the claim cannot be checked"]
    assert "claim is error" not in out


def test_html_never_breaks_a_file_name_at_a_hyphen():
    rec = {"id": "x", "file": "docs/my-long-file-name.md", "line": 3, "col": 1, "expr": "e",
           "verdict": "true", "expect": "true", "ok": True, "value": "", "detail": ""}
    page = report_html.render(result_dict([rec]))
    assert ('<span class="seg">docs</span>/<wbr><span class="seg">my-long-file-name.md:3:1'
            '</span>') in page
    assert ".source .seg { white-space: nowrap; }" in page


@posix_only
@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github", "html"])
def test_file_level_errors_in_every_format(fmt, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.mkfifo(tmp_path / "pipe.md")
    if os.path.exists("/dev/zero"):
        (tmp_path / "zero.md").symlink_to("/dev/zero")
    with open(tmp_path / "huge.md", "wb") as f:
        f.truncate(files.MAX_FILE_BYTES + 1)
    (tmp_path / "deep.toml").write_text('[[claim]]\nexpr = "1 == 1"\nx = ' + "[" * 999 + "\n")
    with open(os.fsencode(tmp_path) + b"/n\xffu\x1b.md", "wb") as f:
        f.write(b"```claim\n\xfe\n```\n")
    (tmp_path / "keys.toml").write_text('[[claim]]\nexpr = "1 == 1"\nExpect = "nope"\n')
    code, out, err = within(60, audit, capsys, ".", "--format", fmt)
    assert code == 2 and "Traceback" not in err
    assert not raw_controls(out)
    expected = {"pipe.md": "1:1", "huge.md": "1:1", "deep.toml": "3:105",
                "n\\xffu\\x1b.md": "2:1", "keys.toml": "3:10"}
    if os.path.exists("/dev/zero"):
        expected["zero.md"] = "1:1"
    if fmt in ("text", "github", "html"):
        if fmt == "html":  # the source cell's segments, as text
            out = re.sub(r'</?span[^>]*>|<wbr>', "", out)
        for name, where in expected.items():
            line, col = where.split(":")
            shown = {"text": f"{name}:{where}: ERROR", "html": f"{name}:{where}",
                     "github": f"file={name},line={line},col={col},"}[fmt]
            assert shown in out, (fmt, name)
        return
    doc = json.loads(out)
    # JSON holds the control character itself (as a JSON escape, lossless); SARIF a URI
    expected["n\\xffu\x1b.md"] = expected.pop("n\\xffu\\x1b.md")
    if fmt == "json":
        got = {c["file"]: f"{c['line']}:{c['col']}" for c in doc["claims"]}
    else:
        got = {}
        for r in doc["runs"][0]["results"]:
            loc = r["locations"][0]["physicalLocation"]
            got[loc["artifactLocation"]["uri"]] = \
                f"{loc['region']['startLine']}:{loc['region']['startColumn']}"
        expected = {quote(k): v for k, v in expected.items()}
    assert got == expected


def test_a_folder_that_cannot_be_listed_is_an_error(tmp_path, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "a.md").write_text("```claim\n1 == 1\n```\n")
    (tmp_path / "b.md").write_text("```claim\n2 == 2\n```\n")
    real_scandir = os.scandir

    def scandir(path="."):  # what a folder without read permission does (even for root)
        if os.fspath(path) == os.fspath(locked):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    claims = collect([tmp_path])
    assert [c.expr for c in claims if not c.problem] == ["2 == 2"]
    (problem,) = [c for c in claims if c.problem]
    assert "cannot read the folder: Permission denied" in problem.problem
    assert problem.file.endswith("locked")


def test_a_claim_table_one_typo_away_is_reported_not_skipped(tmp_path):
    (tmp_path / "a.toml").write_text('[[claims]]\nexpr = "1 == 1"\n')
    (tmp_path / "b.toml").write_text('[[ "Claim" ]]\nexpr = "1 == 1"\n')
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    claims = collect([tmp_path])
    assert [(c.file.rsplit("/", 1)[-1], c.line, c.col) for c in claims] == [
        ("a.toml", 1, 1), ("b.toml", 1, 1)]
    assert all("did you mean [[claim]]?" in c.problem for c in claims)
