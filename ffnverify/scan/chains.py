"""Multi-step arithmetic read step by step: "4096 × 11008 = 45.1M, × 3 = 135.3M, × 32
layers = 4.33B" (a step that starts with an operator carries the result before it), and
"2 × 80 × 8 × 128 × 4,096 × 2 = 1,342,177,280 bytes = 1.34 GB = 1.25 GiB" (each stated
result of one expression).

Each step is a `Part`: `strict` compares the exact value carried from the first
expression with the stated result at half a unit of its last digit (a plain integer
exactly); `lenient` also accepts the step applied to the previous result *as stated*, at
its precision (a writer who rounds and carries the rounded figure), and reads a byte unit
as decimal or binary. Unit words between the numbers are read as units ("13 billion
parameters * 2 trillion tokens * 6 FLOP / token / parameter = 1.6e23 FLOP"); a sum's
unitless terms share the unit on its result (`28 - 16 = 12GB`). A single step is read
here only when its result carries a byte unit or unit words come between its numbers:
other single steps are the plain arithmetic reader's (`arithmetic.arithmetic`).
"""

import dataclasses
import re

from ffnverify.scan import precision, words
from ffnverify.scan.figure import Term, compare, const, spread, terms_of
from ffnverify.scan.numbers import literal
from ffnverify.scan.parts import Part

_OPS = {"×": "*", "/": "/", "+": "+", "-": "-", "^": "**", "(": "(", ")": ")"}
_EQUALS = ("=", "≈", "→")
_CARRY = ("×", "/")
MAX_UNIT_WORDS = 3


def _symbol(t) -> bool:
    """A variable, not a unit: one letter (`d`, `h`, `L`), or an identifier with `_` or a
    digit (`d_model`, `W1`)."""
    return t.kind == "WORD" and (len(t.text) == 1 or "_" in t.text
                                 or any(c.isdigit() for c in t.text))


def _glued(toks, j) -> bool:
    """Token j runs straight into a word ("8d", "32d/3"): a coefficient, not a number."""
    return j + 1 < len(toks) and toks[j + 1].kind == "WORD" and toks[j + 1].start == toks[j].end


_NOT_UNITS = {"is", "are", "was", "were", "and", "or", "for", "of", "the", "a", "an", "which",
              "that", "to", "in", "on", "with", "by", "we", "it", "this", "so", "then", "at",
              "gives", "equals", "makes", "if", "but", "vs", "versus", "than"}


def _bits_at(toks, j) -> int:
    """The index after a bit unit at j ("16 bits", "16-bit", "4 bit/param"), or j when
    token j is no such unit (`words.BIT_UNIT`)."""
    if j < len(toks) and toks[j].kind == "WORD" and words.BIT_UNIT.fullmatch(toks[j].text):
        return j + 1
    if j + 1 < len(toks) and toks[j].kind == "OP" and toks[j].text == "-" and \
            toks[j + 1].kind == "WORD" and toks[j].end == toks[j + 1].start and \
            toks[j - 1].end == toks[j].start and words.BIT_UNIT.fullmatch(toks[j + 1].text):
        return j + 2  # "16-bit": a compound, not a subtraction
    return j


def _unit_words(toks, j):
    """The index after the unit words of an operand at j ("parameters", "FLOPs / token /
    parameter"), or j when there are none."""
    k, n = j, 0
    while k < len(toks) and n < MAX_UNIT_WORDS:
        t = toks[k]
        if t.kind == "WORD" and t.lower not in _NOT_UNITS and not _symbol(t):
            k, n = k + 1, n + 1
        elif t.kind == "OP" and t.text == "/" and k + 1 < len(toks) and \
                toks[k + 1].kind == "WORD" and toks[k + 1].lower not in _NOT_UNITS \
                and not _symbol(toks[k + 1]):
            k, n = k + 2, n + 1  # "/ token": per token, a unit
        else:
            break
    return k


