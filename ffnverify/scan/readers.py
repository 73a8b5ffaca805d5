"""Readers: one document → its prose blocks, each character with its source position.

Markdown is parsed by markdown-it-py (CommonMark and tables), HTML by html.parser,
reStructuredText by docutils (file insertion and raw output disabled: a document is
untrusted), notebooks by nbformat (their Markdown cells, positions mapped back into the
.ipynb file) and plain text by blank lines. What is not prose is left out: code blocks
(fenced or indented code, `<pre>`, `<script>`, `<style>`, literal blocks, notebook code
cells, plain-text lines shaped like program text), claim fences, front matter, raw HTML
blocks and link targets. Inline code is kept in the text but marked (`Block.code`), so
that units can blank it before detection.

Each reader returns a `Doc`: its blocks (`blocks.Block`), the block groups that a claim
fence right after them covers, and `where(offset) -> (line, col)`.
"""

import itertools
import json
import re
import warnings
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from ffnverify.claims.files import is_claim_fence
from ffnverify.scan import inline, nesting
from ffnverify.scan.blocks import Block, Source

FORMATS = {".md": "markdown", ".markdown": "markdown", ".txt": "text", ".text": "text",
           ".rst": "rst", ".html": "html", ".htm": "html", ".ipynb": "ipynb"}


@dataclass
class Doc:
    blocks: list
    where: object  # offset -> (line, col)
    covered_groups: set = field(default_factory=set)
    problems: list = field(default_factory=list)  # [(line, col, message)]


def read(text: str, fmt: str) -> Doc:
    return {"markdown": read_markdown, "text": read_text, "rst": read_rst,
            "html": read_html, "ipynb": read_ipynb}[fmt](text)


def format_of(path) -> str | None:
    return FORMATS.get(Path(path).suffix.lower())


# ---- Markdown -------------------------------------------------------------------------

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
                    _copy(cell, block)
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


# ---- plain text -----------------------------------------------------------------------

_ENDS = ".:;!?"
_CODE_LINE = re.compile(
    r"^(?:def |class |import |from \S+ import |return\b|print\(|assert |@\w|#|>>> |\$ |"
    r"for \w.* in .*:$|while .*:$|if .*:$|elif |else:|try:|except|with .*:$|"
    r"[A-Za-z_][\w.]*(?:,[A-Za-z_][\w.]*)*[+\-*/]?=(?!=)\S|"
    r"[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*\s*[+\-*/]?=(?!=)\s*.*(?:\w\(|\[| or | and ))"
    r"|self\.|\)\s*:$|^[\])}]+$|;\s*$|\w\([^()]*\)\s*$")


def looks_like_code(line: str) -> bool:
    """A line of program text pasted into a plain-text document (plain text has no code
    markup, so its shape is all there is to go on)."""
    return bool(_CODE_LINE.search(line.strip()))


_WORD = re.compile(r"\S+")
_RULE = re.compile(r"^[\s|:+=-]+$")  # a table's rule line: "---|---", "=====  ====="
_NUMBER_WORD = re.compile(r"^[~≈<>]?[\d.,]+[%×x]?$")


def _pipe_cells(line: str) -> list[str] | None:
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    return cells if len(cells) >= 2 else None


def _aligned_cells(header: str, line: str) -> list[str] | None:
    """The cells of `line` under the columns `header`'s words start (plain text aligned
    with spaces): each word goes to the column whose header word it overlaps (else the
    nearest one to its left); words left of the first column are the row's label. None
    when a column gets no word or two."""
    heads = [(m.start(), m.end()) for m in _WORD.finditer(header)]
    cols = [[] for _ in heads]
    label = []
    for m in _WORD.finditer(line):
        over = [k for k, (a, b) in enumerate(heads) if m.start() < b and a < m.end()]
        left = [k for k, (a, _) in enumerate(heads) if a <= m.start()]
        if len(over) > 1:
            return None
        if over or left:
            cols[(over or left)[-1]].append(m.group())
        else:
            label.append(m.group())
    if any(len(c) != 1 for c in cols):
        return None
    return ([" ".join(label)] if label else []) + [c[0] for c in cols]


