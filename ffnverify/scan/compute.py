"""Compute statements read as claims: the 2N / 6N FLOPs-per-token rules and 6ND training
FLOPs, and FLOPs turned into GPU-hours, wall time and cost at a stated throughput,
utilisation and price — each step as written.

- A rule (`2N`, `6N`, `6ND`, "6 FLOPs per parameter per token") with its N (a parameter
  count bound by its noun, or a named model's `params_total`, its nominal size as a
  lenient alternative), its D (a figure before "tokens" with a scale: `2T tokens`) and its
  result (a FLOPs figure, or the number after `=`/`≈` that follows the rule): the rule's
  arithmetic, `6 * N * D`, sure. With a named model and a per-token rule, the exact count
  `flops_token(m, context=1, pass=…)` is a second reading, never sure: a 2N statement is a
  rule of thumb, which the exact count only suggests.
- Throughput: a FLOPs rate (`312 TFLOPS`, `312 TFLOP/s`, `… TFLOPs per second`, or a FLOPs
  figure after "at"), a utilisation (`50% MFU`, "utilization of 40%"), a GPU count (`1024
  GPUs`), a price (`$2 per GPU-hour`). Results: GPU-hours (`1.5M GPU-hours`) =
  F / (rate · MFU) / 3600; wall time (`30 days`) = F / (rate · MFU · GPUs) / seconds;
  cost (`$3M`) = GPU-hours · price, with the GPU-hours the sentence states where it states
  them (each step as written), else computed.
"""

import re
from fractions import Fraction

from ffnverify.scan.binding import in_names, model, nominal, words_after, words_before
from ffnverify.scan.figure import Term, bound, call, compare, const, terms_of
from ffnverify.scan.memory import counts as param_counts
from ffnverify.scan.numbers import SCALE_WORDS, literal
from ffnverify.scan.parts import Part

RULE = re.compile(r"(?<![\w.])([246])\s*[·×*]?\s*(?:N|P)(?:\s*[·×*]?\s*(D))?(?![\w])|"
                  r"(?<![\w.])([246])\s*FLOPs?\s*(?:per|/)\s*(?:parameter|param)"
                  r"(?:\s*(?:per|/|and per)\s*(token|training token))?")
_PASSES = {2: "forward", 4: "backward", 6: "train"}
_TOKENS_SCALES = {"B", "T", "M", "billion", "trillion", "million", "bn"}
SECONDS = {"ms": Fraction(1, 1000), "milliseconds": Fraction(1, 1000),
           "millisecond": Fraction(1, 1000), "µs": Fraction(1, 10**6),
           "microseconds": Fraction(1, 10**6), "sec": 1, "secs": 1,
           "seconds": 1, "second": 1, "s": 1, "minutes": 60, "minute": 60, "hours": 3600,
           "hrs": 3600, "hr": 3600,
           "hour": 3600, "h": 3600, "days": 86400, "day": 86400, "weeks": 604800,
           "week": 604800, "months": 2592000, "month": 2592000, "years": 31536000,
           "year": 31536000}
# accelerators by name: NVIDIA's (A100, H800, B200, GB200, L40S, T4), AMD's (MI300X),
# Google's TPUs, Intel's Gaudi; one pattern for counts, GPU-hours and prices
_ACCEL = r"(?:[abhlv]\d{2,4}[a-z]?|gb\d{3}|[lt]4|mi\d{3}x?|tpu(?:\s?v\d\w*)?|gaudi\d?)"
_GPU_WORDS = re.compile(r"^(?:gpus?|" + _ACCEL + r"s?|tpuv\w*|chips?|accelerators?|devices?|"
                        r"cards?)$", re.I)
_GPU_HOURS = re.compile(r"\s*(?:" + _ACCEL + r"\s+)?(?:gpu|" + _ACCEL + r"|chip|accelerator|"
                        r"device)[- ]?(?:hours?|hrs?|h)\b", re.I)