def _expression(toks, i, in_bytes: bool = False):
    """(claim text, end index, figure indices, whether unit words came between the
    numbers, the figures stated in bits) of the arithmetic starting at token i, or None
    when there is none (a lone number is no expression). With `in_bytes`, a figure in
    bits counts bytes, an eighth of it ("175B × 16 bits = 350GB")."""
    out, figs, want_operand, depth, j, worded, bits = [], [], True, 0, i, False, []
    while j < len(toks):
        t = toks[j]
        if figs and not want_operand and j - 1 == figs[-1] and _bits_at(toks, j) > j:
            bits.append(figs[-1])  # the figure before is a width in bits
            if in_bytes and isinstance(out[-1], tuple):
                out[-1] = (out[-1][0], f"({out[-1][1]} / 8)")
            if toks[j].kind == "OP":  # "16-bit": the hyphen is no operator
                j = _bits_at(toks, j)
                worded = True
                continue
        per_unit = t.kind == "OP" and t.text == "/" and j + 1 < len(toks) and \
            toks[j + 1].kind == "WORD"
        if (t.kind == "WORD" or per_unit) and not want_operand and figs:
            k = _unit_words(toks, j)
            if k == j or k >= len(toks) or toks[k].kind != "OP" or toks[k].text not in (
                    "×", "/", "+", "-", ")", *_EQUALS):
                break  # words that do not lead to an operator end the expression
            j, worded = k, True
            continue
        if t.kind == "NUM" and want_operand and not t.ratio:
            if _glued(toks, j) and _symbol(toks[j + 1]):
                return None  # "4·(8d/3)": an expression in symbols
            if t.value == 0 and out and out[-1] == "/":
                return None  # a division by a written zero states nothing
            out.append(f"({literal(t.value)})" if t.power else (j, literal(t.value)))
            figs.append(j)
            want_operand = False
        elif t.kind == "OP" and t.text == "(" and want_operand:
            out.append("(")
            depth += 1
        elif t.kind == "OP" and t.text == ")" and not want_operand and depth:
            out.append(")")
            depth -= 1
        elif t.kind == "OP" and t.text in _OPS and t.text not in "()" and not want_operand:
            out.append(_OPS[t.text])
            want_operand = True
        else:
            break
        j += 1
    if want_operand or depth or len(figs) < 2:
        return None
    text = " ".join(x[1] if isinstance(x, tuple) else x for x in out).replace(
        "( ", "(").replace(" )", ")")
    return _spread(toks, out, text), j, figs, worded, bits


def _spread(toks, out, text) -> Term:
    """The expression as a `Term` spread over its rounded figures' intervals
    (`figure.spread`)."""
    return spread([(toks[x[0]], x[1]) if isinstance(x, tuple) else x for x in out], text)


def _per_byte(toks, i, j) -> bool:
    """Whether the arithmetic from i to j divides by 8 itself ("7B × 16 bits / 8 = 14 GB"):
    then its bits are already turned into bytes."""
    return any(toks[k].kind == "OP" and toks[k].text in ("/", "÷") and toks[k + 1].kind == "NUM"
               and toks[k + 1].value == 8 for k in range(i, min(j, len(toks) - 1)))


def _result(toks, j):
    """(result token index, hedged, next index) after `=`/`≈`/`→` at j, or None."""
    if j + 1 >= len(toks) or toks[j].kind != "OP" or toks[j].text not in _EQUALS:
        return None
    k = j + 1
    hedge = toks[j].text == "≈"
    if toks[k].kind == "OP" and toks[k].text == "~":
        hedge, k = True, k + 1
    if k >= len(toks) or toks[k].kind != "NUM" or (_glued(toks, k) and _symbol(toks[k + 1])):
        return None
    if k + 1 < len(toks) and toks[k + 1].kind == "OP" and toks[k + 1].text in _OPS \
            and toks[k + 1].text not in "()":
        return None  # "= 2 × 3": the right side is an expression, not a stated result
    return k, hedge, k + 1


