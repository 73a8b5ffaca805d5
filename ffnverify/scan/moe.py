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

from ffnverify import catalogue
from ffnverify.scan.binding import in_names, model, words_after, words_before
from ffnverify.scan.figure import call, compare
from ffnverify.scan.numbers import literal
from ffnverify.scan.parts import Part
from ffnverify.scan.words import EACH

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


def _whole_of(toks, i) -> bool:
    """Whether count i is the M of "N of (its|the|all) M": the whole a part is taken from."""
    j = i - 1
    if j >= 0 and toks[j].kind == "OP" and toks[j].text == "~":
        j -= 1
    while j >= 0 and toks[j].kind == "WORD" and toks[j].lower in ("its", "the", "their", "all",
                                                                 "about", "roughly", "some"):
        j -= 1
    return j >= 1 and toks[j].kind == "WORD" and toks[j].lower == "of" and \
        toks[j - 1].kind == "NUM" and toks[j - 1].scale in _COUNT_SCALES


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
    if _whole_of(toks, i):
        return "total"  # "... of its 47B parameters are active": the whole
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


# "the activated parameters of M are 2.7B", "the total parameter count of M is 14.3B": the
# count said of the sentence's subject, whose noun names the role
_SUBJECT_ROLE = re.compile(r"\b(?P<role>activ(?:e|ated|ation)|total)\s+param(?:eter)?s?"
                           r"(?:\s+count)?\s+(?:of|in|for)\s+(?:[^,;.!?]|\.(?=\S)){1,48}?\s+"
                           r"(?:is|are|was|were|comes? to|stands? at)\s+(?:only\s+|just\s+|about\s+|"
                           r"roughly\s+|around\s+|approximately\s+)?~?\s*$", re.I)


def _subject_role(text: str, t) -> str:
    """The role a count takes from its sentence's subject ("The activated parameters of M
    are 2.7B"), or ""."""
    m = _SUBJECT_ROLE.search(text[max(0, t.start - 120):t.start])
    return "" if m is None else "total" if m.group("role").lower() == "total" else "active"


def _is_moe(name: str) -> bool:
    try:
        return (catalogue.get(name).experts or 1) > 1
    except (KeyError, ValueError, AttributeError):
        return False


def _total_said(toks, i) -> bool:
    """"Total Parameters: 45 billion", "45B total parameters", "a total of 45B": the word
    "total" is bound to figure i."""
    params = ("parameters", "params", "parameter", "weights")
    if i >= 1 and toks[i - 1].kind == "OP" and toks[i - 1].text == ":":
        label = words_before(toks, i - 1, 6)
        return "total" in label and any(w in params for w in label) and (
            not words_after(toks, i, 1) or words_after(toks, i, 1)[0] in params)
    after = words_after(toks, i, 2)
    return (after[:2] in (["total", p] for p in params)) or (
        "total" in words_before(toks, i, 3) and after[:1] and after[0] in params)


_PER_TOKEN = re.compile(r"^(?:(?:parameters|params|are|is|get|gets|only|used|active)\s+)*"
                        r"per (?:token|forward)\b")


def parameters(toks, text, names, about: str = "") -> list[Part]:
    """Total and active parameter counts of a named model, in a sentence about experts or
    active parameters."""
    words = text + "\n" + about
    if not names:
        return []
    # a sentence on activity reads both roles; of a model the catalogue knows as a mixture
    # of experts, "total parameters" is its total even where activity is not mentioned
    about_activity = bool(MOE.search(words) and re.search(r"\bactiv", words, re.I))
    said = re.search(r"\btotal\b|\bper (?:token|forward pass)\b", words, re.I)
    by_subject = all(_is_moe(n) for _, _, n in names) and any(
        t.kind == "NUM" and _subject_role(text, t) for t in toks)
    if not about_activity and not by_subject and not (
            said and all(_is_moe(n) for _, _, n in names)):
        return []
    parts = []
    for i, t in enumerate(toks):
        if t.kind != "NUM" or t.scale not in _COUNT_SCALES or in_names(t, names) or t.ratio:
            continue
        role = _role(toks, i) or (_subject_role(text, t) if by_subject or about_activity
                                  else "")
        if role and role == _subject_role(text, t):
            pass  # bound by its subject's noun
        elif not role or (not about_activity and not (
                (role == "total" and _total_said(toks, i)) or (role == "active"
                and _PER_TOKEN.search(" ".join(words_after(toks, i, 4)))))):
            continue  # without activity words: only "total parameters", "12.9B per token",
            # "12.9B are used per token"
        noun = i + 1 if i + 1 < len(toks) else i
        if EACH.match(text, toks[noun].end):
            continue  # "experts of 7B parameters each": one expert's size, not the model's
        name, sure = model(names, t.start)
        func = "params_active" if role == "active" else "params_total"
        strict, lenient = compare([[call(f"{func}({name})")]], t)
        parts.append(Part(strict, lenient, sure, (i,), f"{role} parameters of {name}"))
    return parts


_USED = {"used", "active", "activated", "selected", "routed", "chosen", "engaged", "firing",
         "consulted", "invoked", "applied"}
_ONLY = {"only", "just", "with", "and", "but", "of", "which", "them", "are", "is", "at", "a",
         "time", "once", "per", "token"}


