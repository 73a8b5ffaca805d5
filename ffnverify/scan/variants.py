"""Statements about FFN variants, read by their phrases (docs/architecture.md §5.2): the
widths a document gives a gated and a plain FFN (`Context`, `learn`), percent changes and
ratios of parameters or compute between two variants (`comparisons`), "the same parameters
as" (`equalities`), `N matrix multiplications` of a variant (`matmul_counts`), the count
formulas `2·d·h` / `3·d·h`, Meta's Llama width rule, "two thirds of the parameters", and
the 2N/6N FLOPs rules. Each returns claim-language text; all but `matmul_counts` are
readings to confirm (`read.reading` marks them).
"""

import re
from dataclasses import dataclass, field
from fractions import Fraction

from ffnverify.scan import carried, words
from ffnverify.scan.arithmetic import approx_claim, is_op, is_word, num
from ffnverify.scan.numbers import Tok, literal, normalise, tokens
from ffnverify.scan.spelled import number_words


@dataclass
class Context:
    """What a document states once and later statements lean on: the widths it gives a
    gated and a plain FFN ("SwiGLU with 2.67·d", "ReLU with 4d")."""

    gated: Fraction | None = None
    plain: Fraction | None = None
    gated_text: str = ""
    plain_text: str = ""
    carried: dict = field(default_factory=dict)  # what earlier units state (carried.learn)


def variant_of(t: Tok) -> str | None:
    if t.kind != "WORD" or not words.VARIANT_HINT.search(t.text):
        return None
    low = t.lower
    for piece in re.split(r"[-']", low):
        if piece in words.VARIANTS:
            return words.VARIANTS[piece]
    return None


def widths(toks) -> list[tuple[int, Fraction, str]]:
    """(position, factor, text) of every width written as a multiple of d: 2.67D, 2.67·d,
    8/3×d_model, 8d/3, 4d, 4×d_model."""
    out = []
    n = len(toks)
    for i, t in enumerate(toks):
        if t.kind != "NUM" or t.scale:
            continue
        j = i + 1
        factor = t.value
        text = t.text
        if j + 1 < n and is_op(toks[j], "/") and toks[j + 1].kind == "NUM" and toks[j + 1].value:
            factor = factor / toks[j + 1].value
            text += "/" + toks[j + 1].text
            j += 2
        if j < n and is_op(toks[j], "×"):
            j += 1
        if j < n and toks[j].kind == "WORD" and toks[j].lower in words.WIDTH_WORDS \
                and 0 < factor <= words.WIDTH_FACTOR_MAX and not (i and is_op(toks[i - 1], "/")):
            # "SwiGLU at 8/3 width", "a ReLU FFN at 4× width": a multiple of d
            out.append((t.start, factor, text + "·d", toks[j].end))
            continue
        if j < n and toks[j].kind == "WORD" and toks[j].lower in words.D_WORDS:
            if i and is_op(toks[i - 1], "/"):
                continue
            end = toks[j].end
            if j + 2 < n and is_op(toks[j + 1], "/") and toks[j + 2].kind == "NUM" \
                    and toks[j + 2].value and factor == t.value:
                factor /= toks[j + 2].value  # 8d/3
                end = toks[j + 2].end
            if j + 2 < n and is_op(toks[j + 1], "×") and is_word(toks[j + 2], "d"):
                pass  # "2.67 × d × d" is a count, not a width; still read as 2.67·d
            out.append((t.start, factor, text + "·d", end))
    return out


_MENTIONS: dict = {}


def variant_mentions(toks) -> list[tuple[int, str]]:
    """(position, variant) of every variant the tokens name (memoised per token tuple)."""
    key = id(toks)
    hit = _MENTIONS.get(key)
    if hit is not None and hit[0] is toks:
        return hit[1]
    if len(_MENTIONS) > 4096:
        _MENTIONS.clear()
    found = _find_mentions(toks)
    _MENTIONS[key] = (toks, found)
    return found


_FFN_WORDS = ("ffn", "ffns", "mlp", "mlps", "feed-forward", "block", "blocks")


def _ffn_after(toks, k) -> bool:
    """Whether an FFN word follows at k, after at most a width written before it ("the
    standard 4d FFN", "a plain 4×-wide MLP")."""
    for _ in range(4):
        if k >= len(toks):
            return False
        t = toks[k]
        if t.kind == "WORD" and t.lower in _FFN_WORDS:
            return True
        if not (t.kind == "NUM" or (t.kind == "WORD" and t.lower in ("d", "wide", "width"))
                or (t.kind == "OP" and t.text in ("-", "×"))):
            return False
        k += 1
    return False


