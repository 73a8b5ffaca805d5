"""One of the scan's readers (`readers.read` picks it by format): plain text: paragraphs by
blank lines, tables of aligned or piped columns, lines shaped like program text left out.
Returns a `blocks.Doc`: prose blocks with each character's source position.
"""

import itertools
import re

from ffnverify.scan.blocks import Block, Doc, Source
from ffnverify.scan.numbers import CJK, CJK_PUNCTUATION

_ENDS = ".:;!?"
_CODE_LINE = re.compile(
    r"^(?:def |class |import |from \S+ import |return\b|print\(|assert |@\w|#|>>> |\$ |"
    r"for \w.* in .*:$|while .*:$|if .*:$|elif |else:|try:|except|with .*:$|"
    r"[A-Za-z_][\w.]*(?:,[A-Za-z_][\w.]*)*[+\-*/]?=(?!=)\S|"
    r"[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*\s*[+\-*/]?=(?!=)\s*.*(?:\w\(|\[| or | and ))"
    r"|self\.|\)\s*:$|^[\])}]+$|;\s*$|\w\([^()]*\)\s*$")


# Chinese, Japanese and Korean letters and their punctuation
_CJK_EDGE = re.compile(f"[{CJK}{CJK_PUNCTUATION}]")

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


_SHORT = 40  # characters: a listing's line, no prose wrapped at a width


def _listing(src: Source, number: int) -> bool:
    """Whether line `number`, which begins with a figure, is one line of a listing of
    short figure-led lines ("Context KV cache" over "4K tokens 0.5 GB" / "32K tokens 4 GB"
    / "128K tokens 16 GB"): the line before or after it is another such line. Such a line
    is a unit of its own; a figure-led line otherwise goes on from the line before ("The
    layer count is 32" over "80 for the largest model")."""
    def led(k: int) -> bool:
        line = src.line_text(k).strip() if 1 <= k <= len(src.starts) else ""
        return bool(line) and line[0].isdigit() and len(line) <= _SHORT
    return led(number) and (led(number - 1) or led(number + 1))


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
                 and (stripped[0].islower() or stripped[0] in "(,"
                      or (stripped[0].isdigit() and not _listing(src, number)))
                 and not _figure_rows(previous, stripped)
                 and not _CJK_EDGE.search(previous[-1] + stripped[0]))  # (Chinese and
        # Japanese are not wrapped at spaces: a line break beside their letters ends a line)
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
