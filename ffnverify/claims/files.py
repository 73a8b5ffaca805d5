"""Claim files (SPEC §4): TOML tables and Markdown `claim` fences, with 1-based positions.

`collect(paths)` walks files and folders and returns `Claim`s in a stable order. A file
that cannot be read, a TOML syntax error, an unknown key or a bad value becomes a Claim
with `problem` set (reported as an `error` verdict at its position); every other claim in
the file is still returned. tomllib gives no positions, so `_toml_keys` locates tables
and keys in the text itself.

When a folder is walked, a TOML file without a `claim` table (pyproject.toml, ...) is not
a claim file and is skipped; a file named explicitly is always read.
"""

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

EXPECTATIONS = ("true", "false", "unknown", "skipped")
CLAIM_KEYS = ("id", "expr", "quote", "source", "assume", "expect", "empirical")
SKIP_DIRS = {"__pycache__", "node_modules", "site-packages", "venv", "build", "dist"}


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

    def __post_init__(self):
        if not self.id:
            self.id = f"{self.file}:{self.line}"


def display_path(path) -> str:
    p = Path(path)
    try:
        rel = p.resolve().relative_to(Path.cwd().resolve())
        return rel.as_posix()
    except ValueError:
        return p.as_posix()


def collect(paths) -> list[Claim]:
    """Every claim under `paths` (files or folders), folders walked in sorted order."""
    claims = []
    for path in paths:
        p = Path(path)
        if p.is_dir():
            for f in _walk(p):
                claims.extend(load(f, walked=True))
        elif p.exists():
            claims.extend(load(p))
        else:
            claims.append(_problem(display_path(p), 1, 1, "no such file or folder"))
    return claims


def _walk(folder: Path):
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS
                         and not d.endswith(".egg-info"))
        for name in sorted(files):
            if name.endswith((".md", ".toml")):
                yield Path(root) / name


def _problem(file, line, col, message, expr="", **kw) -> Claim:
    return Claim(file, line, col, expr, problem=message, **kw)


def load(path, walked: bool = False) -> list[Claim]:
    """The claims of one file (problems included)."""
    path = Path(path)
    shown = display_path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        return [_problem(shown, 1, 1, f"cannot read the file: {e.strerror or e}")]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        return [_problem(shown, line, col, f"not UTF-8 text (byte {e.start}: {e.reason})")]
    text = text.removeprefix("\ufeff")  # a byte-order mark is not content
    if path.suffix == ".md":
        return markdown_claims(text, shown)
    if path.suffix == ".toml":
        if walked and not _looks_like_claims(text):
            return []
        return toml_claims(text, shown)
    return [_problem(shown, 1, 1, "not a claim file: expected a .md or .toml file")]


