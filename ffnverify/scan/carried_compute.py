"""FLOPs stated in one sentence and turned into time in the next (docs/architecture.md
§5.2: FLOPs → time / GPU-hours at a stated throughput), and GPU-hours stated in one
sentence turned into cost in the next (`costs`: "… about 93,000 GPU-hours. At $2 per
GPU-hour, the run costs about $187,000."): "Training it takes 4.2×10^22
FLOPs. At 1000 TFLOP/s, that takes about 500 GPU-hours." The second sentence states the
rate (and perhaps a utilisation) and the time, and points back with "that", "this" or
"it" to the one FLOPs count the sentence before states: GPU-time = F / (rate ×
utilisation) in the unit it is stated in (GPU-seconds, GPU-hours, GPU-days; `compute`
reads the same arithmetic within one sentence).

Always a reading to confirm: which figure "that" points to is the reader's inference.
Read only when the sentence before states exactly one FLOPs count (no rate) and the
sentence itself states none; a utilisation beside a rate said to be "effective" (or
"actual", "sustained", "achieved") may already be in it, so both readings are tried.
"""

import re
from fractions import Fraction

from ffnverify.scan.compute import (
    _GPU_HOURS,
    _PRICE,
    SECONDS,
    _flop_counts,
    _rate,
    _utilisation,
)
from ffnverify.scan.figure import compare, const, terms_of
from ffnverify.scan.numbers import normalise, tokens
from ffnverify.scan.parts import Part

_POINTS_BACK = re.compile(r"\b(?:that|this|it|which)\s+(?:would\s+|will\s+)?(?:takes?|"
                          r"requires?|needs?|means?|is|comes to|amounts to)\b|"
                          r"\bthat's\b|\bthat is\b", re.I)
_GPU_TIME = re.compile(r"\s*(?:gpu|a100|h100|h200|v100|tpu|chip|accelerator)[- ]?"
                       r"(seconds?|secs?|hours?|hrs?|days?)\b", re.I)
_EFFECTIVE = re.compile(r"\beffective\b|\bactual\b|\bsustained\b|\bachieved\b|\breal\b", re.I)


def _seconds(unit: str) -> int:
    return SECONDS[unit.lower()]


def _carried_flops(before):
    """The one FLOPs count the unit just before states (a Tok), or None."""
    if before is None or not before.recent:
        return None
    clean = normalise(before.recent[0])
    toks = tokens(clean)
    found = _flop_counts(toks, clean)
    return toks[found[0]] if len(found) == 1 and not any(
        _rate(toks, clean, i) for i in range(len(toks))) else None


def times(toks, text, before) -> list[Part]:
    """GPU-time results of a unit that turns the FLOPs before it into time."""
    if not _POINTS_BACK.search(text) or _flop_counts(toks, text):
        return []
    rate = next((i for i, t in enumerate(toks) if t.kind == "NUM" and _rate(toks, text, i)),
                None)
    if rate is None:
        return []
    flops = _carried_flops(before)
    if flops is None:
        return []
    util = _utilisation(toks, text)
    parts = []
    for i, t in enumerate(toks):
        m = _GPU_TIME.match(text, t.end) if t.kind == "NUM" and not t.money and \
            not t.scale == "flops" else None
        if not m or i == util:
            continue
        per = [const(Fraction(_seconds(m.group(1))), True)]
        base = [terms_of(flops), terms_of(toks[rate], divide=True)]
        choices = [base + [per]]
        figures = [rate, i]
        if util is not None:
            with_util = base + [terms_of(toks[util], divide=True), per]
            choices = [with_util] + (choices if _EFFECTIVE.search(text) else [])
            figures.append(util)
        readings = [compare(c, t) for c in choices]
        strict = readings[0][0]
        lenient = readings[0][1] if len(readings) == 1 else \
            "(" + " or ".join(le for _, le in readings) + ")"
        parts.append(Part(strict, lenient, False, tuple(sorted(figures)),
                          f"GPU-{m.group(1)} = FLOPs / (rate × utilisation), the FLOPs "
                          f"{flops.text} stated in the sentence before (\"that\": assumed)"))
    return parts


def _carried_gpu_hours(before):
    """The one GPU-hours figure the unit just before states (a Tok), or None."""
    if before is None or not before.recent:
        return None
    clean = normalise(before.recent[0])
    toks = tokens(clean)
    found = [t for t in toks if t.kind == "NUM" and not t.money
             and _GPU_HOURS.match(clean[t.end:t.end + 24])]
    return found[0] if len(found) == 1 else None


def costs(toks, text, before) -> list[Part]:
    """The cost of a unit that prices the GPU-hours the sentence before states ("At $2
    per GPU-hour, the run costs about $187,000"): cost = GPU-hours × price, a reading to
    confirm (which figure the cost is of is the reader's inference). Read only when the
    unit states a price and one other amount of money, and no GPU-hours or FLOPs of its
    own (`compute.throughput` reads those within one sentence)."""
    price = next((i for i, t in enumerate(toks) if t.kind == "NUM" and t.money
                  and _PRICE.match(text[t.end:t.end + 24])), None)
    if price is None or _flop_counts(toks, text) or any(
            t.kind == "NUM" and not t.money and _GPU_HOURS.match(text[t.end:t.end + 24])
            for t in toks):
        return []
    amounts = [i for i, t in enumerate(toks) if t.kind == "NUM" and t.money and i != price]
    hours = _carried_gpu_hours(before) if len(amounts) == 1 else None
    if hours is None:
        return []
    cost = amounts[0]
    strict, lenient = compare([terms_of(hours), terms_of(toks[price])], toks[cost])
    return [Part(strict, lenient, False, (price, cost),
                 f"cost = GPU-hours × price per GPU-hour, the GPU-hours {hours.text} stated "
                 "in the sentence before (assumed)")]