_PRICE = re.compile(r"\s*(?:per|/|an?|each)\s*(?:" + _ACCEL + r"\s+)?(?:gpu|" + _ACCEL +
                    r"|chip|accelerator|device)?[- ]?(?:hour|hr|h)\b", re.I)
_UTIL = re.compile(r"\bmfu\b|\butili[sz]ation\b|\befficiency\b|\bof peak\b|\bhfu\b", re.I)


def _rate(toks, text, i) -> bool:
    t = toks[i]
    if t.scale != "flops":
        return False
    if t.text.endswith(("FLOPS", "/s", "flops/s")) and not t.text.endswith("FLOPs"):
        return True
    after = text[t.end:t.end + 20].lower()
    if re.match(r"\s*(?:per|/|a|each)\s*(?:parameter|param|token|weight)", after):
        return False  # "6 FLOPs per parameter": a count per unit, not a rate
    before = words_before(toks, i, 1)
    return bool(re.match(r"\s*(?:per second|/\s?s\b|/sec|peak|per gpu|each)", after)) or (
        before == ["at"])


def _flop_counts(toks, text):
    """FLOPs figures: `8.4e22 FLOPs`, and a scale word before the unit (`84 quintillion
    FLOPs`)."""
    return [i for i, t in enumerate(toks) if t.kind == "NUM" and not _rate(toks, text, i) and (
        t.scale == "flops" or (t.scale in SCALE_WORDS and i + 1 < len(toks)
                               and toks[i + 1].kind == "WORD"
                               and toks[i + 1].text.lower() in ("flops", "flop")))]


def _token_counts(toks, names):
    return [i for i, t in enumerate(toks) if t.kind == "NUM" and t.scale in _TOKENS_SCALES
            and not in_names(t, names) and words_after(toks, i, 1)[:1] == ["tokens"]]


def _rule_result(toks, text, m):
    """The figure a rule is equated to: the number after `=`/`≈` straight after it, else
    the FLOPs count nearest after it, else the nearest before."""
    for i, t in enumerate(toks):
        if t.start >= m.end():
            if t.kind == "OP" and t.text in ("=", "≈") and i + 1 < len(toks) and \
                    toks[i + 1].kind == "NUM" and toks[i + 1].scale in ("", "flops"):
                j = i + 1
                if j + 1 < len(toks) and toks[j + 1].kind == "OP" and toks[j + 1].text in "×+-/^":
                    return None  # the rule written out as arithmetic: read as arithmetic
                return j
            break
    counts = _flop_counts(toks, text)
    after = [i for i in counts if toks[i].start >= m.end()]
    before = [i for i in counts if toks[i].end <= m.start()]
    return after[0] if after else before[-1] if before else None


def rules(toks, text, names, about: str = "") -> list[Part]:
    """2N / 6N per token and 6ND training FLOPs, with their N, D and result."""
    parts = []
    for m in RULE.finditer(text):
        k = int(m.group(1) or m.group(3))
        per_data = bool(m.group(2))
        r = _rule_result(toks, text, m)
        if r is None:
            continue
        rule_figs = [i for i, t in enumerate(toks) if m.start() <= t.start < m.end()
                     and t.kind == "NUM"]
        figures = [r, *rule_figs]
        factors = [[const(Fraction(k))]]
        if per_data:
            data = _token_counts(toks, names)
            if len(data) != 1:
                continue
            factors.append(terms_of(toks[data[0]]))
            figures.append(data[0])
        counts = param_counts(toks, names)
        readings, name = [], None
        if len(counts) == 1:
            factors.append(terms_of(toks[counts[0]]))
            figures.append(counts[0])
            sure, what = True, f"N = {toks[counts[0]].text}"
        elif names:
            name, sure = model(names, m.start())
            choices = [call(f"params_total({name})")]
            size = nominal(toks, names, name)
            if size is not None:
                rough = terms_of(size)[0]
                choices.append(Term(rough.text, rough.lo, rough.hi))
            factors.append(choices)
            what = f"N = params_total({name})"
        else:
            continue
        strict, lenient = compare(factors, toks[r])
        rule = f"{k}N" + ("D" if per_data else "")
        readings.append(Part(strict, lenient, sure, tuple(sorted(set(figures))),
                             f"the {rule} rule, {what}"))
        if name and not per_data:
            exact = call(f"flops_token({name}, context=1, pass={_PASSES[k]})")
            strict, lenient = compare([[exact]], toks[r])
            readings.append(Part(strict, lenient, False, tuple(sorted(set(figures))),
                                 f"the exact count of {name} per token (context 1, "
                                 f"{_PASSES[k]}); the {rule} rule is a rule of thumb"))
        parts += readings
    if not parts:
        parts += _unstated_training_rule(toks, text, names)
    if not parts:
        parts += _unstated_token_rule(toks, text, names)
    return parts