def _skip_words(toks, k):
    n = 0
    while k < len(toks) and toks[k].kind == "WORD" and n < MAX_UNIT_WORDS:
        k, n = k + 1, n + 1
    return k


_BYTE_WORDS = {"b", "byte", "bytes"}


def _unit_changes(toks, j, k, r) -> bool:
    """Words between two stated results (j..k) name a unit that the next result does not
    repeat: the restated figure is in another unit (seconds, then days)."""
    words = {toks[i].lower for i in range(j, k)}
    if not words or words <= _BYTE_WORDS:
        return False
    after = {toks[i].lower for i in range(r + 1, _skip_words(toks, r + 1))}
    return not words <= after


def _as_hedged(t, hedge):
    return dataclasses.replace(t, about=True) if hedge and not t.about else t


def _step(toks, carried, prev, operand, op, r, hedge, figures, what):
    res = _as_hedged(toks[r], hedge)
    first = [Term(f"({carried.text})", f"({carried.lo})", f"({carried.hi})")
             if operand is not None else carried]
    if prev is not None:  # leniently, the previous result as stated, at its precision
        first += terms_of(toks[prev], toks[prev].scale == "bytes")
    choices = [first]
    if operand is not None:
        choices.append([const(toks[operand].value, op == "/")])
    bare = _mantissa(res) if all(not toks[i].scale for i in figures if i != r) else None
    if bare is not None and operand is None and not re.search(r"[*/]", carried.text):
        res = bare  # "28 - 16 = 12GB": a sum's terms share the unit written on its result
        what += f" (every term in {toks[r].text[len(bare.text):].strip()})"
    strict, lenient = compare(choices, res)
    if bare is not None and res is not bare:  # "7 × 4 = 28GB": leniently, a unit elided
        _, also = compare(choices, bare)
        lenient = f"({lenient} or {also})"
    return Part(strict, lenient, True, tuple(sorted(figures)), what)


_mantissa = precision.bare  # `12GB` → 12


def _carried(toks, j):
    """(operator, operand index, index after the unit words) of a carried step at j:
    ", × 3", "× 32 layers", or None."""
    c = j + 1 if j < len(toks) and toks[j].kind == "OP" and toks[j].text in ",;" else j
    if c + 1 < len(toks) and toks[c].kind == "OP" and toks[c].text in _CARRY \
            and toks[c + 1].kind == "NUM" and not toks[c + 1].scale and not toks[c + 1].ratio:
        return _OPS[toks[c].text], c + 1, _skip_words(toks, c + 2)
    return None


def _steps(toks, expr, j, figs):
    """The steps after an expression ending at j: (carried expression, previous result,
    operand, operator, result, hedged, figures) each."""
    steps, prev = [], None
    while True:
        k = _skip_words(toks, j)
        res = _result(toks, k)
        if res is not None and prev is not None and _unit_changes(toks, j, k, res[0]):
            return steps, j  # "≈ 2×10⁶ seconds ≈ 23 days": another unit, not the same value
        if res is not None:  # "= R": the same expression, stated again
            r, hedge, j = res
            steps.append((expr, None, None, "", r, hedge, figs + [r]))
            prev = r
            continue
        carry = None if prev is None else _carried(toks, j)
        res = carry and _result(toks, carry[2])
        if not res:
            return steps, j
        op, operand, _ = carry
        r, hedge, j = res
        steps.append((expr, prev, operand, op, r, hedge, [prev, operand, r]))
        v = literal(toks[operand].value)  # a positive operand: the ends stay the ends
        expr = Term(f"({expr.text}) {op} {v}", f"({expr.lo}) {op} {v}", f"({expr.hi}) {op} {v}")
        prev = r


