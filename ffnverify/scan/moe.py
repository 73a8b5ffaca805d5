"""Mixture-of-experts statements read as claims: total and active parameters of a named
model ("Mixtral 8x7B has 46.7B parameters of which 12.9B are active": `params_total(m)`,
`params_active(m)`), and the routing ("each token goes to 2 of its 8 experts", "top-2
routing": `active_experts(m)`, `experts(m)`).

Binding: a parameter count (a figure with a scale, `46.7B`, `12.9 billion`) is *active*
when "active", "activated" or "used per token" follows it in its clause ("12.9B active
parameters", "12.9B are active") or straight precedes it ("activates 12.9B", "active
parameters of 12.9B"); it is the *total* when "total", "parameters", "params" or "weights"
follows it, or "total of" / "out of" / "of its" precedes it. A figure bound to neither is
left unread. Sure only when the sentence names one model.
"""

import re

from ffnverify.scan.binding import in_names, model, words_after, words_before
from ffnverify.scan.figure import call, compare
from ffnverify.scan.numbers import literal
from ffnverify.scan.parts import Part

MOE = re.compile(r"\bactive\b|\bactivated?\b|\bactivates\b|\bexperts?\b|\bmoe\b|"
                 r"mixture[- ]of[- ]experts|\bsparse\b|\brout(?:e|es|ed|ing)\b", re.I)
_ACTIVE = {"active", "activated", "activate", "activates", "used", "activating"}
_TOTAL_AFTER = {"total", "parameters", "params", "weights", "parameter"}
_TOTAL_BEFORE = {"total", "of", "all", "has", "with", "contains"}
_COUNT_SCALES = {"B", "M", "T", "billion", "million", "trillion", "bn"}


_HEDGES = {"about", "roughly", "around", "approximately", "nearly", "almost", "only", "just",
           "some", "over", "under", "approx", "circa"}


def _next_count(toks, i):
    for t in toks[i + 1:i + 5]:
        if t.kind == "NUM":
            return t if t.scale in _COUNT_SCALES else None
    return None


def _role(toks, i) -> str:
    if i >= 2 and toks[i - 1].kind == "OP" and toks[i - 1].text == ":":  # "Active params: 12.9B"
        label = words_before(toks, i - 1, 6)
        if any(w in _ACTIVE for w in label):
            return "active"
        if any(w in _TOTAL_AFTER for w in label):
            return "total"
    after = words_after(toks, i, 4)
    before = [w for w in words_before(toks, i, 4) if w not in _HEDGES][-2:]
    if after[:1] == ["of"] and _next_count(toks, i) is not None:
        return "active"  # "13B of its 47B parameters": the part, in a sentence on activity
    if any(w in _ACTIVE for w in after[:3]) or (after[:2] == ["per", "token"]):
        return "active"
    if before and before[-1] in _ACTIVE:
        return "active"
    if len(before) == 2 and before[0] in _ACTIVE and before[1] in ("parameters", "of"):
        return "active"
    if after and after[0] in _TOTAL_AFTER:
        return "total"
    if before and before[-1] in _TOTAL_BEFORE:
        return "total"
    return ""


def parameters(toks, text, names, about: str = "") -> list[Part]:
    """Total and active parameter counts of a named model, in a sentence about experts or
    active parameters."""
    words = text + "\n" + about
    if not names or not MOE.search(words) or not re.search(r"\bactiv", words, re.I):
        return []
    parts = []
    for i, t in enumerate(toks):
        if t.kind != "NUM" or t.scale not in _COUNT_SCALES or in_names(t, names) or t.ratio:
            continue
        role = _role(toks, i)
        if not role:
            continue
        name, sure = model(names, t.start)
        func = "params_active" if role == "active" else "params_total"
        strict, lenient = compare([[call(f"{func}({name})")]], t)
        parts.append(Part(strict, lenient, sure, (i,), f"{role} parameters of {name}"))
    return parts


_OF_EXPERTS = re.compile(r"\bexperts?\b", re.I)
_TOP_K = re.compile(r"\btop[- ]?(\d{1,2})[- ](?:routing|gating|experts?|expert routing)\b", re.I)


def routing(toks, text, names, about: str = "") -> list[Part]:
    """"2 of its 8 experts", "2 of 8 experts", "top-2 routing" said of a named model."""
    if not names or not _OF_EXPERTS.search(text) and not _TOP_K.search(text):
        return []
    parts = []
    n = len(toks)
    for i, t in enumerate(toks):
        if t.kind != "NUM" or t.scale or t.value.denominator != 1 or in_names(t, names):
            continue
        j = i + 1
        if j + 1 < n and toks[j].kind == "WORD" and toks[j].lower == "out" and \
                toks[j + 1].kind == "WORD" and toks[j + 1].lower == "of":
            j += 1  # "2 out of 8 experts"
        if j < n and toks[j].kind == "WORD" and toks[j].lower == "of":
            j += 1
            if j < n and toks[j].kind == "WORD" and toks[j].lower in ("its", "the", "their"):
                j += 1
            if (j + 1 < n and toks[j].kind == "NUM" and not toks[j].scale
                    and toks[j + 1].kind == "WORD" and toks[j + 1].lower in ("experts", "expert")
                    and not in_names(toks[j], names)):
                name, sure = model(names, t.start)
                parts.append(Part(f"active_experts({name}) == {literal(t.value)}", sure=sure,
                                  figures=(i,), reading=f"experts per token of {name}"))
                parts.append(Part(f"experts({name}) == {literal(toks[j].value)}", sure=sure,
                                  figures=(j,), reading=f"experts of {name}"))
    for m in _TOP_K.finditer(text):
        name, sure = model(names, m.start())
        parts.append(Part(f"active_experts({name}) == {m.group(1)}", sure=sure,
                          reading=f"top-{m.group(1)} routing of {name}"))
    return parts
