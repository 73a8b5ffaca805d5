"""One of the scan's readers (`readers.read` picks it by format): Jupyter notebooks: their
Markdown cells read as Markdown, each character mapped back to the character or JSON
escape that encodes it in the .ipynb file. Returns a `blocks.Doc`: prose blocks with each
character's source position.
"""

import json
import re
import warnings

from ffnverify.scan.blocks import Block, Doc, Source
from ffnverify.scan.doc_markdown import read_markdown

# the tokens of a JSON text: strings (escapes included), punctuation, other scalars
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+', re.S)
_HIGH, _LOW = range(0xD800, 0xDC00), range(0xDC00, 0xE000)


def _cell_strings(text: str) -> dict[int, list[tuple[int, int]]]:
    """{cell index: [(start, end) of each JSON string literal of its `source`]}: the raw
    spans of `cells[i].source` (one string, or a list of them) in the .ipynb text."""
    stack: list[list] = []  # [container, its path, current key or index, expecting a key]
    found: dict[int, list[tuple[int, int]]] = {}

    def here():
        return stack[-1][1] + (stack[-1][2],) if stack else ()

    for m in _JSON_TOKEN.finditer(text):
        t = m.group()
        if t in ("{", "["):
            stack.append([t, here(), None if t == "{" else 0, t == "{"])
        elif t in ("}", "]"):
            if stack:
                stack.pop()
        elif not stack:
            continue
        elif t == ":":
            stack[-1][3] = False
        elif t == ",":
            if stack[-1][0] == "{":
                stack[-1][2], stack[-1][3] = None, True
            else:
                stack[-1][2] += 1
        elif stack[-1][0] == "{" and stack[-1][3]:
            stack[-1][2] = _json_string(t)
        else:
            path = here()
            if (t.startswith('"') and len(path) in (3, 4) and path[0] == "cells"
                    and path[2] == "source" and isinstance(path[1], int)):
                found.setdefault(path[1], []).append((m.start(), m.end()))
    return found


def _json_string(token: str):
    try:
        return json.loads(token)
    except ValueError:
        return None


def _decode_mapped(text: str, start: int, end: int) -> tuple[str, list[int]] | None:
    """The JSON string literal text[start:end] decoded, and for each decoded character the
    offset in `text` of its first source character (a \\uXXXX escape, a surrogate pair
    written as two of them, \\n, \\", \\\\, \\/ ... or the character itself)."""
    value = _json_string(text[start:end])
    if not isinstance(value, str):
        return None
    offsets, i, stop = [], start + 1, end - 1
    while i < stop:
        offsets.append(i)
        if text[i] != "\\":
            i += 1
        elif text[i + 1] != "u":
            i += 2
        elif (int(text[i + 2:i + 6], 16) in _HIGH and text[i + 6:i + 8] == "\\u"
              and int(text[i + 8:i + 12], 16) in _LOW):
            i += 12  # a surrogate pair: one character
        else:
            i += 6
    return (value, offsets) if len(offsets) == len(value) else None


def _cell_map(text: str, spans: list[tuple[int, int]], body: str) -> list[int] | None:
    """For each character of a cell's source, its offset in the .ipynb text (None when the
    file's strings do not decode to the source nbformat read)."""
    decoded, offsets = [], []
    for start, end in spans:
        got = _decode_mapped(text, start, end)
        if got is None:
            return None
        decoded.append(got[0])
        offsets += got[1]
    return offsets if "".join(decoded) == body else None


def _remap(block: Block, to_file):
    """Block parts in cell coordinates -> parts in file coordinates, a run of characters
    kept together only where their source characters are adjacent in the file."""
    parts = []
    for start, off, length in block.parts:
        first = to_file(off)
        parts.append((start, first, 1))
        for k in range(1, length):
            at = to_file(off + k)
            p_start, p_off, p_len = parts[-1]
            if at == p_off + p_len:
                parts[-1] = (p_start, p_off, p_len + 1)
            else:
                parts.append((start + k, at, 1))
    block.parts = parts
    block.__dict__.pop("_key_cache", None)


def _line_search(text: str, body: str, search_from: int):
    """The fallback where the file's strings cannot be mapped: each line of the cell found
    in the file as json.dumps writes it (ensure_ascii off), columns counted the same way."""
    cell_src = Source(body)
    line_at = []
    for number in range(1, len(cell_src.starts) + 1):
        line = cell_src.line_text(number)
        encoded = json.dumps(line, ensure_ascii=False)[1:-1]
        at = text.find(encoded, search_from) if line else -1
        line_at.append(None if at == -1 else at)
        if at != -1:
            search_from = at + len(encoded)

    def to_file(offset):
        line, col = cell_src.where(offset)
        at = line_at[line - 1] if line - 1 < len(line_at) else None
        if at is None:
            known = [a for a in line_at[:line] if a is not None]
            return known[-1] if known else 0
        prefix = cell_src.line_text(line)[:col - 1]
        return at + len(json.dumps(prefix, ensure_ascii=False)) - 2

    return to_file, search_from


def _missing_id_warning():
    """nbformat's warning for a cell without an id (FutureWarning where it has none)."""
    try:
        from nbformat.warnings import MissingIDFieldWarning
    except ImportError:  # an older nbformat
        return FutureWarning
    return MissingIDFieldWarning


def read_ipynb(text: str) -> Doc:
    """The Markdown cells, each read as Markdown; positions point into the .ipynb file:
    each character of a cell maps to the character (or the JSON escape) that encodes it
    in the file's string literal, whatever escapes the writer used (ensure_ascii, \\u2028,
    surrogate pairs, \\/)."""
    import nbformat

    src = Source(text)
    try:
        with warnings.catch_warnings():  # cells without ids (nbformat < 4.5): not the
            warnings.simplefilter("ignore", _missing_id_warning())  # reader's to report
            nb = nbformat.reads(text, as_version=4)
    except Exception as e:  # any malformed notebook is an input error
        return Doc([], src.where, problems=[(1, 1, f"not a readable notebook: {e}"[:300])])
    strings = _cell_strings(text)
    blocks, covered, problems = [], set(), []
    search_from = 0
    for index, cell in enumerate(nb.cells):
        if cell.get("cell_type") != "markdown":
            continue
        body = cell.get("source", "")
        inner = read_markdown(body)
        char_map = _cell_map(text, strings.get(index, []), body)
        if char_map is not None and char_map:
            def to_file(offset, char_map=char_map):
                return char_map[min(max(offset, 0), len(char_map) - 1)]
        else:
            to_file, search_from = _line_search(text, body, search_from)
        base = index * 1_000_000
        for block in inner.blocks:
            _remap(block, to_file)
            block.group = tuple(base + g for g in block.group)
            blocks.append(block)
        covered |= {base + g for g in inner.covered_groups}
        problems += [(*src.where(to_file(Source(body).offset(line, col))), message)
                     for line, col, message in inner.problems]
    return Doc(blocks, src.where, covered, problems)
