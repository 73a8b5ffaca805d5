"""A total stated with its parts, read as the sum as written: "about 140GB for weights and
about 100GB for the KV cache" after "requires roughly 240GB:", and "adds gradients
(another 28 GB) plus two momentum buffers (56 GB more), totalling roughly 112 GB".

- the parts after the total: `R: A … and B …` (or `R — A …, B …`), the figures after the
  colon or dash up to the end of the clause;
- the total after its parts: `A … plus B …, totalling R` (also "for a total of", "in
  total", "adding up to", "summing to"), the figures before the word; where the unit adds
  to something said before it ("adds", "another", "more", "on top of"), the sum may also
  take the last figure of the unit before it (`carried.Before`).

Only byte sizes and FLOP counts are summed (figures of one kind, whose sum is a total
whatever they count); the parts must be joined by "and", "plus", "+" or commas, never
"or", "vs" or "instead"; a part multiplied by a count ("two 80 GB GPUs") is none. Which
figures are the parts is inferred, so each is a reading to confirm (`sure=False`), true when
the sum of the parts, each at its stated precision, meets the total at its precision
(`figure.compare` on the sum's interval).
"""

import re

from ffnverify.scan.figure import Term, alternatives, compare, devices, each_device
from ffnverify.scan.numbers import literal, normalise, tokens
from ffnverify.scan.parts import Part

MAX_PARTS = 6
_TOTAL_AFTER = re.compile(r"(?:,\s*|\s)(?:totall?ing|totals?|for a total of|a total of|in total|"
                          r"adding up to|adds up to|summing to|sums to|which sums to|"
                          r"altogether|combined)\s*(?:of\s+)?(?:roughly|about|around|"
                          r"approximately|nearly|~|≈)?\s*$", re.I)
_ADDS = re.compile(r"\b(?:adds?|another|more|additional|on top of|extra)\b", re.I)
_ALTERNATIVE = re.compile(r"\b(?:or|vs\.?|versus|instead|either|compared|than|per)\b|/", re.I)
_COUNT_BEFORE = re.compile(r"(?:\b(?:two|three|four|five|six|seven|eight|ten|sixteen|"
                           r"\d+)\s*(?:×|x|\*)?\s*|×\s*|\*\s*)$", re.I)


# a unit that may state a total with its parts (cheap tests first): a byte or FLOP figure,
# and a total word, a colon, a dash or a parenthesis
_HINT_FIGURE = re.compile(r"\d\s?[KMGTP]i?B\b|FLOP|bytes")
_HINT_TOTAL = re.compile(r"total|sum|adding up|altogether|combined|[:—–(]", re.I)


def _kind(t) -> str:
    return t.scale if t.kind == "NUM" and t.scale in ("bytes", "flops") and not t.ratio \
        else ""


def _sum_term(parts) -> Term:
    readings = [alternatives(t)[0] for t in parts]
    value = sum(v for v, _ in readings)
    lo, hi = sum(v - e for v, e in readings), sum(v + e for v, e in readings)
    return Term(literal(value), literal(lo), literal(hi))


def _counted(text, t) -> bool:
    """A part multiplied by a count written before it: "two 80 GB GPUs", "2 × 80GB", "8x
    H100 80GB" (`figure.devices`)."""
    return bool(_COUNT_BEFORE.search(text[max(0, t.start - 12):t.start])) or devices(text, t) > 0 \
        or each_device(text, t)  # "38GB on each GPU"


def _part(toks, addends, total, what) -> Part:
    strict, lenient = compare([[_sum_term(addends)]], total)
    index = {id(t): i for i, t in enumerate(toks)}
    figs = tuple(sorted(index[id(t)] for t in (*addends, total) if id(t) in index))
    return Part(strict, lenient, False, figs, what)


def totals(toks, text, before) -> list[Part]:
    """The parts and totals of the unit (see the module docstring)."""
    out = []
    if not _HINT_FIGURE.search(text) or not _HINT_TOTAL.search(text):
        return out
    figures = [t for t in toks if _kind(t)]
    if len(figures) < 2:
        return out
    # the total after its parts
    for k, r in enumerate(figures):
        if not _TOTAL_AFTER.search(text[:r.start]) or k == 0:
            continue
        addends = [t for t in figures[:k] if _kind(t) == _kind(r)]
        span = text[addends[0].start:r.start] if addends else ""
        if not addends or len(addends) > MAX_PARTS or _ALTERNATIVE.search(span) or any(
                _counted(text, t) for t in addends):
            continue
        if len(addends) == 1 and not _ADDS.search(text[:r.start]):
            continue  # a total of one part is no sum ("38GB on each GPU -- total 76GB")
        parts = [_part(toks, addends, r, "a total after its parts: " + " + ".join(
            t.text for t in addends) + f" = {r.text}")]
        if _ADDS.search(text[:r.start]) and before is not None and before.recent:
            earlier = [t for t in tokens(re.sub(r"\s+", " ", normalise(before.recent[0])))
                       if _kind(t) == _kind(r)]
            if earlier:
                both = _part(toks, [earlier[-1], *addends], r, "")
                one = parts[0]
                parts = [Part(f"({one.strict} or {both.strict})",
                              f"({one.lenient} or {both.lenient})", False, one.figures,
                              f"a total after its parts ({' + '.join(t.text for t in addends)}"
                              f", with or without {earlier[-1].text} said before it) = "
                              f"{r.text}")]
        out += parts
        break
    # the parts after the total
    for k, r in enumerate(figures[:-1]):
        gap = text[r.end:figures[k + 1].start]
        m = re.match(r"[^:—–.;]{0,40}?\s*(?::|—|–|\(|,? of which)\s*", gap)
        if not m or re.search(r"[.;]", gap[:m.end()]):
            continue
        end = re.search(r"[.;)]|$", text[figures[k + 1].start:])
        stop = figures[k + 1].start + end.start()
        addends = [t for t in figures[k + 1:] if t.start < stop and _kind(t) == _kind(r)]
        span = text[addends[0].start:addends[-1].start] if addends else ""
        if len(addends) < 2 or len(addends) > MAX_PARTS or _ALTERNATIVE.search(span) or \
                not re.search(r"\b(?:and|plus)\b|\+|,", span) or any(
                    _counted(text, t) for t in addends):
            continue
        out.append(_part(toks, addends, r, f"a total before its parts: {r.text} = "
                         + " + ".join(t.text for t in addends)))
        break
    return out
