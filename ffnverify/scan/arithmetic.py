"""Arithmetic as written in a statement, read on its tokens (docs/architecture.md §5.2).

- `arithmetic(toks)`: every comparison of numbers written out, `3×32 = 96`, `8/3·4096 =
  10922` (strict: `=` is `==`; lenient: the result at its stated precision, `precision`);
- `worded_results(toks, text)`: a result said in words after the expression ("512 × 64,
  which is 32,768"), a reading to confirm; `worded_sources(toks, text)` the other order
  ("32,768 equals 512 × 64");
- `expansions(toks)`: `4096 → 16384` stated with a factor `4×`;
- `rounding(toks, text)`: `X is E rounded up to a multiple of M`;
- `fractions_of(text)`: "2048, which is 2/3 of 3072".

Also the small token predicates the other readers share (`num`, `is_op`, `is_word`) and
`approx_claim`, a comparison at the precision a figure states. Values are computed
exactly on the tokens (bounded powers); nothing is evaluated as code.
"""

import re
from dataclasses import replace
from fractions import Fraction
from itertools import product as _cartesian

from ffnverify.scan import equation_forms, precision, words
from ffnverify.scan.figure import compare, spread, terms_of
from ffnverify.scan.numbers import SCALES, Tok, literal, tokens
from ffnverify.scan.parts import Part
from ffnverify.scan.recognise import runs


def num(t: Tok) -> str:
    return literal(t.value)


def is_op(t, *ops):
    return t is not None and t.kind == "OP" and t.text in ops


def is_word(t, *names):
    return t is not None and t.kind == "WORD" and t.lower in names


def approx_claim(lhs: str, t: Tok, op: str = "≈") -> str:
    """`lhs ≈ t` with the precision t states (a literal when the language reads it the
    same way, else approx(..., abs=half a unit))."""
    if op != "≈":
        return f"{lhs} {op} {num(t)}"
    if t.unit == 0:
        return f"{lhs} == {num(t)}"
    if t.plain and t.scale in ("", "%"):
        text = t.text.rstrip("×x ").replace(",", "")
        if re.fullmatch(r"\d+(?:\.\d+)?%?", text):
            return f"{lhs} ≈ {text}"
    return f"approx({lhs}, {num(t)}, abs={literal(t.unit / 2)})"


_COMPARE = {"=": "==", "≈": "≈", "≠": "!=", "<": "<", ">": ">", "≤": "<=", "≥": ">="}


def _stated(t: Tok) -> str:
    """`t` as a literal that states the precision it was written with, for the right side
    of `≈`: `1.8 × 10⁹` as `18e8` (±0.5e8 under the claim language's ≈ rule), where its
    exact value `1800000000` would state ±0.5; exact where its unit is no power of ten."""
    unit = t.unit
    if not unit or unit == 1 or unit.denominator != 1 or t.value.denominator != 1:
        return num(t)
    k = len(str(unit.numerator)) - 1
    if unit != 10**k or t.value % unit:
        return num(t)
    return f"{t.value // unit}e{k}"


def expression(side, stated: bool = False) -> str | None:
    """A side of a comparison as claim text, or None when it is not an expression; with
    `stated`, each number keeps its stated precision (`_stated`)."""
    while side and is_op(side[0], ")"):
        side = side[1:]
    while side and is_op(side[-1], "(", "×", "+", "-", "/", "^"):
        side = side[:-1]  # "= 1,280 (× KV heads)": the run ends at the result
    while side and is_op(side[-1], ")") and sum(is_op(t, ")") - is_op(t, "(")
                                                 for t in side) > 0:
        side = side[:-1]  # "(768 × 4 = 3072)": the closing parenthesis of the aside
    depth = 0
    for t in side:
        depth += is_op(t, "(") - is_op(t, ")")
        if depth < 0:
            return None
    if depth > 0:  # an unbalanced "(" opened before the run
        while side and is_op(side[0], "(") and depth > 0:
            side, depth = side[1:], depth - 1
        if depth:
            return None
    if not side:
        return None
    out, expect_operand = [], True
    for t in side:
        if t.kind == "NUM":
            if not expect_operand or (out and out[-1] == "/" and t.value == 0):
                return None  # (a division by a written zero states nothing)
            shown = _stated(t) if stated else num(t)
            out.append(shown if not t.power else f"({shown})")
            expect_operand = False
        elif t.text == "(":
            if not expect_operand:
                if t.space_before:  # "3 (2+4)": two expressions side by side, no product
                    return None
                out.append("*")  # "3(2+4)" is written as a product
            out.append("(")
            expect_operand = True
        elif t.text == ")":
            if expect_operand:
                return None
            out.append(")")
        elif t.text == "~":
            if not expect_operand:
                return None
        else:
            if expect_operand and t.text != "-":
                return None
            out.append({"×": "*", "^": "**"}.get(t.text, t.text))
            expect_operand = True
    if expect_operand:
        return None
    return " ".join(out).replace("( ", "(").replace(" )", ")")


