"""One of the scan's readers (`readers.read` picks it by format): Markdown, parsed by
markdown-it-py (CommonMark and tables; its nesting limit reported, the rest read as lines
by `nesting`). Returns a `blocks.Doc`: prose blocks with each character's source position.
"""

import itertools
import re

from ffnverify.claims.files import is_claim_fence
from ffnverify.scan import inline, nesting
from ffnverify.scan.blocks import Block, Doc, Source, copy_block

_PARSER = None


def _markdown_parser():
    global _PARSER
    if _PARSER is None:
        from markdown_it import MarkdownIt

        _PARSER = MarkdownIt("commonmark", {"html": True}).enable("table")
    return _PARSER


def _front_matter_lines(lines: list[str]) -> int:
    """How many lines at the top are YAML (---) or TOML (+++) front matter."""
    if not lines or lines[0].rstrip() not in ("---", "+++"):
        return 0
    fence = lines[0].rstrip()
    for i in range(1, len(lines)):
        if lines[i].rstrip() in (fence, "...") and (fence == "---" or lines[i].rstrip() == fence):
            return i + 1
    return 0


def _inline_block(tok, block: Block, src: Source, offset_of_line=None):
    """Copy an inline token's visible text into `block`, with positions (`inline.copy`)."""
    inline.copy(tok, block, src, offset_of_line)


def _prose_over_a_rule(content: str) -> bool:
    """Whether a setext "heading" (text over a line of - or =) is prose an author set a
    rule under: it runs over several lines, or ends as a sentence or a lead-in does."""
    content = content.strip()
    return "\n" in content or content.endswith((".", ":", "?", "!", ";", ","))


_PIPE_ROW = re.compile(r"^(\s*)\|(.*)\|\s*$")


def _pipe_rows(tok, lines: list[str], src: Source, group: tuple) -> list[Block]:
    """The rows of a paragraph made of two or more `| a | b |` lines, which CommonMark
    reads as one paragraph when no `|---|` rule follows the first (a table copied without
    its header): one row block a line, with no header. [] for any other paragraph."""
    if not tok.map or tok.map[1] - tok.map[0] < 2:
        return []
    matched = [_PIPE_ROW.match(lines[i]) for i in range(*tok.map)]
    if not all(matched):
        return []
    out = []
    for i, m in zip(range(*tok.map), matched):
        block = Block("row", group)
        cells, at = [], m.start(2)
        for cell in m.group(2).split("|"):
            text = cell.strip()
            if text:
                if block.length:
                    block.add(" | ", src.starts[i] + at, contiguous=False)
                block.add(text, src.starts[i] + at + cell.index(text))
            cells.append(text)
            at += len(cell) + 1
        block.cells = tuple(cells)
        if block.length:
            out.append(block)
    return out


def read_markdown(text: str) -> Doc:
    src = Source(text)
    lines = text.split("\n")
    skip = _front_matter_lines(lines)
    body = "\n" * skip + "\n".join(lines[skip:]) if skip else text
    tokens = _markdown_parser().parse(body)
    blocks, covered = [], set()
    ids = itertools.count(1)
    stack, last_closed = [], {}
    kinds = []  # the open block types
    row = None
    header: tuple = ()
    heading_level, setext = 1, False
    for tok in tokens:
        if tok.nesting == 1:
            gid = next(ids)
            stack.append(gid)
            kinds.append(tok.type)
            if tok.type == "tr_open":
                row = {"cells": [], "line": tok.map[0] + 1, "cursor": 0,
                       "group": tuple(stack), "head": "thead_open" in kinds}
            elif tok.type == "table_open":
                header = ()
            elif tok.type == "heading_open":
                heading_level = int(tok.tag[1:]) if tok.tag[1:].isdigit() else 1
                setext = tok.markup in ("-", "=")
            continue
        if tok.nesting == -1:
            if stack:
                last_closed[tok.level] = stack.pop()
                kinds.pop()
            if tok.type == "tr_close" and row is not None:
                cells = tuple(c.text for c in row["cells"])
                if row["head"]:
                    header = cells
                block = Block("row", row["group"], header=() if row["head"] else header,
                              cells=cells)
                for j, cell in enumerate(row["cells"]):
                    if j and cell.length:
                        block.add(" | ", cell.offset(0), contiguous=False)
                    elif j and block.length:  # an empty cell is shown as one: "a | | b"
                        block.add(" |", block.offset(block.length - 1), contiguous=False)
                    copy_block(cell, block)
                if block.length:
                    blocks.append(block)
                row = None
            continue
        if tok.type == "inline":
            parent = kinds[-1] if kinds else ""
            if parent in ("th_open", "td_open") and row is not None:
                cell = Block("cell")
                line = row["line"]
                sline = src.line_text(line) if line <= len(src.starts) else ""
                at = sline.find(tok.content, row["cursor"]) if tok.content else -1
                if at == -1:
                    at = row["cursor"]
                else:
                    row["cursor"] = at + len(tok.content)
                _inline_block(tok, cell, src, [src.starts[line - 1] + at])
                row["cells"].append(cell)
                continue
            kind = {"heading_open": "heading"}.get(parent, "para")
            if kind == "heading" and setext and _prose_over_a_rule(tok.content):
                kind = "para"  # "Here is my calculation:\n-----": a rule under prose
            if "list_item_open" in kinds:
                kind = "item"
            rows = _pipe_rows(tok, body.split("\n"), src, tuple(stack)) if kind == "para" else []
            if rows:  # "| Q8 | ~1 byte/param |" lines with no header rule: still a table
                blocks.extend(rows)
                continue
            block = Block(kind, tuple(stack), level=heading_level if kind == "heading" else 0)
            _inline_block(tok, block, src)
            if block.text.lstrip().startswith("$$"):
                block.kind = "math"
            if block.length:
                blocks.append(block)
            continue
        gid = next(ids)  # a leaf block: fence, code block, raw HTML, rule
        if is_claim_fence(tok):
            previous = last_closed.get(tok.level)
            if previous is not None:
                covered.add(previous)
        last_closed[tok.level] = gid
    problems = []
    for run in nesting.runs(nesting.lost_lines(tokens, body.split("\n"), skip)):
        problems.append((run[0][0] + 1, run[0][1] + 1, nesting.MESSAGE))  # not lost silently
        gid = next(ids)
        for i, lead, content in run:
            block = Block("para", (gid,))
            block.add(content, src.starts[i] + lead)
            blocks.append(block)
    if problems:
        blocks.sort(key=lambda b: b.offset(0))
    return Doc(blocks, src.where, covered, problems)
