"""An optimizer's state read as memory: "the optimizer state alone consumes 840 GB" of a
70B model, "a 13b model will need about 156GB solely for optimizer states"; and the whole
of full fine-tuning with Adam (`training_totals`): "Full fine-tuning an 8B model with Adam
occupies roughly 56 GB: weights, gradients and both optimizer moments" (12, 16, 18 or 20
bytes a parameter: bf16 weights and gradients with fp32 moments; with an fp32 master copy,
or all in fp32; with the buffers some frameworks keep); and a figure said to hold the
weights and their gradients (`weights_and_gradients`: "~28 GB (fp16 weights +
gradients)", twice the format's bytes a parameter).

How many bytes a parameter's optimizer state takes is a convention the text seldom
states: Adam keeps two moments (8 bytes in fp32, 4 in bf16, 2 in 8-bit) and, in mixed
precision, often an fp32 master copy of the weights too (12 bytes). The figure is read at
each of these conventions, charitably: it holds when one of them gives it, and it is
false only when none does. Always a reading to confirm (which convention the author
counts is theirs), never `checked`.

Read only when the figure is said of the optimizer's state alone: the state named within a
few words of one byte figure, the unit's only one, and no weights, gradients or
activations said beside it unless the text says "alone", "solely" or "only".
"""

import re

from derivations.model_costs import DTYPE_BYTES
from ffnverify.scan import memory, words
from ffnverify.scan.binding import dtypes
from ffnverify.scan.figure import call, compare, const, terms_of
from ffnverify.scan.parts import Part

# bytes a parameter for an optimizer's state: 8-bit moments, bf16 moments, fp32 moments,
# fp32 moments with an fp32 master copy of the weights
CONVENTIONS = (2, 4, 8, 12)

_STATE = re.compile(r"\boptimi[sz]er(?:'s)?\s+(?:states?|memory)\b|\badamw?(?:'s)?\s+"
                    r"(?:optimi[sz]er\s+)?states?\b", re.I)
_OTHERS = re.compile(r"\bweights?\b|\bgradients?\b|\bactivations?\b|\bkv\b|\btotal\b|"
                     r"\boverhead\b", re.I)
_ALONE = re.compile(r"\balone\b|\bsolely\b|\bonly\b|\bjust\b", re.I)


def _at_conventions(toks, names, r: int, conventions):
    """((strict, lenient) of byte figure r at each convention, the lenient side of them
    all, the figures read), for the one model the unit names or the one count it states;
    None when there is not exactly one."""
    rows = {n for _, _, n in names}
    counts = memory.counts(toks, names)
    if len(rows) == 1 and not counts:
        count, figures = [call(f"params_total({rows.pop()})")], (r,)
    elif not rows and len(counts) == 1:
        count, figures = terms_of(toks[counts[0]]), (counts[0], r)
    else:
        return None
    readings = [compare([count, [const(k)]], toks[r]) for k in conventions]
    return readings, "(" + " or ".join(le for _, le in readings) + ")", tuple(sorted(figures))


def _part(toks, names, r, conventions, usual, reading) -> list[Part]:
    """The reading of byte figure r at every convention (`_at_conventions`): strictly the
    usual one, leniently any; a reading to confirm. [] without one model or count."""
    got = _at_conventions(toks, names, r, conventions)
    if got is None:
        return []
    readings, lenient, figures = got
    return [Part(readings[conventions.index(usual)][0], lenient, False, figures, reading)]


def optimizer_states(toks, text, names, about: str = "") -> list[Part]:
    """The byte figure said of the optimizer's state, at each convention of `CONVENTIONS`,
    for the one model the unit names or the one count it states ("a 70B parameter
    model")."""
    state = _STATE.search(text)
    if state is None or about or words.NEGATION.search(text):
        return []  # (a negation of "one of the conventions gives it" is no charitable one)
    if _OTHERS.search(text) and not _ALONE.search(
            text, max(0, state.start() - 24), state.end() + 12):
        return []  # "weights, gradients and optimizer states take 112 GB": more than it
        # ("the optimizer state alone", "solely for optimizer states": it alone)
    results = memory.result_figures(toks, text)
    if len(results) != 1:
        return []
    res = toks[results[0]]
    if min(abs(res.start - state.end()), abs(state.start() - res.end)) > 60:
        return []
    return _part(toks, names, results[0], CONVENTIONS, 8,
                 "the optimizer's state at 2, 4, 8 or 12 bytes a parameter (8-bit, bf16 or "
                 "fp32 moments, or fp32 moments and a master copy: the convention is the "
                 "author's)")