_PER_TOKEN_AFTER = re.compile(r"\s*(?:flops?\s*)?(?:per|/|a|each|for each|for every)\s+"
                              r"(?:generated\s+|new\s+|output\s+)?token\b", re.I)
# FLOPs that depend on more than N: attention over a context, a batch, a sequence
_MORE_THAN_N = re.compile(r"\bcontext\b|\bsequence\b|\bbatch\b|\battention\b|\bkv\b|"
                          r"\btokens? of\b|\bprompt\b", re.I)


def _unstated_token_rule(toks, text, names) -> list[Part]:
    """"A 70B model: ~140 billion FLOPs per token", with no rule written: the usual 2N a
    token for a forward pass (6N when the sentence speaks of training), suggested, never
    checked (the author may count attention over a context too: a sentence that names a
    context, a batch or attention is not read)."""
    flops = [i for i in _flop_counts(toks, text) if _PER_TOKEN_AFTER.match(
        text, toks[i + 1].end if i + 1 < len(toks) and toks[i + 1].kind == "WORD"
        and toks[i + 1].lower in ("flops", "flop") else toks[i].end)]
    if len(flops) != 1 or _MORE_THAN_N.search(text) or len(_flop_counts(toks, text)) != 1:
        return []
    k = 6 if _TRAINING.search(text) or re.search(r"\bbackward\b", text, re.I) else 2
    counts = param_counts(toks, names)
    if len(counts) == 1:
        factors, figures = [[const(Fraction(k))], terms_of(toks[counts[0]])], [flops[0], counts[0]]
        what = f"N = {toks[counts[0]].text}"
    elif len(counts) == 0 and len({n for _, _, n in names}) == 1:
        name, _ = model(names, toks[flops[0]].start)
        choices = [call(f"params_total({name})")]
        size = nominal(toks, names, name)
        if size is not None:
            rough = terms_of(size)[0]
            choices.append(Term(rough.text, rough.lo, rough.hi))
        factors, figures = [[const(Fraction(k))], choices], [flops[0]]
        what = f"N = params_total({name})"
    else:
        return []
    strict, lenient = compare(factors, toks[flops[0]])
    reading = f"the {k}N rule a token (not stated: the usual one), {what}"
    if k == 2 and not _INFERENCE.search(text):  # no pass named: a training step's 6N a
        _, training = compare([[const(Fraction(6))], factors[1]], toks[flops[0]])  # token is
        lenient = f"({lenient} or {training})"  # as careful a reading ("400 GFLOPs per
        reading += "; leniently also 6N, a training step's"  # token" of a 70B model)
    return [Part(strict, lenient, False, tuple(sorted(figures)), reading)]


# what makes FLOPs a token a forward pass's: generating, inference, decoding, serving
_INFERENCE = re.compile(r"\b(?:generat\w*|inference|infer|forward|decod\w*|serv(?:e|es|ing)|"
                        r"output)\b", re.I)