def _find_mentions(toks) -> list[tuple[int, str]]:
    out = []
    for i, t in enumerate(toks):
        v = variant_of(t)
        if v:
            out.append((t.start, v))
        elif t.kind == "WORD" and t.lower in words.PLAIN_WORDS | {"gated", "non-gated", "ungated"} \
                and _ffn_after(toks, i + 1):
            # any gated variant counts as SwiGLU does, any plain one as ReLU does
            out.append((t.start, "swiglu" if t.lower == "gated" else "relu"))
    dedup = []
    for pos, v in out:
        if not dedup or dedup[-1][1] != v:
            dedup.append((pos, v))
    return dedup


def assign(mentions, found_widths):
    """Each variant mention's width: the nearest one written after it (before the next
    mention), else none."""
    out, used = [], set()
    for k, (pos, v) in enumerate(mentions):
        nxt = mentions[k + 1][0] if k + 1 < len(mentions) else 10**9
        mine = [w for w in found_widths if pos < w[0] < nxt and w[0] not in used]
        if not mine:  # "the matched width of 8/3·d ... SwiGLU": a width just before it
            prev = mentions[k - 1][0] if k else -1
            mine = [w for w in found_widths if prev < w[0] < pos and w[0] not in used][-1:]
        if mine:
            used.add(mine[0][0])
        out.append((v, mine[0][1] if mine else None))
    return out


def _width_text(factor) -> str:
    if factor is None:
        return "h"
    return f"{literal(factor)}*d" if factor != 1 else "d"


def _pair(toks, text, context: Context, compute: bool):
    """The two variants compared and their widths, or None."""
    mentions = variant_mentions(toks)
    if len(mentions) < 2:
        return None
    found = widths(toks)
    if len(words.UNREAD_WIDTH.findall(text)) > len(found):
        return None  # "SwiGLU at 8/3 width": a width the sentence states and no reader reads
    assigned = assign(mentions[:2], found)
    (a, wa), (b, wb) = assigned
    if a == b:
        return None
    if words.FROM_TO.search(text):  # "moving from A to B adds 50%": B relative to A
        (a, wa), (b, wb) = (b, wb), (a, wa)
    notes = []
    equal = words.EQUAL_WIDTH.search(text)
    reduced = words.REDUCED_WIDTH.search(text)
    filled = []
    for v, w in ((a, wa), (b, wb)):
        if w is None and not equal:
            ctx = context.gated if v in words.GATED else context.plain
            if ctx is not None and (reduced or wa is not None or wb is not None or not compute):
                w = ctx
                notes.append(f"{v} at {literal(ctx)}·d as the document states it elsewhere")
            elif reduced:
                w = Fraction(8, 3) if v in words.GATED else Fraction(4)
                notes.append(f"{v} at {literal(w)}·d (the matched-parameter width)")
        filled.append(w)
    wa, wb = filled
    if (wa is None) != (wb is None):
        return None
    if wa is None:
        if not equal:
            return None  # no width stated, none said to be equal: no reading
        notes.append("at equal width h")
    return a, wa, b, wb, notes


