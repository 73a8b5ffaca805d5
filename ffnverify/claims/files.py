"""Claim files: TOML tables and Markdown `claim` fences, with exact 1-based positions.

`collect(paths)` walks files and folders and returns `Claim`s: files in the order given
(a folder's files in sorted order), each file's claims in line order. Whatever a file
holds, reading it never raises, never hangs and never loses a claim without saying so:

- Only regular files are read (a FIFO, a device or a symlink to one is an `error`), each
  opened without blocking and bounded to MAX_FILE_BYTES before a byte is read.
- A file that is not UTF-8, a TOML syntax error, TOML nested deeper than MAX_TOML_DEPTH,
  an unknown key or a bad value becomes a Claim with `problem` set, reported as an
  `error` at its position; every other claim of the file is still returned. A claim
  with an unknown key is one `error` (at the key), never a second record.
- Markdown is read with markdown-it-py (CommonMark): claim fences inside block quotes and
  list items are found as GitHub renders them, a fence closes exactly where CommonMark
  closes it, and each claim's column is its column in the file (container prefixes
  counted). Lines end at \\n, \\r\\n or \\r only; U+0085, U+2028 or a form feed never
  ends a line or a fence.
- TOML positions come from `_toml_layout`, a scanner of the text that follows quoted and
  dotted keys, quoted table headers, multi-line strings and escapes; every character of
  a claim's `expr` string keeps its own (line, col), so an error inside the claim points
  at the character in the file.
- Names that are not UTF-8 are shown with \\xNN escapes (printable.fs_name).

Markdown trailers (`# expect: false`) and the keys of a TOML claim are case-insensitive;
a trailer close to a known one (`# expcet: false`) or an unknown expectation
(`expect: fals`) is an error at its token. When a folder is walked, a TOML file without
a `claim` table (pyproject.toml, ...) is not a claim file and is skipped; a file named
explicitly is always read.
"""

import bisect
import difflib
import os
import re
import stat
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.common.utils import unescapeAll

from ffnverify.claims.printable import fs_name

EXPECTATIONS = ("true", "false", "unknown", "skipped")
CLAIM_KEYS = ("id", "expr", "quote", "source", "assume", "expect", "empirical")
TRAILERS = ("expect", "assume", "empirical", "id")
SKIP_DIRS = {"__pycache__", "node_modules", "site-packages", "venv", "build", "dist"}
MAX_FILE_BYTES = 4 * 2**20
MAX_CLAIMS_PER_FILE = 50_000
MAX_TOML_DEPTH = 100  # arrays and inline tables; tomllib's recursion would end near 400
MAX_MARKDOWN_NESTING = 20  # block quotes and lists (markdown-it's CommonMark default)
LINE_END = re.compile(r"\r\n|\r|\n")  # CommonMark's line endings, and only those
_BLANK = " \t\f\v"  # white space around a claim (the claim language itself knows " \t")


@dataclass
class Claim:
    file: str  # the path as reported (relative to the working directory where possible)
    line: int  # 1-based
    col: int  # 1-based column of the first character of the claim text
    expr: str
    id: str = ""
    expect: str = "true"
    assume: tuple = ()
    empirical: str | None = None  # the reason, when the claim is marked empirical
    quote: str = ""
    source: str = ""
    problem: str | None = None  # set for a claim (or file) that cannot be evaluated
    extra: dict = field(default_factory=dict)
    # (line, col) in the file of each character of `expr`, where they are not simply
    # consecutive columns of `line` (a TOML string with escapes or on several lines)
    positions: list | None = None
    problem_at: tuple | None = None  # (line, col) of the problem when not the claim's start

    def __post_init__(self):
        if not self.id:
            self.id = f"{self.file}:{self.line}"

    def position(self, index: int) -> tuple[int, int]:
        """The (line, col) in the file of character `index` (0-based) of `expr`."""
        if self.positions:
            if index < len(self.positions):
                return self.positions[max(index, 0)]
            line, col = self.positions[-1]
            return line, col + 1 + index - len(self.positions)
        return self.line, self.col + max(index, 0)