# ---- Markdown ---------------------------------------------------------------------------

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})[ \t]*([^\s`]*)")
_TRAILER_KEY = re.compile(r"^(expect|assume|empirical|id)\s*:\s*(.*)$", re.S)


def has_claim_fence(text: str) -> bool:
    return any(m and m.group(3) == "claim" for m in map(_FENCE.match, text.splitlines()))


def markdown_claims(text: str, shown: str) -> list[Claim]:
    claims = []
    fence = None  # (marker, opening line) while inside a claim fence
    other = None  # marker of a non-claim fence we are inside
    for number, line in enumerate(text.splitlines(), start=1):
        m = _FENCE.match(line)
        if other is not None:
            if m and m.group(2)[0] == other[0] and len(m.group(2)) >= len(other) \
                    and not line.strip().strip(other[0]):
                other = None
            continue
        if fence is not None:
            marker = fence[0]
            if m and m.group(2)[0] == marker[0] and len(m.group(2)) >= len(marker) \
                    and not line.strip().strip(marker[0]):
                fence = None
                continue
            claim = _markdown_line(line, number, shown)
            if claim is not None:
                claims.append(claim)
            continue
        if m:
            if m.group(3) == "claim":
                fence = (m.group(2), number)
            else:
                other = m.group(2)
    if fence is not None:
        claims.append(_problem(shown, fence[1], 1,
                               "this claim fence is never closed; claims up to the end of the "
                               "file were read"))
    return claims


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


def _markdown_line(line: str, number: int, shown: str) -> Claim | None:
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return None
    code, trailer = _split_comment(line)
    expr = code.strip()
    col = len(code) - len(code.lstrip()) + 1
    claim = Claim(shown, number, col, expr)
    for piece in trailer.split("#"):
        m = _TRAILER_KEY.match(piece.strip())
        if not m:
            continue  # a plain comment
        key, value = m.group(1), m.group(2).strip()
        if key == "expect":
            value = value.lower()
            if value not in EXPECTATIONS:
                claim.problem = (f"expect must be one of {', '.join(EXPECTATIONS)}, "
                                 f"not {value!r}")
            claim.expect = value
        elif key == "assume":
            claim.assume = claim.assume + (value,)
        elif key == "empirical":
            claim.empirical = value or "marked empirical"
        else:
            claim.id = value
    if claim.empirical is not None and "expect" not in trailer:
        claim.expect = "skipped"
    return claim


# ---- TOML -----------------------------------------------------------------------------

_TOML_ERROR_POS = re.compile(r"\(at line (\d+), column (\d+)\)")
_KEY = re.compile(r"""^(\s*)([A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')\s*=\s*""")
_CLAIM_HEADER = re.compile(r"^\s*\[\[\s*claim\s*\]\]\s*(#.*)?$")


def _looks_like_claims(text: str) -> bool:
    return bool(re.search(r"(?m)^\s*(\[\[\s*claim\s*\]\]|claim\s*=)", text))


def _toml_keys(text: str):
    """Positions found in the text: ({top-level key: (line, col, value col)},
    [header (line, col) and {key: (line, col, value col)} per [[claim]] table])."""
    top, tables = {}, []
    current = top
    multiline = None
    for number, line in enumerate(text.splitlines(), start=1):
        if multiline:
            if line.count(multiline) % 2 == 1:
                multiline = None
            continue
        stripped = line.strip()
        if stripped.startswith("["):
            if _CLAIM_HEADER.match(line):
                current = {}
                tables.append(((number, line.index("[") + 1), current))
            else:
                current = {}  # another table: its keys are reported through `top` checks
                top.setdefault(stripped.split("]")[0].strip("[ "),
                               (number, line.index("[") + 1, line.index("[") + 1))
            continue
        m = _KEY.match(line)
        if not m:
            continue
        key = m.group(2).strip("\"'")
        current.setdefault(key, (number, len(m.group(1)) + 1, m.end() + 1))
        rest = line[m.end():]
        for marker in ('"""', "'''"):
            if rest.startswith(marker) and rest.count(marker) % 2 == 1:
                multiline = marker
                break
    return top, tables


def toml_claims(text: str, shown: str) -> list[Claim]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = _TOML_ERROR_POS.search(str(e))
        line, col = (int(m.group(1)), int(m.group(2))) if m else (1, 1)
        return [_problem(shown, line, col, f"TOML syntax error: {e}")]
    top, tables = _toml_keys(text)
    claims = []
    for key in data:
        if key != "claim":
            line, col, _ = top.get(key, (1, 1, 1))
            claims.append(_problem(shown, line, col,
                                   f"unknown top-level key {key!r}; a claim file holds "
                                   "[[claim]] tables only"))
    entries = data.get("claim", [])
    if not isinstance(entries, list):
        line, col, _ = top.get("claim", (1, 1, 1))
        return claims + [_problem(shown, line, col, "claim must be an array of tables "
                                                    "([[claim]])")]
    for i, entry in enumerate(entries):
        header, keys = tables[i] if i < len(tables) else ((1, 1), {})
        claims.extend(_toml_claim(entry, header, keys, shown))
    return claims


def _toml_claim(entry, header, keys, shown) -> list[Claim]:
    if not isinstance(entry, dict):
        return [_problem(shown, *header, "each claim must be a table")]
    line, col = header
    if "expr" in keys:
        kline, _, vcol = keys["expr"]
        line, col = kline, vcol + (1 if isinstance(entry.get("expr"), str) else 0)
    out = []
    problems = []
    for key in entry:
        if key not in CLAIM_KEYS:
            kline, kcol, _ = keys.get(key, (*header, 0))
            out.append(_problem(shown, kline, kcol,
                                f"unknown key {key!r} in a claim; allowed keys: "
                                f"{', '.join(CLAIM_KEYS)}", expr=str(entry.get("expr", ""))[:200]))
    expr = entry.get("expr")
    if not isinstance(expr, str):
        problems.append("expr is missing" if expr is None else "expr must be a string")
        expr = "" if expr is None else str(expr)
    if "\n" in expr:
        expr = " ".join(expr.split())  # a multi-line string is one claim
    claim = Claim(shown, line, col, expr)
    for key in ("id", "quote", "source"):
        if key in entry:
            if isinstance(entry[key], str):
                setattr(claim, key, entry[key])
            else:
                problems.append(f"{key} must be a string")
    if not claim.id:
        claim.id = f"{shown}:{line}"
    assume = entry.get("assume", [])
    if isinstance(assume, str):
        claim.assume = (assume,)
    elif isinstance(assume, list) and all(isinstance(a, str) for a in assume):
        claim.assume = tuple(assume)
    else:
        problems.append("assume must be a string or a list of strings")
    empirical = entry.get("empirical", False)
    if isinstance(empirical, str):
        claim.empirical = empirical or "marked empirical"
    elif empirical is True:
        claim.empirical = "marked empirical"
    elif empirical is not False:
        problems.append("empirical must be true, false or a reason (a string)")
    expect = entry.get("expect", "skipped" if claim.empirical else "true")
    if isinstance(expect, bool):
        expect = "true" if expect else "false"
    if expect not in EXPECTATIONS:
        problems.append(f"expect must be one of {', '.join(EXPECTATIONS)}, not {expect!r}")
        expect = "true"
    claim.expect = expect
    if problems:
        claim.problem = "; ".join(problems)
    return out + [claim]
