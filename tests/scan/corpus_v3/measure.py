"""How well `ffnverify scan` reads one folder of the corpus, against its labels.

    PYTHONPATH=$PWD python tests/scan/corpus_v3/measure.py tests/scan/corpus_v3/dev [--json]
        [--figures-only] [--half=A|B]

A labelled statement is detected when the scan gives a statement with its file, its line
and a text that starts with the label's `starts` (whitespace-squashed; Markdown's `**`
and backticks left out, as the scan renders them; a table row's outer pipes too). The figures (issue 27):

- prose recall: detected / labelled;
- CHECKED verdicts right: of the detected statements the scan marks `checked`, those
  whose verdict equals the label's truth (a checked statement labelled "none" is wrong);
- SUGGESTED FALSE right: of the `suggested` statements with verdict false, those
  labelled false;
- false flagged: of the statements labelled false, those the scan gives verdict false
  (checked or suggested);
- read share: (checked + suggested) / labelled;
- wrong CHECKED: how many checked verdicts are wrong (the hostile folder's figure);
- detection precision: the scan's statements that match a label / all it found (the
  labels list the statements a reader would; a detection no label has counts against);
- FALSE verdict precision: of the labelled statements the scan calls false (checked or
  suggested), those labelled false;
- read share of checkable statements: (checked + suggested) / labelled, over the labels
  whose truth is "true" or "false" (a label with truth "none" makes no checkable claim:
  leaving it unread is right, so the plain read share can never reach 1);
- unread by quantity: how many labels with a checkable claim the scan leaves unread
  (unchecked or not detected), counted by the quantities their `check` names (`q`), and
  the same for the false statements it does not flag. Counts only, no text: a measure of
  *why* that `--figures-only` may print for a held-out folder.

Without `--figures-only` the lists name the wrong verdicts, the missed labels and the
scan's unmatched statements (those no label matches).

`--half=A|B` measures one half of fresh/ (split by sha256(url): A even, B odd; README.md).
`--figures-only` prints the figures and no per-statement lists (used for heldout/, whose
statements the helpers tuning the scan must not see).
"""

import hashlib
import json
import re
import sys
import tomllib
from pathlib import Path


def _squash(s: str) -> str:
    return " ".join(s.split())


def _plain(s: str) -> str:
    """Whitespace squashed, Markdown's `**` and backticks left out, a table row's outer
    pipes too (`| FP16 | 2 |` and `FP16 | 2` are the same row's text), and the backslash
    of a Markdown escape (`\\(\\theta\\)` renders as `(\\theta)`: the scan shows the
    rendered text)."""
    s = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", s)
    s = _squash(s.replace("**", "").replace("`", "")).strip("| ")
    return re.sub(r"\s*\|\s*", " | ", _MARKER.sub("", s))  # "a| b" and "a | b": one row


# a list item's bullet or number, a heading's hashes, at the start of a label's `starts`
# (the scan shows an item's text, not its marker; labellers wrote both ways)
_MARKER = re.compile(r"^(?:[-*+•·]|#{1,6}|\d{1,2}[.)])\s+")


def _starts(text: str, want: str) -> bool:
    """`text` starts with `want`, or does with every pipe left out of both: an HTML table
    has no pipes in its source, where the labels quote it, and the scan shows its cells
    joined by " | "."""
    return text.startswith(want) or _unpiped(text).startswith(_unpiped(want))


def _unpiped(s: str) -> str:
    return " ".join(s.replace("|", " ").split())


def labels(folder: Path) -> list:
    return tomllib.loads((folder / "labels.toml").read_text(encoding="utf-8"))["s"]


def match(found: list, marks: list) -> dict:
    """label index -> the scan's statement detected for it (each used once)."""
    used, out = set(), {}
    for k, lab in enumerate(marks):
        want = _plain(lab["starts"])
        for i, st in enumerate(found):
            if i not in used and Path(st["file"]).name == lab["file"] and \
                    st["line"] == lab["line"] and _starts(_plain(st["text"]), want):
                out[k] = st
                used.add(i)
                break
    return out


def _unmatched(found: list, hit: dict) -> list:
    """The scan's statements no label matches (what costs detection precision)."""
    used = {id(st) for st in hit.values()}
    return [st for st in found if id(st) not in used]


def _ratio(num: int, den: int):
    return num / den if den else None


def _where(lab: dict, st: dict | None) -> str:
    got = f"{st['status']} {st['verdict']}" if st else "not detected"
    return f"{lab['file']}:{lab['line']}: {lab['starts']} — label {lab['truth']}, scan {got}"


def _nearby(found: list, lab: dict) -> str:
    """What the scan found on the label's line instead (a hint for a miss)."""
    texts = [st["text"][:50] for st in found
             if Path(st["file"]).name == lab["file"] and st["line"] == lab["line"]]
    return f" (on that line the scan has: {' / '.join(map(repr, texts))})" if texts else ""


def _quantities(lab: dict) -> str:
    """The quantities a label's check names, as one key: `arith`, `kv_cache_bytes+arith`."""
    checks = lab.get("check", {})
    checks = checks if isinstance(checks, list) else [checks]
    return "+".join(sorted({c.get("q", "?") for c in checks if c.get("q") != "none"})) or "none"


def _by_quantity(keys) -> dict:
    counts: dict = {}
    for key in keys:
        counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


_CJK = re.compile("[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")


