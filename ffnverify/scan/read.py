"""Reading a statement as claims of the claim language (docs/architecture.md §5.2).

`reading(text, context, header, cells, subject)` returns a `Reading` — the `parts.Part`
records the unit states (each with a strict and a lenient reading, whether its binding is
sure, and the figures it reads), the claim-making figures no part reads (`unread`), and
notes — or None when it reads nothing. Every claim is a string for the claims engine,
built from tokens (numbers written back as exact literals); nothing from the document is
evaluated here. The readings a figure gets (precision, hedges, K/M/G, GB/GiB, bounds,
ranges) are `precision`'s; the words that change them are `words`'.

Parts that may be `checked` (sure):
- arithmetic as written, `3×32 = 96`, `8/3·4096 = 10922` (strict: `=` is `==`; lenient:
  the result at its stated precision), including arithmetic in inline code;
- an expansion stated with a factor, `4096 → 16384` with `4×`;
- a catalogue model with a field, bound through the figure's noun ("126 layers", "8 KV
  heads", "hidden size of 8192") or its table column's header, the model being the one
  its clause names; a parameter figure is compared with the quantity its scope names
  (per layer, FFN, attention, embedding, non-embedding, active); a size that repeats
  the model's name is a name;
- `N matrix multiplications` of a named variant; `X is E rounded up to a multiple of M`;
- a share of two figures, "38M, which is 58% of 65M" (`shares`); `≠` as the negation of
  `=` under every reading (`arithmetic.unequal`).

Parts to confirm (`suggested` at most): a figure paired with a field by nearness only, a
model the grammar does not give (two names as one subject, a model named in the sentence
before or in the section's heading), negated and refuted statements (read as the negation),
conditionals (a premise is not read; a counterfactual reads nothing of the real model),
comparisons of variants in percent or as a ratio (the widths come from the unit, else
from the document), "two thirds of the parameters", the 2N/6N FLOPs rules, and arithmetic
that leans on the text around the unit (`carry`: the units before it, its table's rows):
a table's share column (`shares`), a cell derived in its row (`derived`), a total with
its parts (`totals`), a step, factor or formula applied to a figure before it
(`anaphora`). A question
is read as nothing. The quantity readers (`quantities`) add their own parts.

The readers live in their own modules: `arithmetic` (arithmetic as written), `variants`
(phrases about FFN variants, and the document's `Context`), `fields` (a model's field in
prose), `rows` (table rows); the vocabulary is `words`'. This module joins them into a
`Reading`, applies the statement's polarity and lists the figures no part reads.
"""

import re
from dataclasses import dataclass, field, replace

from ffnverify.catalogue.families import members as family_members
from ffnverify.scan import (
    anaphora,
    carried,
    carried_compute,
    derived,
    device_totals,
    european,
    format_ratios,
    formula_rows,
    memory_words,
    quantities,
    respectively,
    restated,
    said_of,
    shares,
    structure,
    symbolic,
    tildes,
    totals,
    words,
)
from ffnverify.scan.arithmetic import (
    arithmetic,
    conversions,
    expansions,
    fractions_of,
    is_op,
    rounding,
    worded_results,
    worded_sources,
)
from ffnverify.scan.detect import (
    consistent,
    elided_names,
    meaningful_numbers,
    models,
    near_misses,
    other_names,
)
from ffnverify.scan.fields import field_by_heading, model_claims
from ffnverify.scan.numbers import CJK, normalise, tokens
from ffnverify.scan.parts import Part
from ffnverify.scan.rows import row_claims, shape_counts
from ffnverify.scan.variants import (
    Context,
    comparisons,
    count_formulas,
    equalities,
    flops_rules,
    learn,
    llama_width,
    matmul_counts,
    thirds,
)

__all__ = ["Context", "Reading", "arithmetic", "learn", "reading", "rounding", "why_unread"]


@dataclass
class Reading:
    """What the scan read in one statement: its parts (`parts.Part`), the claim-making
    figures no part reads (`unread`, as written), and notes for the report."""

    parts: list  # Part records; the statement holds when all hold
    notes: list = field(default_factory=list)
    other: list = field(default_factory=list)  # other readings, decided and reported only
    unread: list = field(default_factory=list)
    polarity: str = ""
    glossary: bool = False  # read through `cjk` or `european`: never FALSE (`scan.settle`)
    guessed: str = ""  # the document's only model, which the statement does not name:
    # a reading of it is never FALSE (`scan.settle`)

    @property
    def sure(self) -> bool:
        return all(p.sure for p in self.parts) and not self.unread