def _value(side) -> Fraction | None:
    """The exact value of a side made of numbers and + - × / ^ ( ), computed on the
    tokens (bounded powers); None if it is anything else."""
    out, ops = [], []
    prec = {"+": 1, "-": 1, "×": 2, "/": 2, "^": 3}

    def apply():
        op = ops.pop()
        if len(out) < 2:
            raise ValueError
        b, a = out.pop(), out.pop()
        if op == "+":
            out.append(a + b)
        elif op == "-":
            out.append(a - b)
        elif op == "×":
            out.append(a * b)
        elif op == "/":
            if b == 0:
                raise ValueError
            out.append(a / b)
        else:
            if b.denominator != 1 or not 0 <= b <= 64 or abs(a) > 10**12:
                raise ValueError
            out.append(a ** int(b))

    try:
        for t in side:
            if t.kind == "NUM":
                out.append(t.value)
            elif t.text == "(":
                ops.append("(")
            elif t.text == ")":
                while ops and ops[-1] != "(":
                    apply()
                if not ops:
                    return None
                ops.pop()
            elif t.text in prec:
                while ops and ops[-1] != "(" and (prec[ops[-1]] > prec[t.text] or (
                        prec[ops[-1]] == prec[t.text] and t.text != "^")):
                    apply()
                ops.append(t.text)
            elif t.text != "~":
                return None
        while ops:
            if ops[-1] == "(":
                return None
            apply()
    except (ValueError, ZeroDivisionError, OverflowError):
        return None
    return out[0] if len(out) == 1 else None


def _terminates(x: Fraction) -> bool:
    d = x.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


_SYMBOL_OPS = frozenset({"+", "-", "×", "/", "^"})


def _open_end(toks, at, edge, after: bool) -> bool:
    """Whether the run's side at `edge` goes on into a symbol: an operator next to a word
    (`5.5·d_model`, `d·4`) or a number glued to one (`2.67d`). That side is no number,
    and reading it as one turns `11264 = 5.5·d_model` into `11264 == 5.5`."""
    e = at[id(edge)]
    k = e + (1 if after else -1)
    if not 0 <= k < len(toks) or toks[k].kind != "WORD":
        return False
    if edge.kind == "OP":  # the operator must join a number to the word: "5.5·d", "d·4"
        inner = e - 1 if after else e + 1  # ("= 1,280 (× KV heads)" is an aside)
        return edge.text in _SYMBOL_OPS and 0 <= inner < len(toks) and \
            toks[inner].kind == "NUM"
    glued = toks[k].start == edge.end if after else toks[k].end == edge.start
    return edge.kind == "NUM" and glued


