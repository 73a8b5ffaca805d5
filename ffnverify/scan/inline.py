"""Markdown inline text with source positions: one markdown-it `inline` token → the
prose of a `Block`, each character mapped to the source character it came from.

The token's `content` is its source text with container markers (`> `, list indentation)
and each line's leading indentation removed; its children are what the parser made of it.
A soft line break (a sentence that goes on on the next source line) and a hard break
(two spaces or a backslash before the line end) become one space, mapped to the line end
(the `softbreak`/`hardbreak` tokens, never a regex over the raw text), so the sentence
stays one statement and each of its characters keeps its own line and column. A text
child is aligned with the content character by character: a backslash escape (`\\*`)
and an entity (`&amp;`, `&#8776;`) map to the position of their first source character;
a line break inside inline code (shown as a space) maps to that line end. Link targets,
autolinks, images and inline HTML are no prose and are left out.
"""

import html
import re
from bisect import bisect_right

_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
MAX_SKIP = 4000  # how far past the cursor a child's text is looked for


def line_starts(content: str, first_line: int, src, last_line: int | None = None) -> list[int]:
    """Source offset of the first character of each line of an inline token's content
    (markdown-it strips container markers and indentation: the content line is a suffix of
    its source line). markdown-it-py strips a paragraph with Python's `str.strip`, which
    also takes whole leading lines of Unicode white space (U+2028, U+0085): the content
    then begins on a later line of the token's map (up to `last_line`, 1-based, exclusive)."""
    lines = content.split("\n")
    head = lines[0].strip()
    while (head and last_line is not None and first_line + 1 < last_line
           and first_line <= len(src.starts) and head not in src.line_text(first_line)):
        first_line += 1
    out = []
    for j, cline in enumerate(lines):
        number = first_line + j
        if number > len(src.starts):
            out.append(len(src.text))
            continue
        sline = src.line_text(number)
        base = src.starts[number - 1]
        if cline and sline.endswith(cline):
            out.append(base + len(sline) - len(cline))
        elif cline.rstrip() and sline.rstrip().endswith(cline.rstrip()):
            out.append(base + len(sline.rstrip()) - len(cline.rstrip()))
        else:
            k = sline.find(cline.strip()[:16]) if cline.strip() else -1
            out.append(base + max(k, len(sline) - len(sline.lstrip())))
    return out


def _align_at(content: str, j: int, piece: str, literal: bool) -> list[tuple[int, int]] | None:
    """`piece` read from `content[j:]`: for each character of `piece`, (content index it
    came from, content index after its source), or None where it does not start there.
    `literal`: inline code, where a backslash or an `&` is itself."""
    out = []
    i = 0
    n = len(content)
    while i < len(piece):
        if j >= n:
            return None
        ch = piece[i]
        c = content[j]
        m = None if literal or c != "&" else _ENTITY.match(content, j)
        decoded = html.unescape(m.group()) if m else ""
        if m and decoded != m.group() and piece.startswith(decoded, i):
            out.extend((j, m.end()) for _ in decoded)
            i, j = i + len(decoded), m.end()
        elif (not literal and c == "\\" and j + 1 < n and content[j + 1] == ch
              and ch in _PUNCT):
            out.append((j, j + 2))
            i, j = i + 1, j + 2
        elif c == ch or (c == "\n" and ch == " "):
            out.append((j, j + 1))
            i, j = i + 1, j + 1
        else:
            return None
    return out


def _align(content: str, cursor: int, piece: str, literal: bool = False):
    """Where `piece` (a text child) comes from in `content`, looked for from `cursor`."""
    if not piece:
        return None
    first = piece[0]
    for j in range(cursor, min(len(content), cursor + MAX_SKIP)):
        c = content[j]
        if c == first or c in "\\&" or (c == "\n" and first == " "):
            got = _align_at(content, j, piece, literal)
            if got is not None:
                return got
    return None


_EMPHASIS = ("em_open", "em_close", "strong_open", "strong_close")


def _product(content: str, d: int, n: int) -> bool:
    """Whether the `*` (or `**`) at d is arithmetic CommonMark took for emphasis: within a
    word, with a digit on one side ("4096*4096*4", "2*d*h", "768**2")."""
    before = content[d - 1] if d > 0 else " "
    after = content[d + n] if d + n < len(content) else " "
    return ((before.isalnum() or before in ")]") and (after.isalnum() or after in "([")
            and (before.isdigit() or after.isdigit()))


def copy(tok, block, src, offset_of_line=None):
    """Copy an inline token's visible text into `block`, with positions; `offset_of_line`:
    the source offsets of its content's lines where known (a table cell), else found."""
    content = tok.content
    starts = offset_of_line if offset_of_line is not None else line_starts(
        content, tok.map[0] + 1, src, tok.map[1] + 1)
    cstarts = [0] + [i + 1 for i, ch in enumerate(content) if ch == "\n"]

    def pos(i):
        k = bisect_right(cstarts, i) - 1
        return starts[min(k, len(starts) - 1)] + i - cstarts[k]

    cursor = 0
    skip = 0  # inside an autolink or image: its text is a link target, not prose
    starred = []  # for each open emphasis: whether its stars are arithmetic, kept as text
    for child in tok.children or ():
        kind = child.type
        if kind in _EMPHASIS and child.markup in ("*", "**"):
            d = content.find(child.markup, cursor)
            if kind.endswith("_open"):
                starred.append(d != -1 and _product(content, d, len(child.markup)))
            if (starred.pop() if kind.endswith("_close") and starred else
                    kind.endswith("_open") and starred[-1]):
                block.add(child.markup, pos(d), contiguous=False)
                cursor = d + len(child.markup)
            continue
        if kind == "link_open" and child.markup in ("autolink", "linkify"):
            skip += 1
            continue
        if kind == "link_close" and skip:
            skip -= 1
            continue
        if skip or kind in ("image", "html_inline"):
            continue
        if kind in ("softbreak", "hardbreak"):
            nl = content.find("\n", cursor)
            if nl != -1:
                block.add(" ", pos(nl), contiguous=False)
                cursor = nl + 1
            else:
                block.add(" ", pos(max(0, min(cursor, len(content) - 1))), contiguous=False)
            continue
        if kind not in ("text", "text_special", "code_inline") or not child.content:
            continue
        got = _align(content, cursor, child.content, kind == "code_inline")
        if got is None:  # not found: all of it at the cursor (never expected)
            block.add(child.content, pos(max(0, min(cursor, len(content) - 1))),
                      contiguous=False)
            continue
        if kind == "code_inline":
            block.code.append((block.length, block.length + len(child.content)))
        _add_runs(block, child.content, got, pos, cstarts)
        cursor = got[-1][1]


def _add_runs(block, text: str, got, pos, cstarts):
    """Add `text` to `block` in runs whose source characters follow one another on one
    line; an entity's characters (all from its `&`) and an escape are runs of their own."""
    start = 0
    while start < len(text):
        j, j_end = got[start]
        end = start + 1
        if j_end - j != 1:  # an escape or an entity: every character it decoded to
            while end < len(text) and got[end] == got[start]:
                end += 1
            block.add(text[start:end], pos(j), contiguous=False)
            start = end
            continue
        line = bisect_right(cstarts, j)
        while (end < len(text) and got[end][1] - got[end][0] == 1
               and got[end][0] == got[end - 1][0] + 1
               and bisect_right(cstarts, got[end][0]) == line):
            end += 1
        block.add(text[start:end], pos(j))
        start = end
