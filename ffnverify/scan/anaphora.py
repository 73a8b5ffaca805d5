"""Arithmetic that leans on a figure or a formula stated before it (`carried.Before`):

- a step with no left operand carries the result before it: "that value will be × 3 =
  98,304" after "... which is 32,768 parameters", and "× h = × 8 = 786,432" after it;
- a multiplier applied to a figure named before it: "the ratio is typically 4× (giving
  16,384)" after "hidden_size is 4,096", "SwiGLU uses 2/3 of that (≈10,922)";
- a formula stated above, evaluated at the values the unit binds: "12 * d^2 * L + 2 * V * d"
  then "For GPT-2 small (d=768, L=12, V=50257), the formula yields ~124M".

Which figure a step leans on is inferred (the figures before the step in the unit, else
those of the unit before it, nearest first, at most `MAX_BASES`; figures in model names,
percentages, ratios and money are none), so every part is a reading to confirm
(`sure=False`), and it holds when it holds for one of them: the claim is the disjunction
over the candidates, each at its stated precision (`figure.compare`). A formula is
evaluated on its tokens with its symbols replaced by the bound numbers (bounded powers,
via `arithmetic.expression`); nothing is evaluated as code.
"""

import re
from dataclasses import replace
from fractions import Fraction

from ffnverify.scan.arithmetic import expression, is_op
from ffnverify.scan.figure import call, compare, const, terms_of
from ffnverify.scan.numbers import normalise, tokens
from ffnverify.scan.parts import Part

MAX_BASES = 4
_ANAPHORS = {"that", "this", "it", "which", "these", "those", "value", "result", "total",
             "number", "count", "figure"}
_GIVING = {"giving", "gives", "give", "yielding", "yields", "i.e", "ie", "so", "making",
           "or", "that's", "which", "is", "to", "resulting", "in", "means", "get", "we"}
_SMALLER = {"smaller", "less", "fewer", "lower", "cheaper", "shorter", "narrower",
            "reduction", "reduced", "compression", "compressed"}
_LARGER = {"larger", "more", "bigger", "higher", "wider", "greater", "longer", "as", "much",
           "many", "expansion", "increase", "the", "size", "width"}
_WORD_FRACTIONS = {"half": Fraction(1, 2), "third": Fraction(1, 3), "quarter": Fraction(1, 4),
                   "thirds": Fraction(1, 3), "quarters": Fraction(1, 4)}
_COUNT_WORDS = {"a": 1, "one": 1, "two": 2, "three": 3}
_OF_THAT = {"that", "this", "it", "those", "these"}


def _named_spans(text: str) -> list:
    from ffnverify.scan.detect import models, near_misses

    return [(s, e) for s, e, _ in models(text)] + [(s, e) for s, e, _, _ in near_misses(text)]


def _base(t) -> bool:
    return t.kind == "NUM" and not t.ratio and t.scale not in ("%",) and not t.money \
        and t.value > 0


def _factors(toks) -> set:
    """Ids of the figures written as factors: `3.5×.`, `4× (giving ...)` (a `×` glued to
    the number with nothing multiplied after it)."""
    return {id(t) for t, op, nxt in zip(toks, toks[1:], [*toks[2:], None])
            if t.kind == "NUM" and is_op(op, "×") and not op.space_before
            and (nxt is None or nxt.kind != "NUM")}


def _bases(toks, upto, spans, recent) -> list:
    """The figures a step may lean on: this unit's before `upto` (nearest first), then the
    units' before it (the nearest unit first, its last figure first); no factor."""
    factors = _factors(toks)
    out = [t for t in reversed(toks[:upto]) if _base(t) and id(t) not in factors
           and not any(s <= t.start < e for s, e in spans)]
    for text in recent[:1]:
        clean = re.sub(r"\s+", " ", normalise(text))
        named, there = _named_spans(clean), tokens(clean)
        factors = _factors(there)
        out += [t for t in reversed(there) if _base(t) and id(t) not in factors
                and not any(s <= t.start < e for s, e in named)]
    seen, unique = set(), []
    for t in out:
        if t.value not in seen:
            seen.add(t.value)
            unique.append(t)
    return unique[:MAX_BASES]