_GIVEN = re.compile(r"^[A-Za-z][\w]{0,12}$")


def _givens(toks) -> set:
    """Figures that state a premise, not a claim: `d = 4096`, `h: 11008`, `n=8` (a symbol
    set to a number, with nothing computed)."""
    out = set()
    for i in range(2, len(toks)):
        t, op, name = toks[i], toks[i - 1], toks[i - 2]
        if t.kind == "NUM" and is_op(op, "=", ":") and name.kind == "WORD" \
                and _GIVEN.match(name.text) and (name.text in words.D_WORDS or len(name.text) <= 2
                                                 or "_" in name.text) \
                and not (i + 1 < len(toks) and is_op(toks[i + 1], "+", "-", "×", "/", "^")):
            out.add(i)
    return out


def _value_figures(toks, claim: str, candidates) -> tuple:
    """The figures of the statement whose values the claim states (how a string reader's
    claim is matched to the figures it reads)."""
    values = {t.value for t in tokens(claim) if t.kind == "NUM"}
    return tuple(i for i in candidates if toks[i].value in values)


_OUT_OF_MEMORY = re.compile(r"\bOOMs?\b|\bout of (?:GPU |GPU-)?memory\b|\bout-of-memory\b", re.I)
_MEMORY_CALL = re.compile(r"\bbytes\(|weight_bytes\(|kv_cache_bytes\(")


def _negate(p: Part, why: str) -> Part:
    """The claim a negated or refuted statement makes: not P. Its strict reading negates
    P's lenient one (and the reverse), so a charitable verdict stays charitable."""
    return Part(f"not ({p.lenient})", f"not ({p.strict})", False, p.figures,
                f"{why}: not ({p.reading or p.strict})")


def _polarised(parts, toks, clean) -> tuple[list, str, list]:
    """Parts as the statement's polarity has them (see `words.polarity`)."""
    kind = words.polarity(clean)
    if not kind:
        return parts, kind, []
    parts = [p for p in parts if not p.family]  # "GPT-2 does not have 48 layers": of none
    # of its models, or not of all? Unclear: not read
    if kind == "question":
        return [], kind, ["a question: it asks, it does not state"]

    def inside(p, spans):
        return any(a <= toks[i].start < b for i in p.figures for a, b in spans)

    out, notes = [], []
    if kind in ("refuted", "negated"):
        # a negation governs its own clause: a part outside it keeps its binding; a
        # refuted quotation makes every reading of the sentence one to confirm
        spans = words.refuted_spans(clean) if kind == "refuted" else words.negated_spans(clean)
        # outside a refuted quotation the author speaks, and may negate ("Contrary to
        # popular belief, GPT-3 does not have 96 heads")
        negated = words.negated_spans(clean) if kind == "refuted" else []
        for p in parts:
            if kind == "negated" and inside(p, spans) and p.reading.startswith(
                    ("arithmetic", "a figure restated")):
                continue  # "X doesn't have 8 × 7B = 56B parameters": what the negation
                # denies (the equality, or that X has it) is unclear: not read ("0 ≈ 1/3
                # is false" refutes the equality itself, and reads as its negation)
            if inside(p, spans):
                out.append(_negate(p, "the statement refutes it" if kind == "refuted"
                                   else "the statement negates it"))
            elif inside(p, negated):
                out.append(_negate(p, "the statement negates it"))
            else:
                out.append(p if kind == "negated" else replace(p, sure=False))
        if any(not p.sure for p in out):
            notes.append(f"a {kind} statement: read as such, to confirm")
    else:  # conditional: arithmetic still holds as written; a premise ("if your GPU has
        # 24 GB") is not asserted, and the rest is hypothetical
        premise = words.antecedents(clean)
        if words.counterfactual(clean):  # "if it had 40 layers, it would have ...": an
            premise = [(0, len(clean))]  # imagined model, nothing said of the real one
        out = [p if p.reading.startswith("arithmetic") else replace(p, sure=False)
               for p in parts if p.reading.startswith("arithmetic") or not inside(p, premise)
               or "a hypothetical model" in p.reading]  # "without GQA …": as MHA (`memory`)
        if len(out) < len(parts):
            notes.append("a premise (\"if ...\") is not a claim: not read")
        if any(not p.sure for p in out):
            notes.append("a conditional statement: read as if stated, to confirm")
    return out, kind, notes


