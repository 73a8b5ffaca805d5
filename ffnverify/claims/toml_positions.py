"""TOML positions: a scanner of a claim file's text that follows quoted and dotted keys,
quoted table headers, multi-line strings and escapes, so every key and every character of
a claim's `expr` string keeps its own (line, col) (tomllib gives values, not positions).
"""

import bisect
import re
from dataclasses import dataclass, field

from ffnverify.claims.records import (
    MAX_TOML_DEPTH,
)


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
    tables: list[tuple[tuple[int, int], dict]] = field(default_factory=list)  # per [[claim]]: ((line, col), {key: _Key})
    too_deep: tuple[int, int] | None = None  # (line, col) where nesting passes MAX_TOML_DEPTH


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
        s = self.s
        stack: list = []
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


def toml_layout(text: str) -> _Layout:
    layout = _Layout()
    sc = _Scanner(text)
    s, n = text, len(text)
    current: dict | None = layout.top  # where key/value pairs go: top, a claim's keys, or None
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
