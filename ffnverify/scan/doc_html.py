"""One of the scan's readers (`readers.read` picks it by format): HTML, parsed by
html.parser: blocks, table cells, inline code marked, hidden and non-prose elements left
out. Returns a `blocks.Doc`: prose blocks with each character's source position.
"""

import itertools
import re
from html.parser import HTMLParser

from ffnverify.scan.blocks import Block, Doc, Source, copy_block

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
                copy_block(c, block)
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


def read_html(text: str) -> Doc:
    src = Source(text)
    parser = _HTML(src)
    parser.feed(text)
    parser.close()
    parser._flush()
    return Doc(parser.blocks, src.where)
