"""Fills in the `line` of every label from its `file` and `starts` (a labelling aid).

    python tests/scan/corpus_v3/locate.py tests/scan/corpus_v3/dev

Labels of one file are taken in order: each `starts` (whitespace-squashed) is looked up
from just after the previous label's match, so repeated table rows get their own lines.
The label file is rewritten with `line = N` right after each `starts`; a `starts` that
is not found stops the run with the label's file and text. The test
(test_corpus_v3.py) checks the result independently.
"""

import json
import re
import sys
import tomllib
from pathlib import Path


def squashed(text: str, html: bool = False):
    """The text with whitespace runs squashed to one space, and each char's line (in
    HTML, tags are left out)."""
    out, lines, line, space, tag = [], [], 1, False, False
    for ch in text:
        if html and (tag or ch == "<"):
            tag = ch != ">"
            if ch == "\n":
                line += 1
            continue
        if ch.isspace():
            if not space and out:
                out.append(" ")
                lines.append(line)
            space = True
        else:
            out.append(ch)
            lines.append(line)
            space = False
        if ch == "\n":
            line += 1
    return "".join(out), lines


def squash(s: str) -> str:
    return " ".join(s.split())


def notebook_lines(text: str) -> str:
    """A notebook's JSON with each line that holds one string shown as that string's
    text (line numbers unchanged), so a statement is found on the JSON line that holds
    it, as the scan reports it."""
    out = []
    for line in text.split("\n"):
        m = re.fullmatch(r'\s*("(?:[^"\\]|\\.)*")\s*,?\s*', line)
        out.append(json.loads(m.group(1)).rstrip("\n") if m else line)
    return "\n".join(out)


def plain(text: str, name: str) -> str:
    """Markdown's strong-emphasis marks and inline-code backticks left out (the scan
    reads the rendered words), in the document and in a label's `starts` alike."""
    if name.endswith(".ipynb") and text.lstrip().startswith("{"):
        text = notebook_lines(text)
    if name.endswith((".md", ".ipynb")):
        return text.replace("**", "").replace("`", "")
    return text


def main(folder: Path) -> int:
    path = folder / "labels.toml"
    text = path.read_text(encoding="utf-8")
    labels = iter(tomllib.loads(text)["s"])
    blocks = re.split(r"(?m)^(?=\[\[s\]\])", text)
    docs, cursor, out = {}, {}, []
    for block in blocks:
        m_starts = re.search(r'(?m)^starts = .*$', block)
        if not (block.startswith("[[s]]") and m_starts):
            out.append(block)
            continue
        label = next(labels)
        name = label["file"]
        if name not in docs:
            docs[name] = squashed(plain((folder / name).read_text(encoding="utf-8"),
                                        name), name.endswith(".html"))
        text, lines = docs[name]
        starts = squash(plain(label["starts"], name))
        at = text.find(starts, cursor.get(name, 0))
        if at < 0:
            print(f"{name}: not found after the previous label: {starts!r}")
            return 1
        cursor[name] = at + 1
        block = re.sub(r"(?m)^line = \d+\n", "", block)
        block = block.replace(m_starts.group(0), f"{m_starts.group(0)}\nline = {lines[at]}",
                              1)
        out.append(block)
    path.write_text("".join(out), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