def _kin(a, b) -> bool:
    """Figures of one kind: both bytes, both FLOPs, or both neither (a count of layers
    times 2 is no number of gigabytes)."""
    return (a.scale == "bytes") == (b.scale == "bytes") and (a.scale == "flops") == (
        b.scale == "flops")


def _either(bases, factor: Fraction, divide: bool, result) -> tuple[str, str]:
    """(strict, lenient): `base · factor ≈ result` for one of the bases."""
    got = [compare([terms_of(b), [const(factor, divide)]], result) for b in bases]
    strict = [s for s, _ in got]
    lenient = [le for _, le in got]

    def join(xs):
        xs = list(dict.fromkeys(xs))
        return xs[0] if len(xs) == 1 else "(" + " or ".join(xs) + ")"
    return join(strict), join(lenient)


def _result_after(toks, k, links):
    """The index of the result figure at k after link words and `(`, `=`, `≈`, `~`, or None."""
    n = 0
    while k < len(toks) and n < 4 and (
            (toks[k].kind == "OP" and toks[k].text in ("(", "=", "≈", "~", ",", "→", ":"))
            or (toks[k].kind == "WORD" and toks[k].lower.rstrip(".") in links)):
        k, n = k + 1, n + 1
    if k < len(toks) and _base(toks[k]) and not (
            k + 1 < len(toks) and is_op(toks[k + 1], "×", "/", "+", "-", "^")):
        return k
    return None


def _hedged(toks, r, start):
    if any(is_op(t, "≈", "~") for t in toks[start:r]):
        return replace(toks[r], about=True)
    return toks[r]


_CARRIED_HINT = re.compile(r"(?<![\d)\s])\s*[×*·/]\s*\w|^\s*[×*·/]")


def carried_steps(toks, text, before) -> list[Part]:
    """"that value will be × 3 = 98,304": × n (or / n) with no left operand, then its
    result; the base is the result before it (see the module docstring)."""
    parts, prev = [], None
    if not ("×" in text or "*" in text or "·" in text or "/" in text) or \
            not _CARRIED_HINT.search(text):
        return parts
    i = 0
    while i < len(toks):
        t = toks[i]
        if not is_op(t, "×", "/") or (i and (toks[i - 1].kind == "NUM" or is_op(
                toks[i - 1], ")") or (toks[i - 1].kind == "WORD" and toks[i - 1].end == t.start))):
            # (a symbol glued to it is its left operand: "8d/3 = 10923")
            i += 1
            continue
        k = i + 1
        if k + 3 < len(toks) and toks[k].kind == "WORD" and len(toks[k].text) <= 3 and \
                is_op(toks[k + 1], "=") and is_op(toks[k + 2], t.text):
            k += 3  # "× h = × 8": the symbol, then its value
        if k >= len(toks) or not _base(toks[k]) or toks[k].scale or k + 2 >= len(toks) \
                or not is_op(toks[k + 1], "=", "≈") or not _base(toks[k + 2]):
            i += 1
            continue
        r = k + 2
        if r + 1 < len(toks) and is_op(toks[r + 1], "×", "/", "+", "-", "^"):
            i += 1
            continue
        bases = [prev] if prev is not None else _bases(toks, i, _named_spans(text),
                                                        before.recent if before else ())[:1]
        bases = [b for b in bases if _kin(b, toks[k + 2])]
        if not bases:
            return parts
        result = _hedged(toks, r, k + 1)
        strict, lenient = _either(bases, toks[k].value, t.text == "/", result)
        figs = (k, r) + ((toks.index(prev),) if prev is not None and prev in toks else ())
        parts.append(Part(strict, lenient, False, tuple(sorted(figs)),
                          f"a step carried from the figure before it ({bases[0].text}"
                          f"{' or another' if len(bases) > 1 else ''}): "
                          f"{t.text} {toks[k].text} = {toks[r].text}"))
        prev, i = toks[r], r + 1
    if parts and not any(t.kind == "WORD" and t.lower in _ANAPHORS for t in toks):
        return []  # nothing in the unit says it goes on from a figure before it
    return parts