def _text_table(lines: list[str]) -> tuple | None:
    """(header cells, [row cells]) when `lines` (one paragraph of plain text) are a table:
    a header line of words, then at least two lines of figures in its columns, divided
    by `|` or aligned with spaces (a rule line between is skipped). None otherwise."""
    body = [x for x in lines[1:] if not _RULE.match(x)]
    if len(body) < 2 or any(ch.isdigit() for ch in lines[0]):
        return None
    if all("|" in x for x in lines if not _RULE.match(x)):
        header, rows = _pipe_cells(lines[0]), [_pipe_cells(x) for x in body]
        if header is None or any(r is None or len(r) != len(header) for r in rows):
            return None
    else:
        header = _WORD.findall(lines[0])
        rows = [_aligned_cells(lines[0], x) for x in body]
        if len(header) < 2 or any(r is None for r in rows):
            return None
        width = max(map(len, rows))
        header = [""] * (width - len(header)) + header
    figures = [sum(bool(_NUMBER_WORD.match(c.split()[0] if c else "")) for c in r)
               for r in rows]
    return (tuple(header), [tuple(r) for r in rows]) if min(figures) >= 2 else None


def _paragraphs(src: Source):
    """(first line number, lines) of each run of non-blank lines."""
    run, first = [], 0
    for number in range(1, len(src.starts) + 2):
        line = src.line_text(number) if number <= len(src.starts) else ""
        if line.strip():
            if not run:
                first = number
            run.append(line)
        elif run:
            yield first, run
            run = []


def _table_rows(src: Source) -> dict:
    """line number -> (header, cells) for every row of a plain-text table."""
    out = {}
    for first, lines in _paragraphs(src):
        got = _text_table(lines)
        if got is None:
            continue
        header, rows = got
        numbers = [first + k for k, x in enumerate(lines) if k and not _RULE.match(x)]
        out.update({n: (header, cells) for n, cells in zip(numbers, rows)})
        out.update({first + k: None for k, x in enumerate(lines)
                    if not k or _RULE.match(x)})  # its header and rules state nothing
    return out


def _blank(src: Source, number: int) -> bool:
    return number > len(src.starts) or not src.line_text(number).strip()


def _title_like(line: str) -> bool:
    """A line standing alone that reads as a title ("GPT-2", "Model sizes"): short, capital
    or digit first, no sentence punctuation at its end. It stays a line of text (a title
    may state a figure); its `level` (1 for the document's first line, else 2) lets the
    text below it be read as its section's."""
    return len(line) <= 60 and (line[0].isupper() or line[0].isdigit()) \
        and line[-1] not in _ENDS + ",)" and len(line.split()) <= 8


_FOOTNOTE_MARK = re.compile(r"[†‡§¶]+\s+(?=\S)")
_FIGURES_ONLY = re.compile(r"(?:[~≈]?\d[\d.,]*\s?[kKMBTG]?[%×x]?\s*|[×x·*^]\s*)+")


def _figure_rows(previous: str, line: str) -> bool:
    """Whether `line`, a line of figures and nothing else ("13B 2k 1.0T 3.0 × 10 4"), is
    a row of its own under a line that ends in a figure (a table whose columns are not
    aligned): it does not continue that line ("… 7B 2k 1.0T" over "13B 2k 1.0T")."""
    return previous[-1].isalnum() and previous.split()[-1][0].isdigit() \
        and bool(_FIGURES_ONLY.fullmatch(line)) and len(line.split()) >= 2