def _of_them(toks, names) -> list[Part]:
    """"8 experts (only 2 used at a time)", "8 experts, only 2 of them active per token",
    "8 experts with 2 active": the experts and the experts per token, each bound by its
    noun or its participle."""
    parts = []
    n = len(toks)
    for i, t in enumerate(toks):
        if t.kind != "NUM" or t.scale or t.value.denominator != 1 or in_names(t, names):
            continue
        if not (i + 1 < n and toks[i + 1].kind == "WORD" and toks[i + 1].lower == "experts"):
            continue
        j = i + 2
        while j < n and ((toks[j].kind == "OP" and toks[j].text in "(,—–-") or
                         (toks[j].kind == "WORD" and toks[j].lower in _ONLY)) and j < i + 6:
            j += 1
        if not (j + 1 < n and toks[j].kind == "NUM" and not toks[j].scale
                and toks[j].value.denominator == 1 and toks[j].value < t.value):
            continue
        after = words_after(toks, j, 4)
        after = [w for w in after if w not in ("of", "them", "are", "is", "at", "a", "any")]
        if not after or after[0] not in _USED:
            continue
        name, sure = model(names, t.start)
        if name is None:
            continue
        # one part: a negation ("does not have 8 experts with 4 active") denies the pair
        parts.append(Part(f"experts({name}) == {literal(t.value)} and "
                          f"active_experts({name}) == {literal(toks[j].value)}", sure=sure,
                          figures=(i, j), reading=f"experts and experts per token of {name}"))
    return parts


def _total_active(toks, text, names) -> list[Part]:
    """"Experts | 8 total · 2 active", "experts: 8 total, 2 active": in a unit that opens
    with (or labels by) "experts", a figure before "total" and one before "active" (or
    "used", "per token") are the experts and the experts per token."""
    if not re.match(r"\W*(?:number of |routed |num )?experts?\b", text, re.I) and \
            not re.search(r"\bexperts?\s*(?::|\||are|is)\s*\d", text, re.I):
        return []
    total = [i for i, t in enumerate(toks) if t.kind == "NUM" and not t.scale
             and t.value.denominator == 1 and words_after(toks, i, 1) == ["total"]
             and not in_names(t, names)]
    active = [i for i, t in enumerate(toks) if t.kind == "NUM" and not t.scale
              and t.value.denominator == 1 and words_after(toks, i, 1)[:1]
              and words_after(toks, i, 1)[0] in _USED and not in_names(t, names)]
    if len(total) != 1 or len(active) != 1 or toks[active[0]].value >= toks[total[0]].value:
        return []
    name, sure = model(names, toks[total[0]].start)
    if name is None:
        return []
    n, k = toks[total[0]].value, toks[active[0]].value
    return [Part(f"experts({name}) == {literal(n)} and active_experts({name}) == {literal(k)}",
                 sure=sure, figures=(total[0], active[0]),
                 reading=f"experts and experts per token of {name}")]


_PICKS = {"activates", "activating", "activate", "selects", "selecting", "picks", "picking",
          "chooses", "choosing", "routes", "routing", "sends", "dispatches"}


def _per_token(toks, text, names) -> list[Part]:
    """"a router that activates two per token", "routes each token to 2 experts": the
    experts per token, in a sentence that names a router or experts."""
    if not re.search(r"\brout(?:er|es|ing|ed)\b|\bexperts?\b|\bgat(?:e|ing)\b", text, re.I):
        return []
    parts = []
    for i, t in enumerate(toks):
        if t.kind != "NUM" or t.scale or t.value.denominator != 1 or in_names(t, names):
            continue
        before = words_before(toks, i, 4)
        after = words_after(toks, i, 3)
        if not before or not any(w in _PICKS for w in before[-4:]):
            continue
        if after[:1] in (["experts"], ["expert"]):
            after = after[1:]
        if after[:2] not in (["per", "token"], ["for", "each"], ["for", "every"]) and not (
                before[-3:] in (["each", "token", "to"], ["every", "token", "to"])
                and (after[:1] in ([], ["experts"]) or after[:2] == ["out", "of"])):
            continue
        name, sure = model(names, t.start)
        if name is None:
            continue
        parts.append(Part(f"active_experts({name}) == {literal(t.value)}", sure=sure,
                          figures=(i,), reading=f"experts per token of {name}"))
    return parts


_OF_EXPERTS = re.compile(r"\bexperts?\b", re.I)
_TOP_K = re.compile(r"\btop[- ]?(\d{1,2})[- ](?:routing|gating|experts?|expert routing)\b", re.I)


def routing(toks, text, names, about: str = "") -> list[Part]:
    """"2 of its 8 experts", "2 of 8 experts", "top-2 routing" said of a named model."""
    if not names:
        return []
    parts = _per_token(toks, text, names)
    if not _OF_EXPERTS.search(text) and not _TOP_K.search(text):
        return parts
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
    parts += _of_them(toks, names) + _total_active(toks, text, names)
    for m in _TOP_K.finditer(text):
        name, sure = model(names, m.start())
        parts.append(Part(f"active_experts({name}) == {m.group(1)}", sure=sure,
                          reading=f"top-{m.group(1)} routing of {name}"))
    return parts