def _stated_first(toks, i) -> list[Part]:
    """"50257 = 256 byte tokens + 50000 merged tokens + 1 special token": a result stated
    before its arithmetic, the arithmetic with unit words (else the plain reader's)."""
    t = toks[i]
    if t.kind != "NUM" or i + 2 >= len(toks) or toks[i + 1].kind != "OP" or \
            toks[i + 1].text not in ("=", "≈") or (i and toks[i - 1].kind == "OP"
                                                   and toks[i - 1].text in _OPS):
        return []
    got = _expression(toks, i + 2)
    if got is None or not got[3]:
        return []
    expr, _, figs, _, _ = got
    res = _as_hedged(t, toks[i + 1].text == "≈")
    strict, lenient = compare([[expr]], res)
    return [Part(strict, lenient, True, tuple(sorted([i, *figs])), "arithmetic: the result stated before it")]


def chains(toks, text, names, about: str = "") -> list[Part]:
    """Each step of every chain of arithmetic in the unit."""
    parts, i = [], 0
    while i < len(toks):
        got = _expression(toks, i)
        if got is None:
            parts += _stated_first(toks, i)
            i += 1
            continue
        expr, end, figs, worded, bits = got
        steps, j = _steps(toks, expr, end, figs)
        if bits and any(toks[s[4]].scale == "bytes" for s in steps) and not _per_byte(
                toks, i, end):
            expr = _expression(toks, i, in_bytes=True)[0]  # bits × … = bytes: 8 bits a byte
            steps, j = _steps(toks, expr, end, figs)
        if len(steps) > 1 or worded or any(toks[s[4]].scale == "bytes" for s in steps):
            for n, step in enumerate(steps, 1):
                parts.append(_step(toks, *step, f"arithmetic, step {n}"))
        i = max(j, i + 1)
    return parts


_RATIO_LEAD = {"of", "is", "about", "roughly", "around", "approximately", "nearly", "~", "=",
               "≈", "just", "exactly", "almost", "some"}


def stated_ratios(toks, text, names, about: str = "") -> list[Part]:
    """"hidden_size is 4,096 but intermediate_size is 14,336 — a ratio of about 3.5×": the
    larger of the two figures before "ratio" over the smaller (the smaller over the larger
    for a ratio below 1, "0.74 GB of 7.45 GB: ratio = 0.099"), at the ratio's precision
    (sure only when exactly two figures come before it, outside model names)."""
    from ffnverify.scan.binding import in_names

    parts = []
    for i, t in enumerate(toks):
        if t.kind != "WORD" or t.lower not in ("ratio", "factor", "expansion"):
            continue
        j = i + 1
        while j < len(toks) and j - i <= 3 and toks[j].kind in ("WORD", "OP") and (
                toks[j].lower in _RATIO_LEAD or toks[j].text in _RATIO_LEAD):
            j += 1
        if j >= len(toks) or toks[j].kind != "NUM" or toks[j].scale or not toks[j].value:
            continue
        before = [k for k in range(i) if toks[k].kind == "NUM" and not toks[k].ratio
                  and not in_names(toks[k], names)]
        if len(before) != 2 or not all(toks[k].value for k in before):
            continue
        if len({toks[k].scale for k in before}) != 1 or toks[before[0]].scale == "%" or any(
                k + 1 < len(toks) and toks[k + 1].kind == "OP" and toks[k + 1].text == "%"
                for k in before):
            continue  # figures of different kinds ("a 7B model", "0.01 %") are no pair
        small, big = sorted(before, key=lambda k: toks[k].value)
        r = toks[j]
        if r.value < 1:  # "a ratio of 0.099": the smaller over the larger
            small, big = big, small
        hedge = any(toks[k].lower in ("about", "roughly", "around", "approximately", "nearly",
                                      "almost", "some") or toks[k].text == "~"
                    for k in range(i + 1, j))
        strict, lenient = compare([terms_of(toks[big]), terms_of(toks[small], divide=True)],
                                  _as_hedged(r, hedge))
        parts.append(Part(strict, lenient, True, tuple(sorted((small, big, j))),
                          f"the ratio {toks[big].text} / {toks[small].text}"))
    return parts
