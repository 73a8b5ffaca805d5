"""Markdown claim files: the `claim` fences, read with markdown-it-py (CommonMark), each
claim at its column in the file (container prefixes counted), with its trailers
(`# expect: false`). See files.py for the contract every reader keeps.
"""

import difflib
import re

from markdown_it import MarkdownIt
from markdown_it.common.utils import unescapeAll

from ffnverify.claims.records import (
    BLANK,
    EXPECTATIONS,
    LINE_END,
    MAX_CLAIMS_PER_FILE,
    MAX_MARKDOWN_NESTING,
    TRAILERS,
    Claim,
    at_most,
    bad_expectation,
    problem,
)

_MD = MarkdownIt("commonmark", {"maxNesting": MAX_MARKDOWN_NESTING}).disable("inline")
_CODE_TOKENS = ("fence", "code_block", "html_block")
_LOOKS_LIKE_CLAIM_FENCE = re.compile(r"^[ \t>*+\-0-9.)]*(?:`{3,}[ \t]*claim(?![^`]*`)|"
                                     r"~{3,}[ \t]*claim)(?:[ \t]|$)")


def is_claim_fence(token) -> bool:
    """The one claim-fence predicate (audit, pytest collection, the scan's readers and the
    docs build): a markdown-it `fence` token whose info string's language word, as a
    renderer reads it (entities decoded), is exactly `claim` (```` ```claim-x ```` is not)."""
    return token.type == "fence" and unescapeAll(token.info).split()[:1] == ["claim"]


_WHITE_LINE = re.compile(r"(?m)^[ \t]+$")


def _tokens(text: str):
    # A line of nothing but white space is a blank line wherever it is (the content of a
    # blank line is never a claim); emptied first, so that megabytes of spaces cost
    # markdown-it nothing. Line numbers are unchanged.
    return _MD.parse(_WHITE_LINE.sub("", LINE_END.sub("\n", text)))


_MAYBE_FENCE = re.compile(r"`{3,}|~{3,}")  # a text without one holds no fence at all


def has_claim_fence(text: str) -> bool:
    return bool(_MAYBE_FENCE.search(text)) and any(map(is_claim_fence, _tokens(text)))


def claim_fence_spans(text: str) -> list[tuple[int, int]]:
    """(first, end) of each claim fence, 0-based lines as markdown-it maps them: the opening
    fence line, and one past the block (its closing fence included, when it has one)."""
    if not _MAYBE_FENCE.search(text):
        return []
    return [tuple(t.map) for t in _tokens(text) if is_claim_fence(t) and t.map]


def markdown_claims(text: str, shown: str) -> list[Claim]:
    """The claims of the `claim` fences of a Markdown text, as CommonMark reads it."""
    source = LINE_END.split(text)
    tokens = _tokens(text) if _MAYBE_FENCE.search(text) else []
    claims = []
    for token in tokens:
        if not is_claim_fence(token):
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
                    return at_most(claims, shown)  # read no further
        if end - first < len(body) + 2:  # no closing fence: CommonMark ends it here
            where = "file" if end >= len(source) - (source[-1] == "") else \
                "block quote or list item holding it"
            claims.append(problem(shown, first + 1, _lead(source[first]) + 1,
                                   f"this claim fence is never closed; claims up to the end "
                                   f"of the {where} (line {end}) were read"))
    if tokens and max(t.level for t in tokens) >= MAX_MARKDOWN_NESTING - 1:
        claims.extend(_too_deep(tokens, source, shown))
    return at_most(claims, shown)


def _lead(line: str) -> int:
    """Characters before the fence marker of an opening line (container prefixes too)."""
    m = re.search(r"`{3,}|~{3,}", line)
    return m.start() if m else 0


def _too_deep(tokens, source, shown) -> list[Claim]:
    """Claim fences markdown-it did not read because they nest deeper than its limit."""
    covered: set = set()
    for t in tokens:
        if t.type in _CODE_TOKENS and t.map:
            covered.update(range(*t.map))
    return [problem(shown, i + 1, _lead(line) + 1,
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
    text = content.lstrip(BLANK)
    if not text.strip(BLANK) or text.startswith("#"):
        return None
    # the claim's text is the end of the file's line; what is before it is the prefix
    base = len(original) - len(text) if original.endswith(text) else \
        max(0, len(original) - len(text))
    code, trailer = _split_comment(text)
    expr = code.rstrip(BLANK)
    claim = Claim(shown, number, base + 1, expr)
    at = base + len(code) + 1  # index in `original` of the trailer text
    expect_given = False
    for piece in trailer.split("#"):
        start = at
        at += len(piece) + 1
        m = _TRAILER.match(piece)
        if not m:
            continue  # a plain comment
        word, value = m.group(1), piece[m.end():].rstrip(BLANK)
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
                    claim.problem = bad_expectation(value)
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