def reading(text: str, context: Context | None = None, header=(), cells=(),
            subject: str | None = None, origin: str = "", family: str = "",
            nominal=None, field=None, around=None, sized: bool = False,
            assumed: bool = False) -> Reading | None:
    """The parts `text` states (`parts.Part`), with the figures none of them reads.
    `subject`: the model the unit's place names, which "It has 32 layers" or "Layers: 80"
    under its heading speaks of (a reading to confirm); `origin` says where it came from
    ("the heading “Llama 2 70B” (line 3)"). `family`: a family the place names without a
    size ("GPT-2"), which a table row labelled with a size ("124 M") completes (`structure`).
    `nominal`: the size the subject was identified by ("GPT-2 124M"), a name, no figure.
    `field`: the field the section's heading names and nothing else (`structure.Field`),
    which a figure bound to no field of its own is read as (`fields.field_by_heading`).
    `around`: what the text before gives it (`carried.Around`: a count, the KV topic, a
    context). `sized`: the header's sizes were named as the rows of a family the paragraph
    over the table names (`structure.sized_header`): what they bind is to confirm.
    `assumed`: the subject is only the model named before (`structure.Given.guessed`), so a
    symbol set to a figure stays a premise, as where no model is spoken of. None when
    nothing is read."""
    context = context or Context()
    clean = re.sub(r"[ \t\r\n]+", " ", normalise(text))  # a sentence wrapped over lines
    toks = tokens(clean)
    parts, notes, names_read, missing = [], [], set(), []
    names = models(clean)
    if names and all(_CONTRASTED.search(clean, max(0, a - 32), a) for a, _, _ in names):
        # "Unlike Mixtral 8x7B, this model has 46.7B parameters": the figures are another's
        notes.append("names only a model it is set against, not the one its figures are of")
        names = ()
    near = near_misses(clean)
    if not names and words.OTHER_SUBJECT.search(clean):
        subject = None  # "Its bigger sibling has 40 layers": not the model the place names
    if cells:
        got, miss, nf = row_claims(header, cells, clean, toks, subject, origin, family)
        if sized:  # "Llama 2 comes in three sizes:" over "| 7B | 13B |": the family's rows
            got = [replace(p, sure=False, reading=f"{p.reading} (the column's model is the "
                           "family the text over the table names, of the header's size: "
                           "assumed)") for p in got]
        parts += got + shape_counts(header, cells, clean, toks)
        missing += miss
        names_read |= nf
    arith, _ = arithmetic(toks)
    parts += arith + worded_results(toks, clean) + worded_sources(toks, clean) \
        + symbolic.identities(toks, clean) + tildes.tilde_results(toks, clean)
    parts += expansions(toks) + conversions(toks) + restated.restatements(toks, clean, names)
    parts += shares.percent_of(toks, clean, names) + format_ratios.ratios(toks, clean) \
        + device_totals.totals(toks, clean) + respectively.pairs(toks, clean)
    before = carried.before(context, text)
    if cells and before is not None:
        parts += shares.table_shares(header, cells, before.table, toks)
    parts += derived.derived_cells(header, cells, toks)
    parts += formula_rows.formula_cells(toks, clean, cells, before) if cells else []
    formula = anaphora.formula_values(toks, clean, before)
    parts += (anaphora.carried_steps(toks, clean, before) + anaphora.multipliers(
        toks, clean, before) + formula
              + totals.totals(toks, clean, before) + carried_compute.times(toks, clean, before)
              + carried_compute.costs(toks, clean, before))
    # "the formula yields ~162M": the figure is the formula's value, not the model's count
    formula_out = {max(p.figures) for p in formula}
    if names and not cells:
        got, miss, nf = model_claims(toks, clean, names)
        parts += got
        missing += miss
        names_read |= nf
    elif subject and not cells and not near and not _others(clean, subject):
        got, miss, nf = model_claims(toks, clean, [(-1, -1, subject)], given_sure=False)
        got, nf = _nominal_names(got, nf, toks, nominal)
        parts += got
        missing += miss
        names_read |= nf
        if got:
            notes.append(f"read as said of {subject}, named by {origin}, not by the statement "
                         "itself" if origin else f"read as said of {subject}, named before it")
    elif not names and not cells and not near:
        got, nf = _family_claims(toks, clean)
        parts += got
        names_read |= nf
    nums = [i for i, t in enumerate(toks) if t.kind == "NUM"]
    for claim in matmul_counts(toks) + rounding(toks, clean) + fractions_of(clean):
        parts.append(Part(claim, claim, True, _value_figures(toks, claim, nums), claim))
    guessed, why, other = comparisons(toks, clean, context)
    notes += why
    for claim in (equalities(toks, clean, context) + llama_width(clean)
                  + count_formulas(toks, clean) + guessed
                  + thirds(clean) + flops_rules(clean)):
        parts.append(Part(claim, claim, False, _value_figures(toks, claim, nums), claim))
    subjects = tuple(n for n in names if not words.MODIFIER.match(clean, n[1]))
    about = " | ".join(" ".join(normalise(h).split()) for h in header)  # a table's header
    # says what its columns measure (glossed as the row is: "바이트" bytes)
    if subjects:
        parts += quantities.read_quantities(toks, clean, subjects, about=about, around=around)
    elif (subject or _member(cells, family)) and not near and not _others(clean, subject):
        # the model named before it, or the family's row of the size the row's first cell
        # gives ("8B" under "Llama 3.1 …"): either way assumed
        parts += quantities.read_quantities(toks, clean, (), subject=subject or _member(
            cells, family), about=about, around=around)
    else:
        others = [e for _, e in other_names(clean) if not clean[e:e + 1].isalpha()]
        parts += quantities.read_quantities(toks, clean, (), about=about, around=around
                                            if not near and not others else None)  # "opt" in
        # "optimizer" is no model name (detect.other_names matches word prefixes)
    if formula_out:
        parts = [p for p in parts if any(p is f for f in formula)
                 or not formula_out & set(p.figures)]
    theirs = others_sizes(toks, clean)  # "on par with 7 billion-parameter models"
    if theirs:
        parts = [p for p in parts if not theirs & set(p.figures)]
        names_read |= theirs
    if field is not None and not cells:
        parts += _by_heading(toks, clean, parts, names, near, subject, origin, field)
    parts = list({p.strict: p for p in parts}.values())
    # "LoRA with rank 8 trains only 4.2M parameters": a count said of adapters, of what is
    # trained, is no count of the whole model
    parts = [p for p in parts if not (p.strict.startswith(("approx(params_total(",
                                                           "params_total("))
                                      and any(_TRAINED_PART.search(clean, max(0, toks[i].start - 60),
                                                                   toks[i].start)
                                              for i in p.figures))]
    # a figure read as active (or as experts) is not also the total (or a layer count):
    # "activates 12.9B parameters", "2 of 8 expert blocks"
    moe = {f for p in parts if p.strict.startswith(("approx(params_active(", "experts(",
                                                    "active_experts(")) for f in p.figures}
    parts = [p for p in parts if not (p.strict.startswith(("approx(params_total(", "params_total(",
                                                           "layers("))
                                      and moe & set(p.figures))]
    # "2 of 8 experts per token": the 8 is the experts the 2 are of, not a count per token
    whole = {f for p in parts if p.strict.startswith("experts(") for f in p.figures}
    parts = [p for p in parts if not (p.strict.startswith("active_experts(")
                                      and whole & set(p.figures))]
    parts = said_of.results_said_of(parts, toks, clean, names or ((0, 0, subject),)
                             if subject and not assumed else names)
    if _OUT_OF_MEMORY.search(clean) and any(_MEMORY_CALL.search(p.strict) for p in parts):
        # "70B model OOM on 24GB VRAM even with 4-bit weights": the figure is the memory
        # that ran out, not the weights' size; which side of it they fall is not said
        parts = [p for p in parts if not _MEMORY_CALL.search(p.strict)]
        notes.append("the memory runs out (OOM): its figure is a capacity the model does "
                     "not fit, not read as the model's size")
    parts, kind, why = _polarised(parts, toks, clean)
    notes += why
    quoted = [m.span() for m in _QUOTED.finditer(clean)]
    if quoted and any(a <= toks[i].start < b for p in parts for i in p.figures
                      for a, b in quoted):
        # 'How "64K context" turns into bytes': a term quoted is mentioned, not claimed
        parts = [replace(p, sure=False) if any(a <= toks[i].start < b for i in p.figures
                                               for a, b in quoted) else p for p in parts]
        notes.append("a figure in quotation marks: a term quoted, not surely a claim")
    if symbolic.in_words(clean) and any(p.sure and p.reading.startswith(AS_WRITTEN)
                                        for p in parts):  # (`symbolic.in_words`)
        parts = [replace(p, sure=False) if p.reading.startswith(AS_WRITTEN) else p
                 for p in parts]
        notes.append("a formula in words evaluated at figures: the arithmetic is read, not "
                     "whether the figures are the quantities the words name: to confirm")
    cjk = bool(_CJK_TEXT.search(text) or any(_CJK_TEXT.search(h) for h in header))
    glossary = bool(parts) and (cjk or bool(european.language(text)))
    if glossary:
        parts, why = _glossed(parts, text, clean, cjk)
        notes += why
    contrasts = sorted({m for m in missing if "given two values" in m
                        or "as a primary source publishes it" in m})
    notes += contrasts
    missing = [m for m in missing if m not in contrasts]
    if missing:
        notes.append("no claim function yet for " + ", ".join(sorted(set(missing))))
    for s, e, row, what in near:
        notes.append(f"{clean[s:e]!r} is not the catalogue's {row} ({what}); "
                     "name the row to check it")
    # a symbol set to a figure is a premise ("d = 4096") where no model is spoken of, or
    # where only one named before is guessed and the statement computes from it; beside a
    # model's name ("Llama-3-70B (L=80, H=8, d=128)") it may state the model's own field: a
    # claim, read or unread like any figure
    premises = _givens(toks) if not names and (not subject or assumed) else set()
    own = [p for p in parts if subject and p.figures and set(p.figures) <= premises
           and f"({subject}" in p.strict]
    if own and len(own) < len(parts):  # the assumed model's fields, where the statement
        parts = [p for p in parts if p not in own]  # computes from them: its premises
    elif own:
        premises = set()  # "d = 4096" alone: it may state the assumed model's field
    if not parts:
        return Reading([], notes, polarity=kind) if notes else None
    read = set().union(*(p.figures for p in parts)) | names_read | premises
    said = {toks[i].value for i in read if toks[i].kind == "NUM"}
    index = {id(t): i for i, t in enumerate(toks)}
    unread = [t.text for t in meaningful_numbers(clean, toks)  # a figure restated (the
              if index.get(id(t)) not in read and t.value not in said  # operands of a
              and not _is_name_fig(t, near)]  # sum written out after it) is read with it
    unread += _words_unread(clean, toks, read)
    return Reading(parts, notes, other, unread, kind, glossary)


