"""A catalogue model's field stated in prose (docs/architecture.md §5.2, binding and
scope): `model_claims(toks, text, names)` pairs each field noun ("126 layers", "hidden
size of 8192", "8 KV heads") with its figure and its model, and compares the figure with
the quantity its scope names (`params_lhs`: per layer, FFN, attention, embedding,
non-embedding, active). A figure bound through its noun, to the model its clause names,
is sure; one paired by nearness, or with an owner the grammar does not give, is a
reading to confirm. A size that repeats the model's name is a name (`names_size`).
The field nouns are `words.FIELDS`.
"""

import re
from fractions import Fraction

from ffnverify.catalogue.families import SIBLINGS
from ffnverify.claims.signatures import SIGNATURES
from ffnverify.scan import precision, words
from ffnverify.scan.arithmetic import is_op, is_word
from ffnverify.scan.binding import FIGURES, PARALLEL
from ffnverify.scan.detect import consistent, elided_names, near_misses, other_names, size_of
from ffnverify.scan.figure import range_ends
from ffnverify.scan.numbers import Tok, literal
from ffnverify.scan.parts import Part


def available(func: str) -> bool:
    return func in SIGNATURES


def published_as(model: str, func: str, value) -> bool:
    """Whether a primary source publishes `value` for the model's field although its
    config holds another (catalogue `published_as`): then the figure is not wrong, and
    not read either."""
    from ffnverify.catalogue import get

    try:
        published = get(model).published_as.get(func)
    except KeyError:
        return False
    if published is None:
        return False
    return published == value or (  # "8K" for a published 8192: K as 1024 in a context
        func in words.BINARY_FIELDS and value % 1000 == 0 and value // 1000 * 1024 == published)


def fields_in(text):
    found = []
    taken = []
    for pattern, func in words.FIELDS_AROUND:
        for m in pattern.finditer(text):
            taken.append((m.start(1), m.end(1)))
            found.append((m.start(1), m.end(1), func))
    for pattern, func in words.FIELD_RES:
        for m in pattern.finditer(text):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            taken.append((m.start(), m.end()))
            found.append((m.start(), m.end(), func))
    return sorted(found)


def _in_arithmetic(toks, i) -> bool:
    """Whether number i is an operand or the result of arithmetic written out
    ("64 / 8 = 8"): then it is not the value of a field."""
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    after = toks[i + 2] if i + 2 < len(toks) else None
    if is_op(nxt, "+", "-", "×", "/", "^", "=", "≈") and (
            after is None or after.kind != "WORD" or not nxt.text == "-"):
        return True  # "80-layer" is a compound word, not a subtraction
    if i >= 2 and is_op(toks[i - 1], "+", "-", "×", "/", "^", "=", "≈") and \
            toks[i - 2].kind == "NUM":
        return True
    return False


def _clause_start(text: str, at: int) -> int:
    last = 0
    for m in words.CLAUSE_BREAK.finditer(text, 0, at):
        last = m.end()
    return last


def _owner(names, text, at) -> tuple[str | None, bool | None]:
    """The model a figure at `at` is said of, and whether the grammar gives it: the only
    model the sentence names, or the one that opens the figure's own clause ("Unlike
    GPT-2 XL, GPT-3 has 96 layers"); two names joined as one subject ("Llama 2 7B and
    Mistral 7B have ...") give no clear owner (False), and a figure before any name, or
    after names side by side ("A vs B: 32 vs 40 layers"), only a guess (None)."""
    if not names:
        return None, False
    if len({n[2] for n in names}) == 1:
        return names[0][2], True
    before = [n for n in names if n[1] <= at]
    if not before:
        return names[0][2], None
    start = _clause_start(text, at)
    mine = [n for n in before if n[0] >= start]
    if len(mine) != 1:
        # "Llama 3 8B, unlike Llama 3.1 8B, has ...": a model named as the one compared
        # with is not the subject; the nearest one not so named is the likelier owner
        subjects = [n for n in before if not words.COMPARED_WITH.search(
            text, max(0, n[0] - 32), n[0])]
        side = len(before) > 1 and PARALLEL.fullmatch(text, before[-2][1], before[-1][0]) \
            and len(FIGURES.findall(text, before[-1][1])) > 1  # "A vs B: 32 vs 40", not
        return (subjects or before)[-1][2], None if side else False  # "A, B have 7 to 8B"
    earlier = [n for n in names if n[1] <= mine[0][0]]
    if earlier and re.fullmatch(r"[\s,]*(?:and|or|&|as well as)[\s,]*(?:both\s+)?",
                                text[earlier[-1][1]:mine[0][0]], re.I):
        return mine[0][2], False  # a coordinated subject: each, or both?
    return mine[0][2], True


# a figure set to a field's name just before it ("num_kv_heads = 8"): no noun after takes it
_ASSIGNED = re.compile(r"[A-Za-z]\w*_\w+\s*=\s*~?$")  # a snake_case name: "H=8 KV heads" is
# the symbol H explained by its noun
# a preposition opening a clause, or after a verb of running, before a figure that comes
# before its field's noun: a setting of the run, not the model's field
_SETTING = re.compile(r"(?:(?:^|[,;:(])\s*(?:(?:first|then|now|here|so|and|but)\s*,?\s+)?|"
                      r"\b(?:measured|tested|evaluated|benchmarked|ran|run|running|profiled|"
                      r"served|serving|trained|fine-?tuned)\b[^.;]{0,40}?\s)"
                      r"(?:under|over|below|above|beyond|past|using)\s+(?:a\s+|an\s+)?~?$",
                      re.I)  # "Under 2048 context length, for llama-2-7b, …", "We measured
# Llama 2 7B under 2048 context length"


def _scope(text: str, fs: int, fe: int, cand: Tok) -> tuple[str, bool]:
    """What a parameter figure counts: (part or "", per layer)."""
    lo = min(cand.start, fs)
    hi = max(cand.end, fe)
    start = _clause_start(text, lo)
    # the clause after the figure, up to the next figure: "141B parameters with 39B
    # active" gives the 141B no scope ("active" is the 39B's)
    tail = re.split(r"[,;.(]|\band\b|\bwhile\b|\bbut\b|\d", text[hi:hi + 40])[0]
    window = words.MIXTURE_NAMED.sub(" ", text[start:hi] + tail)  # "a 46.7B-parameter
    # Mixture-of-Experts model": the kind of model, not its experts' part
    per_layer = bool(words.PER_LAYER.search(text[:hi] + tail)) or bool(
        words.EACH_LAYER_BEFORE.search(text, 0, lo)) or bool(
        words.EACH_LAYER_AFTER.match(text[hi:]))  # "32 layers, each with 202M parameters"
    if re.search(r"\d(?:[.,]\d+)?\s?[A-Za-z%]{0,8}\s+(?:out\s+)?of\s+(?:(?:its|their|the|all|"
                 r"a total of)\s+)?~?$", text[max(0, cand.start - 40):cand.start]):
        return "whole", per_layer  # "N of M params"
    return words.scope(window), per_layer


_PARTS = {"ffn": "ffn", "attention": "attention", "norms": "norms", "embedding": "embedding",
          "lm_head": "lm_head"}


def params_lhs(model: str, part: str, per_layer: bool) -> tuple[list[str], bool] | None:
    """The quantity a parameter figure of that scope is compared with: one or more
    definitions (a charitable reader takes any), and whether the scope is clear."""
    if part == "whole":  # "the FFN holds N of M parameters": M is the whole, to confirm
        return [f"params_layer({model})" if per_layer else f"params_total({model})"], False
    if per_layer:
        if part in ("", "ffn", "attention", "norms"):
            return [f"params_layer({model}" + (f", part={part})" if part else ")")], True
        return None
    if part in ("", "total"):  # with or without the learned position table (nanoGPT's
        return [f"params_total({model})",  # count leaves it out); unqualified, a mixture
                f"params_total({model}) - params_total({model}, part=positions)"] + (
            [f"params_active({model})"] if part == "" and _routed(model) else []), True
    if part == "active":
        return [f"params_active({model})"], True
    if part == "non_embedding":
        out = []
        for whole in ["params_total"] + (["params_active"] if _routed(model) else []):
            base = f"{whole}({model}) - params_total({model}, part=embedding)"
            out += [base + f" - params_total({model}, part=positions)",
                    base + f" - params_total({model}, part=positions)"
                    f" - params_total({model}, part=lm_head)"]
        return out, True
    if part == "embedding":  # "BERT-base's embedding layer": with its position table too
        return [f"params_total({model}, part=embedding)",
                f"params_total({model}, part=embedding) + params_total({model}, part=positions)"
                ], True
    if part in _PARTS:
        return [f"params_total({model}, part={part})"], True
    # "trainable": most likely the total; "W_Q accounts for 2.4M": a part it cannot tell
    return None if part == "a part's" else ([f"params_total({model})"], False)


def _routed(model: str) -> bool:
    """Whether the model routes each token to some of its experts (a mixture of experts):
    then a parameter count not said to be the total may count the active parameters
    ("Qwen1.5-MoE-A2.7B has 2 billion non-embedding parameters": those a token uses), a
    reading a careful reader takes too."""
    from ffnverify.catalogue import get

    try:
        m = get(model)
    except KeyError:
        return False
    return (m.experts or 1) > (m.active_experts or 1)


def _range_of(toks, i):
    """(low, high) tokens when number i is an end of a range (`figure.range_ends`)."""
    got = range_ends(toks, i)
    return (toks[got[0]], toks[got[1]]) if got else None


def _alternative_of(toks, i):
    """The other figure of `32 or 40 layers` / `40 or 32` (same scale), else None: the
    author offers alternatives, and a careful reader takes either."""
    for j, k in ((i - 2, i - 1), (i + 2, i + 1)):
        if 0 <= j < len(toks) and toks[j].kind == "NUM" and is_word(toks[k], "or") and \
                toks[j].scale == toks[i].scale and not toks[j].ratio:
            return j
    return None


def _field_parts(lhs_list, t, toks, i, text, binary, sure, reading):
    """Parts comparing each definition in `lhs_list` (any may hold) with figure i; with
    figure j in `32 or 40 layers`, either figure may hold, a reading to confirm."""
    j = _alternative_of(toks, i)
    if j is not None and _range_of(toks, i) is None:
        one = _one_field_part(lhs_list, t, toks, i, text, binary, sure, reading)
        other = _one_field_part(lhs_list, toks[j], toks, j, text, binary, sure, reading)
        return Part(f"({one.strict} or {other.strict})", f"({one.lenient} or {other.lenient})",
                    False, tuple(sorted(set(one.figures) | set(other.figures))),
                    reading + f" (or {toks[j].text})")
    return _one_field_part(lhs_list, t, toks, i, text, binary, sure, reading)


def _one_field_part(lhs_list, t, toks, i, text, binary, sure, reading):
    rng = _range_of(toks, i)
    at = {id(x): k for k, x in enumerate(toks)}
    if rng:
        lo, hi = rng
        pairs = [precision.interval(lhs, lo, hi) for lhs in lhs_list]
        figs = (at[id(lo)], at[id(hi)])
    else:
        op = words.bound(text[:t.start], text[t.end:])
        pairs = [(precision.strict(lhs, t, op, binary), precision.lenient(lhs, t, op, binary))
                 for lhs in lhs_list]
        figs = (i,)
    strict = pairs[0][0]
    loose = pairs[0][1] if len(pairs) == 1 else "(" + " or ".join(p[1] for p in pairs) + ")"
    if not rng and len(pairs) == 1 and precision.exact_count(t) and not binary:
        loose = strict  # `32 layers`: an exact count, no other reading
    return Part(strict, loose, sure, figs, reading)


_FAMILY_NOUN = re.compile(rf"\s+(?:{words.GROUP_NOUN})\b", re.I)
# the family a model belongs to ("belongs to the Llama 3 family"), not a subject of its own
_CONTAINER_BEFORE = re.compile(r"\b(?:belong(?:s|ing)? to|part of|members? of|in|of|from|"
                               r"within)\s+(?:the\s+)?$", re.I)


def _own_family(text: str, a: int, b: int, rows: set, consistent, placed: bool) -> bool:
    """Whether the name at a:b is the family of a row the text names, spoken of as a
    group ("Llama 3 8B belongs to the Llama 3 family, with 8.1 billion parameters"), or
    the family of the row the text's place names ("Mixtral's hidden size" under a heading
    "Mixtral 8x7B"): no other owner for a figure. "Llama 3 8B has 32 layers; Llama 3 has
    126 layers in its largest size" keeps it one."""
    group = bool(_FAMILY_NOUN.match(text, b))
    if placed:  # "Mixtral's hidden size": the place's model; "the Llama 2 family spans
        return not group and any(consistent(text[a:b], r) for r in rows)  # …": the family
    return group and bool(_CONTAINER_BEFORE.search(text, 0, a)) and any(
        consistent(text[a:b], r) for r in rows)


def model_claims(toks, text, names, given_sure: bool = True) -> tuple[list, list, set]:
    """Parts for `model field number` statements; the fields no claim function reads;
    and the figures that are names (a size repeating the model's name)."""
    parts, missing, name_figs = [], [], set()
    given = {}  # lhs -> [(index in parts, the figure)]: one field given two values
    # ("config.json says 28672 but the yml wants 86016") contrasts them; neither is read
    fields = fields_in(text)
    index = {id(t): i for i, t in enumerate(toks)}
    nums = [t for i, t in enumerate(toks) if t.kind == "NUM" and not t.ratio
            and t.scale not in ("%", "bytes") and not any(s <= t.start < e for s, e, _ in names)
            and not _in_arithmetic(toks, i) and not _glued(toks, i) and not _proportion(toks, i)]
    used = set()
    rows = {n[2] for n in names}
    owners = sorted([n if not words.MODIFIER.match(text, n[1]) else (n[0], n[1], None)
                     for n in names] + [(a, b, None) for a, b in other_names(text)
                                        if (a, b) not in {n[:2] for n in names}
                                        and not _own_family(text, a, b, rows, consistent,
                                                            all(n[0] < 0 for n in names))]
                    + [(a, b, None) for a, b, _, _ in near_misses(text)]
                    + [(a, b, None) for a, b in elided_names(text)])
    for fs, fe, func in fields:
        before = [t for t in nums if t.end <= fs and fs - t.end <= 24 and id(t) not in used]
        after = [t for t in nums if t.start >= fe and t.start - fe <= 24 and id(t) not in used]
        cand, bound = None, False
        if before and _ASSIGNED.search(text, 0, before[-1].start):
            before = []  # "num_kv_heads = 8 head_dim = …": the 8 is the symbol's before it
        if before and words.NOUN_AFTER.match(text[before[-1].end:fs]) and not words.DIFFERENCE.search(
                text[max(0, before[-1].start - 12):before[-1].start]) and not \
                words.DIFFERENCE_AFTER.match(text, fe):
            cand, bound = before[-1], True
        elif after and words.NOUN_BEFORE.match(_past_symbol(text[fe:after[0].start])) and not _own_noun(
                text, fields, after[0], func):
            cand, bound = after[0], True
        elif before and not re.search(r"[,;]|\band\b", text[before[-1].end:fs]) and \
                not _own_noun(text, fields, before[-1], func):
            cand = before[-1]
        elif after and not re.search(r"[,;]", text[fe:after[0].start]) and \
                not _own_noun(text, fields, after[0], func):
            cand = after[0]
        if cand is None or (not bound and not given_sure):
            continue  # a model named elsewhere, and a number only near the field: no
        i = index[id(cand)]
        if func in words.BINARY_FIELDS and (
                words.INPUT.search(text[max(0, cand.start - 8):cand.start])
                or (cand.end <= fs and _SETTING.search(text, 0, cand.start))
                or words.INPUT_AMOUNT.search(text[max(0, cand.start - 24):cand.start])):
            continue  # "at 128K context", "for 4096 tokens", "every 1K tokens of context",
            # "the KV cache of 1K tokens": a chosen input or an amount, not the field
        if _no_value(text, cand, fs, fe):
            continue
        rng = _range_of(toks, i)
        if rng and any(x.scale in ("%", "bytes") for x in rng):
            continue  # "13–14 GB": a range of bytes is no count of a field
        model, clear = _owner(owners, text, cand.start)
        if model is None:
            continue
        used.add(id(cand))
        if func == "params_total" and names_size(cand, model) and _written_with(
                names, model, cand, text):
            name_figs.add(i)  # "the 70B model" beside Llama 2 70B: a name, not a count
            continue
        lhs_list, scope_clear = [f"{func}({model})"], True
        if func == "heads" and (_PER_KV_HEAD.match(text, fe) or _GROUPS_OF.search(
                text, 0, cand.start)):
            # "4 query heads per KV head", "8 groups of 8 query heads": the group size
            lhs_list = [f"heads({model}) / kv_heads({model})"]
        if func == "d_model" and _WIDTH_WORD.fullmatch(text[fs:fe]) and _FFN_SAID.search(
                text[_clause_start(text, min(cand.start, fs)):max(cand.end, fe)]):
            # "8 experts of 14336 width", "the FFN is 11008 wide": a width beside an FFN
            # word may be the FFN's (leniently)
            lhs_list, scope_clear = lhs_list + [f"d_ff({model})"], False
        if func == "heads" and _KV_SAID.search(text) and not _QUERY_HEADS.search(text[fs:fe]) \
                and _in_product(text, cand):
            # "2 × 80 layers × 8 heads × 128 × 2 bytes" of the KV cache: the heads it keeps
            lhs_list, scope_clear = lhs_list + [f"kv_heads({model})"], False
        if func == "params_total" and (words.EACH.match(text, max(fe, cand.end)) or
                                       words.EACH_BEFORE.search(text, 0, cand.start)):
            missing.append("parameters of each part (\"22B parameters each\")")
            continue  # a size of one expert (or one of several parts), not of the model
        if func == "params_total":
            scope, per_layer = _scope(text, fs, fe, cand)
            if words.several_parts(text[:cand.start]):
                missing.append("parameters of several parts together (\"the embedding and "
                               "LM head together\")")
                continue
            got = params_lhs(model, scope, per_layer)
            if got is None:
                missing.append(f"{scope} parameters" + (" per layer" if per_layer else ""))
                continue
            lhs_list, scope_clear = got
            if scope == "" and not per_layer and (_ALL_BLOCKS.search(
                    text[_clause_start(text, min(cand.start, fs)):cand.start])
                                                  or _IN_BLOCKS.match(text, max(fe, cand.end))):
                # "GPT-2 small's 12 blocks hold 85M parameters": the layers without the
                # embedding, leniently
                lhs_list, scope_clear = lhs_list + [
                    f"layers({model}) * params_layer({model})"], False
            earlier = words.scope(text[:_clause_start(text, min(cand.start, fs))]) \
                if scope == "" else ""
            if earlier in ("ffn", "attention", "norms"):  # "Llama 2 70B's FFN is three
                alt = params_lhs(model, earlier, per_layer)  # matrices, 705M parameters per
                if alt is not None:  # layer": the part the sentence spoke of, leniently
                    lhs_list, scope_clear = lhs_list + alt[0], False
            if not per_layer and scope in ("ffn", "attention", "norms") and (
                    words.PART_UNIT.search(text, 0, cand.start)
                    or not words.ALL_LAYERS.search(text)):
                # "the attention block has 67M parameters": one layer's, or all of them
                layer = params_lhs(model, scope, True)
                if layer is not None:
                    lhs_list = lhs_list + layer[0]  # leniently; as written, the whole part
        if not available(func):
            missing.append(func)
            continue
        if published_as(model, func if func != "params_total" or scope in ("", "total")
                        else f"params_total:{scope}", cand.value):
            missing.append(f"{func} of {model}, {cand.text}, as a primary source publishes it "
                           "(the config holds another: see the catalogue's note); not read")
            continue
        siblings = [sib for sib in SIBLINGS.get(model, ()) if not _same_field(model, sib, func)] \
            if not _VERSIONED.search(text) else []
        if siblings:  # "Mistral 7B ... 32768 vocab": v0.1's, or v0.3's (leniently)
            lhs_list = lhs_list + [lhs.replace(f"({model}", f"({sib}") for sib in siblings
                                   for lhs in lhs_list]
            scope_clear = False
        sure = bound and clear and scope_clear and given_sure and not re.search(
            r"\brespectively\b", text, re.I)
        how = ("its noun" if bound else NEARNESS) + (AMONG if clear is None else "")
        reading = f"{lhs_list[0].split('(')[0]} of {model}, stated {cand.text} (bound by {how})"
        part = _field_parts(lhs_list, cand, toks, i, text, func in words.BINARY_FIELDS, sure,
                            reading)
        op = words.bound(text[:cand.start], text[cand.end:])
        if op and func == "params_total" and names_size(cand, model):
            # "over 175 billion" of GPT-3 (174.6B, known as 175B): a bound on its nominal
            # size, which may stand for the count it rounds
            edge = cand.value + (1 if "<" in op else -1) * precision.rounded_unit(cand) / 2
            part = Part(part.strict, f"({part.lenient} or {lhs_list[0]} {op[0]}= {literal(edge)})",
                        False, part.figures, part.reading + " (its nominal size, at its rounding)")
        parts.append(part)
        given.setdefault(lhs_list[0], []).append((len(parts) - 1, cand))
    if not any(p.sure for p in parts):  # a field bound by its noun: the symbols beside it
        parts += _by_symbol(toks, text, owners, nums, used, index)  # are its premises
    contrasted = {k for got in given.values() if not precision.one_value([t for _, t in got])
                  for k, _ in got}
    for lhs, got in given.items():
        if any(k in contrasted for k, _ in got):
            missing.append(f"{lhs} given two values (a contrast, not a claim of both)")
    return [p for k, p in enumerate(parts) if k not in contrasted], missing, name_figs


NEARNESS = "nearness only (to confirm)"  # a figure no word binds: never FALSE (`scan.settle`)
AMONG = ", said of the nearest of several models named (to confirm)"  # never FALSE either


def _by_symbol(toks, text, owners, nums, used, index) -> list:
    """"GPT-2 small has d = 768 and L = 12": a figure set to a conventional symbol of a
    field (`words.FIELD_SYMBOLS`: d the model width, L the layers, V the vocabulary), of
    the model the clause names. A symbol is no noun, and some documents use it otherwise:
    always a reading to confirm."""
    parts = []
    for t in nums:
        if id(t) in used or t.value.denominator != 1 or t.scale or t.tilde or t.about:
            continue
        m = words.FIELD_SYMBOL_BEFORE.search(text[max(0, t.start - 12):t.start])
        if not m:
            continue
        func = words.FIELD_SYMBOLS[m.group(1)]
        if words.SYMBOL_OTHERWISE.search(text):
            continue  # "L = 2048 tokens", "d = 128 per head": the letter is another quantity
        model, _ = _owner(owners, text, t.start)
        if model is None or not available(func):
            continue
        i = index[id(t)]
        parts.append(Part(f"{func}({model}) == {t.text.replace(',', '')}"
                          if t.plain else f"{func}({model}) == {int(t.value)}", sure=False,
                          figures=(i,), reading=f"{func} of {model}, stated {t.text} for the "
                          f"symbol {m.group(1)} (read by convention: to confirm)"))
    return parts


def _past_symbol(between: str) -> str:
    """The words between a field's noun and its figure, past the symbol the text gives the
    field there ("Number of Encoder Layers (L): 12", "Hidden size (d_model) = 768")."""
    m = words.SYMBOL_NAMED.match(between)
    return between[m.end():] if m else between


def _no_value(text: str, t: Tok, fs: int, fe: int) -> bool:
    """Whether figure t, paired with the field noun at fs..fe, is no value of the field: a
    piece of a number the tokens split (a decimal comma, an apostrophe group), a
    difference ("8 more layers than", "the difference ... is 8 layers") or a former value
    ("went from 64 KV heads to 8", "previously had a 2K context")."""
    if re.search(r"\d[,'’]$", text[:t.start]) or re.match(r"[,'’]\d", text[t.end:]) or (
            re.search(r"\d[ \u202f\u2009]$", text[:t.start]) and re.search(r"\d \d{3}", t.text)):
        return True  # "6,74 billion" (a decimal comma), "4'096", "6 738 415 616": a figure
        # the tokens split, read whole by no reading here
    clause = text[_clause_start(text, min(t.start, fs)):t.start]
    if t.end <= fs and words.COMPARATIVE.search(text, t.end, fs):
        return True  # "8 more layers than": the figure counts the difference
    if words.DIFFERENCE_SAID.search(text, 0, t.start):
        return True
    if words.FORMER.search(clause) or (words.FROM_BEFORE.search(text, 0, t.start) and
                                       words.CHANGE.search(text)):
        return True  # the value it had, or had before a change
    return False


_PER_KV_HEAD = re.compile(r"\s*(?:per|for each|for every|to each|sharing each|share each|"
                          r"share an?|sharing an?)\s+(?:kv|key[-/ ]?value|k/v)\s*(?:head|group)s?\b|"
                          r"\s*per\s+(?:group|kv group)\b", re.I)
def _same_field(model: str, sibling: str, func: str) -> bool:
    """Whether two releases hold the same value of a stored field. A count the catalogue
    computes is left to the row alone: Mistral 7B v0.1 and v0.3 differ by 6.3M parameters
    (v0.3's 768 extra vocabulary rows), below what a stated count usually resolves, and
    taking v0.3 too would make every count of "Mistral 7B" one to confirm."""
    from ffnverify.catalogue import get

    a, b = get(model), get(sibling)
    return not hasattr(a, func) or getattr(a, func) == getattr(b, func)


_VERSIONED = re.compile(r"[\s_-]v\d", re.I)
_GROUPS_OF = re.compile(r"\bgroups?\s+of\s+$", re.I)
_WIDTH_WORD = re.compile(r"width|wide|dim", re.I)
_FFN_SAID = re.compile(r"\b(?:ffns?|mlps?|feed[- ]?forward|experts?|intermediate)\b", re.I)
_ALL_BLOCKS = re.compile(r"\b(?:blocks|layers|decoder layers|transformer layers)\s+"
                         r"(?:together\s+)?(?:hold|have|contain|account for|carry)\s*~?$", re.I)
_IN_BLOCKS = re.compile(r"\s*(?:in|across)\s+(?:its|the|all)\s+(?:\d+\s+)?(?:transformer |decoder )?"
                        r"(?:blocks|layers)\b", re.I)  # "6.5B parameters in its 32 layers"
_KV_SAID = re.compile(r"\bkv\b|key[- /]value|\bcache\b", re.I)
_QUERY_HEADS = re.compile(r"\b(?:query|attention|q)\b", re.I)


def _in_product(text, t) -> bool:
    """Whether figure t is a factor written out ("× 8 heads ×")."""
    return bool(re.search(r"[×*]\s*$", text[max(0, t.start - 3):t.start])
                or re.match(r"\s*heads?\s*[×*]", text[t.end:]))


_TOKEN_FIELDS = ("context", "vocab", "sliding_window")
_TOKENS_AFTER = re.compile(r"[ \u00a0]?(?:-)?tokens?\b", re.I)
_WIDTH_FIELDS = ("d_model", "d_ff", "head_dim")
_WIDTH_AFTER = re.compile(r"[ \u00a0-]?(?:dimensional|dim\b|d\b|wide\b)", re.I)


def _own_noun(text, fields, t, func: str | None = None) -> bool:
    """Whether figure t is followed by a field noun of its own ("experts of 22B parameters
    each": 22B counts parameters, not the experts before it), or by a unit of another
    quantity ("1e999999 layers and 222222 FLOPs": 222222 counts FLOPs, not the layers;
    "at 4096 tokens: weights 13.5 GB": 4096 counts tokens, a field of tokens' only)."""
    if t.scale in ("bytes", "flops", "%") or words.OTHER_UNIT_AFTER.match(text, t.end):
        return True
    if func not in _TOKEN_FIELDS and _TOKENS_AFTER.match(text, t.end):
        return True
    if func not in _WIDTH_FIELDS and _WIDTH_AFTER.match(text, t.end):
        return True  # "hidden layers are 768-dimensional": a width, not a count of layers
    return any(
        fs >= t.end and words.NOUN_AFTER.match(text[t.end:fs]) for fs, _, _ in fields)


def _proportion(toks, i) -> bool:
    """Whether number i is a term of a proportion written `64:8` (a colon glued to a
    number on each side: a ratio or a time, "64:8 = 8"), not the value of a field."""
    def colon(k):
        return 0 < k < len(toks) - 1 and toks[k].kind == "OP" and toks[k].text == ":" and \
            toks[k - 1].kind == toks[k + 1].kind == "NUM" and \
            toks[k - 1].end == toks[k].start and toks[k].end == toks[k + 1].start
    return colon(i + 1) or colon(i - 1)


def _glued(toks, i) -> bool:
    """Whether number i runs into a word ("7b" written lower-case, "4bit"), is a multiple
    ("4 times the width") or has its scale written apart ("128 K"): a name, a unit, a
    ratio or a figure the tokens do not read at its scale, not a count."""
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    return nxt is not None and nxt.kind == "WORD" and (
        nxt.start == toks[i].end or nxt.lower in ("times", "fold", "x")
        or nxt.text in ("K", "k", "M", "B", "G", "T"))  # "128 K tokens": a scale apart


def _written_with(names, model: str, t: Tok, text: str) -> bool:
    """Whether the model's name as the text writes it carries figure t ("Llama 2 70B …
    70B"), or the model is not named in the text (a heading's): then the figure may be
    its nominal size. "GPT-3 has 175 billion parameters" names no size, so its 175
    billion is a measurement, read at its precision."""
    spans = [(s, e) for s, e, n in names if n == model and s >= 0]
    digits = re.match(r"\d+(?:\.\d+)?", t.text)
    if not spans or digits is None:
        return True
    pat = re.compile(rf"(?<![\d.]){re.escape(digits.group())}(?![\d])")
    return any(pat.search(text[s:e]) for s, e in spans)


def names_size(t: Tok, model: str, cell: bool = False) -> bool:
    """Whether figure t is a size its name writes (70B of llama-2-70b; in a table cell, 7B
    of mixtral-8x7b; in prose "experts of 7B parameters each" is the myth it is)."""
    m = re.search(r"x(\d+)([bm])$", model) if cell else None
    sizes = {size_of(model), int(m[1]) * 10 ** (9 if m[2] == "b" else 6) if m else None}
    return t.scale in ("B", "M", "billion", "million", "bn") and t.value in sizes \
        and t.unit >= _name_unit(model)  # "175.0B": a measurement


def _name_unit(model: str) -> Fraction:
    """The last place of the size in the model's name (`gpt-3-175b`: 10⁹; `qwen3-0.6b`:
    10⁸)."""
    m = re.search(r"(\d+)(?:\.(\d+))?([bm])$", model)
    if not m:
        return Fraction(0)
    return Fraction(10**9 if m.group(3) == "b" else 10**6, 10**len(m.group(2) or ""))


def field_by_heading(toks, text, model: str, field, origin: str) -> list:
    """A figure the unit does not bind to any field, under a heading that names one field
    and nothing else (`structure.Field`: "## vocab_size" over "The model has a lookup table
    with exactly 50,257 slots"): that field's value for `model`, a reading to confirm.
    Only when the unit names no field itself and states exactly one figure, a count that
    no arithmetic uses, and the section says that figure of no other field ("the
    embedding dimension (768 × 4 = 3072) ... back to 768" under "## hidden_dim")."""
    from ffnverify.scan.detect import meaningful_numbers

    if fields_in(text) or not available(field.func):
        return []
    nums = meaningful_numbers(text, toks)
    if len(nums) != 1:
        return []
    t = nums[0]
    i = next(k for k, x in enumerate(toks) if x is t)
    if t.ratio or t.scale or t.value.denominator != 1 or _in_arithmetic(toks, i) \
            or _glued(toks, i) or _range_of(toks, i) or words.bound(text[:t.start], text[t.end:]):
        return []
    if field.said.get(t.value):  # the section says this figure of another field
        return []
    lhs = f"{field.func}({model})"
    binary = field.func in words.BINARY_FIELDS
    strict, lenient = precision.strict(lhs, t), precision.lenient(lhs, t, binary=binary)
    heading = " ".join(field.heading.split())[:40]
    return [Part(strict, lenient, False, (i,), f"{field.func} of {model}, stated {t.text}: "
                 f"the field named by the heading “{heading}”, the model by {origin} (to confirm)")]

