"""Prose blocks as the readers hand them on: text with the source position of each character.

A `Block` is one paragraph, list item, heading, table row, display formula or line of
plain text, already stripped of markup; `Block.offset(i)` is the 0-based character offset
in the source of `text[i]`, exact for every character copied from the source (a decoded
entity or escape maps to the position of its first source character). `Source` turns an
offset into a 1-based line and column (columns count code points).
"""

import re
from bisect import bisect_right
from dataclasses import dataclass, field

# ANSI/VT control sequences (CSI `ESC [ … m`, OSC `ESC ] … BEL`, two-byte escapes, 8-bit
# CSI) and the other C0/C1 control characters but tab and line breaks
CONTROL = re.compile(r"\x1b\[[0-?]{0,64}[ -/]{0,16}[@-~]|\x9b[0-?]{0,64}[ -/]{0,16}[@-~]|"
                     r"\x1b\][^\x07\x1b]{0,512}(?:\x07|\x1b\\)?|\x1b[ -~]?|"
                     r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


class Source:
    """The text of one file and its line starts; `where(offset) -> (line, col)`."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0]
        i = text.find("\n")
        while i != -1:
            self.starts.append(i + 1)
            i = text.find("\n", i + 1)

    def where(self, offset: int) -> tuple[int, int]:
        k = bisect_right(self.starts, offset) - 1
        return k + 1, offset - self.starts[k] + 1

    def offset(self, line: int, col: int) -> int:
        """0-based offset of 1-based (line, col)."""
        return self.starts[line - 1] + col - 1

    def line_text(self, line: int) -> str:
        start = self.starts[line - 1]
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        return self.text[start:end]


@dataclass
class Block:
    kind: str  # para | item | heading | row | math | line
    group: tuple = ()  # ids of the enclosing blocks (a claim fence after one covers it)
    header: tuple = ()  # table rows: the header cells
    cells: tuple = ()  # table rows: the cells of this row
    parts: list = field(default_factory=list)  # [(text index, source offset, source length)]
    chunks: list = field(default_factory=list)
    length: int = 0
    code: list = field(default_factory=list)  # [(start, end)] of inline code in text
    level: int = 0  # a heading's level (1 = the document's title level); 0 for other blocks

    def add(self, text: str, offset: int, contiguous: bool = True):
        """Append `text`; its first character sits at `offset` in the source, the others
        follow it there (contiguous) or all come from that one source character. Terminal
        control sequences and control characters (`CONTROL`) are left out: a terminal shows
        none of them, and `\x1b[31m` is no figure 31; each piece of text around them keeps
        its own source position."""
        if not text:
            return
        if CONTROL.search(text):
            at = 0
            for m in CONTROL.finditer(text):
                self.add(text[at:m.start()], offset + at if contiguous else offset, contiguous)
                at = m.end()
            self.add(text[at:], offset + at if contiguous else offset, contiguous)
            return
        self.parts.append((self.length, offset, len(text) if contiguous else 1))
        self.chunks.append(text)
        self.length += len(text)

    @property
    def text(self) -> str:
        if len(self.chunks) > 1:
            self.chunks = ["".join(self.chunks)]
        return self.chunks[0] if self.chunks else ""

    def offset(self, i: int) -> int:
        keys = [p[0] for p in self.parts] if len(self.parts) < 64 else self._keys()
        k = max(0, bisect_right(keys, i) - 1)
        start, off, length = self.parts[k]
        return off + min(i - start, length - 1)

    def _keys(self):
        if getattr(self, "_key_cache", None) is None or len(self._key_cache) != len(self.parts):
            self._key_cache = [p[0] for p in self.parts]
        return self._key_cache


@dataclass
class Doc:
    """What a reader returns: the prose blocks, `where(offset) -> (line, col)`, the block
    groups a claim fence right after them covers, and the input problems found."""
    blocks: list
    where: object  # offset -> (line, col)
    covered_groups: set = field(default_factory=set)
    problems: list = field(default_factory=list)  # [(line, col, message)]


def copy_block(cell: Block, into: Block):
    """Append `cell`'s text, positions and inline-code marks to `into` (a table cell or a
    nested block copied into the block it is read with)."""
    text = cell.text
    into.code.extend((a + into.length, b + into.length) for a, b in cell.code)
    for k, (start, off, length) in enumerate(cell.parts):
        end = cell.parts[k + 1][0] if k + 1 < len(cell.parts) else cell.length
        into.add(text[start:end], off, contiguous=length > 1 or end - start == 1)