# what a model is set against, so that figures beside it are another's ("unlike Mixtral
# 8x7B, this model …"); not "like", "same as", "similar to", which share the figures
_CONTRASTED = re.compile(r"\b" + words.CONTRASTED_WORDS + r"\s*(?:(?:the|a|an)\s+)?$", re.I)
# after a figure: the nominal size of other models, in the plural ("7 billion-parameter
# LLMs", "70B-class models", "13B models"); before it: what a model is measured against
_SIZE_OF_OTHERS = re.compile(r"[\s-]*(?:param(?:eter)?s?[\s-]+)?(?:class[\s-]+)?"
                             r"(?:[a-z]+[\s-]+){0,2}?(?:models|llms|networks)\b", re.I)
_MEASURED_AGAINST = re.compile(r"\b" + words.COMPARED_WORDS + r"\s+(?:[\w-]+\s+){0,3}?"
                               r"(?:[~≈]\s?)?$", re.I)


def others_sizes(toks, clean: str) -> set:
    """Indices of figures that size other models ("comparable to leading 7 billion-
    parameter LLMs", "outperforms 13B models"): a model measured against, no count of
    the statement's own model."""
    out = set()
    for i, t in enumerate(toks):
        if t.kind != "NUM" or t.scale not in ("B", "M", "billion", "million", "bn"):
            continue
        if _SIZE_OF_OTHERS.match(clean, t.end) and _MEASURED_AGAINST.search(
                clean, max(0, t.start - 48), t.start):
            out.add(i)
    return out


