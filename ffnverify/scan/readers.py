"""Readers: one document → its prose blocks, each character with its source position.

Markdown is parsed by markdown-it-py (CommonMark and tables), HTML by html.parser,
reStructuredText by docutils (file insertion and raw output disabled: a document is
untrusted), notebooks by nbformat (their Markdown cells, positions mapped back into the
.ipynb file) and plain text by blank lines. What is not prose is left out: code blocks
(fenced or indented code, `<pre>`, `<script>`, `<style>`, literal blocks, notebook code
cells, plain-text lines shaped like program text), claim fences, front matter, raw HTML
blocks and link targets. Inline code is kept in the text but marked (`Block.code`), so
that units can blank it before detection.

Each reader returns a `Doc` (`blocks.Doc`): its blocks (`blocks.Block`), the block groups
that a claim fence right after them covers, and `where(offset) -> (line, col)`. One module
per format: doc_markdown, doc_text, doc_html, doc_rst, doc_ipynb; this one picks by format.
"""

from pathlib import Path

from ffnverify.scan.blocks import Doc
from ffnverify.scan.doc_html import read_html
from ffnverify.scan.doc_ipynb import read_ipynb
from ffnverify.scan.doc_markdown import read_markdown
from ffnverify.scan.doc_rst import read_rst
from ffnverify.scan.doc_text import read_text

__all__ = ["FORMATS", "Doc", "format_of", "read", "read_html", "read_ipynb", "read_markdown",
           "read_rst", "read_text"]

FORMATS = {".md": "markdown", ".markdown": "markdown", ".txt": "text", ".text": "text",
           ".rst": "rst", ".html": "html", ".htm": "html", ".ipynb": "ipynb"}


def read(text: str, fmt: str) -> Doc:
    return {"markdown": read_markdown, "text": read_text, "rst": read_rst,
            "html": read_html, "ipynb": read_ipynb}[fmt](text)


def format_of(path) -> str | None:
    return FORMATS.get(Path(path).suffix.lower())