_TRAINING = re.compile(r"\b(?:train(?:ed|ing|s)?|pre-?train(?:ed|ing)?)\b", re.I)


def _unstated_training_rule(toks, text, names) -> list[Part]:
    """"Training a 7B model on 2T tokens takes 8.4e22 FLOPs", with no rule written: the
    usual 6·N·D (Kaplan et al. 2020) is the reading a reader would check first, so it is
    suggested, never checked (the author may count attention or recomputation too)."""
    if not _TRAINING.search(text):
        return []
    flops, data, counts = _flop_counts(toks, text), _token_counts(toks, names), \
        param_counts(toks, names)
    if len(flops) != 1 or len(data) != 1 or len(counts) > 1:
        return []
    before = toks[flops[0] - 1] if flops[0] else None
    if before is not None and before.kind == "OP" and before.text in ("=", "≈"):
        return []  # "6 × 7B × 2T = 8.4e22 FLOPs": the arithmetic as written says it
    factors = [[const(Fraction(6))], terms_of(toks[data[0]])]
    figures = [flops[0], data[0]]
    if counts:
        factors.append(terms_of(toks[counts[0]]))
        figures.append(counts[0])
        what = f"N = {toks[counts[0]].text}"
    elif names:
        name, _ = model(names, toks[flops[0]].start)
        factors.append([call(f"params_total({name})")])
        what = f"N = params_total({name})"
    else:
        return []
    strict, lenient = compare(factors, toks[flops[0]])
    return [Part(strict, lenient, False, tuple(sorted(figures)),
                 f"the 6ND training rule (not stated: the usual one), {what}")]


def _utilisation(toks, text):
    for i, t in enumerate(toks):
        if t.kind == "NUM" and t.scale == "%":
            near = text[max(0, t.start - 30):t.end + 30]
            after = text[t.end:t.end + 30]
            before = text[max(0, t.start - 30):t.start]
            if _UTIL.match(after.strip()) or re.search(r"(?:mfu|utili[sz]ation|efficiency)"
                                                       r"(?: of| at| =)?\s*~?$", before, re.I):
                return i
            if _UTIL.search(near) and re.match(r"\s*(?:mfu|utili|efficiency|of peak)", after,
                                               re.I):
                return i
    return None


def _first(pred, toks):
    return next((i for i, t in enumerate(toks) if t.kind == "NUM" and pred(i, t)), None)


# devices beyond one, which a time said with no count of them may be divided among
_MANY_DEVICES = re.compile(r"\b(?:gpus|devices|nodes|cluster|accelerators|chips|cards|tpus|"
                           r"[abh]\d{2,3}s)\b|\bper (?:gpu|device)\b", re.I)


def _time_after(toks, after: int) -> int | None:
    """The first figure after token `after` followed by a unit of time ("47ms", "20
    seconds"), not a count of GPU-hours or money; None if there is none."""
    for i in range(after + 1, len(toks)):
        t = toks[i]
        unit = words_after(toks, i, 1)
        if t.kind == "NUM" and not t.money and not t.scale and unit and unit[0] in SECONDS \
                and not (i + 3 < len(toks) and toks[i + 2].text in ("/", "per")
                         and toks[i + 3].text.lower() in SECONDS):
            return i  # (not "86,400 s/day": a factor between units of time)
    return None


# an amount at a rate of the same unit: bytes at a bandwidth ("140 GB at 3 TB/s"), tokens
# at a speed ("1,000 tokens at 50 tokens per second")
_PER_SECOND = re.compile(r"\s*(?:/\s?s(?:ec)?\b|per second\b|a second\b)", re.I)
_TOKENS_PER_SECOND = re.compile(r"\s*(?:tokens?|tok)\s*(?:/\s?s(?:ec)?\b|per second\b|a second\b)",
                                re.I)
_TOKENS = re.compile(r"\s*tokens?\b(?!\s*(?:/|per second|a second))", re.I)
_SHARED = re.compile(r"\b(?:across|each|split|shard\w*|parallel|batch\w*|users?|requests?|"
                     r"concurrent\w*|streams?|sequences)\b", re.I)


