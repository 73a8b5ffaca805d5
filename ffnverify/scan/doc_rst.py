"""One of the scan's readers (`readers.read` picks it by format): reStructuredText, parsed by
docutils with file insertion and raw output disabled (a document is untrusted). Returns a
`blocks.Doc`: prose blocks with each character's source position.
"""

import itertools
import re

from ffnverify.scan.blocks import Block, Doc, Source

_RST_SETTINGS = {"report_level": 5, "halt_level": 5, "file_insertion_enabled": False,
                 "raw_enabled": False, "_disable_config": True, "warning_stream": False,
                 "input_encoding": "unicode", "line_length_limit": 100_000}


def read_rst(text: str) -> Doc:
    import docutils.core
    from docutils import nodes

    src = Source(text)
    doc = docutils.core.publish_doctree(text, settings_overrides=dict(_RST_SETTINGS))
    blocks = []
    cursor = 1  # the source line where the search for the next block starts
    groups = itertools.count(1)
    titled = any(isinstance(c, nodes.title) for c in doc.children)
    for node in doc.findall(lambda n: isinstance(n, (nodes.paragraph, nodes.title,
                                                       nodes.subtitle, nodes.math_block,
                                                       nodes.row))):
        if isinstance(node, nodes.row):
            cells = tuple(" ".join(e.astext().split()) for e in node.children)
            head = isinstance(node.parent, nodes.thead)
            table = node.parent.parent
            if head:
                table["ffnverify_header"] = cells
            block = Block("row", (next(groups),), header=() if head else
                          table.get("ffnverify_header", ()), cells=cells)
            for j, (cell, entry) in enumerate(zip(cells, node.children)):
                if not cell:
                    continue
                line, col, cursor = _find(src, cell, cursor, node.line)
                if j:
                    block.add(" | ", src.offset(line, col), contiguous=False)
                _mark_literals(block, cell, entry, nodes)
                block.add(cell, src.offset(line, col), contiguous=False)
            if block.length:
                blocks.append(block)
            continue
        if isinstance(node.parent, nodes.entry):
            continue  # read with its row
        if any(isinstance(a, nodes.system_message) for a in _ancestors(node)):
            continue  # docutils' own message about the source, not the document's text
        if node.parent is not None and isinstance(node.parent, (nodes.comment,
                                                                nodes.literal_block)):
            continue
        kind = "math" if isinstance(node, nodes.math_block) else \
            "heading" if isinstance(node, (nodes.title, nodes.subtitle)) else \
            "item" if any(isinstance(a, nodes.list_item) for a in _ancestors(node)) else "para"
        raw = node.astext() if kind == "math" else (node.rawsource or node.astext())
        block = Block(kind, (next(groups),), level=_rst_level(node, nodes, titled)
                      if kind == "heading" else 0)
        for piece in raw.split("\n"):
            piece = piece.strip()
            if not piece:
                continue
            line, col, cursor = _find(src, piece, cursor, node.line)
            if block.length:
                block.add(" ", src.offset(line, col), contiguous=False)
            block.add(piece, src.offset(line, col))
        if block.length:
            _mark_rst_code(block)
            blocks.append(block)
    return Doc(blocks, src.where)


def _rst_level(node, nodes, titled: bool) -> int:
    """A title's level: the document's title 1, its subtitle 2, a section's title one more
    than the sections it is inside (one more again under a document title)."""
    if isinstance(node, nodes.subtitle):
        return 2
    depth = sum(isinstance(a, nodes.section) for a in _ancestors(node))
    return max(1, depth + (1 if titled and depth else 0))


# inline literals ``...`` and the code-like roles (:code:, :literal:, Sphinx's :samp:,
# :kbd:, :file:, :command:, :option:, :envvar:, :math: is left to the math reader)
_RST_CODE = re.compile(r"(?<![\\\w])``(?=\S)(?:.*?\S)``(?!\w)|"
                       r":(?:code|literal|samp|kbd|file|command|option|envvar|program)"
                       r"(?:\+[\w-]+)?:`(?:[^`\\]|\\.)+`")


def _mark_rst_code(block: Block):
    """Mark a paragraph's inline literals as code (the block text is the raw source, so
    the markup is still there to find)."""
    block.code.extend(m.span() for m in _RST_CODE.finditer(block.text))


def _mark_literals(block: Block, cell: str, entry, nodes):
    """Mark the inline literals of a table cell (its text is docutils' astext, markup
    gone) as code, at the block's current end where the cell is about to be added."""
    at = 0
    for literal in entry.findall(nodes.literal):
        words = " ".join(literal.astext().split())
        k = cell.find(words, at) if words else -1
        if k != -1:
            block.code.append((block.length + k, block.length + k + len(words)))
            at = k + len(words)


def _ancestors(node):
    while node.parent is not None:
        node = node.parent
        yield node


def _find(src: Source, piece: str, cursor: int, hint) -> tuple[int, int, int]:
    """(line, col, next cursor) of `piece` in the source, searched from the cursor line
    (docutils' own line numbers are only hints: they point at a title's underline, or
    are missing inside tables)."""
    start = max(1, min(cursor, (hint or cursor) - 3))
    for number in range(start, len(src.starts) + 1):
        at = src.line_text(number).find(piece)
        if at != -1:
            return number, at + 1, number
    return max(1, hint or cursor), 1, cursor
