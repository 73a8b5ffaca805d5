"""Arithmetic whose result follows a tilde (docs/architecture.md §5.2, arithmetic as
written): "80 x (4 x 8192 x 8192 + 3 x 8192 x 28672) + 32000 x 8192 ~ 78B", "768 × 4 ~
3k" — the tilde between an expression and a figure says "is about", so the part is
`expression ≈ figure`, the figure at its hedged precision (`arithmetic._compared` with
≈). A letter x between two operands ("80 x (…)") is the multiplication the tokens read
elsewhere as ×. Sure unless a figure of the expression is itself hedged ("Total ~ 80 x
…": the author's tilde over the whole), then a reading to confirm. An expression of
byte figures is `chains`' and `memory`'s, as in `arithmetic`. A tilde glued to the figure
before it ("4~8") or in text written in Chinese, Japanese or Korean, where it says "to",
is a range, not read here.
"""

import re
from dataclasses import replace

from ffnverify.scan.arithmetic import _compared, expression, is_op

_OPS = ("+", "-", "×", "/", "^", "(", ")")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")  # where a tilde is "to"
MAX_TERMS = 60


def _as_times(t):
    return replace(t, kind="OP", text="×")


def _left(toks, k) -> list:
    """The expression that ends just before index k, read back to where it starts."""
    out, j = [], k - 1
    while j >= 0 and len(out) < MAX_TERMS:
        t = toks[j]
        if t.kind == "NUM" and t.scale != "bytes":
            out.insert(0, t)
        elif t.kind == "OP" and t.text in _OPS:
            out.insert(0, t)
        elif t.kind == "WORD" and t.lower == "x" and j > 0 and (
                toks[j - 1].kind == "NUM" or is_op(toks[j - 1], ")")) and j + 1 < len(toks) \
                and (toks[j + 1].kind == "NUM" or is_op(toks[j + 1], "(")):
            out.insert(0, _as_times(t))
        else:
            break
        j -= 1
    while out and is_op(out[0], "(") and sum(is_op(t, "(") - is_op(t, ")") for t in out) > 0:
        out = out[1:]
    return out


def tilde_results(toks, text="", names=(), about: str = "") -> list:
    """`E ~ N` for each expression E written before a tilde and its figure N."""
    at = {id(t): i for i, t in enumerate(toks)}
    parts = []
    for k in range(1, len(toks) - 1):
        if not is_op(toks[k], "~") or toks[k + 1].kind != "NUM" or not (
                toks[k - 1].kind == "NUM" or is_op(toks[k - 1], ")")):
            continue
        if toks[k].start == toks[k - 1].end or _CJK.search(text):
            continue  # "4~8", "7B～13B": a range where a tilde is glued to both figures
        left = _left(toks, k)
        if not any(is_op(t, "+", "-", "×", "/", "^") for t in left) or expression(left) is None:
            continue
        right = [toks[k + 1]]
        if any(t.scale == "bytes" for t in left + right) or (
                k + 2 < len(toks) and is_op(toks[k + 2], "×", "+", "-", "/", "^")):
            continue  # "… ~ 78B × 2": the right side goes on; not a single figure
        part = _compared(left, "≈", right, at)
        if part is not None:
            parts.append(part)
    return parts