def comparisons(toks, text, context: Context) -> tuple[list, list, list]:
    """Percent changes and ratios of parameters or compute between two variants (and the
    equal-width reading of a compute ratio read at other widths)."""
    parts, notes, other = [], [], []
    compute = bool(words.COMPUTE.search(text))
    params = bool(words.PARAMS.search(text)) or bool(words.REDUCE.search(text) and not compute)
    quantity = "flops" if compute and not (params and not re.search(
        r"compute|computation|flop", text, re.I)) else "params"
    percents = [t for t in toks if t.kind == "NUM" and t.scale == "%"]
    as_width = {w[0] for w in widths(toks)}  # "at 4× width" is a width, not a ratio
    ratios = [t for t in toks if t.kind == "NUM" and t.ratio and t.start not in as_width]
    ranged = {id(toks[i + 1]) for i, t in enumerate(toks[:-1]) if t.kind == "RANGE"} | \
        {id(toks[i - 1]) for i, t in enumerate(toks) if t.kind == "RANGE" and i}
    for t in percents:
        if id(t) in ranged:
            continue
        window = text[max(0, t.start - 40):t.end + 40]
        if words.EMPIRICAL.search(text[t.end:t.end + 25]):
            continue  # "1-2% accuracy", "3-5% improvement": measured, not counted
        q = "flops" if words.COMPUTE.search(window) else "params" if (
            words.PARAMS.search(window) or words.REDUCE.search(window)) else quantity
        pair = _pair(toks, text, context, q == "flops")
        if pair is None:
            continue
        a, wa, b, wb, why = pair
        ratio = f"{q}({a}, d, {_width_text(wa)}) / {q}({b}, d, {_width_text(wb)})"
        after = text[t.end:t.end + 40]
        if words.INCREASE.search(after) or words.INCREASE.search(text[max(0, t.start - 30):t.start]):
            parts.append(approx_claim(f"{ratio} - 1", t))
        elif words.REDUCE.search(window):
            parts.append(approx_claim(f"1 - {ratio}", t))
        else:
            continue
        notes += why
        break
    for t in ratios:
        if t.value in (0, 1) or parts:
            continue
        if re.search(r"\bnot\s+(?:~|about\s+)?$", text[max(0, t.start - 12):t.start]):
            continue  # "not 1.5× apart": a denial, not a ratio
        window = text[max(0, t.start - 60):t.end + 60]
        q = "flops" if words.COMPUTE.search(window) else "params" if words.PARAMS.search(window) else None
        if q is None:
            continue
        pair = _pair(toks, text, context, q == "flops")
        if pair is None:
            continue
        a, wa, b, wb, why = pair
        parts.append(approx_claim(f"{q}({a}, d, {_width_text(wa)}) / {q}({b}, d, {_width_text(wb)})",
                             t))
        if q == "flops" and (wa is not None or wb is not None):
            other.append(approx_claim(f"flops({a}, d, h) / flops({b}, d, h)", t))
        notes += why
        break
    return parts, notes, other


def matmul_counts(toks) -> list:
    """`3 matrix multiplications` (matrices, linear layers, projections) said of a named
    variant, and an elided `vs 2 for ReLU` after it."""
    parts = []
    mentions = variant_mentions(toks)
    if not mentions:
        return parts
    n = len(toks)
    for i, t in enumerate(toks):
        if t.kind != "NUM" or not t.plain or t.value.denominator != 1 or not 1 <= t.value <= 6:
            continue
        follow = " ".join(x.lower for x in toks[i + 1:i + 4] if x.kind == "WORD")
        if not re.match(r"(?:weight )?(?:matrix multiplications|matmuls?|matrices|"
                        r"linear layers|projections|weight matrices)", follow):
            continue
        before = [v for pos, v in mentions if pos < t.start]
        variant = before[-1] if before else None
        if variant:
            parts.append(f"matmuls({variant}) == {num(t)}")
        for j in range(i + 1, min(n - 3, i + 8)):
            if is_word(toks[j], "vs", "versus", "against") and toks[j + 1].kind == "NUM" \
                    and is_word(toks[j + 2], "for", "in") and variant_of(toks[j + 3]):
                parts.append(f"matmuls({variant_of(toks[j + 3])}) == {num(toks[j + 1])}")
                break
            # "GeGLU has 3 weight matrices where GELU has 2"
            if is_word(toks[j], "where", "while", "whereas", "but", "and") \
                    and variant_of(toks[j + 1]) and is_word(toks[j + 2], "has", "needs", "uses",
                                                           "takes", "have") \
                    and toks[j + 3].kind == "NUM" and toks[j + 3].plain:
                parts.append(f"matmuls({variant_of(toks[j + 1])}) == {num(toks[j + 3])}")
                break
    return list(dict.fromkeys(parts))


def equalities(toks, text, context: Context) -> list:
    """"SwiGLU at 8/3·d has the same parameters (FLOPs) as ReLU at 4·d": Q(A) == Q(B)."""
    said = (r"(?:same|equal|identical|matching|matched)\s+(?:number of\s+|total\s+)?"
            r"(?:parameters|params|weights|parameter count|flops|compute|cost)|"
            r"(?:parameters|params|weights|flops|compute|cost)\b[^.;]{0,60}?\b(?:are|is|stay|"
            r"remain)s?\s+(?:the\s+)?(?:same|equal|identical)|"
            r"match(?:es)?\s+the\s+(?:parameters|parameter count|flops|compute)")
    if not re.search(said, text, re.I) or re.search(
            r"\bnot\b[^.]{0,20}\b(?:same|equal)", text, re.I):
        return []
    q = "flops" if words.COMPUTE.search(text) else "params" if words.PARAMS.search(text) else None
    if q is None:
        return []
    pair = _pair(toks, text, context, q == "flops")
    if pair is None or pair[1] is None:
        return []
    a, wa, b, wb, _ = pair
    left, right = f"{q}({a}, d, {_width_text(wa)})", f"{q}({b}, d, {_width_text(wb)})"
    if re.search(r"(?:essentially|about|roughly|nearly|almost|approximately|practically|"
                 r"virtually)\s+(?:the\s+)?(?:same|equal)", text, re.I):
        return [f"approx({left}, {right}, rel=0.01)"]  # "essentially the same": within 1%
    return [f"{left} == {right}"]