_CJK_TEXT = re.compile(f"[{CJK}]")
# what is trained when not every parameter is (`memory_words.PARTIAL`), or said so
_TRAINED_PART = re.compile(memory_words.PARTIAL.pattern + r"|\b(?:trains?(?:\s+only)?|"
                           r"trained\s+only|updates?\s+only)\b", re.I)
_QUOTED = re.compile(r"\"[^\"]{1,80}\"|“[^”]{1,80}”")  # a phrase in double quotation marks
# what turns a Chinese, Japanese or Korean sentence from a statement into something else:
# a negation (不是, 没有, 并非, ではない, ません, 아니), a question (吗, ？, か), a condition
# (如果, 假如, もし, なら, 만약)
_CJK_NOT_STATED = re.compile(r"不|没|沒|并非|並非|非|无法|無法|未|否|ない|ません|ず|않|아니|못|"
                             r"吗|嗎|呢|？|\?|か[。？]?$|如果|假如|若|要是|もし|なら|場合|만약|"
                             r"면")
# ... of which a condition only ("if you load it in FP16, 7 * 2 = 14 GB"): arithmetic as
# written holds or fails whatever is supposed
_CJK_SUPPOSED = re.compile(r"如果|假如|若|要是|もし|なら|場合|만약|면")


_LANGUAGE_NAMES = {"de": "German", "fr": "French", "es": "Spanish", "pt": "Portuguese",
                   "ru": "Russian"}