def display_path(path) -> str:
    p = Path(path)
    try:
        shown = p.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except (ValueError, OSError, RuntimeError):
        shown = p.as_posix()
    return fs_name(shown)


def collect(paths) -> list[Claim]:
    """Every claim under `paths` (files or folders), folders walked in sorted order."""
    claims = []
    for path in paths:
        p = Path(path)
        try:
            is_dir = p.is_dir()
            exists = is_dir or p.exists() or p.is_symlink()
        except OSError as e:
            claims.append(_problem(display_path(p), 1, 1, f"cannot read: {e.strerror or e}"))
            continue
        if is_dir:
            unreadable = []
            for f in _walk(p, unreadable):
                claims.extend(_load_safely(f, walked=True))
            claims.extend(_problem(display_path(e.filename or p), 1, 1,
                                   f"cannot read the folder: {e.strerror or e}")
                          for e in unreadable)
        elif exists:
            claims.extend(_load_safely(p))
        else:
            claims.append(_problem(display_path(p), 1, 1, "no such file or folder"))
    return claims


def _walk(folder: Path, unreadable: list):
    """The .md and .toml files under `folder`; folders that cannot be listed go to
    `unreadable` (os.walk would skip them silently)."""
    for root, dirs, files in os.walk(folder, onerror=unreadable.append):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS
                         and not d.endswith(".egg-info"))
        for name in sorted(files):
            if name.endswith((".md", ".toml")):
                yield Path(root) / name


def _problem(file, line, col, message, expr="", **kw) -> Claim:
    return Claim(file, line, col, expr, problem=message, **kw)


def _load_safely(path, walked=False) -> list[Claim]:
    try:
        return load(path, walked=walked)
    except (RecursionError, MemoryError) as e:  # belt and braces: the limits come first
        return [_problem(display_path(path), 1, 1,
                         f"this file cannot be read within the limits ({type(e).__name__})")]


_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISDIR, "a folder"))


def _kind(mode) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_bounded(path, limit: int = MAX_FILE_BYTES) -> bytes | str:
    """The bytes of a regular file of at most `limit` bytes, or why it cannot be read.

    The one reader of untrusted files (the audit's claim files and the scan's documents):
    a FIFO, a device (a symlink to /dev/zero), a socket or a folder is refused before it is
    opened, the open never blocks, and no more than limit + 1 bytes are ever read."""
    try:
        st = os.stat(path)  # follows a symlink: its target is what would be read
    except OSError as e:
        return f"cannot read the file: {e.strerror or e}"
    if not stat.S_ISREG(st.st_mode):
        return f"not a regular file: this is {_kind(st.st_mode)}; only regular files are read"
    if st.st_size > limit:
        return (f"file is {st.st_size:,} bytes; the limit is {limit:,} bytes "
                f"({limit // 2**20} MiB)")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)  # O_NONBLOCK: a FIFO swapped in after stat cannot block
    except OSError as e:
        return f"cannot read the file: {e.strerror or e}"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return (f"not a regular file: this is {_kind(st.st_mode)}; "
                    "only regular files are read")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            return f"file is over the limit of {limit:,} bytes"
        return b"".join(chunks)
    except OSError as e:
        return f"cannot read the file: {e.strerror or e}"
    finally:
        os.close(fd)


def load(path, walked: bool = False) -> list[Claim]:
    """The claims of one file (problems included), in line order."""
    path = Path(path)
    shown = display_path(path)
    if path.suffix not in (".md", ".toml"):
        return [_problem(shown, 1, 1, "not a claim file: expected a .md or .toml file")]
    data = read_bounded(path)
    if isinstance(data, str):
        return [_problem(shown, 1, 1, data)]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[:e.start].decode("utf-8")
        lines = (LINE_END if path.suffix == ".md" else re.compile("\n")).split(before)
        return [_problem(shown, len(lines), len(lines[-1]) + 1,
                         f"not UTF-8 text (byte {e.start}: {e.reason})")]
    text = text.removeprefix("\ufeff")  # a byte-order mark is not content
    if path.suffix == ".md":
        claims = markdown_claims(text, shown)
    else:
        if walked and not _looks_like_claims(text):
            return []
        claims = toml_claims(text, shown)
    return sorted(claims, key=lambda c: c.problem_at or (c.line, c.col))