def _miss_kind(found: list, lab: dict) -> str:
    """Why a label went undetected, as a coarse kind (counts only, safe for held-out
    halves): `cjk` (Chinese or Japanese text), `table` (a table row), `boundary` (the scan
    has a statement on that line that starts elsewhere), `no_digit` (no figure in digits),
    else `other`."""
    text = lab["starts"]
    if _CJK.search(text):
        return "cjk"
    if text.lstrip().startswith("|"):
        return "table"
    if any(Path(st["file"]).name == lab["file"] and st["line"] == lab["line"] for st in found):
        return "boundary"
    return "other" if re.search(r"\d", text) else "no_digit"


def figures(result: dict, marks: list) -> dict:
    found = result["statements"]
    hit = match(found, marks)
    checked = [k for k, st in hit.items() if st["status"] == "checked"]
    suggested = [k for k, st in hit.items() if st["status"] == "suggested"]
    checked_right = [k for k in checked if hit[k]["verdict"] == marks[k]["truth"]]
    sugg_false = [k for k in suggested if hit[k]["verdict"] == "false"]
    sugg_false_right = [k for k in sugg_false if marks[k]["truth"] == "false"]
    false_labels = [k for k, m in enumerate(marks) if m["truth"] == "false"]
    flagged = [k for k in false_labels if k in hit and hit[k]["verdict"] == "false"
               and hit[k]["status"] in ("checked", "suggested")]
    said_false = [k for k, st in hit.items() if st["verdict"] == "false"
                  and st["status"] in ("checked", "suggested")]
    return {
        "labelled": len(marks),
        "labelled_true": sum(m["truth"] == "true" for m in marks),
        "labelled_false": len(false_labels),
        "labelled_none": sum(m["truth"] == "none" for m in marks),
        "scan_statements": len(found),
        "detected": len(hit),
        "prose_recall": _ratio(len(hit), len(marks)),
        "checked": len(checked),
        "checked_right": len(checked_right),
        "checked_verdicts_right": _ratio(len(checked_right), len(checked)),
        "wrong_checked": len(checked) - len(checked_right),
        "suggested": len(suggested),
        "suggested_false": len(sugg_false),
        "suggested_false_right": _ratio(len(sugg_false_right), len(sugg_false)),
        "false_flagged": _ratio(len(flagged), len(false_labels)),
        "false_flagged_count": len(flagged),
        "read_share": _ratio(len(checked) + len(suggested), len(marks)),
        "detection_precision": _ratio(len(hit), len(found)),
        "false_verdict_precision": _ratio(len(flagged), len(said_false)),
        "read_share_checkable": _ratio(
            sum(1 for k in checked + suggested if marks[k]["truth"] != "none"),
            sum(m["truth"] != "none" for m in marks)),
        "unread_by_quantity": _by_quantity(
            _quantities(m) for k, m in enumerate(marks) if m["truth"] != "none"
            and k not in checked and k not in suggested),
        "missed_by_kind": _by_quantity(
            _miss_kind(found, m) for k, m in enumerate(marks) if k not in hit),
        "wrong_suggested_false_by_quantity": _by_quantity(
            ("cjk:" if _CJK.search(marks[k]["starts"]) else "") + _quantities(marks[k])
            for k in sugg_false if k not in sugg_false_right),
        "false_not_flagged_by_quantity": _by_quantity(
            _quantities(marks[k]) for k in false_labels if k not in flagged),
        "lists": {
            "wrong_checked": [_where(marks[k], hit[k]) for k in checked
                              if k not in checked_right],
            "wrong_suggested_false": [_where(marks[k], hit[k]) for k in sugg_false
                                      if k not in sugg_false_right],
            "false_not_flagged": [_where(marks[k], hit.get(k)) for k in false_labels
                                  if k not in flagged],
            "missed": [_where(marks[k], None) + _nearby(found, marks[k])
                       for k in range(len(marks)) if k not in hit],
            "unmatched": [f"{Path(st['file']).name}:{st['line']}: {st['text'][:90]}"
                          f" — scan {st['status']} {st['verdict']}"
                          for st in _unmatched(found, hit)],
        },
    }


def half_of(url: str) -> str:
    """The half of fresh/ a document is in: A when the first hex digit of sha256(url) is
    even (looked at once to find failure families), B when odd (never looked at)."""
    return "A" if int(hashlib.sha256(url.encode("utf-8")).hexdigest()[0], 16) % 2 == 0 else "B"


def files_in_half(folder: Path, half: str) -> list:
    docs = tomllib.loads((folder.parent / "sources.toml").read_text(encoding="utf-8"))["doc"]
    return sorted(Path(d["file"]).name for d in docs
                  if Path(d["file"]).parent.name == folder.name and half_of(d["url"]) == half)


def run(folder: Path, half: str | None = None) -> dict:
    from ffnverify.claims.budget import Engine
    from ffnverify.scan.scan import scan

    marks = labels(folder)
    paths = [str(folder)]
    if half:
        names = set(files_in_half(folder, half))
        paths = [str(folder / n) for n in sorted(names)]
        marks = [m for m in marks if m["file"] in names]
    with Engine() as engine:
        result = scan(paths, engine)
    return figures(result, marks)


def _show(value) -> str:
    return "n/a" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


def main(argv: list) -> int:
    half = next((a.split("=", 1)[1] for a in argv if a.startswith("--half=")), None)
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 1 or half not in (None, "A", "B"):
        print(__doc__)
        return 2
    out = run(Path(args[0]), half)
    if "--figures-only" in argv:
        out.pop("lists")
    if "--json" in argv:
        print(json.dumps(out, indent=1, ensure_ascii=False))
        return 0
    for key, value in out.items():
        if isinstance(value, dict) and key != "lists":
            print(f"{key:24s} " + ", ".join(f"{q} {n}" for q, n in value.items()))
        elif key != "lists":
            print(f"{key:24s} {_show(value)}")
    for key, lines in out.get("lists", {}).items():
        for line in lines:
            print(f"{key}: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