def read_text(text: str) -> Doc:
    """Paragraphs are separated by blank lines; inside one, a line break ends a unit
    unless the text visibly wraps (the line ends without punctuation and the next line
    goes on in lower case). A paragraph that is a table (a header line of words over
    lines of figures, in columns divided by `|` or aligned with spaces) is rows. A short
    line standing alone is also a title (`_title_like`)."""
    src = Source(text)
    blocks = []
    group = itertools.count(1)
    gid = next(group)
    current = None
    previous = ""
    tables = _table_rows(src)
    for number in range(1, len(src.starts) + 1):
        line = src.line_text(number)
        stripped = line.strip()
        if not stripped:
            current, previous = None, ""
            gid = next(group)
            continue
        lead = len(line) - len(line.lstrip())
        off = src.starts[number - 1] + lead
        if number in tables:
            current, previous = None, ""
            if tables[number] is not None:
                header, cells = tables[number]
                row = Block("row", (gid,), header=header, cells=cells)
                row.add(stripped, off)
                blocks.append(row)
            continue
        if looks_like_code(line):
            current, previous = None, ""
            continue
        mark = _FOOTNOTE_MARK.match(stripped)
        if mark:  # "† Although the embedding ...": the mark is no part of the statement
            off += mark.end()
            stripped = stripped[mark.end():]
        wraps = (current is not None and previous and previous[-1] not in _ENDS
                 and (stripped[0].islower() or stripped[0].isdigit() or stripped[0] in "(,")
                 and not _figure_rows(previous, stripped))
        if wraps:
            current.add(" ", off - 1 if off else 0, contiguous=False)
        else:
            alone = current is None and _blank(src, number + 1)
            current = Block("line", (gid,), level=(1 if not blocks else 2)
                            if alone and _title_like(stripped) else 0)
            blocks.append(current)
        current.add(stripped, off)
        previous = stripped
    return Doc(blocks, src.where)


# ---- HTML -----------------------------------------------------------------------------

_BLOCK_TAGS = {"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd", "blockquote",
               "div", "section", "article", "caption", "figcaption", "tr", "table", "ul",
               "ol", "body", "main", "header", "footer", "title", "br", "hr", "summary"}
_SKIP_TAGS = {"script", "style", "pre", "template", "noscript", "svg", "head", "textarea"}
_CELL_TAGS = {"td", "th"}
_CODE_TAGS = {"code", "kbd", "samp", "var", "tt"}  # inline code: kept, marked as code
_VOID_TAGS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
              "source", "track", "wbr"}
_OPTIONAL_END = {"p", "li", "dt", "dd", "tr", "td", "th", "option"}  # <p hidden><p>: ends it
_HIDING_STYLE = re.compile(r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse))"
                           r"\s*(?:!important\s*)?(?:;|$)", re.I)


def is_hidden(tag: str, attrs) -> bool:
    """Whether an element is not shown to a reader: the `hidden` attribute (but
    hidden="until-found", whose text a reader can reach), an inline style display:none or
    visibility:hidden/collapse, or a <dialog> that is not open. aria-hidden="true" is not
    hiding: it hides from assistive technology only, the text stays on the screen."""
    names = {k.lower(): (v or "") for k, v in attrs}
    if "hidden" in names and names["hidden"].strip().lower() != "until-found":
        return True
    if _HIDING_STYLE.search(names.get("style", "")):
        return True
    return tag == "dialog" and "open" not in names