def _glossed(parts, text: str, clean: str, cjk: bool) -> tuple[list, list]:
    """Parts of a statement read through a glossary (`cjk` for Chinese, Japanese and
    Korean, `european` for German, French and Spanish), by its figures and nouns only:
    to confirm (suggested at most); nothing where a word may negate or ask, or a figure
    reads two ways ("1,234" in German); only the arithmetic as written where a word may
    suppose (the scan does not parse these languages' grammar)."""
    if cjk:  # the statement's or its table header's
        name = "Chinese, Japanese or Korean"
        stops = _CJK_NOT_STATED.search(_CJK_SUPPOSED.sub("", text))  # the words as written:
        supposed = _CJK_SUPPOSED.search(text)  # the glossary has turned them into English
    else:
        name = _LANGUAGE_NAMES[european.language(text)]
        stops = european.doubtful(text) or re.search(r"\bnot\b|\?", clean)
        supposed = re.search(r"\bif\b", clean)
    if stops:
        return [], [f"{name} text with a word that may negate or ask, or a figure that reads "
                    "two ways: not read"]
    if supposed:
        kept = [replace(p, sure=False) for p in parts if p.reading.startswith(AS_WRITTEN)]
        return kept, [f"{name} text with a word that may suppose: "
                      + ("only its arithmetic as written read" if kept else "not read")]
    return [replace(p, sure=False) for p in parts], [
        f"read in {name} text through a glossary of its figures and nouns: to confirm"]


AS_WRITTEN = ("arithmetic", "a figure restated")  # readings made of figures and operators


def _words_unread(clean: str, toks, read: set) -> list[str]:
    """The multiples and fractions in words ("twice as many heads", "about three times the
    attention", "two-thirds of it") no part reads: claims too, so the statement is not
    `checked` on its figures alone ("half precision" names a format)."""
    from ffnverify.scan.spelled import spelled

    out = []
    for sp in spelled(clean):
        if sp.kind not in ("multiple", "fraction") or re.match(r"[\s-]*precision", clean[sp.end:]):
            continue
        if not any(sp.start <= toks[i].start < sp.end for i in read):
            out.append(clean[sp.start:sp.end])
    return out


_GROUP_AFTER = re.compile(rf"\s+(?:{words.GROUP_NOUN}|models)\b", re.I)


def _others(clean: str, subject: str | None) -> list:
    """The names of other models in the text: not a family the subject belongs to
    ("Mixtral's active count" under a heading "Mixtral 8x7B" speaks of it)."""
    return [(s, e) for s, e in other_names(clean)
            if not (subject and consistent(clean[s:e].removesuffix("'s"), subject)
                    and not _GROUP_AFTER.match(clean, e))]