# ---- Markdown ---------------------------------------------------------------------------

_MD = MarkdownIt("commonmark", {"maxNesting": MAX_MARKDOWN_NESTING}).disable("inline")
_CODE_TOKENS = ("fence", "code_block", "html_block")
_LOOKS_LIKE_CLAIM_FENCE = re.compile(r"^[ \t>*+\-0-9.)]*(?:`{3,}[ \t]*claim(?![^`]*`)|"
                                     r"~{3,}[ \t]*claim)(?:[ \t]|$)")


def _is_claim_fence(token) -> bool:
    # the language word of the info string, as a renderer reads it (entities decoded)
    return token.type == "fence" and unescapeAll(token.info).split()[:1] == ["claim"]


_WHITE_LINE = re.compile(r"(?m)^[ \t]+$")


def _tokens(text: str):
    # A line of nothing but white space is a blank line wherever it is (the content of a
    # blank line is never a claim); emptied first, so that megabytes of spaces cost
    # markdown-it nothing. Line numbers are unchanged.
    return _MD.parse(_WHITE_LINE.sub("", LINE_END.sub("\n", text)))


_MAYBE_FENCE = re.compile(r"`{3,}|~{3,}")  # a text without one holds no fence at all


def has_claim_fence(text: str) -> bool:
    return bool(_MAYBE_FENCE.search(text)) and any(map(_is_claim_fence, _tokens(text)))


def markdown_claims(text: str, shown: str) -> list[Claim]:
    """The claims of the `claim` fences of a Markdown text, as CommonMark reads it."""
    source = LINE_END.split(text)
    tokens = _tokens(text) if _MAYBE_FENCE.search(text) else []
    claims = []
    for token in tokens:
        if not _is_claim_fence(token):
            continue
        first, end = token.map  # 0-based: the opening fence line, one past the block
        body = token.content.split("\n")
        if body[-1] == "":  # the newline that ends the last line (absent at the end of a file)
            body.pop()
        for k, content in enumerate(body):
            number = first + 2 + k
            claim = _markdown_line(content, source[number - 1], number, shown)
            if claim is not None:
                claims.append(claim)
                if len(claims) > MAX_CLAIMS_PER_FILE:
                    return _at_most(claims, shown)  # read no further
        if end - first < len(body) + 2:  # no closing fence: CommonMark ends it here
            where = "file" if end >= len(source) - (source[-1] == "") else \
                "block quote or list item holding it"
            claims.append(_problem(shown, first + 1, _lead(source[first]) + 1,
                                   f"this claim fence is never closed; claims up to the end "
                                   f"of the {where} (line {end}) were read"))
    if tokens and max(t.level for t in tokens) >= MAX_MARKDOWN_NESTING - 1:
        claims.extend(_too_deep(tokens, source, shown))
    return _at_most(claims, shown)


def _at_most(claims: list[Claim], shown: str) -> list[Claim]:
    """The first MAX_CLAIMS_PER_FILE claims, then one error saying where reading stopped."""
    if len(claims) <= MAX_CLAIMS_PER_FILE:
        return claims
    claims.sort(key=lambda c: c.problem_at or (c.line, c.col))
    first_dropped = claims[MAX_CLAIMS_PER_FILE]
    return claims[:MAX_CLAIMS_PER_FILE] + [_problem(
        shown, first_dropped.line, first_dropped.col,
        f"this file holds more than {MAX_CLAIMS_PER_FILE:,} claims, the limit per file; "
        "the claims from here on are not checked")]


def _lead(line: str) -> int:
    """Characters before the fence marker of an opening line (container prefixes too)."""
    m = re.search(r"`{3,}|~{3,}", line)
    return m.start() if m else 0


