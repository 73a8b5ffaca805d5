"""Markdown nested deeper than the parser reads: markdown-it stops at
`MAX_MARKDOWN_NESTING` block quotes or lists and drops the rest of the document without
a word (`> > > … Llama 2 7B has 32 layers.`, 30 deep, gives no token at all; nor does any
line after it). The scan must not lose text silently: `lost_lines` finds the lines no
token holds once the limit is reached, and the Markdown reader reports the first line of
each run as an input problem (file:line:col, as `audit` does for a claim fence nested so
deep) and reads the lines themselves as plain lines, their container markers (`>`, `-`,
`*`, `+`, `1.`) stripped, fenced code left out.
"""

import re

from ffnverify.claims.records import MAX_MARKDOWN_NESTING

_MARKERS = re.compile(r"(?:[ \t]*(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$)))*[ \t]*")
_FENCE = re.compile(r"(`{3,}|~{3,})")
_LINK_DEFINITION = re.compile(r"\[[^\]]+\]:\s")

MESSAGE = (f"Markdown nested deeper than {MAX_MARKDOWN_NESTING} block quotes or lists: the "
           "parser drops the text from there on; these lines are read as plain lines, "
           "without their structure")


def too_deep(tokens) -> bool:
    """Whether the parse reached the nesting limit (then it may have dropped text)."""
    return bool(tokens) and max(t.level for t in tokens) >= MAX_MARKDOWN_NESTING - 1


def lost_lines(tokens, lines: list[str], skip: int = 0) -> list[tuple[int, int, str]]:
    """(0-based line, column of its text, text) of each line that holds prose the parse
    dropped: no token without children covers it, it is more than container markers, it
    is no fenced code and no link definition. Empty unless the limit was reached."""
    if not too_deep(tokens):
        return []
    held = set()
    for t in tokens:
        if t.nesting == 0 and t.map:
            held.update(range(*t.map))
    out, fence = [], None
    for i, line in enumerate(lines):
        if i < skip or i in held:
            continue
        lead = _MARKERS.match(line).end()
        text = line[lead:].rstrip()
        f = _FENCE.match(text)
        if fence is not None:
            if f and f.group(1)[0] == fence[0] and len(f.group(1)) >= len(fence):
                fence = None
            continue
        if f:
            fence = f.group(1)
            continue
        if text and not _LINK_DEFINITION.match(text):
            out.append((i, lead, text))
    return out


def runs(lost: list[tuple[int, int, str]]) -> list[list[tuple[int, int, str]]]:
    """The lost lines in runs of consecutive lines."""
    out = []
    for item in lost:
        if out and out[-1][-1][0] + 1 == item[0]:
            out[-1].append(item)
        else:
            out.append([item])
    return out