def amount_at_rate(toks, text, names, about: str = "") -> list[Part]:
    """Bytes moved at a bandwidth, or tokens made at a speed, and the time that takes, each
    figure as written: `140 GB / 3 TB/s = 47 ms`. The amount and the rate in one unit (a
    byte figure and a byte figure per second; a token count and tokens per second), the
    time a figure with a unit of time after both; sure only when the sentence has one of
    each and says "takes", "=" or "in" before the time."""
    if about or _MANY_DEVICES.search(text) or _SHARED.search(text):
        return []  # the amount may be divided among devices, users or a batch
    rates, amounts = [], []
    for i, t in enumerate(toks):
        if t.kind != "NUM" or t.money or t.ratio:
            continue
        if t.scale == "bytes":
            (rates if _PER_SECOND.match(text, t.end) else amounts).append((i, "bytes"))
        elif not t.scale or t.scale in SCALE_WORDS or t.scale in ("K", "M", "B"):
            if _TOKENS_PER_SECOND.match(text, t.end):
                rates.append((i, "tokens"))
            elif _TOKENS.match(text, t.end):
                amounts.append((i, "tokens"))
    parts = []
    for unit in ("bytes", "tokens"):
        rate = [i for i, u in rates if u == unit]
        amount = [i for i, u in amounts if u == unit]
        if len(rate) != 1 or len(amount) != 1:
            continue
        time = _time_after(toks, max(rate[0], amount[0]))
        if time is None:
            continue
        word = words_after(toks, time, 1)[0]
        between = text[toks[max(rate[0], amount[0])].end:toks[time].start]
        sure = bool(re.search(r"\btakes?\b|=|\bin\b|\btaking\b", between, re.I))
        strict, lenient = compare([terms_of(toks[amount[0]]), terms_of(toks[rate[0]], divide=True),
                                   [const(Fraction(SECONDS[word]), True)]], toks[time],
                                  bound(text, toks[time]))  # "takes at least 70 ms"
        parts.append(Part(strict, lenient, sure, tuple(sorted((amount[0], rate[0], time))),
                          f"{word} = {unit} / {unit} per second"
                          + ("" if SECONDS[word] == 1 else
                             f" / {literal(Fraction(SECONDS[word]))}")))
    return parts


def _joined(toks, i, ops="×*/") -> list[int]:
    """The figures written right beside token i with one of `ops` between (`a × b`, `b /
    a`), looking through one parenthesis: `(312e12 × 0.5)`."""
    out = []
    for step in (-1, 1):
        j = i + step
        if step == 1 and j + 1 < len(toks) and toks[j].text == "/" and toks[j + 1].kind == "WORD":
            j += 2  # past its unit's denominator: "312e12 FLOPs/s × 0.5"
        if 0 <= j < len(toks) and toks[j].kind == "OP" and toks[j].text in ops:
            k = j + step
            if 0 <= k < len(toks) and toks[k].kind == "OP" and toks[k].text in "()":
                k += step
            if 0 <= k < len(toks) and toks[k].kind == "NUM":
                out.append(k)
    return out


def _factors_beside(toks, ends, util) -> list[int]:
    """The figures that multiply or divide the FLOPs count or the rate as written, other
    than those two and the utilisation."""
    return sorted({k for i in ends for k in _joined(toks, i)} - set(ends) - {util})


