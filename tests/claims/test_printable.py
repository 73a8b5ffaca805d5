"""Properties of the one escape every report uses, and of CommonMark line splitting:
whatever file name, claim text or detail Hypothesis makes up, no report line begins
with `::` (a GitHub workflow command) or holds a raw C0/C1 control character, JSON stays
lossless, and a claim keeps its line and column whatever Unicode separators it holds."""

import json
import os
import re

from hypothesis import given
from hypothesis import strategies as st

from ffnverify.claims import report, report_html
from ffnverify.claims.audit import record, result_dict
from ffnverify.claims.files import markdown_claims
from ffnverify.claims.printable import UNSAFE, fs_name, json_text, line_lead, visible

NASTY = list("\n\r\t\x00\x1b\x7f\x85\x9b\u2028\u2029\u202e\udcff\x0b\x0c\x1c:% ,#\\")
TEXT = st.text(st.one_of(st.characters(), st.sampled_from(NASTY)), max_size=40)
VERDICTS = ("true", "false", "unknown", "error", "skipped")
C0_C1 = re.compile("[\x00-\x1f\x7f-\x9f]")
SGR = re.compile(r"\x1b\[[0-9;]*m")


def records():
    rec = st.fixed_dictionaries({
        "id": TEXT, "file": TEXT, "line": st.integers(1, 10**6), "col": st.integers(1, 999),
        "expr": TEXT, "verdict": st.sampled_from(VERDICTS),
        "expect": st.sampled_from(("true", "false", "unknown", "skipped")),
        "value": TEXT, "detail": TEXT})
    return st.lists(rec.map(lambda r: r | {"ok": r["verdict"] == r["expect"]}), max_size=6)


@given(TEXT)
def test_visible_is_one_line_with_nothing_unsafe(s):
    out = visible(s)
    assert not UNSAFE.search(out)
    assert len(out.splitlines()) <= 1  # splitlines knows every Unicode line break
    out.encode("utf-8")  # printable on any UTF-8 stream
    if not UNSAFE.search(s):
        assert out == s  # safe text is left alone
    as_json = json_text({"s": s})
    assert json.loads(as_json) == {"s": s} and not UNSAFE.search(as_json.replace("\n", ""))


@given(records(), st.booleans(), st.booleans())
def test_text_report_lines_are_safe(recs, colour, quiet):
    out = report.text(result_dict(recs), colour=colour, quiet=quiet)
    lines = out.split("\n")
    assert lines[-1] == ""
    shown = [r for r in recs if not (quiet and r["ok"])]
    assert len(lines) - 1 == len(shown) + 1  # one per claim, and the summary
    for line in lines[:-1]:
        assert not line.lstrip().startswith("::")
        assert not C0_C1.search(SGR.sub("", line)) and not UNSAFE.search(SGR.sub("", line))


COMMAND = re.compile(r"(error|warning) file=[^:,\n]*,line=\d+,col=\d+,title=[^:,\n]*")


@given(records())
def test_github_annotations_are_one_command_each(recs):
    out = report.github(result_dict(recs))
    lines = out.split("\n")[:-1]
    failed = [r for r in recs if not r["ok"]]
    assert len(lines) == len(failed) + 1
    for line in lines[:-1]:
        assert line.startswith("::")
        head, sep, _message = line[2:].partition("::")
        assert sep and COMMAND.fullmatch(head), line
        assert not UNSAFE.search(line)
    assert not lines[-1].lstrip().startswith("::")


@given(records())
def test_json_and_sarif_are_lossless_and_print_nothing_raw(recs):
    doc = result_dict(recs)
    out = report.json_report(doc)
    assert json.loads(out) == doc
    assert not UNSAFE.search(out.replace("\n", ""))
    sarif = report.sarif(doc)
    assert not UNSAFE.search(sarif.replace("\n", ""))
    assert len(json.loads(sarif)["runs"][0]["results"]) == sum(not r["ok"] for r in recs)


@given(records())
def test_html_holds_no_raw_control_characters(recs):
    page = report_html.render(result_dict(recs))
    assert not UNSAFE.search(page.replace("\n", ""))


@given(st.binary(min_size=1, max_size=20).filter(lambda b: b"/" not in b and b"\0" not in b))
def test_names_that_are_not_utf8_are_shown_escaped(name):
    shown = fs_name(os.fsdecode(name))
    shown.encode("utf-8")  # strict: no surrogate is left
    try:
        assert shown == name.decode("utf-8")  # a UTF-8 name is shown as it is
    except UnicodeDecodeError:
        assert "\\x" in shown


@given(TEXT)
def test_line_lead_never_starts_a_command(path):
    assert not line_lead(visible(path)).lstrip().startswith("::")


# ---- line splitting and positions ----------------------------------------------------

# claim text: anything but the three CommonMark line endings, a fence character, '#'
# (a comment) or NUL (which CommonMark replaces)
LINE = st.text(st.characters(exclude_characters="\r\n`~#\"'\x00"), max_size=30)
BLANK = " \t\f\v"


@given(st.lists(LINE, max_size=12), st.lists(st.sampled_from(["\n", "\r\n", "\r"]),
                                             min_size=13, max_size=13))
def test_claims_keep_their_lines_whatever_separators_they_hold(lines, endings):
    text = "```claim" + endings[0]
    for line, end in zip(lines, endings[1:]):
        if text.endswith("\r") and not line and end.startswith("\n"):
            end = "\r"  # "\r" then "\n" would be one line ending, \r\n
        text += line + end
    text += "```\n"
    got = [(c.line, c.col, c.expr) for c in markdown_claims(text, "p.md")]
    want = [(i + 2, len(line) - len(line.lstrip(BLANK)) + 1, line.strip(BLANK))
            for i, line in enumerate(lines) if line.strip(BLANK)]
    assert got == want


@given(st.integers(1, 6), st.sampled_from(["", " "]), st.lists(LINE, min_size=1, max_size=5))
def test_claims_in_block_quotes_keep_their_columns(depth, space, lines):
    prefix = ">" * depth + space
    text = f"{prefix}```claim\n" + "".join(f"{prefix}{line}\n" for line in lines) \
        + f"{prefix}```\n"
    got = [(c.line, c.col, c.expr) for c in markdown_claims(text, "q.md")]
    want = []
    for i, line in enumerate(lines):
        content = line.lstrip(BLANK)
        if content.strip(BLANK):
            want.append((i + 2, len(prefix) + len(line) - len(content) + 1,
                         content.rstrip(BLANK)))
    assert got == want


@given(LINE.filter(lambda s: s.strip(BLANK)), TEXT, TEXT)
def test_a_claim_from_a_file_reaches_the_report_safely(line, value, detail):
    (claim,) = markdown_claims(f"- item\n\n  ```claim\n  {line}\n  ```\n", "n.md")
    rec = record(claim, {"verdict": "error", "value": value, "detail": detail, "col": 1})
    out = report.text(result_dict([rec]))
    assert out.count("\n") == 2 and not UNSAFE.search(out.replace("\n", ""))
    assert (rec["line"], rec["col"]) == (4, 3 + len(line) - len(line.lstrip(BLANK)))