def why_unread(text: str, subject: str | None = None, origin: str = "") -> str:
    """Why a statement the readers give nothing for stays unchecked, where its names say
    it: a model the catalogue does not hold, or no model at all ("" otherwise)."""
    clean = re.sub(r"[ \t\r\n]+", " ", normalise(text))
    if near_misses(clean):
        return ""
    named = [row for _, _, row in models(clean)] or ([subject] if subject else [])
    if named:  # "Mixtral 8x7B uses eight expert models": a model, no reader for its figures
        figures = list(dict.fromkeys(t.text for t in meaningful_numbers(clean)))[:6]
        said = f"read as said of {subject}, {origin}" if origin and not models(clean) else \
            f"speaks of {', '.join(dict.fromkeys(named))}"
        return (f"{said}, but no reader binds "
                + (f"its figures ({', '.join(figures)})" if figures else "its words")
                + " to a quantity of the model: not read")
    unknown = list(dict.fromkeys(clean[s:e] for s, e in other_names(clean)))
    if unknown:
        return (", ".join(f"{u!r}" for u in unknown) + " is not in the catalogue "
                "(`ffnverify models` lists what is): nothing here names a model it holds")
    return "names no model of the catalogue, and nothing around it gives one"


def _family_claims(toks, clean) -> tuple[list, set]:
    """"GPT-2 has a vocabulary of 50,257 tokens": a statement about a family as a whole
    (`catalogue.families`, whose every member is a row), read of each member; a part holds
    when it holds for every member and fails when it fails for every member (a reading to
    confirm: the family name may mean one member). The only name in the statement."""
    unknown = other_names(clean)
    if len(unknown) != 1 or elided_names(clean):
        return [], set()
    s, e = unknown[0]
    rows = family_members(structure.squash(clean[s:e]))
    if not rows:
        return [], set()
    each, names_read = [], set()
    for row in rows:
        got, _, nf = model_claims(toks, clean, [(s, e, row)], given_sure=False)
        got += quantities.read_quantities(toks, clean, [(s, e, row)])  # experts, memory
        each.append({p.figures: p for p in got})
        names_read |= nf
    keys = set(each[0])
    if not keys or any(set(got) != keys for got in each):
        return [], set()  # the members' readings differ in shape: not one statement
    written = clean[s:e]
    out = []
    for figures in sorted(keys):
        got = [by[figures] for by in each]
        what = got[0].reading.split(" of ")[0]
        out.append(Part(" and ".join(f"({p.strict})" for p in got),
                        " or ".join(f"({p.lenient})" for p in got), False, figures,
                        f"{what} of every {written} model ({', '.join(rows)}), the family "
                        "as a whole", family=True))
    return out, names_read


def _member(cells, family) -> str | None:
    """The row of `family` a table row's first cell names by its size alone ("8B")."""
    if not cells or not family:
        return None
    size = structure.parse_size(cells[0])
    return structure.family_member(family, size[1]) if size and not size[0] else None


def _by_heading(toks, clean, parts, names, near, subject, origin, field) -> list:
    """The part a field heading gives a figure no other part reads: of the one model the
    statement names, or else of the model its place names (`subject`)."""
    own = {n[2] for n in names}
    if len(own) == 1 and not near:
        model, origin = own.pop(), "the statement itself"
    elif not own and subject and not near and not _others(clean, subject):
        model = subject
    else:
        return []
    got = field_by_heading(toks, clean, model, field, origin or "its place")
    taken = set().union(*(p.figures for p in parts)) if parts else set()
    return [p for p in got if not taken & set(p.figures)]


def _nominal_names(parts, name_figs, toks, nominal) -> tuple[list, set]:
    """A figure equal to the size the subject was identified by ("124M Parameters" under
    "GPT-2 124M") repeats its name: a name, not a measurement; the parts reading it go."""
    if nominal is None:
        return parts, name_figs
    names = {i for i, t in enumerate(toks) if t.kind == "NUM" and t.value == nominal}
    return [p for p in parts if not names & set(p.figures)], set(name_figs) | names


def _is_name_fig(t, near) -> bool:
    return any(s <= t.start < e for s, e, _, _ in near)
