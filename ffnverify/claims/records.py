"""One claim as the claim files give it (`Claim`), the file format's vocabulary and
limits, and the helpers every reader shares: a `problem` record (an error at a position),
the per-file claim limit (`at_most`), the message for a bad expectation.

The readers: files (walking and reading), markdown_claims, toml_claims; toml_positions
gives TOML's positions.
"""

import difflib
import re
from dataclasses import dataclass, field

EXPECTATIONS = ("true", "false", "unknown", "skipped")
CLAIM_KEYS = ("id", "expr", "quote", "source", "assume", "expect", "empirical")
TRAILERS = ("expect", "assume", "empirical", "id")
SKIP_DIRS = {"__pycache__", "node_modules", "site-packages", "venv", "build", "dist"}
MAX_FILE_BYTES = 4 * 2**20
MAX_CLAIMS_PER_FILE = 50_000
MAX_TOML_DEPTH = 100  # arrays and inline tables; tomllib's recursion would end near 400
MAX_MARKDOWN_NESTING = 20  # block quotes and lists (markdown-it's CommonMark default)
LINE_END = re.compile(r"\r\n|\r|\n")  # CommonMark's line endings, and only those
BLANK = " \t\f\v"  # white space around a claim (the claim language itself knows " \t")


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



def problem(file, line, col, message, expr="", **kw) -> Claim:
    return Claim(file, line, col, expr, problem=message, **kw)



def at_most(claims: list[Claim], shown: str) -> list[Claim]:
    """The first MAX_CLAIMS_PER_FILE claims, then one error saying where reading stopped."""
    if len(claims) <= MAX_CLAIMS_PER_FILE:
        return claims
    claims.sort(key=lambda c: c.problem_at or (c.line, c.col))
    first_dropped = claims[MAX_CLAIMS_PER_FILE]
    return claims[:MAX_CLAIMS_PER_FILE] + [problem(
        shown, first_dropped.line, first_dropped.col,
        f"this file holds more than {MAX_CLAIMS_PER_FILE:,} claims, the limit per file; "
        "the claims from here on are not checked")]




def bad_expectation(value) -> str:
    msg = f"expect must be one of {', '.join(EXPECTATIONS)}, not {value!r}"
    close = difflib.get_close_matches(str(value).lower(), EXPECTATIONS, n=1, cutoff=0.6) \
        if isinstance(value, str) else []
    return msg + (f" (did you mean {close[0]!r}?)" if close else "")
