"""Numbers written in words, read exactly: cardinals ("eight", "thirty-two", "one hundred
and twenty-eight", "two thousand", "seventy billion"), fractions ("half", "a third",
"two-thirds", "a quarter", "three quarters", "an eighth") and multiples ("twice",
"double", "doubles", "triple", "three times", "4 times", "tenfold", "halves").

`spelled(text)` finds them; `as_tokens(toks, text)` gives the token list with each
cardinal turned into one exact number token (so the other readers bind it like a
figure written in digits), with the map back to the first word's index. `ratios(toks,
text, names)` reads the statements a multiple or fraction makes between two figures:
"A is twice B", "A, a quarter of B", "half of B is A", "B doubles to A" → `A == r·B`.

"one" and "a"/"an" alone are never cardinals (they are articles and pronouns far more
often: "one key and one value", "a layer"); "zero" is none either. A spelled cardinal is
exact; a multiple's figures are read at their stated precision (`figure`).
"""

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ffnverify.scan import moe, words
from ffnverify.scan.figure import bound, compare, const, terms_of
from ffnverify.scan.numbers import Tok, literal
from ffnverify.scan.parts import Part

UNITS = words.UNIT_WORDS
TENS = {w: 10 * n for n, w in enumerate(
    "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if w != "_"}
SCALES = {"hundred": 100, "thousand": 10**3, "million": 10**6, "billion": 10**9,
          "trillion": 10**12}
ORDINALS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
            "fourth": 4, "fourths": 4, "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6,
            "eighth": 8, "eighths": 8, "tenth": 10, "tenths": 10, "sixteenth": 16}
MULTIPLES = {"twice": 2, "double": 2, "doubles": 2, "doubled": 2, "doubling": 2,
             "triple": 3, "triples": 3, "tripled": 3, "tripling": 3, "thrice": 3,
             "quadruple": 4, "quadruples": 4, "quadrupled": 4, "halve": Fraction(1, 2),
             "halves": Fraction(1, 2), "halved": Fraction(1, 2), "halving": Fraction(1, 2),
             "twofold": 2, "threefold": 3, "fourfold": 4, "tenfold": 10, "hundredfold": 100}

_WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")
MAX_WORDS = 24  # "nine hundred ninety nine billion nine hundred ..." is 20


@dataclass(frozen=True)
class Spelled:
    start: int
    end: int
    value: Fraction
    kind: str  # cardinal | fraction | multiple


def _small(word: str):
    """Value of one word (or hyphenated pair) below a hundred, or None."""
    w = word.lower()
    if w in UNITS:
        return UNITS[w]
    if w in TENS:
        return TENS[w]
    a, _, b = w.partition("-")
    if a in TENS and b in UNITS and 0 < UNITS[b] < 10:
        return TENS[a] + UNITS[b]
    return None


def _cardinal(words, k):
    """(value, words used) of the cardinal starting at words[k], or None."""
    total, current, used, last, prev, j = 0, 0, 0, None, 0, k
    first = words[k][2].lower()
    if first in ("a", "one") and k + 1 < len(words) and words[k + 1][2].lower() in SCALES:
        current, last, j = 1, "article", k + 1
    while j < len(words) and j - k < MAX_WORDS:
        w = words[j][2].lower()
        small = _small(w)
        if small is not None:
            if last == "small" and not (prev % 10 == 0 and prev >= 20 and small < 10):
                break  # "two three": two numbers
            if last == "hundred" and current % 100:
                break
            current += small
            prev, last = small, "small"
        elif w == "hundred" and last in ("small", "article") and current < 100:
            current, last = current * 100, "hundred"
        elif w in SCALES and w != "hundred" and last in ("small", "hundred", "article"):
            total, current, last = total + current * SCALES[w], 0, "scale"
        elif w == "and" and last in ("hundred", "scale") and j + 1 < len(words) \
                and _small(words[j + 1][2]) is not None:
            last = "and"
            j += 1
            continue
        else:
            break
        j += 1
        used = j - k
    if used == 0:
        return None
    return total + current, used


@lru_cache(maxsize=16384)
def spelled(text: str) -> tuple:
    """Every number written in words in `text`, left to right (cached: the detector and
    the readers ask for the same unit)."""
    words = []
    for m in _WORD.finditer(text):
        parts = m.group().split("-")
        if len(parts) > 1 and any(p.lower() in _BIG for p in parts) and \
                not re.search(r"\d-$", text[max(0, m.start() - 2):m.start()]):
            # "seventy-billion-parameter": the cardinal and the noun, each a word
            at = m.start()
            for p in parts:
                words.append((at, at + len(p), p))
                at += len(p) + 1
        else:
            words.append((m.start(), m.end(), m.group()))
    # words apart (a figure or a sign between them: "a 70 billion") are no one number: a
    # mark between them that no table holds ends a cardinal there
    words = [x for k, w in enumerate(words) for x in (
        [(w[0], w[0], "|")] if k and text[words[k - 1][1]:w[0]].strip(" \t\r\n-") else []) + [w]]
    out, k = [], 0
    while k < len(words):
        s, e, w = words[k]
        low = w.lower()
        nxt = words[k + 1][2].lower() if k + 1 < len(words) else ""
        a, _, b = low.partition("-")
        if b in ORDINALS and a in UNITS:  # "two-thirds"
            out.append(Spelled(s, e, Fraction(UNITS[a], ORDINALS[b]), "fraction"))
            k += 1
            continue
        got = _cardinal(words, k)
        if low in MULTIPLES:
            out.append(Spelled(s, e, Fraction(MULTIPLES[low]), "multiple"))
            k += 1
            continue
        if low in ("a", "an", "one") and nxt in ORDINALS and nxt not in ("halves",):
            out.append(Spelled(s, words[k + 1][1], Fraction(1, ORDINALS[nxt]), "fraction"))
            k += 2
            continue
        if low == "half":
            out.append(Spelled(s, e, Fraction(1, 2), "fraction"))
            k += 1
            continue
        if got:
            value, used = got
            end = words[k + used - 1][1]
            after = words[k + used][2].lower() if k + used < len(words) else ""
            if after in ORDINALS and used == 1 and value < 10:  # "two thirds"
                out.append(Spelled(s, words[k + 1][1], Fraction(value, ORDINALS[after]),
                                   "fraction"))
                k += 2
                continue
            if after == "times":
                out.append(Spelled(s, words[k + used][1], Fraction(value), "multiple"))
                k += used + 1
                continue
            if value >= 2 and not (used == 1 and low in ("a", "an", "one")):
                out.append(Spelled(s, end, Fraction(value), "cardinal"))
            k += used
            continue
        k += 1
    return tuple(out)


_BIG = {"million": "million", "billion": "billion", "trillion": "trillion"}
# "70-billion-parameter": a figure in digits, its scale word glued by a hyphen
_DIGITS_SCALE = re.compile(r"-(million|billion|trillion)\b", re.I)


def _scaled(card, text) -> Tok:
    """The token of a spelled cardinal: exact, or, when it ends with a scale word ("seventy
    billion"), a count at that scale, stated to a unit of it as "70 billion" is."""
    words = re.split(r"[\s-]+", text[card.start:card.end].lower())
    last = words[-1] if words else ""
    if last in _BIG:
        unit = Fraction(SCALES[last])
        return Tok("NUM", text[card.start:card.end], card.start, card.end, card.value, unit,
                   scale=_BIG[last])
    return Tok("NUM", text[card.start:card.end], card.start, card.end, card.value, Fraction(0))


def _rest(t: Tok, end: int, text: str) -> list:
    """What is left of a hyphenated word after its cardinal ("-parameter"), as a word."""
    if end >= t.end:
        return []
    return [Tok("WORD", text[end:t.end], end, t.end)]


def as_tokens(toks, text):
    """(tokens, index map): `toks` with each spelled cardinal one NUM token (exact, or at
    its scale word's unit: "seventy billion"), a figure in digits glued to its scale word
    ("70-billion") one count at that scale, and for each new index the index of the
    original token it stands for."""
    cards = [c for c in spelled(text) if c.kind == "cardinal"]
    glued = [i for i, t in enumerate(toks) if t.kind == "NUM" and not t.scale
             and _DIGITS_SCALE.match(text, t.end)]
    if not cards and not glued:
        return toks, list(range(len(toks)))
    out, where, i = [], [], 0
    while i < len(toks):
        t = toks[i]
        if i in glued:
            m = _DIGITS_SCALE.match(text, t.end)
            scale = m.group(1).lower()
            out.append(Tok("NUM", text[t.start:m.end()], t.start, m.end(),
                           t.value * SCALES[scale], t.unit * SCALES[scale], scale=scale))
            where.append(i)
            j = i + 1
            while j < len(toks) and toks[j].end <= m.end():
                j += 1
            if j < len(toks) and toks[j].start < m.end():  # "billion-parameter"
                out += _rest(toks[j], m.end(), text)
                where += [j] * len(_rest(toks[j], m.end(), text))
                j += 1
            i = j
            continue
        card = next((c for c in cards if c.start == t.start and t.kind == "WORD"), None)
        if card is None:
            out.append(t)
            where.append(i)
            i += 1
            continue
        j = i
        while j < len(toks) and toks[j].end <= card.end:
            j += 1
        out.append(_scaled(card, text))
        where.append(i)
        if j < len(toks) and toks[j].start < card.end:  # "seventy-billion-parameter"
            rest = _rest(toks[j], card.end, text)
            out += rest
            where += [j] * len(rest)
            j += 1
        i = max(j, i + 1)
    return tuple(out), where


_NUM = r"[~≈]?\$?(?<![\d,.])\d[\d,.]*+(?:\s?(?:[KMGT]i?B|[kKMBGT]|thousand|million|billion|trillion))?"
_IS = r"(?:\s*(?:,|—|–|:|\(|=)\s*|\s+)(?:(?:which|that|it) (?:is|was)\s+|i\.e\.,?\s+|is\s+|are\s+|" \
      r"was\s+|being\s+|or\s+|exactly\s+|about\s+|roughly\s+|almost\s+|nearly\s+|just\s+)*"
_LINK = r"(?:\s+(?:of|as (?:many|much|large|big|wide|long|high)(?: \w+)? as|that of|the size of))?" \
        r"(?:\s+(?:the|its|their))?\s+"
_COUNTS = "|".join(sorted(set(UNITS) | set(TENS), key=len, reverse=True))
_MULT = (r"(?:(?:a|an|one|" + _COUNTS + r")[- ](?:" + "|".join(sorted(ORDINALS, key=len,
                                                                      reverse=True)) + r")|"
         + "|".join(sorted(MULTIPLES, key=len, reverse=True)) + r"|half|(?:" + _COUNTS
         + r")\s+times|\d+(?:\.\d+)?\s*times)")
_A_M_B = re.compile(rf"(?P<a>{_NUM}){_IS}(?P<m>{_MULT}){_LINK}(?P<b>{_NUM})", re.I)
_M_B_A = re.compile(rf"\b(?P<m>{_MULT})\s+of\s+(?:the\s+)?(?P<b>{_NUM})\s*"
                    rf"(?:is|are|=|gives|comes to|equals|makes)\s+(?:about\s+|roughly\s+|"
                    rf"exactly\s+)?(?P<a>{_NUM})", re.I)
_B_TO_A = re.compile(rf"(?P<b>{_NUM})\s+(?:\w+\s+)?(?:is\s+|are\s+|gets\s+)?"
                     rf"(?P<m>doubled|doubles|halved|halves|tripled|triples|quadrupled|"
                     rf"quadruples)(?:\s+it)?\s+to\s+(?P<a>{_NUM})", re.I)


def _at(toks, pos):
    return next((i for i, t in enumerate(toks) if t.kind == "NUM" and t.start <= pos < t.end),
                None)


def _factor(text, start, end):
    for sp in spelled(text[start:end]):
        if sp.start == 0 and sp.end == end - start and sp.kind in ("multiple", "fraction"):
            return sp.value
    return None


def ratios(toks, text, names, about: str = "") -> list[Part]:
    """"A is twice B", "A, a quarter of B", "half of B is A", "B doubles to A"."""
    parts, seen = [], set()
    for pattern in (_A_M_B, _M_B_A, _B_TO_A):
        for m in pattern.finditer(text):
            f = _at(toks, m.start("m"))  # "2.7 times": a figure, at its precision
            r = None if f is not None else _factor(text, m.start("m"), m.end("m"))
            a, b = _at(toks, m.start("a")), _at(toks, m.start("b"))
            if (r is None and f is None) or a is None or b is None or a == b or (a, b) in seen:
                continue
            ta, tb = toks[a], toks[b]
            if (ta.scale == "bytes") != (tb.scale == "bytes") or (ta.scale == "%") != (
                    tb.scale == "%"):
                continue
            seen.add((a, b))
            binary = ta.scale == "bytes"
            factor = terms_of(toks[f]) if f is not None else [const(r)]
            strict, lenient = compare([terms_of(tb, binary), factor], ta, bound(text, ta))
            word = next((i for i, t in enumerate(toks) if m.start("m") <= t.start < m.end("m")),
                        None)  # the factor in words is read too
            figs = tuple(x for x in (a, b, f if f is not None else word) if x is not None)
            parts.append(Part(strict, lenient, True, tuple(sorted(figs)),
                              f"{ta.text} = {text[m.start('m'):m.end('m')]} × {tb.text}"))
    return parts


def is_spelled(t: Tok) -> bool:
    """Whether a number token stands for a cardinal written in words."""
    return t.kind == "NUM" and (t.text[:1].isalpha() or bool(_DIGITS_SCALE.search(t.text)))


def fields(toks, text, names, about: str = "") -> list[Part]:
    """A spelled cardinal before a field's noun, of the one model the sentence names:
    "Llama 2 70B has eighty layers" → `layers(llama-2-70b) == 80`."""
    distinct = {n for _, _, n in names}
    if len(distinct) != 1:
        return []
    name = names[0][2]
    parts = []
    per_token = {i for p in moe._per_token(toks, text, names) for i in p.figures}
    for i, t in enumerate(toks):
        if not is_spelled(t) or i in per_token:  # "routes each token to two experts": the
            continue  # experts per token (`moe`), not the model's count of experts
        after = text[t.end:t.end + 40]
        lead = len(after) - len(after.lstrip())
        for pattern, func in words.FIELD_RES:
            m = pattern.match(after, lead)
            if m and func != "params_total":
                parts.append(Part(f"{func}({name}) == {literal(t.value)}", sure=True,
                                  figures=(i,), reading=f"{func} of {name}, in words"))
                break
    return parts


def number_words(text: str) -> list[tuple[int, Fraction]]:
    """English fractions written in words ("two thirds of the parameters", "a quarter"):
    (position, value) each, as `spelled` reads them (the one table of number words)."""
    return [(s.start, s.value) for s in spelled(text) if s.kind == "fraction"]