def _fraction_at(toks, i):
    """(value, end index) of a fraction written at i: `2/3`, `25%`, `half`, `two thirds`."""
    t = toks[i]
    if t.kind == "NUM" and t.scale == "%" and 0 < t.value:
        return t.value, i + 1
    if t.kind == "NUM" and not t.scale and t.value.denominator == 1 and i + 2 < len(toks) \
            and is_op(toks[i + 1], "/") and toks[i + 2].kind == "NUM" and \
            not toks[i + 2].scale and toks[i + 2].value and \
            toks[i + 2].value.denominator == 1 and toks[i + 2].value <= 100:
        return t.value / toks[i + 2].value, i + 3
    if t.kind == "WORD" and t.lower in _WORD_FRACTIONS:
        count = 1
        if i and toks[i - 1].kind == "WORD" and toks[i - 1].lower in _COUNT_WORDS:
            count = _COUNT_WORDS[toks[i - 1].lower]
        if t.lower.endswith("s") and count == 1:
            return None
        return count * _WORD_FRACTIONS[t.lower], i + 1
    return None


# what a unit with a factor applied to a figure before it has (a cheap test first)
_FACTOR_HINT = re.compile(r"\d\s?[×x](?!\w)")
_GIVING_HINT = re.compile(r"giv|yield|i\.e|[=→]")
_OF_THAT_HINT = re.compile(r"\bof (?:that|this|it|those|these)\b", re.I)


def multipliers(toks, text, before) -> list[Part]:
    """"4× (giving 16,384)" and "2/3 of that (≈10,922)": a factor applied to a figure
    named before it, with its result (see the module docstring)."""
    parts, spans = [], None
    if not (_FACTOR_HINT.search(text) and _GIVING_HINT.search(text)) and \
            not _OF_THAT_HINT.search(text):
        return parts
    for i, t in enumerate(toks):
        if t.kind not in ("NUM", "WORD"):
            continue
        ratio = t.ratio or (i + 2 < len(toks) and is_op(toks[i + 1], "×") and not toks[
            i + 1].space_before and is_op(toks[i + 2], "(") and i + 3 < len(toks) and toks[
            i + 3].lower in _GIVING)  # "4× (giving 16,384)": a factor, not a product
        if t.kind == "NUM" and ratio and t.value > 0 and not t.scale:
            k, divide = i + 1, False
            if k < len(toks) and toks[k].kind == "WORD" and toks[k].lower in _SMALLER:
                divide, k = True, k + 1
            while k < len(toks) and k - i <= 3 and toks[k].kind == "WORD" and \
                    toks[k].lower in _LARGER:
                k += 1
            k += 0 if t.ratio else 1
            r = _result_after(toks, k, _GIVING)
            if r is None or not any(
                    (toks[j].kind == "WORD" and toks[j].lower in ("giving", "gives", "yielding",
                                                                "yields", "i.e", "ie"))
                    or is_op(toks[j], "=", "→") for j in range(k, r)):
                continue
            factor, start = t.value, i
            shown = t.text if t.ratio else f"{t.text}×"
        else:
            got = _fraction_at(toks, i)
            if got is None:
                continue
            factor, k = got
            if k + 1 >= len(toks) or toks[k].lower != "of" or toks[k + 1].lower not in _OF_THAT:
                continue
            r = _result_after(toks, k + 2, _GIVING)
            if r is None:
                continue
            divide, start = False, i
            shown = text[t.start:toks[k - 1].end] + " of " + toks[k + 1].text
        spans = _named_spans(text) if spans is None else spans
        bases = [b for b in _bases(toks, start, spans, before.recent if before else ())
                 if b is not toks[r] and _kin(b, toks[r])]
        if not bases:
            continue
        result = _hedged(toks, r, start)
        strict, lenient = _either(bases, factor, divide, result)
        figs = tuple(sorted({i, r} | ({i + 2} if toks[i].kind == "NUM" and i + 2 < len(
            toks) and is_op(toks[i + 1], "/") and not toks[i].ratio else set())))
        parts.append(Part(strict, lenient, False, figs,
                          f"a factor applied to a figure before it ({bases[0].text}"
                          f"{' or another' if len(bases) > 1 else ''}): "
                          f"{shown} gives {toks[r].text}"))
    return parts