def llama_width(text) -> list:
    """"d = 4096 and the Llama width h = 11008": Meta's rule at that d. Only where the text
    speaks of the rule: a config that names a Llama model and lists its d and d_ff
    ("Llama 3 8B: d_model = 4096, d_ff = 14336") claims no rule (Llama 3's 14336 is not it)."""
    if not re.search(r"meta'?s? (?:rule|width)|width rule|llama(?:'s)? (?:ffn |mlp )?(?:width|"
                     r"rule|formula)|multiple_of|8/3|2/3 ?(?:·|×|\*|of)", text, re.I):
        return []
    d = re.search(r"\bd(?:_model)?\s*=\s*([\d,]+\d)", text)
    h = re.search(r"\b(?:h|d_ff|hidden)\s*=\s*([\d,]+\d)", text)
    if not d or not h:
        return []
    return [f"width(llama, {d.group(1).replace(',', '')}) == {h.group(1).replace(',', '')}"]


def count_formulas(toks, text) -> list:
    """"a non-gated FFN has 2·d·h weights; a gated one has 3·d·h": params(v, d, h)."""
    if not words.PARAMS.search(text):
        return []
    mentions = variant_mentions(toks)
    parts = []
    clauses = re.split(r";|, while |, whereas | but ", text)
    offset = 0
    for clause in clauses:
        m = re.search(r"\b(\d+)\s*[·×*]?\s*d\s*[·×*]?\s*h\b", clause)
        if m:
            at = offset + m.start()
            before = [v for pos, v in mentions if pos < at]
            gated_one = re.search(r"(?<![-\w])gated\b", clause, re.I)
            variant = before[-1] if before else None
            if gated_one and (variant is None or variant not in words.GATED):
                variant = "swiglu"
            if variant:
                parts.append(f"params({variant}, d, h) == {m.group(1)}*d*h")
        offset += len(clause) + 1
    return parts


def thirds(text) -> list:
    """"two thirds of the parameters" (per layer, d_ff = 4·d, full attention)."""
    if not re.search(r"(?:ffn|mlp|feed[- ]?forward)", text, re.I) or not re.search(
            r"of (?:the |all )?(?:parameters|params|weights)", text, re.I):
        return []
    said = [v for _, v in number_words(text)]
    said += [Fraction(int(a), int(b)) for a, b in re.findall(r"\b(\d)\s*/\s*(\d)\b", text)]
    for value in said:
        if value in (Fraction(2, 3), Fraction(1, 2), Fraction(1, 3)):
            share = "params(relu, d, 4*d) / (params(relu, d, 4*d) + 4*d**2)"
            return [f"{share} == {literal(value)}"]
    return []


def flops_rules(text) -> list:
    """The 2N (forward) / 6N (training) FLOPs-per-token rules, for the FFN block."""
    m = re.search(r"\b([246])\s*[·×*]?\s*N\b|\b([246]) flops per (?:parameter|param)", text)
    if not m or not re.search(r"flop|compute", text, re.I):
        return []
    k = int(m.group(1) or m.group(2))
    passes = {2: "forward", 4: "backward", 6: "train"}
    return [f"flops(swiglu, d, h, pass={passes[k]}) == {k}*params(swiglu, d, h)"]


def learn(text: str, context: Context):
    """Record the widths a unit gives a gated and a plain FFN (and, in `carried`, the units
    before it and its table's rows)."""
    carried.learn(text, context)
    text = normalise(text)
    toks = tokens(text)
    found = widths(toks)
    if not found:
        return
    for v, w in assign(variant_mentions(toks), found):
        if w is None:
            continue
        if v in words.GATED and context.gated is None:
            context.gated = w
        elif v not in words.GATED and context.plain is None:
            context.plain = w
