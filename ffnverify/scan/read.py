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
- `N matrix multiplications` of a named variant; `X is E rounded up to a multiple of M`.

Parts to confirm (`suggested` at most): a figure paired with a field by nearness only, a
model the grammar does not give (two names as one subject, a model named in the sentence
before or in the section's heading), negated and refuted statements (read as the negation),
conditionals (a premise is not read; a counterfactual reads nothing of the real model),
comparisons of variants in percent or as a ratio (the widths come from the unit, else
from the document), "two thirds of the parameters", the 2N/6N FLOPs rules. A question
is read as nothing. The quantity readers (`quantities`) add their own parts.
"""

import re
from dataclasses import dataclass, field, replace
from fractions import Fraction

from ffnverify.claims.signatures import SIGNATURES
from ffnverify.scan import precision, quantities, words
from ffnverify.scan.detect import (
    elided_names,
    meaningful_numbers,
    models,
    near_misses,
    other_names,
    size_of,
)
from ffnverify.scan.numbers import SCALES, Tok, literal, normalise, number_words, tokens
from ffnverify.scan.parts import Part

VARIANTS = {"swiglu": "swiglu", "geglu": "geglu", "reglu": "reglu", "glu": "glu",
            "bilinear": "bilinear", "relu": "relu", "gelu": "gelu", "silu": "silu",
            "swish": "silu", "tanhglu": "tanhglu"}
GATED = {"swiglu", "geglu", "reglu", "glu", "bilinear", "tanhglu"}
PLAIN_WORDS = {"traditional", "standard", "vanilla", "classic", "classical", "plain",
               "ordinary", "dense"}
D_WORDS = {"d", "d_model", "dmodel", "dim", "hidden_size"}
REDUCE = re.compile(r"reduc|fewer|less\b|smaller|saving|saves?\b|cuts?\b|lower|drop", re.I)
INCREASE = re.compile(r"\bmore\b|larger|bigger|increase|\badds?\b|extra|higher|additional|"
                      r"\bgrow", re.I)
COMPUTE = re.compile(r"comput|flop|matmul|multiplication|\bcost|\bmacs?\b|throughput", re.I)
PARAMS = re.compile(r"param|weights", re.I)
EMPIRICAL = re.compile(r"accura|perplex|quality|perform|improv|speedup|faster|slower|"
                       r"benchmark|score|loss\b|latenc|neurons? inactive|sparsity|"
                       r"fine-?tun|downstream|tokens? for|training tokens", re.I)
REDUCED_WIDTH = re.compile(r"despite (?:the |its )?(?:parameter|param)|same (?:parameter|param)|"
                           r"(?:matched|equal|comparable|iso)[- ](?:parameter|param)|"
                           r"parameter[- ](?:matched|parity)|at (?:the )?reduced", re.I)
EQUAL_WIDTH = re.compile(r"(?:same|equal|identical|matched) (?:hidden |intermediate |ffn )?"
                         r"(?:width|size|dimension|d_ff)|at equal width", re.I)

FIELDS = [  # (pattern on lower-case text, claim function)
    (r"(?:kv|key[-/ ]?value|key_value)[-_ ]?heads?|query groups|kv groups", "kv_heads"),
    (r"head[- _]dim(?:ension)?s?|head size|per[- ]head (?:dimension|size)", "head_dim"),
    (r"(?:intermediate|ffn|mlp|feed[- ]?forward)(?: hidden)?(?: layer)?[ _](?:size|dimension|"
     r"width|dim)s?|\bd_?ff\b|intermediate_size|ffn_dim|\bhidden_dim\b|ffn hidden", "d_ff"),
    (r"hidden[ _]size|model (?:dimension|width|dim)|\bd_?model\b|embedding (?:dimension|size|"
     r"width)|residual (?:width|dimension|stream)|hidden dimension|\bwidth\b|\bdim\b|"
     r"\bn_embd\b|\bemb(?:ed)?_dim\b", "d_model"),
    (r"active experts|experts per token|experts active", "active_experts"),
    (r"\bexperts\b", "experts"),
    (r"(?:attention |query )?\bheads\b|(?<=-)head\b|\bn_?heads?\b|\bnum_(?:attention_)?heads\b",
     "heads"),
    (r"encoder (?:layers|blocks)\b|(?<=-)encoder\b", "encoder_layers"),
    (r"(?:decoder |transformer )?(?:layers|blocks)\b|(?<=-)(?:layer|block)\b|\bn_?layers?\b",
     "layers"),
    (r"vocab(?:ulary)?(?: size)?|tokens in (?:the |its )?vocabulary", "vocab"),
    (r"context (?:length|window|size)|sequence length|max(?:imum)? (?:sequence length|"
     r"positions)|(?<=-)token context|tokens? (?:of )?context|\bcontext\b", "context"),
    (r"\bparam(?:eter)?s\b|\bweights\b|(?<=-)param(?:eter)?\b|\bn_?params\b", "params_total"),
]
_FIELD_RES = [(re.compile(p, re.I), f) for p, f in FIELDS]
BINARY_FIELDS = {"context", "vocab"}  # `32K` read as 32,000 or 32,768
# a number bound to its field: "126 layers", "32-layer", "8 key/value heads", "6.7B total
# parameters" (the number, then at most one modifier, then the field's noun)
_NOUN_AFTER = re.compile(r"^[\s\"'“”‘’*_-]*(?:(?:total|decoder|transformer|attention|hidden|trainable|"
                         r"active|activated|non-embedding|non-embedding|model|query|ffn|mlp|"
                         r"routed|billion|million|learnable|embedding|in)\s+)?$", re.I)
# a field bound to its number: "hidden size of 8192", "layers: 32", "d_ff = 11008"
_NOUN_BEFORE = re.compile(r"^[\"'”’]?\s*(?:\)\s*)?(?:of|is|are|=|:|equals?|was|were|set to|of size|"
                          r"is set to|totals?|totalling|totaling|reaches|becomes|\(|,)?\s*"
                          r"(?:just |exactly |only |roughly |about |around |approximately |"
                          r"nearly |almost |over |under |at least |at most |up to |"
                          r"some |~)?\s*$", re.I)


@dataclass
class Reading:
    """What the scan read in one statement: its parts (`parts.Part`), the claim-making
    figures no part reads (`unread`, as written), and notes for the report."""

    parts: list  # Part records; the statement holds when all hold
    notes: list = field(default_factory=list)
    other: list = field(default_factory=list)  # other readings, decided and reported only
    unread: list = field(default_factory=list)
    polarity: str = ""

    @property
    def sure(self) -> bool:
        return all(p.sure for p in self.parts) and not self.unread


@dataclass
class Context:
    """What a document states once and later statements lean on: the widths it gives a
    gated and a plain FFN ("SwiGLU with 2.67·d", "ReLU with 4d")."""

    gated: Fraction | None = None
    plain: Fraction | None = None
    gated_text: str = ""
    plain_text: str = ""


def available(func: str) -> bool:
    return func in SIGNATURES


# ---- small token helpers -------------------------------------------------------------

def _num(t: Tok) -> str:
    return literal(t.value)


def _is_op(t, *ops):
    return t is not None and t.kind == "OP" and t.text in ops


def _word(t, *words):
    return t is not None and t.kind == "WORD" and t.lower in words


_VARIANT_HINT = re.compile(r"glu|lu\b|lu-|swish|bilinear", re.I)


def _variant_of(t: Tok) -> str | None:
    if t.kind != "WORD" or not _VARIANT_HINT.search(t.text):
        return None
    low = t.lower
    for piece in re.split(r"[-']", low):
        if piece in VARIANTS:
            return VARIANTS[piece]
    return None


def _approx(lhs: str, t: Tok, op: str = "≈") -> str:
    """`lhs ≈ t` with the precision t states (a literal when the language reads it the
    same way, else approx(..., abs=half a unit))."""
    if op != "≈":
        return f"{lhs} {op} {_num(t)}"
    if t.unit == 0:
        return f"{lhs} == {_num(t)}"
    if t.plain and t.scale in ("", "%"):
        text = t.text.rstrip("×x ").replace(",", "")
        if re.fullmatch(r"\d+(?:\.\d+)?%?", text):
            return f"{lhs} ≈ {text}"
    return f"approx({lhs}, {_num(t)}, abs={literal(t.unit / 2)})"


# ---- arithmetic as written -------------------------------------------------------------

_ARITH_OPS = {"+", "-", "×", "/", "^", "(", ")"}
_COMPARE = {"=": "==", "≈": "≈", "≠": "!=", "<": "<", ">": ">", "≤": "<=", "≥": ">="}


def _runs(toks):
    run = []
    for t in toks:
        if t.kind == "NUM" and t.ratio and run:  # "≈ 2.67×": the run ends with it
            run.append(t)
            yield run
            run = []
            continue
        ok = (t.kind == "NUM" and not t.ratio) or (
            t.kind == "OP" and (t.text in _ARITH_OPS or t.text in _COMPARE or t.text == "~"))
        if ok:
            run.append(t)
        else:
            if run:
                yield run
            run = []
    if run:
        yield run


def _stated(t: Tok) -> str:
    """`t` as a literal that states the precision it was written with, for the right side
    of `≈`: `1.8 × 10⁹` as `18e8` (±0.5e8 under the claim language's ≈ rule), where its
    exact value `1800000000` would state ±0.5; exact where its unit is no power of ten."""
    unit = t.unit
    if not unit or unit == 1 or unit.denominator != 1 or t.value.denominator != 1:
        return _num(t)
    k = len(str(unit.numerator)) - 1
    if unit != 10**k or t.value % unit:
        return _num(t)
    return f"{t.value // unit}e{k}"


def _expression(side, stated: bool = False) -> str | None:
    """A side of a comparison as claim text, or None when it is not an expression; with
    `stated`, each number keeps its stated precision (`_stated`)."""
    while side and _is_op(side[0], ")"):
        side = side[1:]
    while side and _is_op(side[-1], "(", "×", "+", "-", "/", "^"):
        side = side[:-1]  # "= 1,280 (× KV heads)": the run ends at the result
    while side and _is_op(side[-1], ")") and sum(_is_op(t, ")") - _is_op(t, "(")
                                                 for t in side) > 0:
        side = side[:-1]  # "(768 × 4 = 3072)": the closing parenthesis of the aside
    depth = 0
    for t in side:
        depth += _is_op(t, "(") - _is_op(t, ")")
        if depth < 0:
            return None
    if depth > 0:  # an unbalanced "(" opened before the run
        while side and _is_op(side[0], "(") and depth > 0:
            side, depth = side[1:], depth - 1
        if depth:
            return None
    if not side:
        return None
    out, expect_operand = [], True
    for t in side:
        if t.kind == "NUM":
            if not expect_operand:
                return None
            shown = _stated(t) if stated else _num(t)
            out.append(shown if not t.power else f"({shown})")
            expect_operand = False
        elif t.text == "(":
            if not expect_operand:
                if t.space_before:  # "3 (2+4)": two expressions side by side, no product
                    return None
                out.append("*")  # "3(2+4)" is written as a product
            out.append("(")
            expect_operand = True
        elif t.text == ")":
            if expect_operand:
                return None
            out.append(")")
        elif t.text == "~":
            if not expect_operand:
                return None
        else:
            if expect_operand and t.text != "-":
                return None
            out.append({"×": "*", "^": "**"}.get(t.text, t.text))
            expect_operand = True
    if expect_operand:
        return None
    return " ".join(out).replace("( ", "(").replace(" )", ")")


def _value(side) -> Fraction | None:
    """The exact value of a side made of numbers and + - × / ^ ( ), computed on the
    tokens (bounded powers); None if it is anything else."""
    out, ops = [], []
    prec = {"+": 1, "-": 1, "×": 2, "/": 2, "^": 3}

    def apply():
        op = ops.pop()
        if len(out) < 2:
            raise ValueError
        b, a = out.pop(), out.pop()
        if op == "+":
            out.append(a + b)
        elif op == "-":
            out.append(a - b)
        elif op == "×":
            out.append(a * b)
        elif op == "/":
            if b == 0:
                raise ValueError
            out.append(a / b)
        else:
            if b.denominator != 1 or not 0 <= b <= 64 or abs(a) > 10**12:
                raise ValueError
            out.append(a ** int(b))

    try:
        for t in side:
            if t.kind == "NUM":
                out.append(t.value)
            elif t.text == "(":
                ops.append("(")
            elif t.text == ")":
                while ops and ops[-1] != "(":
                    apply()
                if not ops:
                    return None
                ops.pop()
            elif t.text in prec:
                while ops and ops[-1] != "(" and (prec[ops[-1]] > prec[t.text] or (
                        prec[ops[-1]] == prec[t.text] and t.text != "^")):
                    apply()
                ops.append(t.text)
            elif t.text != "~":
                return None
        while ops:
            if ops[-1] == "(":
                return None
            apply()
    except (ValueError, ZeroDivisionError, OverflowError):
        return None
    return out[0] if len(out) == 1 else None


def _terminates(x: Fraction) -> bool:
    d = x.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


def arithmetic(toks) -> tuple[list, bool]:
    """Parts for every comparison of numbers written out in the unit; and whether one
    leans on a `~` number on its left (then it is only a reading). The strict reading
    takes the result as written, at its stated precision where it states one (`= 67.1M`
    is [67.05M, 67.15M]; a result no finite decimal states exactly, `8/3 × 2048 =
    5461.33`, at its last digit; a plain integer exactly); the lenient one adds the
    charitable readings of `precision.lenient`."""
    parts, unsure = [], False
    at = {id(t): i for i, t in enumerate(toks)}
    for run in _runs(toks):
        sides, ops, cur = [], [], []
        for t in run:
            if t.kind == "OP" and t.text in _COMPARE:
                sides.append(cur)
                ops.append(t.text)
                cur = []
            else:
                cur.append(t)
        sides.append(cur)
        if not ops:
            continue
        if not any(t.kind == "OP" and t.text in ("+", "-", "×", "/", "^") for s in sides
                   for t in s) and not any(t.power for s in sides for t in s):
            continue  # `d = 4` after a word, `32 = 32`: nothing computed
        texts = [_expression(s) for s in sides]
        for k, op in enumerate(ops):
            left, right = texts[k], texts[k + 1]
            if left is None or right is None:
                continue
            rhs_side = [t for t in sides[k + 1] if not _is_op(t, "~")]
            leans = any(t.tilde for t in sides[k] if t.kind == "NUM")
            unsure = unsure or leans
            if any(t.scale == "bytes" for s in sides for t in s):
                continue
            figs = tuple(at[id(t)] for t in sides[k] + sides[k + 1] if t.kind == "NUM")
            approx = op == "≈" or any(_is_op(t, "~") for t in sides[k + 1][:1])
            single = len(rhs_side) == 1 and rhs_side[0].kind == "NUM"
            if op == "=" and single and rhs_side[0].unit < 1 and rhs_side[0].scale == "":
                exact = _value(sides[k])
                if exact is not None and not _terminates(exact):
                    approx = True  # "8/3 × 2048 = 5461.33": no finite decimal is exact
            if op == "=" and single and rhs_side[0].scale in SCALES and not approx:
                # "8,192 × 8,192 = 67.1M": a scaled figure states a rounded one (docs/architecture.md §5.2)
                strict = precision.strict(left, rhs_side[0])
            elif approx and single:
                strict = _approx(left, rhs_side[0])
            elif approx:  # the right side's figures at their stated precision
                strict = f"{left} ≈ {_expression(sides[k + 1], stated=True) or right}"
            else:
                strict = f"{left} {_COMPARE[op]} {right}"
            loose = strict
            if single and op in ("=", "≈") and rhs_side[0].unit:
                t = rhs_side[0]
                hedge = approx and (t.tilde or any(_is_op(x, "~") for x in sides[k + 1][:1]))
                loose = precision.lenient(left, _hedged(t) if hedge else t)
            parts.append(Part(strict, loose, not leans, figs,
                              f"arithmetic as written: {strict}"))
    return parts, unsure


# a result said in words after arithmetic with no `=`: "512 × 64, which is 32,768",
# "4096 × 4096 (i.e. 16,777,216)", "512 × 64 for the base model, which is 32,768"
_RESULT_LINK = re.compile(r"^\s*(?:is|are|gives|yields|equals|makes)\s*(?:about |roughly |"
                          r"approximately |~|≈)?\s*$|"
                          r"^\s*[,(]?\s*(?:(?:for|in|of|per) (?:the |a |an |each )?[A-Za-z_-]+"
                          r"(?: [A-Za-z_-]+){0,2}\s*,?\s*)?(?:which is|that is|that's|i\.e\.,?|"
                          r"giving|gives|yielding|yields|equals|for a total of)\s*"
                          r"(?:about |roughly |approximately |~)?\s*$", re.I)


def worded_results(toks, text) -> list:
    """Parts for arithmetic whose result follows in words, not after `=` (see
    `_RESULT_LINK`): read as `expression == result` at the result's precision, a reading to
    confirm (the words, not an `=`, tie the two)."""
    parts = []
    at = {id(t): i for i, t in enumerate(toks)}
    for run in _runs(toks):
        cuts = [k for k, t in enumerate(run) if t.kind == "OP" and t.text in _COMPARE]
        if cuts:  # "d_model × d_k = 512 × 64, which is 32,768": the part after the last
            if _expression(run[:cuts[-1]]) is not None:  # `=` when no numbers are before
                continue  # it (else `arithmetic` reads it)
            run = run[cuts[-1] + 1:]
        if not any(_is_op(t, "+", "-", "×", "/", "^") for t in run):
            continue
        expr = _expression(run)
        if expr is None or not re.search(r"\d\s*[-+*/]+\s*\(?\s*\d", expr):
            continue  # "4× (giving 16,384)": a ratio, not arithmetic
        last = at[id(run[-1])]
        nxt = next((k for k in range(last + 1, len(toks)) if toks[k].kind == "NUM"), None)
        if expr is None or nxt is None or toks[nxt].ratio or toks[nxt].scale == "bytes" \
                or any(t.scale == "bytes" for t in run):
            continue
        if not _RESULT_LINK.match(text[run[-1].end:toks[nxt].start]):
            continue
        if nxt + 1 < len(toks) and _is_op(toks[nxt + 1], "+", "-", "×", "/", "^", "="):
            continue  # the next figure starts an expression of its own
        t = toks[nxt]
        figs = tuple(at[id(x)] for x in run if x.kind == "NUM") + (nxt,)
        exact = precision.exact_count(t)
        strict = f"{expr} == {_num(t)}" if exact else precision.strict(expr, t)
        parts.append(Part(strict, strict if exact else precision.lenient(expr, t), False, figs,
                          f"arithmetic whose result is said in words: {expr} = {t.text}"))
    return parts


def _hedged(t: Tok) -> Tok:
    return t if t.tilde or t.about else replace(t, tilde=True)


# ---- expansions: 4096 → 16384 stated as 4× ----------------------------------------------

def expansions(toks) -> list:
    factors = [t for t in toks if t.kind == "NUM" and t.ratio]
    parts = []
    if not factors:
        return parts
    at = {id(t): i for i, t in enumerate(toks)}
    for i, t in enumerate(toks[:-2]):
        arrow = _is_op(toks[i + 1], "→") or (_word(toks[i + 1], "to") and i and _word(
            toks[i - 1], "maps", "map", "from", "expands", "widens", "grows", "projects"))
        if t.kind == "NUM" and arrow and toks[i + 2].kind == "NUM":
            a, b = t, toks[i + 2]
            if a.value == 0 or b.value == 0:
                continue
            factor = min(factors, key=lambda f: abs(f.start - t.start))
            big, small = (b, a) if b.value >= a.value else (a, b)
            claim = _approx(f"{_num(big)} / {_num(small)}", factor,
                            "≈" if factor.tilde or not factor.value.denominator == 1
                            else "==").replace(" = ", " == ")
            loose = precision.lenient(f"{_num(big)} / {_num(small)}", factor)
            parts.append(Part(claim, loose, True, (at[id(a)], at[id(b)], at[id(factor)]),
                              f"an expansion of {factor.text}"))
            break
    return parts


# ---- widths and variants -------------------------------------------------------------

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
        if j + 1 < n and _is_op(toks[j], "/") and toks[j + 1].kind == "NUM" and toks[j + 1].value:
            factor = factor / toks[j + 1].value
            text += "/" + toks[j + 1].text
            j += 2
        if j < n and _is_op(toks[j], "×"):
            j += 1
        if j < n and toks[j].kind == "WORD" and toks[j].lower in D_WORDS:
            if i and _is_op(toks[i - 1], "/"):
                continue
            end = toks[j].end
            if j + 2 < n and _is_op(toks[j + 1], "/") and toks[j + 2].kind == "NUM" \
                    and toks[j + 2].value and factor == t.value:
                factor /= toks[j + 2].value  # 8d/3
                end = toks[j + 2].end
            if j + 2 < n and _is_op(toks[j + 1], "×") and _word(toks[j + 2], "d"):
                pass  # "2.67 × d × d" is a count, not a width; still read as 2.67·d
            out.append((t.start, factor, text + "·d", end))
    return out


_MENTIONS: dict = {}


def _mentions(toks) -> list[tuple[int, str]]:
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


def _find_mentions(toks) -> list[tuple[int, str]]:
    out = []
    for i, t in enumerate(toks):
        v = _variant_of(t)
        if v:
            out.append((t.start, v))
        elif t.kind == "WORD" and t.lower in PLAIN_WORDS | {"gated", "non-gated", "ungated"} \
                and i + 1 < len(toks) and toks[i + 1].kind == "WORD" and toks[i + 1].lower in (
                    "ffn", "ffns", "mlp", "mlps", "feed-forward", "block", "blocks"):
            # any gated variant counts as SwiGLU does, any plain one as ReLU does
            out.append((t.start, "swiglu" if t.lower == "gated" else "relu"))
    dedup = []
    for pos, v in out:
        if not dedup or dedup[-1][1] != v:
            dedup.append((pos, v))
    return dedup


def _assign(mentions, found_widths):
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


_UNREAD_WIDTH = re.compile(r"\d(?:\s*/\s*\d+)?\s*(?:[×x·*]\s*)?(?:d\b|d_model\b|widths?\b|wide\b|"
                           r"hidden\b)", re.I)
_FROM_TO = re.compile(r"\b(?:from|replacing)\b[^.;]{1,60}?\b(?:to|with|by)\b", re.I)


def _pair(toks, text, context: Context, compute: bool):
    """The two variants compared and their widths, or None."""
    mentions = _mentions(toks)
    if len(mentions) < 2:
        return None
    found = widths(toks)
    if len(_UNREAD_WIDTH.findall(text)) > len(found):
        return None  # "SwiGLU at 8/3 width": a width the sentence states and no reader reads
    assigned = _assign(mentions[:2], found)
    (a, wa), (b, wb) = assigned
    if a == b:
        return None
    if _FROM_TO.search(text):  # "moving from A to B adds 50%": B relative to A
        (a, wa), (b, wb) = (b, wb), (a, wa)
    notes = []
    equal = EQUAL_WIDTH.search(text)
    reduced = REDUCED_WIDTH.search(text)
    filled = []
    for v, w in ((a, wa), (b, wb)):
        if w is None and not equal:
            ctx = context.gated if v in GATED else context.plain
            if ctx is not None and (reduced or wa is not None or wb is not None or not compute):
                w = ctx
                notes.append(f"{v} at {literal(ctx)}·d as the document states it elsewhere")
            elif reduced:
                w = Fraction(8, 3) if v in GATED else Fraction(4)
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
    compute = bool(COMPUTE.search(text))
    params = bool(PARAMS.search(text)) or bool(REDUCE.search(text) and not compute)
    quantity = "flops" if compute and not (params and not re.search(
        r"compute|computation|flop", text, re.I)) else "params"
    percents = [t for t in toks if t.kind == "NUM" and t.scale == "%"]
    ratios = [t for t in toks if t.kind == "NUM" and t.ratio]
    ranged = {id(toks[i + 1]) for i, t in enumerate(toks[:-1]) if t.kind == "RANGE"} | \
        {id(toks[i - 1]) for i, t in enumerate(toks) if t.kind == "RANGE" and i}
    for t in percents:
        if id(t) in ranged:
            continue
        window = text[max(0, t.start - 40):t.end + 40]
        if EMPIRICAL.search(text[t.end:t.end + 25]):
            continue  # "1-2% accuracy", "3-5% improvement": measured, not counted
        q = "flops" if COMPUTE.search(window) else "params" if (
            PARAMS.search(window) or REDUCE.search(window)) else quantity
        pair = _pair(toks, text, context, q == "flops")
        if pair is None:
            continue
        a, wa, b, wb, why = pair
        ratio = f"{q}({a}, d, {_width_text(wa)}) / {q}({b}, d, {_width_text(wb)})"
        after = text[t.end:t.end + 40]
        if INCREASE.search(after) or INCREASE.search(text[max(0, t.start - 30):t.start]):
            parts.append(_approx(f"{ratio} - 1", t))
        elif REDUCE.search(window):
            parts.append(_approx(f"1 - {ratio}", t))
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
        q = "flops" if COMPUTE.search(window) else "params" if PARAMS.search(window) else None
        if q is None:
            continue
        pair = _pair(toks, text, context, q == "flops")
        if pair is None:
            continue
        a, wa, b, wb, why = pair
        parts.append(_approx(f"{q}({a}, d, {_width_text(wa)}) / {q}({b}, d, {_width_text(wb)})",
                             t))
        if q == "flops" and (wa is not None or wb is not None):
            other.append(_approx(f"flops({a}, d, h) / flops({b}, d, h)", t))
        notes += why
        break
    return parts, notes, other


def matmul_counts(toks) -> list:
    """`3 matrix multiplications` (matrices, linear layers, projections) said of a named
    variant, and an elided `vs 2 for ReLU` after it."""
    parts = []
    mentions = _mentions(toks)
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
            parts.append(f"matmuls({variant}) == {_num(t)}")
        for j in range(i + 1, min(n - 3, i + 8)):
            if _word(toks[j], "vs", "versus", "against") and toks[j + 1].kind == "NUM" \
                    and _word(toks[j + 2], "for", "in") and _variant_of(toks[j + 3]):
                parts.append(f"matmuls({_variant_of(toks[j + 3])}) == {_num(toks[j + 1])}")
                break
            # "GeGLU has 3 weight matrices where GELU has 2"
            if _word(toks[j], "where", "while", "whereas", "but", "and") \
                    and _variant_of(toks[j + 1]) and _word(toks[j + 2], "has", "needs", "uses",
                                                           "takes", "have") \
                    and toks[j + 3].kind == "NUM" and toks[j + 3].plain:
                parts.append(f"matmuls({_variant_of(toks[j + 1])}) == {_num(toks[j + 3])}")
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
    q = "flops" if COMPUTE.search(text) else "params" if PARAMS.search(text) else None
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


_FRACTION_OF = re.compile(
    r"(?P<x>[\d.,]+)\s*(?:,\s*which\s+)?(?:is|are|=)\s+(?:exactly\s+|about\s+|roughly\s+)?"
    r"(?P<f>\d+\s*/\s*\d+|two thirds|two-thirds|one third|a third|half)\s+of\s+"
    r"(?:the\s+)?(?P<y>[\d.,]+)|"
    r"(?P<f2>two thirds|two-thirds|one third|a third|half|\d+\s*/\s*\d+)\s+of\s+"
    r"(?P<y2>[\d.,]+)\s+(?:is|are|=|gives)\s+(?:about\s+)?(?P<x2>[\d.,]+\d)", re.I)
_WORD_FRACTIONS = {"two thirds": "2/3", "two-thirds": "2/3", "one third": "1/3",
                   "a third": "1/3", "half": "1/2"}


def fractions_of(text) -> list:
    """"2048, which is 2/3 of 3072" and "two thirds of 16,384 is 10,922.67"."""
    parts = []
    for m in _FRACTION_OF.finditer(text):
        x, f, y = (m.group("x"), m.group("f"), m.group("y")) if m.group("x") else (
            m.group("x2"), m.group("f2"), m.group("y2"))
        xs = [t for t in tokens(x) if t.kind == "NUM"]
        ys = [t for t in tokens(y.rstrip(".,")) if t.kind == "NUM"]
        if len(xs) != 1 or len(ys) != 1:
            continue
        frac = _WORD_FRACTIONS.get(f.lower(), f.replace(" ", ""))
        lhs = f"{frac}*{_num(ys[0])}"
        parts.append(_approx(lhs, xs[0]) if xs[0].value.denominator != 1
                     else f"{lhs} == {_num(xs[0])}")
    return parts


def llama_width(text) -> list:
    """"d = 4096 and the Llama width h = 11008": Meta's rule at that d."""
    if not re.search(r"llama|meta'?s? (?:rule|width)|width rule", text, re.I):
        return []
    d = re.search(r"\bd(?:_model)?\s*=\s*([\d,]+\d)", text)
    h = re.search(r"\b(?:h|d_ff|hidden)\s*=\s*([\d,]+\d)", text)
    if not d or not h:
        return []
    return [f"width(llama, {d.group(1).replace(',', '')}) == {h.group(1).replace(',', '')}"]


def count_formulas(toks, text) -> list:
    """"a non-gated FFN has 2·d·h weights; a gated one has 3·d·h": params(v, d, h)."""
    if not PARAMS.search(text):
        return []
    mentions = _mentions(toks)
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
            if gated_one and (variant is None or variant not in GATED):
                variant = "swiglu"
            if variant:
                parts.append(f"params({variant}, d, h) == {m.group(1)}*d*h")
        offset += len(clause) + 1
    return parts


_ROUNDING = re.compile(
    # X is not itself the end of a computation ("8/3 × 4096 = 10922.67 rounded up ...")
    r"(?<![×*/·+\-^]\s)(?<![×*/·+\-^\d.,])"
    r"(?P<x>\d[\d,]*\d|\d)\s*,?\s+(?:which\s+)?(?:is|=|equals|comes from)\s+"
    r"(?:just\s+|exactly\s+)?"
    r"(?P<e>[\d\s/·×*().+-]+?)(?:\s*=\s*\d[\d,]*(?:\.\d+)?)?"  # E's value, shown
    r"\s*,?\s*rounded up to (?:a|the next|the nearest) multiple of\s+(?P<m>\d+)", re.I)


def rounding(toks, text) -> list:
    """`X is E rounded up to a multiple of M`, E numbers and operators only."""
    out = []
    for m in _ROUNDING.finditer(text):
        e = _expression(list(tokens(m.group("e"))))
        xs = [t for t in tokens(m.group("x")) if t.kind == "NUM"]
        if e is None or len(xs) != 1:
            continue
        out.append(f"round_up({e}, {m.group('m')}) == {_num(xs[0])}")
    return out


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


# ---- models --------------------------------------------------------------------------

# fields named by the words around a number rather than by a noun after it: "96 heads of
# 128 dimensions" (head_dim), "widens the FFN to 14,336" (d_ff)
_FIELDS_AROUND = [
    (re.compile(r"\bheads? of (?:size )?\d+[- ]?(dimensions?|dims?|each)\b", re.I), "head_dim"),
    (re.compile(r"\b(?:routes?|routed|routing|sends?|sent|dispatch(?:es|ed)?|activates?|"
                r"activated|selects?|selected|picks?)\b(?:(?!\bof\b)[^.;]){0,40}?\b\d+\s+"
                r"(experts?)\b", re.I),
     "active_experts"),  # "routes each token to 2 experts"
    (re.compile(r"\b(?:widens?|widened|grows?|grew|expands?|expanded|enlarges?|raises?|"
                r"increases?)\s+(?:the|its)\s+(?:ffn|mlp|feed-forward(?: layer)?|"
                r"intermediate size|hidden layer)\s+(to)\b(?=\s*~?\d)", re.I), "d_ff"),
]


def _fields(text):
    found = []
    taken = []
    for pattern, func in _FIELDS_AROUND:
        for m in pattern.finditer(text):
            taken.append((m.start(1), m.end(1)))
            found.append((m.start(1), m.end(1), func))
    for pattern, func in _FIELD_RES:
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
    if _is_op(nxt, "+", "-", "×", "/", "^", "=", "≈") and (
            after is None or after.kind != "WORD" or not nxt.text == "-"):
        return True  # "80-layer" is a compound word, not a subtraction
    if i >= 2 and _is_op(toks[i - 1], "+", "-", "×", "/", "^", "=", "≈") and \
            toks[i - 2].kind == "NUM":
        return True
    return False


_CLAUSE = re.compile(r"[;:,(]|\band\b|\bwhile\b|\bwhereas\b|\bbut\b|\bwith\b|\bthan\b|"
                     r"\bunlike\b|\bvs\.?|\bversus\b|—|–", re.I)


def _clause_start(text: str, at: int) -> int:
    last = 0
    for m in _CLAUSE.finditer(text, 0, at):
        last = m.end()
    return last


def _owner(names, text, at) -> tuple[str | None, bool]:
    """The model a figure at `at` is said of, and whether the grammar gives it: the only
    model the sentence names, or the one that opens the figure's own clause ("Unlike
    GPT-2 XL, GPT-3 has 96 layers"); two names joined as one subject ("Llama 2 7B and
    Mistral 7B have ...") or a figure before any name give no clear owner."""
    if not names:
        return None, False
    if len({n[2] for n in names}) == 1:
        return names[0][2], True
    before = [n for n in names if n[1] <= at]
    if not before:
        return names[0][2], False
    start = _clause_start(text, at)
    mine = [n for n in before if n[0] >= start]
    if len(mine) != 1:
        return before[-1][2], False
    earlier = [n for n in names if n[1] <= mine[0][0]]
    if earlier and re.fullmatch(r"[\s,]*(?:and|or|&|as well as)[\s,]*(?:both\s+)?",
                                text[earlier[-1][1]:mine[0][0]], re.I):
        return mine[0][2], False  # a coordinated subject: each, or both?
    return mine[0][2], True


def _scope(text: str, fs: int, fe: int, cand: Tok) -> tuple[str, bool]:
    """What a parameter figure counts: (part or "", per layer)."""
    lo = min(cand.start, fs)
    hi = max(cand.end, fe)
    start = _clause_start(text, lo)
    tail = re.split(r"[,;.(]|\band\b|\bwhile\b|\bbut\b", text[hi:hi + 40])[0]
    window = text[start:hi] + tail
    if re.search(r"\d\s+of\s+~?$", text[max(0, cand.start - 30):cand.start]):
        return "whole", bool(words.PER_LAYER.search(text[:hi] + tail))  # "N of M params"
    return words.scope(window), bool(words.PER_LAYER.search(text[:hi] + tail))


_PARTS = {"ffn": "ffn", "attention": "attention", "norms": "norms", "embedding": "embedding",
          "lm_head": "lm_head"}


def _params_lhs(model: str, part: str, per_layer: bool) -> tuple[list[str], bool] | None:
    """The quantity a parameter figure of that scope is compared with: one or more
    definitions (a charitable reader takes any), and whether the scope is clear."""
    if part == "whole":  # "the FFN holds N of M parameters": M is the whole, to confirm
        return [f"params_layer({model})" if per_layer else f"params_total({model})"], False
    if per_layer:
        if part in ("", "ffn", "attention", "norms"):
            return [f"params_layer({model}" + (f", part={part})" if part else ")")], True
        return None
    if part == "":  # counted with or without the learned position table (nanoGPT's
        return [f"params_total({model})",  # count leaves it out)
                f"params_total({model}) - params_total({model}, part=positions)"], True
    if part == "active":
        return [f"params_active({model})"], True
    if part == "non_embedding":
        base = f"params_total({model}) - params_total({model}, part=embedding)"
        return [base + f" - params_total({model}, part=positions)",
                base + f" - params_total({model}, part=positions)"
                f" - params_total({model}, part=lm_head)"], True
    if part in _PARTS:
        return [f"params_total({model}, part={part})"], True
    return [f"params_total({model})"], False  # "trainable": most likely the total


def _range_of(toks, i):
    """(low, high) tokens when number i is an end of a range `32–40` / `between 30 and
    35`, else None."""
    if i + 2 < len(toks) and toks[i + 1].kind == "RANGE" and toks[i + 2].kind == "NUM":
        return toks[i], toks[i + 2]
    if i >= 2 and toks[i - 1].kind == "RANGE" and toks[i - 2].kind == "NUM":
        return toks[i - 2], toks[i]
    if i + 2 < len(toks) and _word(toks[i + 1], "and", "to") and toks[i + 2].kind == "NUM" \
            and i and _word(toks[i - 1], "between", "from"):
        return toks[i], toks[i + 2]
    if i >= 3 and _word(toks[i - 1], "and", "to") and toks[i - 2].kind == "NUM" \
            and _word(toks[i - 3], "between", "from"):
        return toks[i - 2], toks[i]
    return None


def _field_parts(lhs_list, t, toks, i, text, binary, sure, reading):
    """Parts comparing each definition in `lhs_list` (any may hold) with figure i."""
    rng = _range_of(toks, i)
    at = {id(x): k for k, x in enumerate(toks)}
    if rng:
        lo, hi = rng
        pairs = [precision.interval(lhs, lo, hi) for lhs in lhs_list]
        figs = (at[id(lo)], at[id(hi)])
    else:
        op = words.bound(text[:t.start], text[t.end:])
        pairs = [(precision.strict(lhs, t, op), precision.lenient(lhs, t, op, binary))
                 for lhs in lhs_list]
        figs = (i,)
    strict = pairs[0][0]
    loose = pairs[0][1] if len(pairs) == 1 else "(" + " or ".join(p[1] for p in pairs) + ")"
    if not rng and len(pairs) == 1 and precision.exact_count(t) and not binary:
        loose = strict  # `32 layers`: an exact count, no other reading
    return Part(strict, loose, sure, figs, reading)


def model_claims(toks, text, names, given_sure: bool = True) -> tuple[list, list, set]:
    """Parts for `model field number` statements; the fields no claim function reads;
    and the figures that are names (a size repeating the model's name)."""
    parts, missing, name_figs = [], [], set()
    fields = _fields(text)
    index = {id(t): i for i, t in enumerate(toks)}
    nums = [t for i, t in enumerate(toks) if t.kind == "NUM" and not t.ratio
            and t.scale not in ("%", "bytes") and not any(s <= t.start < e for s, e, _ in names)
            and not _in_arithmetic(toks, i) and not _glued(toks, i)]
    used = set()
    owners = sorted([n if not _MODIFIER.match(text, n[1]) else (n[0], n[1], None)
                     for n in names] + [(a, b, None) for a, b in other_names(text)]
                    + [(a, b, None) for a, b, _, _ in near_misses(text)]
                    + [(a, b, None) for a, b in elided_names(text)])
    for fs, fe, func in fields:
        before = [t for t in nums if t.end <= fs and fs - t.end <= 24 and id(t) not in used]
        after = [t for t in nums if t.start >= fe and t.start - fe <= 24 and id(t) not in used]
        cand, bound = None, False
        if before and _NOUN_AFTER.match(text[before[-1].end:fs]) and not _DIFFERENCE.search(
                text[max(0, before[-1].start - 12):before[-1].start]) and not \
                _DIFFERENCE_AFTER.match(text, fe):
            cand, bound = before[-1], True
        elif after and _NOUN_BEFORE.match(text[fe:after[0].start]):
            cand, bound = after[0], True
        elif before and not re.search(r"[,;]|\band\b", text[before[-1].end:fs]):
            cand = before[-1]
        elif after and not re.search(r"[,;]", text[fe:after[0].start]):
            cand = after[0]
        if cand is None or (not bound and not given_sure):
            continue  # a model named elsewhere, and a number only near the field: no
        i = index[id(cand)]
        if func in BINARY_FIELDS and _INPUT.search(text[max(0, cand.start - 8):cand.start]):
            continue  # "at 128K context", "for 4096 tokens": a chosen input, not the field
        rng = _range_of(toks, i)
        if rng and any(x.scale in ("%", "bytes") for x in rng):
            continue  # "13–14 GB": a range of bytes is no count of a field
        model, clear = _owner(owners, text, cand.start)
        if model is None:
            continue
        used.add(id(cand))
        if func == "params_total" and _names_size(cand, model):
            name_figs.add(i)  # "the 70B model" beside Llama 2 70B: a name, not a count
            continue
        lhs_list, scope_clear = [f"{func}({model})"], True
        if func == "params_total":
            scope, per_layer = _scope(text, fs, fe, cand)
            got = _params_lhs(model, scope, per_layer)
            if got is None:
                missing.append(f"{scope} parameters per layer")
                continue
            lhs_list, scope_clear = got
        if not available(func):
            missing.append(func)
            continue
        sure = bound and clear and scope_clear and given_sure and not re.search(
            r"\brespectively\b", text, re.I)
        how = "its noun" if bound else "nearness only (to confirm)"
        reading = f"{lhs_list[0].split('(')[0]} of {model}, stated {cand.text} (bound by {how})"
        parts.append(_field_parts(lhs_list, cand, toks, i, text, func in BINARY_FIELDS, sure,
                                  reading))
    return parts, missing, name_figs


# a figure that is a difference, not a value: "an extra 8 layers", "48 layers fewer than"
_DIFFERENCE = re.compile(r"\b(?:extra|additional|another|more|fewer|less|by)\s+~?$", re.I)
_DIFFERENCE_AFTER = re.compile(r"\s*(?:fewer|more|less|greater|larger|smaller|extra|than|"
                               r"apart|difference)\b", re.I)
# a model name used as a modifier ("eight Mistral 7B experts", "a Llama-2-style count"):
# it describes something else, which is not that model
_MODIFIER = re.compile(r"(?:'s\s+(?:successor|predecessor|sibling|bigger|larger|smaller|"
                       r"draft|teacher|student|distilled|quantized|pruned))|"
                       r"[\s-]*(?:experts?|style|like|based|sized?|class|architecture|"
                       r"tokenizer|variant|derivatives?|fine-?tunes?|clones?|layers? of|"
                       r"blocks?)\b", re.I)
_INPUT = re.compile(r"\b(?:at|for|(?<!up )to|across)\s+(?:a\s+|an\s+)?~?$", re.I)


def _glued(toks, i) -> bool:
    """Whether number i runs into a word ("7b" written lower-case, "4bit"), is a multiple
    ("4 times the width") or has its scale written apart ("128 K"): a name, a unit, a
    ratio or a figure the tokens do not read at its scale, not a count."""
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    return nxt is not None and nxt.kind == "WORD" and (
        nxt.start == toks[i].end or nxt.lower in ("times", "fold", "x")
        or nxt.text in ("K", "k", "M", "B", "G", "T"))  # "128 K tokens": a scale apart


def _names_size(t: Tok, model: str) -> bool:
    """Whether figure t is the size written in the model's name (`70B` for llama-2-70b)."""
    size = size_of(model)
    return size is not None and t.scale in ("B", "M", "billion", "million", "bn") \
        and t.value == size and t.unit >= _name_unit(model)  # "175.0B": a measurement


def _name_unit(model: str) -> Fraction:
    """The last place of the size in the model's name (`gpt-3-175b`: 10⁹; `qwen3-0.6b`:
    10⁸)."""
    m = re.search(r"(\d+)(?:\.(\d+))?([bm])$", model)
    if not m:
        return Fraction(0)
    return Fraction(10**9 if m.group(3) == "b" else 10**6, 10**len(m.group(2) or ""))


def _field_of(cell: str):
    for pattern, func in _FIELD_RES:
        if pattern.fullmatch(cell.strip().lower()) or pattern.search(cell.lower()):
            return func
    return None


_SIZE_HEADER = re.compile(r"^\s*(?:size|model size|params?|parameters|#\s*params|"
                          r"model|name|variant|checkpoint)\s*(?:\(.*\))?\s*$", re.I)


def _cell_offsets(text: str, cells) -> list[int]:
    out, cursor = [], 0
    for c in cells:
        at = text.find(c, cursor) if c else -1
        out.append(at if at >= 0 else cursor)
        cursor = (at if at >= 0 else cursor) + len(c)
    return out


def row_claims(header, cells, text="", toks=(), subject=None) -> tuple[list, list, set]:
    """A table row: models per row (header names the fields) or fields per row (header
    names the models). The header binds each column (sure); a size column that repeats
    the row's model name is a name. Also returns the figures that are names. A row that
    names no model, under a heading that names one (`subject`), is read as said of it,
    its first cell naming the field: a reading to confirm."""
    parts, missing, name_figs = [], [], set()
    row_model = next((models(c)[0][2] for c in cells if models(c)), None)
    head_models = [(models(h)[0][2] if models(h) else None) for h in header]
    offsets = _cell_offsets(text, cells)
    pairs = []
    sure = True
    if not row_model and not any(head_models) and subject and cells \
            and _field_of(cells[0]) and not other_names(text):
        row_model, sure = subject, False
        header = (cells[0],) * len(cells)
    if row_model:
        for j in range(len(cells)):
            func = _field_of(header[j]) if j < len(header) else None
            pairs.append((row_model, func, j))
    elif any(head_models):
        func = _field_of(cells[0]) if cells else None
        if func:
            for j in range(1, len(cells)):
                if j < len(head_models) and head_models[j]:
                    pairs.append((head_models[j], func, j))
    for model, func, j in pairs:
        cell = cells[j]
        cell_toks = [t for t in tokens(normalise(cell)) if t.kind == "NUM"]
        figs = tuple(k for k, t in enumerate(toks) if t.kind == "NUM"
                     and offsets[j] <= t.start < offsets[j] + len(cell))
        if len(cell_toks) != 1 or cell_toks[0].scale == "%":
            continue
        t = cell_toks[0]
        head = header[j] if j < len(header) else ""
        if _names_size(t, model) and (func in (None, "params_total")
                                      and (_SIZE_HEADER.match(head) or func is None)):
            name_figs.update(figs)  # the size column repeats the name: "70B"
            continue
        if func is None:
            continue
        if not available(func):
            missing.append(func)
            continue
        lhs_list, scope_clear = [f"{func}({model})"], True
        if func == "params_total":
            scope = words.scope(head)
            got = _params_lhs(model, scope, bool(words.PER_LAYER.search(head)))
            if got is None:
                continue
            lhs_list, scope_clear = got
        pairs_text = [(precision.strict(lhs, t), precision.lenient(
            lhs, t, binary=func in BINARY_FIELDS)) for lhs in lhs_list]
        loose = pairs_text[0][1] if len(pairs_text) == 1 else \
            "(" + " or ".join(p[1] for p in pairs_text) + ")"
        parts.append(Part(pairs_text[0][0], loose, scope_clear and sure, figs,
                          f"{func} of {model} from the column {head!r}" if sure else
                          f"{func} of {model}, the model the section's heading names"))
    return parts, missing, name_figs


_SHAPE_HEADER = re.compile(r"^\s*(?:(?:weight|param(?:eter)?|tensor|squeezed)\s+)?shape\s*$", re.I)
_COUNT_HEADER = re.compile(r"^\s*(?:(?:number|no\.?|#|count) of )?(?:param(?:eter)?s?|weights|"
                           r"elements)(?: count| #)?\s*$|^\s*(?:#\s*)?params?\s*#?\s*$|"
                           r"^\s*numel\s*$", re.I)
_SHAPE_CELL = re.compile(r"^\s*[\(\[]\s*(\d+(?:\s*,\s*\d+)*)\s*,?\s*[\)\]]\s*$")


def shape_counts(header, cells, text, toks) -> list:
    """A parameter table's row (`Name | Shape | Number of parameters`): the product of
    the shape is the count. The header binds the columns, but a shape may be some other
    tensor's: a reading to confirm."""
    shapes = [j for j, h in enumerate(header) if _SHAPE_HEADER.match(h)]
    counts = [j for j, h in enumerate(header) if _COUNT_HEADER.match(h)]
    if len(shapes) < 1 or len(counts) != 1 or counts[0] >= len(cells):
        return []
    count = cells[counts[0]].replace(",", "").strip()
    m = _SHAPE_CELL.match(cells[shapes[0]]) if shapes[0] < len(cells) else None
    if not m or not count.isdigit():
        return []
    dims = [d.strip() for d in m.group(1).split(",")]
    offsets = _cell_offsets(text, cells)
    figs = tuple(k for k, t in enumerate(toks) if t.kind == "NUM" and any(
        offsets[j] <= t.start < offsets[j] + len(cells[j]) for j in (*shapes, counts[0])
        if j < len(cells)))
    claim = f"{' * '.join(dims)} == {count}"
    return [Part(claim, claim, False, figs, f"the shape {cells[shapes[0]].strip()} multiplied "
                 f"out against the column {header[counts[0]]!r}")]


# ---- the reading -----------------------------------------------------------------------

def learn(text: str, context: Context):
    """Record the widths a unit gives a gated and a plain FFN."""
    text = normalise(text)
    toks = tokens(text)
    found = widths(toks)
    if not found:
        return
    for v, w in _assign(_mentions(toks), found):
        if w is None:
            continue
        if v in GATED and context.gated is None:
            context.gated = w
        elif v not in GATED and context.plain is None:
            context.plain = w


_GIVEN = re.compile(r"^[A-Za-z][\w]{0,12}$")


def _givens(toks) -> set:
    """Figures that state a premise, not a claim: `d = 4096`, `h: 11008`, `n=8` (a symbol
    set to a number, with nothing computed)."""
    out = set()
    for i in range(2, len(toks)):
        t, op, name = toks[i], toks[i - 1], toks[i - 2]
        if t.kind == "NUM" and _is_op(op, "=", ":") and name.kind == "WORD" \
                and _GIVEN.match(name.text) and (name.text in D_WORDS or len(name.text) <= 2
                                                 or "_" in name.text) \
                and not (i + 1 < len(toks) and _is_op(toks[i + 1], "+", "-", "×", "/", "^")):
            out.add(i)
    return out


def _value_figures(toks, claim: str, candidates) -> tuple:
    """The figures of the statement whose values the claim states (how a string reader's
    claim is matched to the figures it reads)."""
    values = {t.value for t in tokens(claim) if t.kind == "NUM"}
    return tuple(i for i in candidates if toks[i].value in values)


def _results_said_of(parts, toks, clean, names) -> list:
    """Arithmetic whose result is then said of a named model's quantity ("In Llama 3 8B,
    the K and V projections hold `2 * 4096 * 4096 = 33554432` parameters") makes a second
    claim the arithmetic does not read: that part is a reading to confirm."""
    if not names:
        return parts
    fields = _fields(clean)
    out = []
    for p in parts:
        if p.sure and p.figures and p.reading.startswith("arithmetic"):
            last = toks[max(p.figures)]
            if any(fs >= last.end and _NOUN_AFTER.match(clean[last.end:fs])
                   for fs, _, _ in fields):
                p = replace(p, sure=False, reading=p.reading + " (the result is then said of "
                            "a model's quantity, which is not read)")
        out.append(p)
    return out


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
    if kind == "question":
        return [], kind, ["a question: it asks, it does not state"]

    def inside(p, spans):
        return any(a <= toks[i].start < b for i in p.figures for a, b in spans)

    out, notes = [], []
    if kind in ("refuted", "negated"):
        # a negation governs its own clause: a part outside it keeps its binding; a
        # refuted quotation makes every reading of the sentence one to confirm
        spans = words.refuted_spans(clean) if kind == "refuted" else words.negated_spans(clean)
        for p in parts:
            if inside(p, spans):
                out.append(_negate(p, "the statement refutes it" if kind == "refuted"
                                   else "the statement negates it"))
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
               for p in parts if p.reading.startswith("arithmetic") or not inside(p, premise)]
        if len(out) < len(parts):
            notes.append("a premise (\"if ...\") is not a claim: not read")
        if any(not p.sure for p in out):
            notes.append("a conditional statement: read as if stated, to confirm")
    return out, kind, notes


def reading(text: str, context: Context | None = None, header=(), cells=(),
            subject: str | None = None) -> Reading | None:
    """The parts `text` states (`parts.Part`), with the figures none of them reads.
    `subject`: the model the previous sentence of the same paragraph named, which "It has
    32 layers" speaks of (a reading to confirm). None when nothing is read."""
    context = context or Context()
    clean = re.sub(r"[ \t\r\n]+", " ", normalise(text))  # a sentence wrapped over lines
    toks = tokens(clean)
    parts, notes, names_read, missing = [], [], set(), []
    names = models(clean)
    near = near_misses(clean)
    if cells:
        got, miss, nf = row_claims(header, cells, clean, toks, subject)
        parts += got + shape_counts(header, cells, clean, toks)
        missing += miss
        names_read |= nf
    arith, _ = arithmetic(toks)
    parts += arith + worded_results(toks, clean)
    parts += expansions(toks)
    if names and not cells:
        got, miss, nf = model_claims(toks, clean, names)
        parts += got
        missing += miss
        names_read |= nf
    elif subject and not cells and not near and not other_names(clean):
        got, miss, nf = model_claims(toks, clean, [(-1, -1, subject)], given_sure=False)
        parts += got
        missing += miss
        if got:
            notes.append(f"read as said of {subject}, named before it (the sentence before, "
                         "or the section's heading)")
    nums = [i for i, t in enumerate(toks) if t.kind == "NUM"]
    for claim in matmul_counts(toks) + rounding(toks, clean) + fractions_of(clean):
        parts.append(Part(claim, claim, True, _value_figures(toks, claim, nums), claim))
    guessed, why, other = comparisons(toks, clean, context)
    notes += why
    for claim in (equalities(toks, clean, context) + llama_width(clean)
                  + count_formulas(toks, clean) + guessed
                  + thirds(clean) + flops_rules(clean)):
        parts.append(Part(claim, claim, False, _value_figures(toks, claim, nums), claim))
    subjects = tuple(n for n in names if not _MODIFIER.match(clean, n[1]))
    about = " | ".join(header)  # a table's header says what its columns measure
    if subjects:
        parts += quantities.read_quantities(toks, clean, subjects, about=about)
    elif subject and not near and not other_names(clean):  # the model named before it
        parts += quantities.read_quantities(toks, clean, (), subject=subject, about=about)
    else:
        parts += quantities.read_quantities(toks, clean, (), about=about)
    parts = list({p.strict: p for p in parts}.values())
    parts = _results_said_of(parts, toks, clean, names or ((0, 0, subject),) if subject else
                             names)
    parts, kind, why = _polarised(parts, toks, clean)
    notes += why
    if missing:
        notes.append("no claim function yet for " + ", ".join(sorted(set(missing))))
    for s, e, row, what in near:
        notes.append(f"{clean[s:e]!r} is not the catalogue's {row} ({what}); "
                     "name the row to check it")
    if not parts:
        return Reading([], notes, polarity=kind) if notes else None
    read = set().union(*(p.figures for p in parts)) | names_read | _givens(toks)
    said = {toks[i].value for i in read if toks[i].kind == "NUM"}
    index = {id(t): i for i, t in enumerate(toks)}
    unread = [t.text for t in meaningful_numbers(clean, toks)  # a figure restated (the
              if index.get(id(t)) not in read and t.value not in said  # operands of a
              and not _is_name_fig(t, near)]  # sum written out after it) is read with it
    return Reading(parts, notes, other, unread, kind)


def _is_name_fig(t, near) -> bool:
    return any(s <= t.start < e for s, e, _, _ in near)