def arithmetic(toks) -> tuple[list, bool]:
    """Parts for every comparison of numbers written out in the unit; and whether one
    leans on a `~` number on its left (then it is only a reading). The strict reading
    takes the result as written, at its stated precision where it states one (`= 67.1M`
    is [67.05M, 67.15M]; a result no finite decimal states exactly, `8/3 × 2048 =
    5461.33`, at its last digit; a plain integer exactly); the lenient one adds the
    charitable readings of `precision.lenient`. `≠` is read as the negation of `=`
    (`unequal`), so it holds only when no reading of its figures makes the two sides
    equal, and fails only when they are equal as written."""
    parts, unsure = [], False
    at = {id(t): i for i, t in enumerate(toks)}
    for run in runs(toks):
        run, aside = _aside(toks, at, run)
        if aside is not None:
            parts.append(aside)
        sides, ops, cur = [], [], []
        for t in run:
            if t.kind == "OP" and t.text in _COMPARE:
                sides.append(cur)
                ops.append(t.text)
                cur = []
            else:
                cur.append(t)
        sides.append(cur)
        if _open_end(toks, at, run[-1], after=True):
            sides, ops = sides[:-1], ops[:-1]  # "= 5.5·d_model", "= 2.67d": a symbol's product
        if ops and _open_end(toks, at, run[0], after=False):
            sides, ops = sides[1:], ops[1:]  # "d·4 = 16384": the left side goes on before it
        if not ops:
            continue
        if not any(t.kind == "OP" and t.text in ("+", "-", "×", "/", "^") for s in sides
                   for t in s) and not any(t.power for s in sides for t in s):
            continue  # `d = 4` after a word, `32 = 32`: nothing computed
        for k, op in enumerate(ops):
            left, right = sides[k], sides[k + 1]
            if expression(left) is None or expression(right) is None:
                continue
            if k == 0 and op == "=" and equation_forms.is_label(left, right, _value(right)):
                continue
            unsure = unsure or any(t.tilde for t in left if t.kind == "NUM")
            part = unequal(left, right, at) if op == "≠" else _compared(left, op, right, at)
            if part is not None:
                parts.append(part)
    return parts, unsure


_ASIDE_HEDGE = re.compile(r"about|roughly|approximately|around|approx\.?|nearly|circa|ca\.?|"
                          r"i\.e\.|or", re.I)


def _aside(toks, at, run):
    """(the run without it, the part) for a result restated in parentheses right after it:
    `= 67,108,864 (~67M)`, `= 27,660 (about 27.7K)`. The aside is the same figure at
    a rounder precision (`figure.compare`: 67M is [66.5M, 67.5M], a hedge looser), so it
    is compared with the result as stated. Not for bytes (`_compared`: another reader's),
    a share, a year or a figure with its own noun: then the run is returned whole and the
    part is None."""
    end = len(run)
    if end >= 2 and is_op(run[-1], "(") and run[-2].kind == "NUM":
        k = at[id(run[-1])] + 1  # "(" then a hedge word: the run stopped at the word
        if k < len(toks) and toks[k].kind == "WORD" and _ASIDE_HEDGE.fullmatch(toks[k].text):
            k += 1
        result, cut = run[-2], end - 1
    elif end >= 4 and is_op(run[-1], ")") and run[-2].kind == "NUM":
        cut = end - 3 if is_op(run[-3], "(") else end - 4
        if cut < 1 or not is_op(run[cut], "(") or (cut + 2 != end - 1 and not is_op(
                run[cut + 1], "~", "≈")):
            return run, None
        result, k = run[cut - 1], at[id(run[-2])]
    else:
        return run, None
    if result.kind != "NUM" or not 0 < cut - 1 or not (is_op(run[cut - 2], "=", "≈")):
        return run, None
    if k + 1 >= len(toks) or toks[k].kind != "NUM" or not is_op(toks[k + 1], ")"):
        return run, None
    said, hedge = toks[k], toks[k].tilde or k > at[id(run[cut])] + 1
    if said.money != result.money or said.ratio or not said.value or said.value == result.value:
        return run, None
    if "%" in (said.scale, result.scale) or not (said.scale or hedge) or said.power:
        return run, None  # "(12%)": a share; "(2020)", "(4096)": not a rounder figure
    if "bytes" in (said.scale, result.scale):
        return run, None  # "= 4 GiB (4.29 GB)": byte arithmetic is `chains`' and `memory`'s
    strict, lenient = compare([terms_of(result)], hedged_tok(said) if hedge else said)
    return run[:cut], Part(strict, lenient, True, (at[id(result)], k),
                           "a figure restated (the result, rounder, in parentheses after it)")


_SIDE_OPS = ("+", "-", "×", "/", "^", "=", "≈", "(", ")")


def _bytes(toks, i) -> bool:
    """Whether figure i counts bytes: a byte unit ("1GB"), or the word after it ("1
    billion bytes")."""
    return toks[i].scale == "bytes" or (i + 1 < len(toks) and is_word(toks[i + 1], "bytes",
                                                                       "byte"))


