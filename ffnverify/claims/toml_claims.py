"""TOML claim files: the [[claim]] tables, each checked key by key, every problem one
error at its position (toml_positions). See files.py for the contract every reader keeps.
"""

import difflib
import re
import tomllib

from ffnverify.claims.records import (
    CLAIM_KEYS,
    EXPECTATIONS,
    MAX_TOML_DEPTH,
    Claim,
    at_most,
    bad_expectation,
    problem,
)
from ffnverify.claims.toml_positions import toml_layout

_TOML_ERROR_POS = re.compile(r"\(at line (\d+), column (\d+)\)")


def looks_like_claims(text: str) -> bool:
    """Whether a TOML file found by walking a folder is meant as a claim file: it has a
    [[claim]] table, or one a typo away ([[Claim]], [[claims]]: then reported, not lost)."""
    return bool(re.search(r"""(?mi)^[ \t]*(\[\[[ \t]*(["']?)claims?\2[ \t]*\]\]|"""
                          r"""(["']?)claim\3[ \t]*=)""", text))



def toml_claims(text: str, shown: str) -> list[Claim]:
    layout = toml_layout(text)
    if layout.too_deep:
        return [problem(shown, *layout.too_deep,
                         f"TOML nested deeper than {MAX_TOML_DEPTH} levels (arrays or inline "
                         "tables); this file is not read")]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = _TOML_ERROR_POS.search(str(e))
        line, col = (int(m.group(1)), int(m.group(2))) if m else (1, 1)
        return [problem(shown, line, col, f"TOML syntax error: {e}")]
    except RecursionError:
        return [problem(shown, 1, 1, "TOML nested too deeply to read (arrays or inline "
                                      "tables); this file is not read")]
    claims = []
    for key in data:
        if key != "claim":
            line, col = layout.top.get(key, (1, 1))
            hint = "; did you mean [[claim]]?" if key.lower() in ("claim", "claims") else ""
            claims.append(problem(shown, line, col,
                                   f"unknown top-level key {key!r}; a claim file holds "
                                   f"[[claim]] tables only{hint}"))
    entries = data.get("claim", [])
    if not isinstance(entries, list):
        line, col = layout.top.get("claim", (1, 1))
        return claims + [problem(shown, line, col, "claim must be an array of tables "
                                                    "([[claim]])")]
    for i, entry in enumerate(entries):
        header, keys = layout.tables[i] if i < len(layout.tables) else ((1, 1), {})
        claims.append(_toml_claim(entry, header, keys, shown))
    return at_most(claims, shown)


def _toml_claim(entry, header: tuple[int, int], keys, shown) -> Claim:
    """One claim (one record) of a [[claim]] table; its problems, if any, are one error."""
    if not isinstance(entry, dict):
        return problem(shown, *header, "each claim must be a table")
    problems = []  # (position, message)
    fields: dict = {}
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
        problems.append((value_at("expect"), bad_expectation(expect)))
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