class _HTML(HTMLParser):
    def __init__(self, src: Source):
        super().__init__(convert_charrefs=False)
        self.src = src
        self.blocks = []
        self.skip = 0
        self.current = None  # the Block being filled
        self.kind = "para"
        self.level = 0  # the open heading's level (h1: 1)
        self.row = None  # [cells] while inside <tr>
        self.cell = None
        self.header = ()
        self.row_is_head = False
        self.groups = itertools.count(1)
        self.code = 0  # depth inside <code>/<kbd>/<samp>/<var>/<tt>
        self.hidden = []  # the open elements from the hidden one we are inside, down

    def _offset(self):
        line, col = self.getpos()
        return self.src.starts[line - 1] + col

    def _flush(self):
        if self.current is not None and self.current.text.strip():
            self.blocks.append(self.current)
        self.current = None

    def _hide(self, tag, attrs) -> bool:
        """Track hidden elements (the open elements inside one, as a browser nests them);
        True while inside one, this tag included."""
        if self.hidden:
            if tag in _VOID_TAGS:
                return True
            if tag in _OPTIONAL_END and self.hidden[-1] == tag:
                self.hidden.pop()  # <p hidden>a<p>b: the new <p> closes the open one
            if self.hidden:
                self.hidden.append(tag)
                return True
        if tag not in _VOID_TAGS and is_hidden(tag, attrs):
            self.hidden = [tag]
            return True
        return False

    def handle_starttag(self, tag, attrs):
        if self._hide(tag, attrs):
            return
        if tag in _SKIP_TAGS:
            self.skip += 1
            return
        if tag in _CODE_TAGS:
            self.code += 1
            return
        if tag == "tr":
            self._flush()
            self.row, self.row_is_head = [], False
        elif tag in _CELL_TAGS and self.row is not None:
            self.cell = Block("cell")
            self.row_is_head = self.row_is_head or tag == "th"
        elif tag == "table":
            self._flush()
            self.header = ()
        elif tag in _BLOCK_TAGS:
            self._flush()
            self.kind = {"li": "item", "dd": "item", "dt": "item"}.get(
                tag, "heading" if tag in ("h1", "h2", "h3", "h4", "h5", "h6", "title") else "para")
            self.level = int(tag[1]) if self.kind == "heading" and tag != "title" else \
                1 if self.kind == "heading" else 0

    def handle_startendtag(self, tag, attrs):
        # HTML ignores the slash: <br/> is <br>, and <div hidden/> opens a hidden <div>
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        if self.hidden:
            if tag in self.hidden:  # close it and whatever it holds still open
                del self.hidden[len(self.hidden) - 1 - self.hidden[::-1].index(tag):]
            return
        if tag in _CODE_TAGS:
            self.code = max(0, self.code - 1)
            return
        if tag in _SKIP_TAGS:
            self.skip = max(0, self.skip - 1)
            return
        if tag in _CELL_TAGS and self.row is not None and self.cell is not None:
            self.row.append(self.cell)
            self.cell = None
        elif tag == "tr" and self.row is not None:
            cells = tuple(" ".join(c.text.split()) for c in self.row)
            if self.row_is_head and not self.header:
                self.header = cells
                head = ()
            else:
                head = self.header
            block = Block("row", (next(self.groups),), header=head, cells=cells)
            for j, c in enumerate(self.row):
                if j:
                    block.add(" | ", c.offset(0) if c.length else 0, contiguous=False)
                _copy(c, block)
            if block.text.strip():
                self.blocks.append(block)
            self.row = None
        elif tag in _BLOCK_TAGS:
            self._flush()

    def _target(self) -> Block:
        if self.cell is not None:
            return self.cell
        if self.current is None:
            self.current = Block(self.kind, (next(self.groups),), level=self.level)
        return self.current

    def _shown(self) -> bool:
        return not (self.skip or self.hidden or (self.row is not None and self.cell is None))

    def _add(self, text, contiguous):
        target = self._target()
        start = target.length
        target.add(text, self._offset(), contiguous=contiguous)
        if self.code and target.length > start:
            if target.code and target.code[-1][1] == start:  # one span for <code>a&amp;b</code>
                target.code[-1] = (target.code[-1][0], target.length)
            else:
                target.code.append((start, target.length))

    def handle_data(self, data):
        if self._shown():
            self._add(data, True)

    def _char(self, ch):
        if self._shown():
            self._add(ch, False)

    def handle_entityref(self, name):
        from html import unescape

        self._char(unescape(f"&{name};"))

    def handle_charref(self, name):
        from html import unescape

        self._char(unescape(f"&#{name};"))


def _copy(cell: Block, into: Block):
    text = cell.text
    into.code.extend((a + into.length, b + into.length) for a, b in cell.code)
    for k, (start, off, length) in enumerate(cell.parts):
        end = cell.parts[k + 1][0] if k + 1 < len(cell.parts) else cell.length
        into.add(text[start:end], off, contiguous=length > 1 or end - start == 1)


def read_html(text: str) -> Doc:
    src = Source(text)
    parser = _HTML(src)
    parser.feed(text)
    parser.close()
    parser._flush()
    return Doc(parser.blocks, src.where)


# ---- reStructuredText -----------------------------------------------------------------

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


# ---- notebooks -------------------------------------------------------------------------

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
    except Exception as e:  # noqa: BLE001 — any malformed notebook is an input error
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