def conversions(toks) -> list[Part]:
    """"1B = 10亿", "10亿字节 = 1GB", "4K = 4096", "1 GiB = 1024 MiB": one figure restated
    in another scale or unit, nothing computed. It holds when some reading of the two
    (GB or GiB, K as 1000 or 1024) agrees at the precision the right side states; a
    rounded left side ("6.7B = 6,738,415,616") is read as rounded, leniently."""
    parts = []
    for i in range(len(toks) - 2):
        o = i + 2 if is_word(toks[i + 1], "bytes", "byte", "tokens", "token", "parameters",
                             "params", "context") else i + 1  # "1 billion bytes = 1 GB"
        if o + 1 >= len(toks):
            continue
        a, op, b = toks[i], toks[o], toks[o + 1]
        if a.kind != "NUM" or b.kind != "NUM" or op.kind != "OP" or op.text not in ("=", "≈"):
            continue
        if (i and toks[i - 1].kind == "OP" and toks[i - 1].text in _SIDE_OPS) or (
                o + 2 < len(toks) and toks[o + 2].kind == "OP" and toks[o + 2].text in _SIDE_OPS):
            continue  # a side of arithmetic (`arithmetic`, `chains`)
        if any(t.ratio or t.money or t.power or t.scale in ("%", "flops") for t in (a, b)):
            continue
        if _bytes(toks, i) != _bytes(toks, o + 1) or not (a.scale or b.scale):
            continue  # a count is no memory; two plain numbers state no conversion
        if re.sub(r"[\d.,\s]", "", a.text).lower() == re.sub(r"[\d.,\s]", "", b.text).lower() \
                and _bytes(toks, i) == (b.scale == "bytes"):
            continue  # the same scale or unit on both sides ("7B = 7B", "2 GB = 2 GB")
        binary = a.scale != "bytes"  # 4K = 4096: K as 1000 or 1024
        strict, lenient = compare([terms_of(a, binary)], b, binary=binary)
        if op.text == "≈":
            strict = lenient
        parts.append(Part(strict, lenient, True, (i, o + 1),
                          "a figure restated in another scale or unit"))
    return parts


def _compared(left, op, right, at) -> Part | None:
    """The part `left op right` states (both sides expressions), or None where the
    reading is another reader's (byte arithmetic: `chains`, `memory`)."""
    lhs, rhs = expression(left), expression(right)
    rhs_side = [t for t in right if not is_op(t, "~")]
    leans = any(t.tilde for t in left if t.kind == "NUM")
    if any(t.scale == "bytes" for t in left + right):
        return None
    figs = tuple(at[id(t)] for t in left + right if t.kind == "NUM")
    approx = op == "≈" or any(is_op(t, "~") for t in right[:1])
    single = len(rhs_side) == 1 and rhs_side[0].kind == "NUM"
    if op == "=" and single and rhs_side[0].unit < 1 and rhs_side[0].scale == "":
        exact = _value(left)
        if exact is not None and not _terminates(exact):
            approx = True  # "8/3 × 2048 = 5461.33": no finite decimal is exact
    if op == "=" and single and rhs_side[0].scale in SCALES and not approx:
        # "8,192 × 8,192 = 67.1M": a scaled figure states a rounded one (docs/architecture.md §5.2)
        strict = precision.strict(lhs, rhs_side[0])
    elif approx and single:
        strict = approx_claim(lhs, rhs_side[0])
    elif approx:  # the right side's figures at their stated precision
        strict = f"{lhs} ≈ {expression(right, stated=True) or rhs}"
    else:
        strict = f"{lhs} {_COMPARE[op]} {rhs}"
    loose = strict
    if single and op in ("=", "≈") and rhs_side[0].unit:
        t = rhs_side[0]
        hedge = approx and (t.tilde or any(is_op(x, "~") for x in right[:1]))
        loose = precision.lenient(lhs, hedged_tok(t) if hedge else t)
        term = _spread(left, lhs)
        if term.spread:  # "6.7B × 2 = 13.5B": a rounded input read at its precision
            _, wide = compare([[term]], hedged_tok(t) if hedge else t, binary=False)
            loose = f"({loose} or {wide})"
        shared = _shared_scale(left, t)
        if shared is not None:  # "67 + 8.4 + 235 = 310.4M": the terms are in millions too
            scaled = approx_claim(lhs, shared) if approx else \
                f"approx({lhs}, {num(shared)}, abs={literal(shared.unit / 2)})"  # 856M: ±0.5M
            strict = f"({strict} or {scaled})"
            loose = f"({loose} or {precision.lenient(lhs, hedged_tok(shared) if hedge else shared)})"
    lone = [t for t in rhs_side if not is_op(t, "(", ")")]  # "(13B × 2 = 26)": one figure
    up = equation_forms.scaled_result(left, lone[0]) if len(lone) == 1 else None
    inv = equation_forms.inverse(lhs, _value(left), right)
    # more charitable readings of the same equation: "13B × 2 = 26" with the result in the
    # terms' billions, "0.099 = ~10×" as the factor it divides by
    for side, t in ([(lhs, up)] if up is not None else []) + ([inv] if inv else []):
        alt = precision.lenient(side, hedged_tok(t) if approx else t)
        strict, loose = f"({strict} or {alt})", f"({loose} or {alt})"
    return Part(strict, loose, not leans, figs, f"arithmetic as written: {strict}")


