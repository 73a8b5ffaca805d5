"""Claim files: walking folders and reading files, bounded; the Markdown and TOML readers
(markdown_claims, toml_claims, toml_positions) and the `Claim` record (records) are
their own modules, re-exported here. Claims carry exact 1-based positions.

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
- TOML positions come from `toml_layout`, a scanner of the text that follows quoted and
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

import os
import re
import stat
from pathlib import Path

from ffnverify.claims.markdown_claims import (
    claim_fence_spans,
    has_claim_fence,
    is_claim_fence,
    markdown_claims,
)
from ffnverify.claims.printable import fs_name
from ffnverify.claims.records import (
    CLAIM_KEYS,
    EXPECTATIONS,
    LINE_END,
    MAX_CLAIMS_PER_FILE,
    MAX_FILE_BYTES,
    MAX_MARKDOWN_NESTING,
    MAX_TOML_DEPTH,
    SKIP_DIRS,
    TRAILERS,
    Claim,
    problem,
)
from ffnverify.claims.toml_claims import looks_like_claims, toml_claims

__all__ = [
    "CLAIM_KEYS", "EXPECTATIONS", "MAX_CLAIMS_PER_FILE", "MAX_FILE_BYTES", "MAX_MARKDOWN_NESTING",
    "MAX_TOML_DEPTH", "SKIP_DIRS", "TRAILERS", "Claim", "claim_fence_spans", "collect",
    "display_path", "has_claim_fence", "is_claim_fence", "load", "markdown_claims", "read_bounded",
    "toml_claims",
]

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
            claims.append(problem(display_path(p), 1, 1, f"cannot read: {e.strerror or e}"))
            continue
        if is_dir:
            unreadable: list = []
            for f in _walk(p, unreadable):
                claims.extend(_load_safely(f, walked=True))
            claims.extend(problem(display_path(e.filename or p), 1, 1,
                                   f"cannot read the folder: {e.strerror or e}")
                          for e in unreadable)
        elif exists:
            claims.extend(_load_safely(p))
        else:
            claims.append(problem(display_path(p), 1, 1, "no such file or folder"))
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


def _load_safely(path, walked=False) -> list[Claim]:
    try:
        return load(path, walked=walked)
    except (RecursionError, MemoryError) as e:  # belt and braces: the limits come first
        return [problem(display_path(path), 1, 1,
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
        return [problem(shown, 1, 1, "not a claim file: expected a .md or .toml file")]
    data = read_bounded(path)
    if isinstance(data, str):
        return [problem(shown, 1, 1, data)]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[:e.start].decode("utf-8")
        lines = (LINE_END if path.suffix == ".md" else re.compile("\n")).split(before)
        return [problem(shown, len(lines), len(lines[-1]) + 1,
                         f"not UTF-8 text (byte {e.start}: {e.reason})")]
    text = text.removeprefix("\ufeff")  # a byte-order mark is not content
    if path.suffix == ".md":
        claims = markdown_claims(text, shown)
    else:
        if walked and not looks_like_claims(text):
            return []
        claims = toml_claims(text, shown)
    return sorted(claims, key=lambda c: c.problem_at or (c.line, c.col))