def throughput(toks, text, names, about: str = "") -> list[Part]:
    """FLOPs → GPU-hours, wall time and cost at a stated rate, utilisation and price."""
    rate = _first(lambda i, t: _rate(toks, text, i), toks)
    price = _first(lambda i, t: t.money and _PRICE.match(text[t.end:t.end + 24]), toks)
    gpu_hours = _first(lambda i, t: not t.money and _GPU_HOURS.match(text[t.end:t.end + 24]),
                       toks)
    if rate is None and price is None:
        return []
    counts = _flop_counts(toks, text)
    flops = max(counts, key=lambda i: toks[i].value) if counts else None
    util = _utilisation(toks, text)
    sure = True
    beside = _factors_beside(toks, [i for i in (flops, rate) if i is not None], util)
    if rate is not None and util is None and len(beside) == 1 \
            and 0 < toks[beside[0]].value < 1 and beside[0] in _joined(toks, rate, "×*"):
        util, sure = beside[0], False  # "312e12 FLOP/s × 0.5": a bare fraction of the rate,
        # read as its utilisation (to confirm: the text does not say so)
    elif beside:
        return []  # another figure multiplies or divides the FLOPs or the rate as written:
        # the time is the written arithmetic's, which this reader would leave out
    gpus = _first(lambda i, t: t.value.denominator == 1 and not t.scale and
                  bool(words_after(toks, i, 1)) and bool(_GPU_WORDS.match(words_after(toks, i, 1)[0]))
                  and not _GPU_HOURS.match(text[t.end:t.end + 24]), toks)
    parts = []
    base = []
    figures = []
    if flops is not None and rate is not None:
        base = [terms_of(toks[flops]), terms_of(toks[rate], divide=True)]
        figures = [flops, rate]
        if util is not None:
            base.append(terms_of(toks[util], divide=True))
            figures.append(util)
    if base and gpu_hours is not None:
        strict, lenient = compare(base + [[const(Fraction(3600), True)]], toks[gpu_hours])
        parts.append(Part(strict, lenient, sure, tuple(sorted(figures + [gpu_hours])),
                          "GPU-hours = FLOPs / (rate × utilisation) / 3600"))
    if base and gpus is not None:
        for i, t in enumerate(toks):
            after = words_after(toks, i, 1)
            if t.kind != "NUM" or i in (gpus, gpu_hours) or not after or after[0] not in SECONDS \
                    or _GPU_HOURS.match(text[t.end:t.end + 24]) or t.money:
                continue
            steps = base + [terms_of(toks[gpus], divide=True),
                            [const(Fraction(SECONDS[after[0]]), True)]]
            strict, lenient = compare(steps, t)
            parts.append(Part(strict, lenient, sure, tuple(sorted(figures + [gpus, i])),
                              f"{after[0]} = FLOPs / (rate × utilisation × GPUs) / "
                              f"{SECONDS[after[0]]}"))
            break
    if base and gpus is None and gpu_hours is None and not _MANY_DEVICES.search(text):
        # one device ("At 1000 TFLOP/s, 140 GFLOPs is 0.14 ms"): FLOPs / rate, a time
        # after both; to confirm (no GPU count is stated, so one is assumed)
        time = _time_after(toks, max(figures))
        if time is not None:
            unit = words_after(toks, time, 1)[0]
            strict, lenient = compare(base + [[const(Fraction(SECONDS[unit]), True)]],
                                      toks[time])
            parts.append(Part(strict, lenient, False, tuple(sorted(figures + [time])),
                              f"{unit} = FLOPs / (rate × utilisation) / "
                              f"{literal(Fraction(SECONDS[unit]))}, on one device (no count "
                              "of devices is stated)"))
    if price is not None:
        cost = next((i for i, t in enumerate(toks) if t.kind == "NUM" and t.money
                     and i != price and t.start > toks[price].start), None)
        if cost is None:
            return parts
        if gpu_hours is not None:
            steps, figs = [terms_of(toks[gpu_hours])], [gpu_hours]
        elif base:
            steps, figs = base + [[const(Fraction(3600), True)]], list(figures)
        else:
            return parts
        strict, lenient = compare(steps + [terms_of(toks[price])], toks[cost])
        parts.append(Part(strict, lenient, True, tuple(sorted(figs + [price, cost])),
                          "cost = GPU-hours × price per GPU-hour"))
    return parts