def _spread(left, lhs: str):
    """The left side as a `figure.Term` spread over its rounded inputs (`figure.spread`)."""
    items = []
    for t in left:
        if t.kind == "NUM":
            items.append((t, num(t)))
        elif not is_op(t, "~"):
            items.append({"×": "*"}.get(t.text, t.text))
    while items and isinstance(items[-1], str) and items[-1] in "+-*/^":
        items.pop()  # "6 / 0.002 -= 8000": a stray operator `expression` leaves out too
    return spread(items, lhs)


def _shared_scale(left, result: Tok) -> Tok | None:
    """The result without its scale (`856M` → 856, at the same precision), when the left
    side is a sum of figures that carry no scale of their own (`67 + 8.4 + 235 = 310.4M`):
    a careful reader takes the terms at the result's scale, as a range's low end takes its
    high end's (`precision.low_end`), and also as written. None for a product (`4096 ×
    4096 = 16.8M` states the scale of the product) or a term with a scale or unit."""
    if result.scale not in SCALES or any(
            t.kind == "NUM" and (t.scale or t.power or t.ratio) for t in left):
        return None
    if not any(is_op(t, "+", "-") for t in left) or any(
            t.kind == "OP" and t.text not in ("+", "-", "(", ")", "~") for t in left):
        return None
    return precision.bare(result)


MAX_TWINS = 4  # byte figures in one `≠` read both ways (2^4 readings at most)


def unequal(left, right, at) -> Part | None:
    """`left ≠ right` ("2048 * 4KB != 640MB"): the negation of `left = right`. Its strict
    reading is that no reading of the figures makes the sides equal (each at its stated
    precision; a byte unit as decimal or binary, `KB` as KB or KiB, on either side); its
    lenient one that they are not equal as written. So it is TRUE when the sides differ
    under every reading, FALSE when they are equal as written, and a reading to confirm
    in between. None when the right side is not one figure."""
    rhs_side = [t for t in right if not is_op(t, "~")]
    if len(rhs_side) != 1 or rhs_side[0].kind != "NUM" or not rhs_side[0].unit:
        return None
    result = rhs_side[0]
    figs = tuple(at[id(t)] for t in left + right if t.kind == "NUM")
    twins = [t for t in left if t.kind == "NUM" and t.scale == "bytes"]
    if len(twins) > MAX_TWINS:
        return None
    readings = []
    for choice in _cartesian(*[precision.alternatives(t, True) for t in twins]):
        swap = {id(t): v for t, (v, _) in zip(twins, choice)}
        side = [replace(t, value=swap[id(t)]) if id(t) in swap else t for t in left]
        readings.append(precision.lenient(expression(side), result))
    lenient_equal = readings[0] if len(readings) == 1 else "(" + " or ".join(
        dict.fromkeys(readings)) + ")"
    strict_equal = precision.strict(expression(left), result)
    return Part(f"not ({lenient_equal})", f"not ({strict_equal})", True, figs,
                f"arithmetic as written: {expression(left)} ≠ {result.text} (no reading of "
                "its figures equal)")