def _too_deep(tokens, source, shown) -> list[Claim]:
    """Claim fences markdown-it did not read because they nest deeper than its limit."""
    covered = set()
    for t in tokens:
        if t.type in _CODE_TOKENS and t.map:
            covered.update(range(*t.map))
    return [_problem(shown, i + 1, _lead(line) + 1,
                     f"this claim fence is nested deeper than {MAX_MARKDOWN_NESTING} block "
                     "quotes or lists and is not read")
            for i, line in enumerate(source)
            if i not in covered and _LOOKS_LIKE_CLAIM_FENCE.match(line)]


def _split_comment(line: str) -> tuple[str, str]:
    """(code, trailer) split at the first '#' outside quotes."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return line[:i], line[i + 1:]
    return line, ""


_TRAILER = re.compile(r"[ \t]*([A-Za-z_][A-Za-z_-]*)[ \t]*:[ \t]*", re.S)


def _markdown_line(content: str, original: str, number: int, shown: str) -> Claim | None:
    """The claim of one line of a fence. `content` is the line as CommonMark gives it
    (container prefixes and the fence's indentation removed); `original` the file's line."""
    text = content.lstrip(_BLANK)
    if not text.strip(_BLANK) or text.startswith("#"):
        return None
    # the claim's text is the end of the file's line; what is before it is the prefix
    base = len(original) - len(text) if original.endswith(text) else \
        max(0, len(original) - len(text))
    code, trailer = _split_comment(text)
    expr = code.rstrip(_BLANK)
    claim = Claim(shown, number, base + 1, expr)
    at = base + len(code) + 1  # index in `original` of the trailer text
    expect_given = False
    for piece in trailer.split("#"):
        start = at
        at += len(piece) + 1
        m = _TRAILER.match(piece)
        if not m:
            continue  # a plain comment
        word, value = m.group(1), piece[m.end():].rstrip(_BLANK)
        key = word.lower()
        key_col, value_col = start + len(piece) - len(piece.lstrip(" \t")) + 1, start + m.end() + 1
        if key not in TRAILERS:
            close = difflib.get_close_matches(key, TRAILERS, n=1, cutoff=0.75)
            if close and not claim.problem:
                claim.problem = f"unknown trailer {word + ':'!r}; did you mean {close[0] + ':'!r}?"
                claim.problem_at = (number, key_col)
            continue  # a plain comment such as `# note: ...`
        if key == "expect":
            expect_given = True
            value = value.lower()
            if value not in EXPECTATIONS:
                if not claim.problem:
                    claim.problem = _bad_expectation(value)
                    claim.problem_at = (number, value_col)
                continue
            claim.expect = value
        elif key == "assume":
            claim.assume = claim.assume + (value,)
        elif key == "empirical":
            claim.empirical = value or "marked empirical"
        else:
            claim.id = value
    if claim.empirical is not None and not expect_given:
        claim.expect = "skipped"
    return claim


def _bad_expectation(value) -> str:
    msg = f"expect must be one of {', '.join(EXPECTATIONS)}, not {value!r}"
    close = difflib.get_close_matches(str(value).lower(), EXPECTATIONS, n=1, cutoff=0.6) \
        if isinstance(value, str) else []
    return msg + (f" (did you mean {close[0]!r}?)" if close else "")


# ---- TOML -----------------------------------------------------------------------------

_TOML_ERROR_POS = re.compile(r"\(at line (\d+), column (\d+)\)")


def _looks_like_claims(text: str) -> bool:
    """Whether a TOML file found by walking a folder is meant as a claim file: it has a
    [[claim]] table, or one a typo away ([[Claim]], [[claims]]: then reported, not lost)."""
    return bool(re.search(r"""(?mi)^[ \t]*(\[\[[ \t]*(["']?)claims?\2[ \t]*\]\]|"""
                          r"""(["']?)claim\3[ \t]*=)""", text))


@dataclass
class _Key:
    line: int
    col: int  # of the key
    value: tuple  # (line, col) of the value's first character
    positions: list | None = None  # per decoded character of a string value
    decoded: str | None = None


@dataclass
class _Layout:
    top: dict = field(default_factory=dict)  # top-level key -> (line, col)
    tables: list = field(default_factory=list)  # per [[claim]]: ((line, col), {key: _Key})
    too_deep: tuple | None = None  # (line, col) where nesting passes MAX_TOML_DEPTH


_BARE = re.compile(r"[A-Za-z0-9_-]+")
_SCALAR = re.compile(r"[^ \t\r\n,\]}#]+")
_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}


class _Scanner:
    """Positions in a TOML text. Lenient: tomllib has judged (or will judge) the syntax;
    on text it does not understand the scanner skips to the next line, never raises."""

    def __init__(self, text: str):
        self.s = text
        self.n = len(text)
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def pos(self, i: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, i)
        return line, i - self.starts[line - 1] + 1

    def skip_ws(self, i, newlines=False):
        s, n = self.s, self.n
        while i < n:
            ch = s[i]
            if ch in " \t" or (newlines and ch in "\r\n"):
                i += 1
            elif newlines and ch == "#":
                j = s.find("\n", i)
                i = n if j < 0 else j
            else:
                break
        return i

    def string(self, i):
        """(end, decoded, [index in the text of each decoded char]) of the string at i."""
        s = self.s
        quote = s[i]
        multi = s.startswith(quote * 3, i)
        i += 3 if multi else 1
        if multi and s.startswith("\r\n", i):
            i += 2
        elif multi and s.startswith("\n", i):
            i += 1
        out, idx = [], []
        while i < self.n:
            ch = s[i]
            if multi and s.startswith(quote * 3, i):
                extra = 0  # up to two quotes right before the closing three belong inside
                while extra < 2 and s.startswith(quote, i + 3 + extra):
                    extra += 1
                for k in range(extra):
                    out.append(quote)
                    idx.append(i + k)
                return i + 3 + extra, "".join(out), idx
            if not multi and ch == quote:
                return i + 1, "".join(out), idx
            if not multi and ch == "\n":
                break
            if ch == "\\" and quote == '"':
                nxt = s[i + 1:i + 2]
                if nxt in _ESCAPES:
                    out.append(_ESCAPES[nxt])
                    idx.append(i)
                    i += 2
                    continue
                if nxt in ("u", "U"):
                    width = 4 if nxt == "u" else 8
                    try:
                        out.append(chr(int(s[i + 2:i + 2 + width], 16)))
                    except ValueError:
                        out.append("?")
                    idx.append(i)
                    i += 2 + width
                    continue
                if multi:  # a line-ending backslash: the white space after it goes
                    j = i + 1
                    while j < self.n and s[j] in " \t\r\n":
                        j += 1
                    i = j
                    continue
            if multi and ch == "\r" and s.startswith("\r\n", i):
                i += 1
                continue
            out.append(ch)
            idx.append(i)
            i += 1
        return i, "".join(out), idx

    def key(self, i):
        """(end, [parts]) of a dotted key at i; None parts if no key is there."""
        parts = []
        while True:
            i = self.skip_ws(i)
            if i < self.n and self.s[i] in "\"'":
                i, part, _ = self.string(i)
            else:
                m = _BARE.match(self.s, i)
                if not m:
                    return i, None
                part, i = m.group(), m.end()
            parts.append(part)
            i = self.skip_ws(i)
            if i < self.n and self.s[i] == ".":
                i += 1
                continue
            return i, parts

    def value(self, i, layout, depth=0):
        """End of the value at i (arrays and inline tables walked with a stack)."""
        s, stack = self.s, []
        while i < self.n:
            i = self.skip_ws(i, newlines=bool(stack))
            if i >= self.n:
                break
            ch = s[i]
            if ch in "[{":
                stack.append(ch)
                if len(stack) + depth > MAX_TOML_DEPTH and layout.too_deep is None:
                    layout.too_deep = self.pos(i)
                i += 1
                if ch == "{":
                    i = self._inline_key(i)
                continue
            if ch in "]}" and stack:
                stack.pop()
                i += 1
            elif ch == "," and stack:
                i += 1
                if stack[-1] == "{":
                    i = self._inline_key(i)
                continue
            elif ch in "\"'":
                i = self.string(i)[0]
            else:
                m = _SCALAR.match(s, i)
                if not m:
                    i += 1  # not understood: move on
                    if not stack:
                        break
                    continue
                i = m.end()
            if not stack:
                break
        return i

    def _inline_key(self, i):
        """Past `key =` in an inline table (or at its closing brace)."""
        j = self.skip_ws(i, newlines=True)
        if j < self.n and self.s[j] == "}":
            return j
        j, parts = self.key(j)
        if parts is None:
            return j
        j = self.skip_ws(j)
        return j + 1 if self.s.startswith("=", j) else j


def _toml_layout(text: str) -> _Layout:
    layout = _Layout()
    sc = _Scanner(text)
    s, n = text, len(text)
    current = layout.top  # where key/value pairs go: top, a claim's keys, or None
    in_claim = False
    i = 0
    while i < n:
        i = sc.skip_ws(i, newlines=True)
        if i >= n:
            break
        start = i
        if s[i] == "[":
            array = s.startswith("[[", i)
            j, parts = sc.key(i + (2 if array else 1))
            end = s.find("\n", j)
            i = n if end < 0 else end
            if not parts:
                current = None
                continue
            if array and parts == ["claim"]:
                current = {}
                in_claim = True
                layout.tables.append((sc.pos(start), current))
            elif parts[0] == "claim" and len(parts) > 1 and layout.tables:
                # [claim.sub] or [[claim.sub]]: a key `sub` of the last claim
                keys = layout.tables[-1][1]
                keys.setdefault(parts[1], _Key(*sc.pos(start), sc.pos(start)))
                current, in_claim = None, False
            else:
                layout.top.setdefault(parts[0], sc.pos(start))
                current, in_claim = None, False
            continue
        j, parts = sc.key(i)
        j = sc.skip_ws(j)
        if not parts or not s.startswith("=", j):
            end = s.find("\n", i)
            i = n if end < 0 else end + 1
            continue
        v = sc.skip_ws(j + 1)
        entry = _Key(*sc.pos(start), sc.pos(v))
        if in_claim and len(parts) == 1 and v < n and s[v] in "\"'":
            end, decoded, idx = sc.string(v)
            entry.positions = [sc.pos(k) for k in idx]
            entry.decoded = decoded
        else:
            end = sc.value(v, layout)
        if current is layout.top:
            layout.top.setdefault(parts[0], (entry.line, entry.col))
        elif current is not None:
            current.setdefault(parts[0], entry)
        i = end
        eol = s.find("\n", i)
        i = n if eol < 0 else eol + 1
    return layout


def toml_claims(text: str, shown: str) -> list[Claim]:
    layout = _toml_layout(text)
    if layout.too_deep:
        return [_problem(shown, *layout.too_deep,
                         f"TOML nested deeper than {MAX_TOML_DEPTH} levels (arrays or inline "
                         "tables); this file is not read")]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = _TOML_ERROR_POS.search(str(e))
        line, col = (int(m.group(1)), int(m.group(2))) if m else (1, 1)
        return [_problem(shown, line, col, f"TOML syntax error: {e}")]
    except RecursionError:
        return [_problem(shown, 1, 1, "TOML nested too deeply to read (arrays or inline "
                                      "tables); this file is not read")]
    claims = []
    for key in data:
        if key != "claim":
            line, col = layout.top.get(key, (1, 1))
            hint = "; did you mean [[claim]]?" if key.lower() in ("claim", "claims") else ""
            claims.append(_problem(shown, line, col,
                                   f"unknown top-level key {key!r}; a claim file holds "
                                   f"[[claim]] tables only{hint}"))
    entries = data.get("claim", [])
    if not isinstance(entries, list):
        line, col = layout.top.get("claim", (1, 1))
        return claims + [_problem(shown, line, col, "claim must be an array of tables "
                                                    "([[claim]])")]
    for i, entry in enumerate(entries):
        header, keys = layout.tables[i] if i < len(layout.tables) else ((1, 1), {})
        claims.append(_toml_claim(entry, header, keys, shown))
    return _at_most(claims, shown)


def _toml_claim(entry, header, keys, shown) -> Claim:
    """One claim (one record) of a [[claim]] table; its problems, if any, are one error."""
    if not isinstance(entry, dict):
        return _problem(shown, *header, "each claim must be a table")
    problems = []  # (position, message)
    fields = {}
    for key, value in entry.items():
        name = key.lower()
        where = keys.get(key)
        at = (where.line, where.col) if where else header
        if name not in CLAIM_KEYS:
            close = difflib.get_close_matches(name, CLAIM_KEYS, n=1, cutoff=0.75)
            problems.append((at, f"unknown key {key!r} in a claim; "
                                 + (f"did you mean {close[0]!r}? " if close else "")
                                 + f"allowed keys: {', '.join(CLAIM_KEYS)}"))
        elif name in fields:
            problems.append((at, f"key {key!r} repeats {fields[name][0]!r} (keys are "
                                 "case-insensitive)"))
        else:
            fields[name] = (key, value, where)
    line, col = header
    positions = None
    expr = None
    if "expr" in fields:
        key, expr, where = fields["expr"]
        if where:
            line, col = where.value
            if isinstance(expr, str) and where.decoded == expr and where.positions:
                positions = where.positions
                line, col = positions[0]
                if len(set(positions)) == len(positions) and all(
                        p == (line, col + k) for k, p in enumerate(positions)):
                    positions = None  # plain consecutive columns: no table needed
    if not isinstance(expr, str):
        problems.append(((line, col), "expr is missing" if expr is None
                         else "expr must be a string"))
        expr = "" if expr is None else str(expr)
    if "\n" in expr or "\r" in expr:  # a multi-line string is one claim
        expr, positions = _join_lines(expr, positions)
        if positions:
            line, col = positions[0]
    claim = Claim(shown, line, col, expr, positions=positions)

    def value_at(name):
        where = fields[name][2]
        return where.value if where else header

    for name in ("id", "quote", "source"):
        if name in fields:
            if isinstance(fields[name][1], str):
                setattr(claim, name, fields[name][1])
            else:
                problems.append((value_at(name), f"{name} must be a string"))
    if not claim.id:
        claim.id = f"{shown}:{line}"
    assume = fields.get("assume", (None, [], None))[1]
    if isinstance(assume, str):
        claim.assume = (assume,)
    elif isinstance(assume, list) and all(isinstance(a, str) for a in assume):
        claim.assume = tuple(assume)
    else:
        problems.append((value_at("assume"), "assume must be a string or a list of strings"))
    empirical = fields.get("empirical", (None, False, None))[1]
    if isinstance(empirical, str):
        claim.empirical = empirical or "marked empirical"
    elif empirical is True:
        claim.empirical = "marked empirical"
    elif empirical is not False:
        problems.append((value_at("empirical"),
                         "empirical must be true, false or a reason (a string)"))
    expect = fields.get("expect", (None, "skipped" if claim.empirical else "true", None))[1]
    if isinstance(expect, bool):
        expect = "true" if expect else "false"
    if isinstance(expect, str):
        expect = expect.lower()
    if expect not in EXPECTATIONS:
        problems.append((value_at("expect"), _bad_expectation(expect)))
        expect = "true"
    claim.expect = expect
    if problems:
        problems.sort(key=lambda p: p[0])
        claim.problem = "; ".join(msg for _, msg in problems)
        claim.problem_at = problems[0][0]
    return claim


def _join_lines(expr: str, positions):
    """A string on several lines as one claim: runs of spaces, tabs and line endings
    become one space (U+2028 and the like stay, as they would on one line)."""
    pieces = list(re.finditer(r"[^ \t\r\n]+", expr))
    text = " ".join(m.group() for m in pieces)
    if not positions or len(positions) != len(expr):
        return text, None
    out = []
    for k, m in enumerate(pieces):
        if k:
            out.append(positions[pieces[k - 1].end()])  # the first white space character
        out.extend(positions[m.start():m.end()])
    return text, out or None