TRAINING_CONVENTIONS = (12, 16, 18, 20)

_FULL = re.compile(r"\bfull(?:[- ]parameter)?\s+fine-?tun\w*|\bgradients?\b", re.I)
_ADAM = re.compile(r"\badamw?\b", re.I)
# what a figure of a run may hold besides weights, gradients and the optimizer's state, or
# what makes the run another (adapters, quantized or sharded training)
_NOT_PLAIN = re.compile(r"\blora\b|\bqlora\b|\badapters?\b|\bpeft\b|\b(?:8|4)-?bit\b|\bint[48]\b|"
                        r"quantiz\w*|offload\w*|\bzero\b|deepspeed|\bfsdp\b|shard\w*|"
                        r"\bper (?:gpu|device)\b|\bacross\b|\bkv\b|\boverhead\b", re.I)
_ACTIVATIONS = re.compile(r"\bactivations?\b", re.I)
_WITHOUT_ACTIVATIONS = re.compile(r"\b(?:before|excluding|without|not counting|plus)\b[^.;]{0,30}"
                                  r"\bactivations?\b", re.I)


# the parts a figure says it holds, listed: "(fp16 weights + gradients)", "weights and
# gradients in bf16"
_WEIGHTS_AND_GRADIENTS = re.compile(
    r"(?:\(|:|\bfor\b|\bholds?\b|\bstores?\b)\s*(?P<fmt>[\w-]+\s+)?(?:weights|parameters|params)"
    r"\s*(?:\+|and|&)\s*(?:their\s+)?grad(?:ient)?s\b(?:\s+(?:in|at)\s+(?P<fmt2>[\w-]+))?"
    r"(?P<more>\s*(?:\+|and|,)\s*\w+)?", re.I)


def weights_and_gradients(toks, text, names, about: str = "") -> list[Part]:
    """"A 7B model needs ~28 GB (fp16 weights + gradients)": a figure said to hold the
    weights and their gradients, and nothing more, at the format named with them: twice
    the bytes of that format a parameter (at 16 or 32 bits where none is named), for the
    one model or count the unit names; a reading to confirm (which copies the author
    counts is theirs)."""
    m = _WEIGHTS_AND_GRADIENTS.search(text)
    if about or not m or m.group("more") or _ADAM.search(text) or _STATE.search(text) or \
            _NOT_PLAIN.search(text) or _ACTIVATIONS.search(text) or words.NEGATION.search(text):
        return []
    named = {d for _, _, d in dtypes(" ".join(filter(None, (m.group("fmt"), m.group("fmt2")))))}
    if len(named) > 1:
        return []
    results = memory.result_figures(toks, text)
    if len(results) != 1:
        return []
    if named:
        fmt = named.pop()
        return _part(toks, names, results[0], (2 * DTYPE_BYTES[fmt],), 2 * DTYPE_BYTES[fmt],
                     f"weights and gradients, each in {fmt} (the figure says it holds them)")
    return _part(toks, names, results[0], (4, 8), 4, "weights and gradients at 16 or 32 bits "
                 "each (the figure says it holds them; no format named)")


def training_totals(toks, text, names, about: str = "") -> list[Part]:
    """The memory of full fine-tuning with Adam (weights, gradients, optimizer state), at
    each convention of `TRAINING_CONVENTIONS`, for the one model or count the unit names;
    a reading to confirm, false only when no convention gives it."""
    alone = bool(_STATE.search(text) and _ALONE.search(text))  # `optimizer_states` reads it
    if about or alone or not _ADAM.search(text) or not _FULL.search(text) or \
            _NOT_PLAIN.search(text) or words.NEGATION.search(text):
        return []
    if _ACTIVATIONS.search(text) and not _WITHOUT_ACTIVATIONS.search(text):
        return []  # a figure that may hold the activations too
    results = memory.result_figures(toks, text)
    if len(results) != 1:
        return []
    return _part(toks, names, results[0], TRAINING_CONVENTIONS, 16,
                 "full fine-tuning with Adam at 12, 16, 18 or 20 bytes a parameter (weights, "
                 "gradients and the optimizer's state: the convention is the author's)")