def worded_results(toks, text) -> list:
    """Parts for arithmetic whose result follows in words, not after `=` (see
    `words.RESULT_LINK`): read as `expression == result` at the result's precision, a reading to
    confirm (the words, not an `=`, tie the two)."""
    parts = []
    at = {id(t): i for i, t in enumerate(toks)}
    for run in runs(toks):
        cuts = [k for k, t in enumerate(run) if t.kind == "OP" and t.text in _COMPARE]
        if cuts:  # "d_model × d_k = 512 × 64, which is 32,768": the part after the last
            if expression(run[:cuts[-1]]) is not None:  # `=` when no numbers are before
                continue  # it (else `arithmetic` reads it)
            run = run[cuts[-1] + 1:]
        if not any(is_op(t, "+", "-", "×", "/", "^") for t in run):
            continue
        expr = expression(run)
        if expr is None or not re.search(r"\d\s*[-+*/]+\s*\(?\s*\d", expr):
            continue  # "4× (giving 16,384)": a ratio, not arithmetic
        last = at[id(run[-1])]
        nxt = next((k for k in range(last + 1, len(toks)) if toks[k].kind == "NUM"), None)
        if expr is None or nxt is None or toks[nxt].ratio or toks[nxt].scale == "bytes" \
                or any(t.scale == "bytes" for t in run):
            continue
        link = text[run[-1].end:toks[nxt].start]
        if not words.RESULT_LINK.match(link):
            continue
        if words.AGGREGATE_LINK.search(link) and words.SHAPE_BEFORE.search(
                text[:run[0].start]):
            continue  # "three matrices of size 8,192 × 28,672, totaling ~707M"
        if nxt + 1 < len(toks) and is_op(toks[nxt + 1], "+", "-", "×", "/", "^", "="):
            continue  # the next figure starts an expression of its own
        t = toks[nxt]
        figs = tuple(at[id(x)] for x in run if x.kind == "NUM") + (nxt,)
        exact = precision.exact_count(t)
        strict = f"{expr} == {num(t)}" if exact else precision.strict(expr, t)
        parts.append(Part(strict, strict if exact else precision.lenient(expr, t), False, figs,
                          f"arithmetic whose result is said in words: {expr} = {t.text}"))
    return parts


def worded_sources(toks, text) -> list:
    """Parts for a figure said to equal the arithmetic after it (`words.SOURCE_LINK`):
    "2,362,368 is equal to 768 × 768 × 4 + 768 × 4", "32,768 equals 512 × 64". Read as
    `expression == figure` at the figure's precision, a reading to confirm, as
    `worded_results` reads the other order."""
    parts = []
    at = {id(t): i for i, t in enumerate(toks)}
    for run in runs(toks):
        if any(t.kind == "OP" and t.text in _COMPARE for t in run):
            continue  # `arithmetic` reads a written comparison
        if not any(is_op(t, "+", "-", "×", "/", "^") for t in run):
            continue
        expr = expression(run)
        if expr is None or not re.search(r"\d\s*[-+*/]+\s*\(?\s*\d", expr) \
                or any(t.scale == "bytes" for t in run):
            continue
        first = at[id(run[0])]
        prev = next((k for k in range(first - 1, -1, -1) if toks[k].kind == "NUM"), None)
        if prev is None or toks[prev].ratio or toks[prev].scale == "bytes":
            continue
        if prev and toks[prev - 1].kind == "OP" and toks[prev - 1].text != "(":
            continue  # the figure ends an expression of its own
        if not words.SOURCE_LINK.match(text[toks[prev].end:run[0].start]):
            continue
        t = toks[prev]
        figs = (prev,) + tuple(at[id(x)] for x in run if x.kind == "NUM")
        exact = precision.exact_count(t)
        strict = f"{expr} == {num(t)}" if exact else precision.strict(expr, t)
        parts.append(Part(strict, strict if exact else precision.lenient(expr, t), False, figs,
                          f"a figure said to equal the arithmetic after it: {t.text} = {expr}"))
    return parts


def hedged_tok(t: Tok) -> Tok:
    return t if t.tilde or t.about else replace(t, tilde=True)