_FORMULA_WORD = re.compile(r"\b(?:the|this|that|our|above|same)\s+(?:formula|expression|"
                           r"equation)\b", re.I)
_YIELDS = {"yields", "gives", "is", "evaluates", "to", "comes", "results", "in", "produces",
           "predicts", "of", "returns", "=", "≈", "~"}
MAX_SYMBOLS = 12


def _symbol(t) -> bool:
    return t.kind == "WORD" and (len(t.text) == 1 or "_" in t.text) and len(t.text) <= 16


def _formula(text):
    """The tokens of a unit that is one formula in symbols ("12 * d^2 * L + 2 * V * d",
    "N = 12 L d^2", with an aside in parentheses after it), or None."""
    toks = list(tokens(re.sub(r"\s+", " ", normalise(text))))
    if len(toks) > 2 and _symbol(toks[0]) and is_op(toks[1], "="):
        toks = toks[2:]
    body = []
    for t in toks:
        if (t.kind == "NUM" and not t.ratio and not t.scale) or _symbol(t) or (
                t.kind == "OP" and t.text in ("+", "-", "×", "/", "^", "(", ")")):
            body.append(t)
        else:
            break
    if not body or not any(_symbol(t) for t in body) or not any(
            is_op(t, "+", "-", "×", "/", "^") for t in body):
        return None
    return body


def _substituted(body, values):
    """The formula with its symbols replaced by numbers and juxtaposed operands
    multiplied (`12 L d^2`: 12 × L × d^2), or None when a symbol has no value."""
    out = []
    for t in body:
        operand = t.kind == "NUM" or _symbol(t) or is_op(t, "(")
        if operand and out and (out[-1].kind == "NUM" or is_op(out[-1], ")")):
            out.append(replace(t, kind="OP", text="×", value=None))
        if _symbol(t):
            if t.text not in values:
                return None
            v = values[t.text]
            out.append(replace(v, start=t.start, end=t.end, power=False))
        else:
            out.append(t)
    return out


def _bindings(toks) -> dict:
    """`d=768, L=12`: each symbol set to a plain number in the unit."""
    out = {}
    for i in range(len(toks) - 2):
        a, eq, v = toks[i], toks[i + 1], toks[i + 2]
        if _symbol(a) and is_op(eq, "=") and v.kind == "NUM" and not v.scale and \
                not v.ratio and not (i + 3 < len(toks) and is_op(toks[i + 3], "+", "-", "×",
                                                                  "/", "^")):
            out.setdefault(a.text, (v, i + 2))
    return out


def formula_values(toks, text, before) -> list[Part]:
    """"(d=768, L=12, V=50257), the formula yields ~124M": the formula stated in a unit
    just before it, at the values this unit binds (see the module docstring)."""
    if before is None or not _FORMULA_WORD.search(text):
        return []
    bound = _bindings(toks)
    if not bound or len(bound) > MAX_SYMBOLS:
        return []
    m = _FORMULA_WORD.search(text)
    after = [i for i, t in enumerate(toks) if t.start >= m.end()]
    if not after:
        return []
    k, n = after[0], 0
    while k < len(toks) and n < 3 and (toks[k].lower in _YIELDS or toks[k].text in _YIELDS):
        k, n = k + 1, n + 1
    if k >= len(toks) or not _base(toks[k]) or k == after[0]:
        return []
    for text_before in before.recent:
        body = _formula(text_before)
        if body is None:
            continue
        side = _substituted(body, {s: v for s, (v, _) in bound.items()})
        expr = expression(side) if side else None
        if expr is None:
            return []
        strict, lenient = compare([[call(expr)]], toks[k])
        used = {s for s in bound if any(_symbol(t) and t.text == s for t in body)}
        figs = tuple(sorted({k} | {bound[s][1] for s in used}))
        return [Part(strict, lenient, False, figs,
                     f"the formula stated before it ({' '.join(t.text for t in body)}), at "
                     + ", ".join(f"{s}={bound[s][0].text}" for s in sorted(used)))]
    return []
