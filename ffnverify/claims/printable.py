"""The one escape every audit output uses: untrusted text made safe to print.

File names, claim text, TOML strings and error details all come from files the audit
does not trust. Before any of them reaches a terminal, a CI log or a report:

- `visible(s)` (text, GitHub annotations, HTML) writes every character that could end a
  line, move the cursor or reorder the text as a backslash escape: C0 and C1 controls
  (newline, carriage return, escape, U+0085 ...), DEL, U+2028/U+2029, the bidirectional
  controls, and lone surrogates. The result never holds a line break, so a line the
  report writes is exactly one line, and no escape sequence reaches a terminal raw.
- `json_text(obj)` (JSON, SARIF) is `json.dumps` with the same characters written as
  `\\uXXXX` JSON escapes: lossless (a JSON reader gets the original string back), and the
  document printed holds none of them raw.
- `fs_name(path)` is a path as text: the bytes of a name that is not UTF-8 (which Python
  carries as lone surrogates) are shown as `\\xNN`, so every format can print and encode it.
- `annotation_data(s)`, `annotation_property(s)`: `visible`, then GitHub's own %XX escapes
  for a workflow command's message and its property values (file=, title=).
- `line_lead(path)` makes a path safe at the start of an output line: GitHub Actions reads
  a stdout line that starts with `::` as a workflow command, so a relative name that
  starts with `:` or white space is written `./name`.
"""

import json
import os
import re

_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
UNSAFE = re.compile(f"[\x00-\x1f\x7f-\x9f\u2028\u2029{_BIDI}\ud800-\udfff]")
# what json.dumps leaves raw in a string (it escapes C0 itself; its own newlines are layout)
_JSON_UNSAFE = re.compile(f"[\x7f-\x9f\u2028\u2029{_BIDI}\ud800-\udfff]")
_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(m: re.Match) -> str:
    ch = m.group()
    if ch in _SHORT:
        return _SHORT[ch]
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(s) -> str:
    """`s` as one printable line: every unsafe character written as a backslash escape."""
    s = "" if s is None else str(s)
    return UNSAFE.sub(_escape, s)


def fs_name(path) -> str:
    """A file name as text: bytes that are not UTF-8 shown as \\xNN."""
    name = os.fsdecode(path) if isinstance(path, bytes) else str(path)
    return re.sub("[\udc80-\udcff]", lambda m: f"\\x{ord(m.group()) - 0xDC00:02x}", name)


def line_lead(path: str) -> str:
    """`path` safe as the first thing on an output line (never `::...`)."""
    if path[:1].isspace() or path.lstrip()[:1] == ":":
        return "./" + path
    return path


def annotation_data(s) -> str:
    """`s` as the message of a GitHub workflow command (`::error ...::message`): `visible`
    (no line break), then '%', CR and LF as GitHub's own %XX escapes."""
    return visible(s).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def annotation_property(s) -> str:
    """`s` as a property value of a workflow command (file=, title=): `annotation_data`,
    and ':' and ',' (which end a property) escaped too."""
    return annotation_data(s).replace(":", "%3A").replace(",", "%2C")


def json_text(obj, indent: int = 2) -> str:
    """JSON with every unsafe character (see `visible`) written as a \\u escape."""
    text = json.dumps(obj, indent=indent, ensure_ascii=False)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