def expansions(toks) -> list:
    factors = [t for t in toks if t.kind == "NUM" and t.ratio]
    parts = []
    if not factors:
        return parts
    at = {id(t): i for i, t in enumerate(toks)}
    for i, t in enumerate(toks[:-2]):
        arrow = is_op(toks[i + 1], "→") or (is_word(toks[i + 1], "to") and i and is_word(
            toks[i - 1], "maps", "map", "from", "expands", "widens", "grows", "projects"))
        if t.kind == "NUM" and arrow and toks[i + 2].kind == "NUM":
            a, b = t, toks[i + 2]
            if bool(a.scale) != bool(b.scale):  # "80 → 141 GB": the bare one is in GB too
                a, b = (precision.bare(a) or a), (precision.bare(b) or b)
            if a.value == 0 or b.value == 0 or bool(a.scale) != bool(b.scale):
                continue
            factor = min(factors, key=lambda f: abs(f.start - t.start))
            big, small = (b, a) if b.value >= a.value else (a, b)
            claim = approx_claim(f"{num(big)} / {num(small)}", factor,
                            "≈" if factor.tilde or not factor.value.denominator == 1
                            else "==").replace(" = ", " == ")
            loose = precision.lenient(f"{num(big)} / {num(small)}", factor)
            parts.append(Part(claim, loose, True, (i, i + 2, at[id(factor)]),
                              f"an expansion of {factor.text}"))
            break
    return parts


_ROUNDING = re.compile(
    # X is not itself the end of a computation ("8/3 × 4096 = 10922.67 rounded up ...")
    r"(?<![×*/·+\-^]\s)(?<![×*/·+\-^\d.,])"
    r"(?P<x>\d[\d,]*\d|\d)\s*,?\s+(?:which\s+)?(?:is|=|equals|comes from)\s+"
    r"(?:just\s+|exactly\s+)?"
    r"(?P<e>[\d\s/·×*().+-]+?)(?:\s*=\s*\d[\d,]*(?:\.\d+)?)?"  # E's value, shown
    r"\s*,?\s*rounded up to (?:a|the next|the nearest) multiple of\s+(?P<m>\d+)", re.I)


def rounding(toks, text) -> list:
    """`X is E rounded up to a multiple of M`, E numbers and operators only."""
    out = []
    for m in _ROUNDING.finditer(text):
        e = expression(list(tokens(m.group("e"))))
        xs = [t for t in tokens(m.group("x")) if t.kind == "NUM"]
        if e is None or len(xs) != 1:
            continue
        out.append(f"round_up({e}, {m.group('m')}) == {num(xs[0])}")
    return out


_FRACTION_OF = re.compile(
    r"(?P<x>[\d.,]+)\s*(?:,\s*which\s+)?(?:is|are|=)\s+(?:exactly\s+|about\s+|roughly\s+)?"
    r"(?P<f>\d+\s*/\s*\d+|two thirds|two-thirds|one third|a third|half)\s+of\s+"
    r"(?:the\s+)?(?P<y>[\d.,]+)|"
    r"(?P<f2>two thirds|two-thirds|one third|a third|half|\d+\s*/\s*\d+)\s+of\s+"
    r"(?P<y2>[\d.,]+)\s+(?:is|are|=|gives)\s+(?:about\s+)?(?P<x2>[\d.,]+\d)", re.I)


_WORD_FRACTIONS = {"two thirds": "2/3", "two-thirds": "2/3", "one third": "1/3",
                   "a third": "1/3", "half": "1/2"}


def fractions_of(text) -> list:
    """"2048, which is 2/3 of 3072" and "two thirds of 16,384 is 10,922.67"."""
    parts = []
    for m in _FRACTION_OF.finditer(text):
        x, f, y = (m.group("x"), m.group("f"), m.group("y")) if m.group("x") else (
            m.group("x2"), m.group("f2"), m.group("y2"))
        xs = [t for t in tokens(x) if t.kind == "NUM"]
        ys = [t for t in tokens(y.rstrip(".,")) if t.kind == "NUM"]
        if len(xs) != 1 or len(ys) != 1:
            continue
        frac = _WORD_FRACTIONS.get(f.lower(), f.replace(" ", ""))
        lhs = f"{frac}*{num(ys[0])}"
        parts.append(approx_claim(lhs, xs[0]) if xs[0].value.denominator != 1
                     else f"{lhs} == {num(xs[0])}")
    return parts
