"""The scan's vocabulary, in one place (statcheck keeps its patterns together too): the
words that change how a figure is read — hedges, bound words, ranges, negation, refuted
quotations, conditionals, questions and scope — and the tolerance a hedge gets.

Every pattern runs on the normalised, case-folded text of one statement; none of them
is tuned to one document's wording.

Tolerances (the charitable, `lenient` reading of a figure; see `parts.Part`):
- a figure as written: half a unit in its last stated digit (`67.1M`: ±0.05M); an integer
  with trailing zeros (`67,100,000`, `16,000`) in a rounding context (the result of
  arithmetic, a hedge, `≈`) is rounded at its last non-zero digit when it keeps two
  significant digits or more (`±50,000`, `±500`);
- a hedged figure (`~`, about, roughly, around, nearly, approximately, almost, circa,
  some) holds within the widest of: one whole unit in its last stated digit (twice its
  stated precision); half a unit of a round figure's last non-zero digit (`~70B`:
  65B..75B; `about 200M`: 150M..250M); and 5% of the figure (`~69.5B`: 66.0B..73.0B) —
  a hedge says the figure is itself approximate and states no precision of its own, and
  5% is the band the corpus's independent evaluator also gives "about" (tests/scan/
  corpus_v3/README.md). The strict reading of a hedged figure is half a unit of its last
  digit, so one that holds only in the wider band is `suggested`, never `checked`;
- `K`/`M`/`G` in a context length or a memory size, decimal or binary (`32K`: 32,000 or
  32,768); `GB` as GB or GiB (and `GiB` as GiB or GB).
"""

import re
from fractions import Fraction

# hedge words before a figure ("about 7B", "close to 32 layers"): the one table of them,
# read on text (`HEDGE`, `hedged`) and on tokens (`numbers`' `about` mark, `hedge_before`)
HEDGE_WORDS = ("about", "approx", "approximately", "roughly", "around", "nearly", "almost",
               "circa", "ca", "some", "ungefär")
HEDGE_PHRASES = ("close to", "on the order of", "in the region of")
HEDGE = re.compile(r"(?:~|≈|\b(?:" + "|".join(
    re.escape(w) for w in sorted(HEDGE_PHRASES + HEDGE_WORDS, key=len, reverse=True))
    + r")\s*~?)\s*$", re.I)
HEDGE_UNITS = 1  # a hedged figure holds within this many units of its last stated digit,
HEDGE_RELATIVE = Fraction(5, 100)  # or within this share of the figure, whichever is wider

# bound words, just before the figure: (pattern, comparison)
BOUNDS = [
    (re.compile(r"\b(?:at least|no (?:less|fewer) than|not (?:less|fewer) than|a minimum of|"
                r"minimum of|or more)\s*~?\s*$", re.I), ">="),
    (re.compile(r"\b(?:at most|no more than|not more than|up to|a maximum of|maximum of|"
                r"no greater than)\s*~?\s*$", re.I), "<="),
    (re.compile(r"(?:(?:^|[,(:;—–]|\b(?:has|have|had|with|of|to|on|at|is|are|was|were|be|by|for|in|"
                r"just|well|slightly|far|reach(?:es)?|contains?|holds?|uses?|needs?|takes?|"
                r"requires?|supports?|handles?|and|or|from|than|costs?))\s*\bover|\bmore than|greater than|"
                r"\babove|exceeds?|exceeding|upwards of|in excess of|north of)\s*~?\s*$", re.I), ">"),
    (re.compile(r"(?:(?:^|[,(:;—–]|\b(?:has|have|had|with|of|to|is|are|was|were|be|just|well|"
                r"slightly|far|needs?|takes?|uses?|supports?|handles?|fits?|and|or|at|on))\s*\bunder|"
                r"\bless than|fewer than|"
                r"\bbelow|south of|shy of)\s*~?\s*$", re.I), "<"),  # ("a router over 8 experts",
]  # "split over 4 GPUs": a preposition, no bound)
BOUND_AFTER = [  # "32 or more layers", "7B or fewer"
    (re.compile(r"^\s*(?:\w+\s+)?or (?:more|greater|higher|above)\b", re.I), ">="),
    (re.compile(r"^\s*(?:\w+\s+)?or (?:fewer|less|lower|below)\b", re.I), "<="),
    (re.compile(r"^\s*\+(?!\s*\d)", re.I), ">="),  # "32+ layers"
]
BETWEEN = re.compile(r"\bbetween\s*$", re.I)

# polarity: what the statement does with what it says
NEGATION = re.compile(r"\b(?:not(?!\s+(?:only|just|merely|less|fewer|more|greater)\b)|never|"
                      r"neither|nor|isn't|aren't|wasn't|weren't|doesn't|"
                      r"don't|didn't|hasn't|haven't|hadn't|won't|can't|cannot|shouldn't|"
                      r"wouldn't|couldn't|rather than|instead of|no longer)\b|n't\b", re.I)
# a quotation the text goes on to refute: what follows the marker is refuted ...
REFUTE_AHEAD = re.compile(r"\b(?:(?:it is|it's|it was) (?:not true|not the case|false|wrong|"
                          r"untrue|incorrect|a myth|mistaken) that|(?:a |the )?(?:common |popular |persistent |widespread )?"
                          r"(?:myth|misconception|misunderstanding|fallacy) (?:is )?that|"
                          r"contrary to|it is (?:often |commonly |widely |sometimes )?"
                          r"(?:claimed|said|believed|assumed|thought|stated|repeated)|"
                          r"(?:some|many|people|others|folks|blogs?|posts?|articles?|"
                          r"tweets?|threads?|answers?|summaries|sources?) "
                          r"(?:claim|say|believe|think|assume|argue|suggest|report|state|"
                          r"write|repeat)s?|(?:post|blog|article|tweet|thread|answer|"
                          r"summary|source|someone|people|others|many) (?:said|claimed|"
                          r"stated|wrote|reported|suggested|argued|insisted)|supposedly|allegedly|so-called|you (?:may|might|"
                          r"will) (?:read|hear|see)|(?:is|are) (?:sometimes |often |commonly )?"
                          r"(?:claimed|said|quoted|reported|believed) (?:to|that))\b", re.I)
# ... or what precedes it ("X is a myth", "the claim that X is wrong")
REFUTE_BEHIND = re.compile(r"(?:\b(?:is|are|was|were)|['’]s) (?:(?:simply|just|plainly|clearly|"
                           r"completely|totally|entirely|demonstrably|actually|quite) )?"
                           r"(?:a |an )?(?:common |popular )?"
                           r"(?:myth|misconception|wrong|incorrect|false|mistaken|untrue|"
                           r"not true|not correct|a mistake|an error)\b(?!\s+that)|\bdebunked\b",
                           re.I)
# the subject of a refutation that points back at the clause before it ("..., but that is
# wrong", "— this figure is false"): then that clause is what is refuted
REFUTE_POINTER = re.compile(r"\W*(?:that|this|it|which|these|those|such|the)(?:\s+(?:claim|"
                            r"figure|number|statement|one|idea|belief|count|value|assertion|"
                            r"part|bit|last (?:part|bit)))?\s*$", re.I)
PIVOT = re.compile(r"\b(?:in fact|actually|in reality|however|but|whereas|rather|the truth "
                   r"is|really)\b|;|—", re.I)
CONDITIONAL = re.compile(r"\b(?:if|would|could|might|suppose|supposing|assume|assuming|"
                         r"imagine|hypothetical(?:ly)?|say we|let's say|were to|unless|"
                         r"whether|should we|in a world)\b|^\W*(?:were|had|should)\b", re.I)
# a width in bits beside a figure ("16 bits", "16-bit", "4 bit"): 8 to a byte
BIT_UNIT = re.compile(r"bits?", re.I)

QUESTION = re.compile(r"\?\s*[\"'”’)\]*]*\s*$")

# scope: which quantity a parameter figure counts (docs/architecture.md §4.3)
PER_LAYER = re.compile(r"\b(?:per[- ](?:layer|block)|(?:each|every|a single|one|in a)\s+"
                       r"(?:[\w.-]+\s+){0,4}?(?:layer|block))\b(?!\s*(?:s\b|of\b))", re.I)
# "32 layers, each with 202M parameters", "Each of its 32 layers has 202M", "202M
# parameters in each of its 32 layers": each (layer) said of the layers named before, so
# the figure in its phrase counts one layer (read on the text up to the figure / after it)
EACH_LAYER_BEFORE = re.compile(r"(?:\b(?:layers|blocks)\b[,;]?\s+(?:(?:which|that|and)\s+)?"
                               r"(?:each|every one(?: of them)?)\b|\beach of (?:[\w'’.-]+\s+)"
                               r"{0,4}?(?:layers|blocks)\b)(?:(?!\band\b|\btotal\b)[^,;.]){0,40}$", re.I)
EACH_LAYER_AFTER = re.compile(r"^[^,;.]{0,30}?\b(?:in|for|of) (?:each|every one) of (?:[\w'’.-]+\s+)"
                              r"{0,4}?(?:layers|blocks)\b", re.I)
PER_TOKEN = re.compile(r"\bper[- ]token\b|\beach token\b|\ba token\b", re.I)
SCOPES = [  # (pattern, part of the model) — first match wins
    (re.compile(r"\bnon[- ]?embedding\b", re.I), "non_embedding"),
    (re.compile(r"\b(?:active|activated)\b|\bused (?:per|for each|for every|on each|in each) "
                r"(?:token|forward pass)\b|\bparam(?:eter)?s? per token\b", re.I), "active"),
    (re.compile(r"\b(?:ffn|mlp|feed[- ]?forward|expert)s?\b", re.I), "ffn"),
    (re.compile(r"\battention\b|\bself-attention\b|\bq,? ?k,? ?v\b", re.I), "attention"),
    (re.compile(r"\b(?:embeddings?|vocab(?:ulary)? matri|W_E\b|wte\b|embed_tokens)", re.I), "embedding"),
    (re.compile(r"\b(?:lm[- _]head|output (?:layer|projection|head)|unembedding|W_U)\b", re.I),
     "lm_head"),  # W_E, W_U: the embedding and unembedding as TransformerLens names them
    (re.compile(r"\b(?:norm|norms|layernorm|rmsnorm)\b", re.I), "norms"),
    (re.compile(r"\b(?:trainable|learnable)\b", re.I), "unsure"),
    (re.compile(r"(?<!layers )(?<!blocks )\baccounts? for\b", re.I), "a part's"),  # unnamed
    (re.compile(r"\b(?:total|in all|overall|all told|altogether)\b", re.I), "total"),
]

# identity: words after a model's name that make it another release
VARIANT_SUFFIX = re.compile(r"[\s_-]*(?:chat|instruct|python|vision|long|v\d[\w.]*|sft|dpo|rlhf|"
                            # a release for another language or casing ("bert-base-chinese",
                            # "BERT-base cased", "Llama-2-7b-zh"): another vocabulary
                            r"chinese|multilingual|cased|japanese|korean|german|french|"
                            r"arabic|russian|zh|ja|ko|jp|wwm|alpaca|"
                            r"\d+k)(?![\w])|[_-](?:it|code)(?![\w])|"
                            # a size or size word after the name ("GPT-3 Small", "GPT-3
                            # 6.7B"): a sibling the bare name does not identify
                            r"[\s_-]+(?:small|medium|large|xl|xxl|ada|babbage|curie|davinci|"
                            r"\d+(?:\.\d+)?\s?[bm])(?![\w])|"
                            # a release dated after the name ("OLMo 7B April 2024",
                            # "OLMo-7B-0424"): another checkpoint, maybe another shape
                            r"[\s_-]+(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|"
                            r"june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|"
                            r"nov(?:ember)?|dec(?:ember)?)\.?\s+(?:19|20)\d\d\b|"
                            r"-(?:0[1-9]|1[0-2])\d\d(?![\w.])", re.I)
VARIANT_PREFIX = re.compile(r"(?:\bcode|\bchat|\bvision|\bcodellama|\bchinese|\bmultilingual|"
                            r"中文|\bjapanese)[\s_-]*$", re.I)


def hedged(before: str) -> bool:
    """Whether the text just before a figure hedges it."""
    return bool(HEDGE.search(before[-24:]))


def hedge_before(words_before: list[str]) -> bool:
    """Whether the words just before a figure (lower case, in order) end with a hedge of
    `HEDGE_WORDS` or `HEDGE_PHRASES`."""
    if words_before and words_before[-1] in HEDGE_WORDS:
        return True
    return any(words_before[-len(p.split()):] == p.split() for p in HEDGE_PHRASES)


def bound(before: str, after: str = "") -> str:
    """The comparison a bound word before (or after) a figure gives it, or ""."""
    for pattern, op in BOUNDS:
        if pattern.search(before[-28:]):
            return op
    for pattern, op in BOUND_AFTER:
        if pattern.search(after[:24]):
            return op
    return ""


# a statement labelled as wrong before it ("Wrong: X", "Myth — X", "❌ X"): X is refuted
LABEL_REFUTED = re.compile(r"^[\s*_#>|-]*(?:(?:wrong|false|incorrect|myth|untrue|not true|bad|"
                           r"misconception|fallacy)\s*[:—–-]|[❌✗✘🚫⛔])", re.I)
# a question not ending in "?": a quiz, an exercise, an indirect question
QUESTION_LEAD = re.compile(r"^\W*(?:(?:true or false|quiz|question|q|exercise|puzzle|test "
                           r"yourself)\s*[:.)]|(?:show|prove) that\b|(?:check|verify|determine|"
                           r"find out) (?:whether|if)\b)|\b(?:wonder(?:s|ed|ing)?|ask(?:s|ed|ing)?|unclear|unknown|"
                           r"not sure|nobody knows|no one knows|don['’]t know|check|verify|"
                           r"see) (?:whether|if)\b", re.I)


def refuted_spans(text: str) -> list[tuple[int, int]]:
    """The stretches of `text` it quotes in order to refute them."""
    label = LABEL_REFUTED.match(text)
    spans = [(label.end(), len(text))] if label else []
    for m in REFUTE_AHEAD.finditer(text):
        pivot = PIVOT.search(text, m.end())
        end = pivot.start() if pivot else len(text)
        if m.group().lower().startswith("contrary to"):  # "contrary to X, Y": X only
            comma = text.find(",", m.end())
            end = min(end, comma) if comma >= 0 else end
        spans.append((m.end(), end))
    for m in REFUTE_BEHIND.finditer(text):
        pivots = [p for p in PIVOT.finditer(text, 0, m.start())]
        start = pivots[-1].end() if pivots else 0
        end = m.start()
        if pivots and REFUTE_POINTER.fullmatch(text, start, end):  # "X, but that is wrong":
            end = pivots[-1].start()  # the clause before the pivot is the refuted one
            start = pivots[-2].end() if len(pivots) > 1 else 0
        spans.append((start, end))
    return spans


def negated_spans(text: str) -> list[tuple[int, int]]:
    """The stretches a negation governs: from the word to the end of its clause."""
    out = []
    for m in NEGATION.finditer(text):
        end = re.search(r"[,;.:!?]|\b(?:but|while|whereas|and)\b|—", text[m.end():])
        out.append((m.start(), m.end() + (end.start() if end else len(text))))
    return out


ANTECEDENT = re.compile(r"\b(?:if|suppose|supposing|assume|assuming|imagine|say|unless|"
                        r"when(?:ever)?|given)\b|^\W*(?:were|had|should)\b", re.I)


COUNTERFACTUAL = re.compile(r"^\W*(?:were|had|should)\b|\bif\b[^,;]{0,80}\b(?:had|were)\b|\bwould have "
                            r"(?:had|been|needed)\b|\b(?:without|before) (?:gqa|mqa|grouped|multi-query)", re.I)
MODAL = re.compile(r"\b(?:would|could|might)\b|['’]d\b", re.I)
# a model the sentence imagines ("a model like Llama 2 7B", "a hypothetical Llama 2 7B")
IMAGINED = re.compile(r"\b(?:a|an|any|some|one)\s+(?:[\w-]+\s+){0,2}?(?:model|network|"
                      r"transformer|llm|variant|version|architecture)s?\s+(?:like|such as|"
                      r"similar to|modelled on|modeled on)\b|\b(?:hypothetical|imaginary|"
                      r"imagined|fictional|made-up)\b", re.I)
# a premise a modal sentence attaches to its subject ("X with 64 layers would ..."; "X,
# grown to 64 layers, would ..."): as if it said "if X had 64 layers"
WITH_PREMISE = re.compile(r"\b(?:with|having|(?:grown|scaled|cut|reduced|increased|"
                          r"shrunk|expanded|doubled|halved|extended)\s+(?:up |down )?to)\b",
                          re.I)

WITH_INPUT = re.compile(r"\b(?:context|tokens?|sequences?|batch(?:es)?|prompts?|bits?|precision|"
                        r"quanti[sz]\w*|fp\d+|bf16|int\d+|float\d+|half|dtype|GPUs?)\b|-bit\b",
                        re.I)


def counterfactual(text: str) -> bool:
    """An imagined model ("If Llama 2 7B had 40 layers, it would have ...", "Were GPT-2
    to use 24 layers ...", "A model like Llama 2 7B with 64 layers would be ..."), or
    one derived from it (`DERIVED`): nothing in it is said of a real one."""
    if DERIVED.search(text):  # "In our fork of X we use 40 layers": not X itself
        return True
    modal = MODAL.search(text)
    return bool(modal) and (bool(COUNTERFACTUAL.search(text)) or bool(
        IMAGINED.search(text, 0, modal.start())))


def antecedents(text: str) -> list[tuple[int, int]]:
    """The "if ..." clauses: a premise the statement sets up, not a thing it asserts
    (from the word to the next comma, "then" or semicolon)."""
    out = []
    for m in ANTECEDENT.finditer(text):
        if m.group().lower() in ("when", "whenever", "given", "say") and not CONDITIONAL.search(
                text):
            continue
        end = re.search(r",|;|\bthen\b|—|:", text[m.end():])
        out.append((m.start(), m.end() + (end.start() if end else len(text))))
    modal = MODAL.search(text)
    if modal:  # "Llama 2 7B with 64 layers would need ...": the phrase up to the modal,
        # after a subject, and no input of the computation ("With 100K
        # tokens of context, that would be 6.5 GB", "Llama 2 7B with 4-bit weights")
        for m in WITH_PREMISE.finditer(text, 0, modal.start()):
            if re.search(r"\w", text[:m.start()]) and not WITH_INPUT.search(text, m.end(), modal.start()):
                out.append((m.start(), modal.start()))
    return out


# a figure the author reports or believes rather than states ("According to one blog, X
# has 40 layers", "X reportedly has", "I used to think X had"), and one of a model derived
# from a catalogue model ("In our fork of X we use 40 layers", "We trained X with 40
# layers"): read as if stated, to confirm (the polarity of a conditional)
ATTRIBUTED = re.compile(r"\b(?:according to|reportedly|rumou?red|allegedly|purportedly|"
                        r"(?:is|are|was|were) (?:said|believed|thought|rumou?red|reported|"
                        r"expected) to|(?:I|we) (?:used to |once |first )?(?:think|thought|"
                        r"believed?|assumed?|guess(?:ed)?)|in (?:my|our) (?:opinion|view))\b",
                        re.I)
DERIVED = re.compile(r"\b(?:our|my|their|a|an|the) (?:own )?(?:fork|variant|modification|"
                     r"re-?implementation|ablation|modified (?:version|copy)|custom "
                     r"(?:version|config))s? of\b|\bwe (?:trained|train|built|build|configured|"
                     r"configure|instantiated|modified|changed|pruned|extended|shrank|grew|"
                     r"re-?trained)\b|\b(?:for|in) (?:this|our|the|an|one) (?:ablation|"
                     r"experiment)s?\b|\b(?:in|for|with) (?:the|its|their|a) (?:next|upcoming|future|planned|"
                     r"later) (?:release|version|generation|iteration)s?\b", re.I)
# a sentence that opens with its premise ("Suppose X had 16 KV heads instead of 8", "What
# if ...", "Let's say ..."): conditional throughout, whatever it negates inside
LEADING_PREMISE = re.compile(r"^\W*(?:suppose|supposing|imagine|assume|assuming|let['’]s say|"
                             r"say|what if|if|were|had)\b", re.I)


def polarity(text: str) -> str:
    """"question", "refuted", "negated", "conditional" or "" for a plain statement."""
    if QUESTION.search(text) or QUESTION_LEAD.search(text):
        return "question"
    if refuted_spans(text):
        return "refuted"
    if LEADING_PREMISE.match(text):
        return "conditional"
    if NEGATION.search(text):
        return "negated"
    if CONDITIONAL.search(text) or ATTRIBUTED.search(text) or DERIVED.search(text):
        return "conditional"
    return ""


def scope(text: str) -> str:
    """The part of the model a parameter figure in `text` counts ("" for the total)."""
    for pattern, part in SCOPES:
        if pattern.search(text):
            return part
    return ""


# ---- the readers' vocabulary (variants, field nouns, binding words, table headers) ----
# FFN variants and what is said of them (`variants`)
VARIANTS = {"swiglu": "swiglu", "geglu": "geglu", "reglu": "reglu", "glu": "glu",
            "bilinear": "bilinear", "relu": "relu", "gelu": "gelu", "silu": "silu",
            "swish": "silu", "tanhglu": "tanhglu"}

GATED = {"swiglu", "geglu", "reglu", "glu", "bilinear", "tanhglu"}
PLAIN_WORDS = {"traditional", "standard", "vanilla", "classic", "classical", "plain",
               "ordinary", "dense"}
D_WORDS = {"d", "d_model", "dmodel", "dim", "hidden_size"}
# "8/3 width", "4× wide": a multiple of d when the factor is a small one (a width written
# as a count, "4096 width", is no multiple)
WIDTH_WORDS = {"width", "wide"}
WIDTH_FACTOR_MAX = 16

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
VARIANT_HINT = re.compile(r"glu|lu\b|lu-|swish|bilinear", re.I)
UNREAD_WIDTH = re.compile(r"\d(?:\s*/\s*\d+)?\s*(?:[×x·*]\s*)?(?:d\b|d_model\b|widths?\b|wide\b|"
                           r"hidden\b)", re.I)

FROM_TO = re.compile(r"\b(?:from|replacing)\b[^.;]{1,60}?\b(?:to|with|by)\b", re.I)

# field nouns (`fields`, `rows`): a figure binds to a field through these
FIELDS = [  # (pattern on lower-case text, claim function)
    (r"(?:kv|key[-/ ]?value|key_value)[-_ ]?heads?|query groups|kv groups", "kv_heads"),
    (r"head[- _]dim(?:ension)?s?|head size|per[- ]head (?:dimension|size)|\bd_?head\b|"
     r"(?:key|query)(?:/(?:key|query))? (?:dimension|dim|size)|"
     r"(?<=-)dim(?:ension(?:al)?)?s?\s+(?:attention\s+)?heads?\b|(?<=heads of )(?:dimension|dim|size)"
     r"(?= \d)", "head_dim"),  # "128-dim heads", "32 heads of dimension 128"
    (r"(?:intermediate|ffn|mlp|feed[- ]?forward)(?: hidden)?(?: layer)?[ _](?:size|dimension|"
     r"width|dim)s?|\bd_?ff\b|intermediate_size|ffn_dim|\bhidden_dim\b|ffn hidden|"
     r"(?:ffn|mlp|feed[- ]?forward)(?: (?:layer|block|network|sublayer)s?)?(?:'s)? (?:of|with)"
     r"(?: an?)? (?:hidden )?(?:width|size|dimension|dim)\b|"
     r"(?:intermediate|ffn|mlp|feed[- ]?forward) (?:hidden )?(?:units|neurons)\b|"
     r"(?<=\d )(?:ffn|mlp)(?=\s?(?:,|;|\)|and\b|$))",
     "d_ff"),  # "an FFN of width N", "11,008 intermediate units"
    (r"hidden[ _]size|model (?:dimension|width|dim)|\bd_?model\b|embedding (?:dimension|size|"
     r"width)|residual (?:width|dimension|stream)|hidden dimension|\bwidth\b|(?<!\d-)(?<!\d )\bdim\b|"
     r"\bn_embd\b|\bembd\b|\bemb(?:ed)?_dim\b|(?<=\d )hidden(?=\s?(?:,|;|\)|and\b|$))|"
     r"(?:(?<=\d-)|(?<=\d ))dimensional (?:token )?"
     r"(?:embeddings?|hidden states?|residual stream)\b(?! (?:per|for each|of each|in each) "
     r"(?:head|expert|layer))", "d_model"),
    (r"active experts|experts per token|experts active|experts? (?:are |is )?(?:routed|"
     r"activated|activates?|active|used|selected|chosen|fire|fires)(?: \w+){0,2}? (?:per|for each|for every|"
     r"to each|at a|each) (?:token|time)|experts? (?:are |is )?(?:active|activated)\b",
     "active_experts"),  # "two experts routed per token", "only 2 experts are active"
    (r"\bexperts\b", "experts"),
    (r"(?:attention |query )?\bheads\b|(?<=-)head\b|\bn_?heads?\b|\bnum_(?:attention_)?heads\b",
     "heads"),
    (r"encoder (?:layers|blocks)\b|(?<=-)encoder\b", "encoder_layers"),
    (r"(?:decoder |transformer )?(?:layers|blocks)\b|(?<=-)(?:layer|block)\b|\bn_?layers?\b",
     "layers"),
    (r"(?<=-)token vocab(?:ulary)?|vocab(?:ulary)?(?: size)?|tokens in (?:the |its )?vocabulary",
     "vocab"),  # "a 50,000-token vocabulary" as "a 4096-token context"
    (r"context (?:length|window|size)(?: size| length)?|max(?:imum)? (?:sequence length|"
     r"positions?(?: embeddings)?)|max_position_embeddings|(?<=-)token context|tokens? (?:of )?context|\bcontext\b|\b(?:n_)?ctx\b",
     "context"),
    (r"\bparam(?:eter)?s\b|\bparam(?:eter)? count\b|\bweights\b|(?<=-)param(?:eter)?\b|\bn_?param(?:eter)?s?\b",
     "params_total"),
]

FIELD_RES = [(re.compile(p, re.I), f) for p, f in FIELDS]

BINARY_FIELDS = {"context", "vocab"}  # `32K` read as 32,000 or 32,768

# a number bound to its field: "126 layers", "32-layer", "8 key/value heads", "6.7B total
# parameters" (the number, then at most one modifier, then the field's noun)
NOUN_AFTER = re.compile(r"^[\s\"'“”‘’*_-]*(?:(?:total|decoder|transformer|attention|hidden|trainable|"
                         r"active|activated|non-embedding|non-embedding|model|query|ffn|mlp|"
                         r"routed|billion|million|learnable|embedding|in)\s+)?$", re.I)

# a unit of another quantity right after a figure ("222222 FLOPs", "13.5 GB", "40 ms",
# "3 GPU-hours", "20%", "12 bits"): the figure measures that, never a catalogue field (no
# field is counted in FLOPs, bytes, time or percent; "tokens" is left out: a vocabulary
# and a context are counted in tokens)
OTHER_UNIT_AFTER = re.compile(
    r"[ \u00a0]?(?:[kmgtpe]?flop(?:s|/s)?|[kmgtp]i?b|bytes?|bits?|(?:gpu|accelerator)[- ]"
    r"(?:hours?|days?|years?)|ms|seconds?|secs?|minutes?|hours?|days?|%|percent|dollars?|"
    r"usd)(?![\w-])", re.I)

# a field bound to its number: "hidden size of 8192", "layers: 32", "d_ff = 11008"
NOUN_BEFORE = re.compile(r"^[\"'”’]?\s*(?:\)\s*)?(?:size\s*(?=[:=]))?(?:of|is|are|=|:|equals?|was|were|set to|of size|"
                          r"is set to|totals?|totalling|totaling|reaches|becomes|\(|,)?\s*"
                          r"(?:just |exactly |only |roughly |about |around |approximately |"
                          r"nearly |almost |over |under |at least |at most |up to |"
                          r"some |~)?\s*$", re.I)

# fields named by the words around a number rather than by a noun after it: "96 heads of
# 128 dimensions" (head_dim), "widens the FFN to 14,336" (d_ff)
FIELDS_AROUND = [
    (re.compile(r"\bvocab(?:ulary)?(?: size)?\s+(?:has|have|holds|contains|includes|of|with|"
                r"spans|covers)\s+(?:about |roughly |over |some |~)?\d[\d,.]*\s?[KkM]?\s+"
                r"((?:distinct |unique )?tokens)\b", re.I), "vocab"),  # "a vocabulary of 32,000 tokens"
    (re.compile(r"\bheads? of (?:size )?\d+[- ]?(dimensions?|dims?|each)\b", re.I), "head_dim"),
    (re.compile(r"\b(?:routes?|routed|routing|sends?|sent|dispatch(?:es|ed)?|activates?|"
                r"activated|selects?|selected|picks?)\b(?:(?!\bof\b)[^.;]){0,40}?(?<!over )"
                r"(?<!across )(?<!among )(?<!from )\b\d+\s+"  # "routing over 8 experts": the pool
                r"(experts?)\b", re.I),
     "active_experts"),  # "routes each token to 2 experts"
    (re.compile(r"\b(?:widens?|widened|grows?|grew|expands?|expanded|enlarges?|raises?|"
                r"increases?)\s+(?:the|its)\s+(?:ffn|mlp|feed-forward(?: layer)?|"
                r"intermediate size|hidden layer)\s+(to)\b(?=\s*~?\d)", re.I), "d_ff"),
]

CLAUSE_BREAK = re.compile(r"[;:,(]|\band\b|\bwhile\b|\bwhereas\b|\bbut\b|\bwith\b|\bthan\b|"
                     r"\bunlike\b|\bvs\.?|\bversus\b|—|–", re.I)

# a model named as the one another is compared with ("unlike Llama 3.1 8B", "compared to
# GPT-3"): not the subject of the clause it interrupts
# a family spoken of as a group ("the Llama 3 family", "the Qwen series")
GROUP_NOUN = r"family|series|line-?up|line|generation|herd"

# what a model or size is measured against: for `fields`, `structure` and `read` alike
CONTRASTED_WORDS = (r"(?:unlike|compared (?:to|with)|versus|vs\.?|as opposed to|in contrast to|rather than|"
                    r"instead of|than|relative to|outperform\w*|surpass\w*|beat\w*|exceed\w*)")  # another's
COMPARED_WORDS = (r"(?:" + CONTRASTED_WORDS + r"|like|besides|on par with|rival(?:s|led|ing)?|"
                  r"match(?:es|ed|ing)?|(?:similar|comparable|close|equal) (?:to|with)|(?:the\s+)?same\s+as)")
COMPARED_WITH = re.compile(r"\b" + COMPARED_WORDS + r"\s*(?:(?:the|a|an|both|even)\s+)?$", re.I)

# a subject that is another model than the one the place names ("Its bigger sibling has 40
# layers", "The 13B version has 40", "the smaller one") under a heading "Llama 2 7B"
OTHER_SUBJECT = re.compile(r"\b(?:its|their|the|a)\s+(?:(?:bigger|larger|smaller|older|newer|next|"
                           r"previous|earlier|later|other|sister|upcoming|original)\s+)+(?:sibling|"
                           r"successor|predecessor|cousin|variant|version|counterpart|one|model|"
                           r"release|generation)s?\b|\b(?:its|their)\s+(?:sibling|successor|"
                           r"predecessor|counterpart|cousin)s?\b|\bthe\s+\d+(?:\.\d+)?\s?[BbMm]\s+"
                           r"(?:version|variant|model|one|sibling)\b|\bthe (?:smaller|larger|"
                           r"bigger)\b", re.I)

# a figure that is a difference, not a value: "an extra 8 layers", "48 layers fewer than"
DIFFERENCE = re.compile(r"\b(?:extra|additional|another|more|fewer|less|by|sav(?:e|es|ed|ing)|"
                        r"add(?:s|ed|ing)?|remov(?:e|es|ed|ing)|shed(?:s|ding)?|"
                        r"trim(?:s|med|ming)?)\s+(?:(?:about|roughly|some|over|nearly)\s+)?~?$",
                        re.I)
# a part of a block named in the singular before a parameter count ("the attention block
# has 67M parameters"): one layer's part, or, leniently, all of them
PART_UNIT = re.compile(r"\b(?:attention|self-attention|ffn|mlp|feed[- ]?forward|moe)\s+"
                       r"(?:block|layer|sublayer|sub-layer|module)\b(?!s)", re.I)
# ... and said of all the layers ("in total", "across all layers", "the FFNs"): the
# model's whole part; a part named without it ("Llama 2 7B's FFN has 135M parameters")
# may be one layer's, a reading to confirm
ALL_LAYERS = re.compile(r"\b(?:total|all|across|whole|entire|combined|overall|altogether|"
                        r"together|layers|blocks|ffns|mlps)\b", re.I)
_PART_WORDS = [(p, part) for p, part in SCOPES if part in ("ffn", "attention", "embedding",
                                                            "lm_head", "norms")]


def several_parts(before: str) -> bool:
    """Whether the clause before a figure joins two parts of a model as its subject ("the
    embedding and LM head together hold 262M"): their sum, not either part."""
    clause = re.split(r"[;.:]", before)[-1]
    joined = re.search(r"\b(?:and|plus|with|together|combined|both)\b|&|\+", clause, re.I)
    return bool(joined) and len({part for p, part in _PART_WORDS if p.search(clause)}) > 1

# a figure paired with its field noun across a comparative ("8 more layers than"), after a
# word that makes it a difference, or said as a former value (`fields._no_value`)
COMPARATIVE = re.compile(r"\b(?:more|fewer|less|extra|additional|other)\b", re.I)
DIFFERENCE_SAID = re.compile(r"\b(?:difference|gap|delta)\b[^.;:]{0,60}\b(?:is|of|are|was)\s+"
                             r"(?:just |only |about |roughly )?~?$", re.I)
FORMER = re.compile(r"\b(?:previously|formerly|originally|used to|before that|"
                    r"at first|initially)\b", re.I)
FROM_BEFORE = re.compile(r"\bfrom\s+(?:the\s+|its\s+|a\s+)?~?$", re.I)
CHANGE = re.compile(r"\b(?:went|go(?:es)?|grew|grow(?:s|n)?|increas\w*|decreas\w*|reduc\w*|cut(?:s|ting)?|"
                    r"rais\w*|lower\w*|extend\w*|expand\w*|doubl\w*|halv\w*|shr[aiu]nk\w*|"
                    r"dropp?\w*|mov(?:e|ed|es|ing)|chang\w*|jump\w*|bump\w*|upgrad\w*|switch\w*|"
                    r"trimm?\w*|widen\w*|narrow\w*)\b", re.I)

DIFFERENCE_AFTER = re.compile(r"\s*(?:fewer|more|less|greater|larger|smaller|extra|than|"
                               r"apart|difference)\b", re.I)

# a model name used as a modifier ("eight Mistral 7B experts", "a Llama-2-style count"):
# it describes something else, which is not that model
MODIFIER = re.compile(r"(?:'s\s+(?:successor|predecessor|sibling|bigger|larger|smaller|"
                       r"draft|teacher|student|distilled|quantized|pruned))|"
                       r"[\s-]*(?:experts?|style|like|based|sized?|class|architecture|"
                       r"tokenizer|variant|derivatives?|fine-?tunes?|clones?|layers? of|"
                       r"blocks?)\b", re.I)

INPUT = re.compile(r"\b(?:at|for|(?<!up )to|across)\s+(?:a\s+|an\s+)?~?$", re.I)

# a result said in words after arithmetic with no `=`: "512 × 64, which is 32,768",
# "4096 × 4096 (i.e. 16,777,216)", "512 × 64 for the base model, which is 32,768",
# "768 × 768 × 4 + 768 × 4, which comes to 2,362,368", "… parameters, which adds up to …"
_LINK_VERB = (r"(?:is|are|gives|yields|equals|makes|totals|"
              r"(?:comes?|works? out|amounts?|adds? up|sums?|is equal|are equal) to)")
_LINK_FILLER = r"(?:(?:about|roughly|approximately|around|nearly|only|just) |~|≈)?"
_COUNTED = r"(?:(?:parameters|params|weights|elements|entries|values|multiplications)\b\s*)?"
RESULT_LINK = re.compile(r"^\s*" + _COUNTED + _LINK_VERB + r"\s*" + _LINK_FILLER + r"\s*$|"
                          r"^\s*" + _COUNTED + r"[,(]?\s*(?:(?:for|in|of|per) (?:the |a |an |each )?"
                          r"[A-Za-z_-]+(?: [A-Za-z_-]+){0,2}\s*,?\s*)?(?:(?:which|that) "
                          + _LINK_VERB + r"|that's|i\.e\.,?|giving|gives|yielding|yields|equals|"
                          r"totalling|totaling|for a total of|in total,?)\s*" + _LINK_FILLER
                          + r"\s*$", re.I)

# a link that adds up more than the expression before it may hold ("three matrices of size
# 8,192 × 28,672, totaling ~707M": the total is of all three), and the words that say an
# expression is one object's shape
AGGREGATE_LINK = re.compile(r"\b(?:total(?:s|ling|ing)?|adds? up|sums?)\b", re.I)
SHAPE_BEFORE = re.compile(r"\b(?:of (?:size|shape|dimensions?)|sized|shaped|each)\s*\(?\s*$", re.I)

# the same link the other way round, a figure first: "2,362,368 is equal to 768 × 768 × 4
# + 768 × 4", "… seems to be equal to (…)", "32,768 equals 512 × 64", "4096 is exactly 64 × 64"
SOURCE_LINK = re.compile(r"^\s*(?:[A-Za-z_-]+ ){0,2}?(?:(?:is|are|seems to be|appears to be)"
                          r" (?:equal to|exactly|precisely|just|the same as)|equals|"
                          r"(?:comes?|works? out) (?:from|to))\s*\(?\s*$", re.I)

# words between `=` and its result that say nothing about the value: "= only 21.3M" ("=
# exactly 0.03" is not one: it denies the rounding a figure after `=` is read with)
RESULT_FILLER = frozenset({"only", "just"})

SIZE_HEADER = re.compile(r"^\s*(?:size|model size|params?|parameters|#\s*params|"
                          r"model|name|variant|checkpoint)\s*(?:\(.*\))?\s*$", re.I)

SHAPE_HEADER = re.compile(r"^\s*(?:(?:weight|param(?:eter)?|tensor|squeezed)\s+)?shape\s*$", re.I)

COUNT_HEADER = re.compile(r"^\s*(?:(?:number|no\.?|#|count) of )?(?:param(?:eter)?s?|weights|"
                           r"elements)(?: count| #)?\s*$|^\s*(?:#\s*)?params?\s*#?\s*$|"
                           r"^\s*numel\s*$", re.I)

# a size of one part, not of the whole: "22B parameters each", "7B apiece", "per expert"
EACH = re.compile(r"\s*(?:each|apiece|per (?:expert|head|block|shard|matrix))\b", re.I)
# ... or said before it ("its experts each have 5.6B parameters", "each expert holds")
_PARTS_EACH = r"(?:experts?|heads?|shards?|matri(?:x|ces)|copies|replicas|GPUs?|devices?)"
EACH_BEFORE = re.compile(rf"(?:\b{_PARTS_EACH}\b(?:\s+[\w'’.-]+){{0,4}}?[,;]?\s+(?:(?:which|that)\s+)?each\b|"
                         rf"\beach (?:one )?(?:of (?:[\w'’.-]+\s+){{0,4}}?)?"
                         rf"{_PARTS_EACH}\b|\bper[- ](?:expert|head|shard|GPU|device)\b)"
                         r"(?:(?!\band\b|\btotal\b)[^,;.]){0,40}$", re.I)


# a figure that sets a training hyperparameter, no size of the model ("weight decay of 0.1",
# "β1=0.9", "eps=10^-5", "learning rate of 3e-4", "dropout 0.1"): what the text before it
# ends with
HYPERPARAMETER_BEFORE = re.compile(
    r"(?:learning[\s_-]rate|\blr|weight[\s_-]decay|dropout|clipping|\bclip|warm[\s-]?up|"
    r"momentum|\bβ\s?\d?|\bbeta[\s_]?\d?|\beps(?:ilon)?|label[\s_-]smoothing|temperature|"
    r"top[\s_-]?[pk])\s*(?:of|=|:|is|was|to|at)?\s*[~≈]?\s*(?:10\s*(?:\^|\*\*)\s*[-−]?)?$", re.I)
# month names: a day beside one is a date ("March 28", "28 Mar", "Dec 11, 2023")
MONTHS = re.compile(r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|"
                    r"aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|"
                    r"dec(?:ember)?)\.?", re.I)


# the symbol a text gives a field in parentheses after its noun: "Layers (L): 12"
# (one or two letters, or a lower-case name: not "(MHA)", "(GQA)", a form the figure is for)
SYMBOL_NAMED = re.compile(r"^\s*\(\s*(?:[A-Za-z]{1,2}|[a-z][a-z_]{1,9})\s*\)"
                          r"(?=\s*(?:=|:|is\b|of\b))")
# the symbols most papers give a field ("d = 768", "L = 12", "V = 50257"); h, H and A are
# left out: heads in some texts, the FFN width or the hidden size in others
FIELD_SYMBOLS = {"d": "d_model", "L": "layers", "V": "vocab"}
FIELD_SYMBOL_BEFORE = re.compile(r"(?<![\w.])(d|L|V)\s*=\s*$")
# a statement where such a letter may be another quantity (a sequence length, a head's
# width): no symbol is read by convention there
SYMBOL_OTHERWISE = re.compile(r"\bsequences?\b|\btokens?\b|\bcontext\b|\bheads?\b|\bkv\b|"
                              r"\bhead[- _]?dim|\bd_?head\b|\bseq", re.I)
# an amount of context, not the model's maximum: "every 1K tokens of context", "each
# 4096 tokens", "the KV cache of 1K tokens of context"
INPUT_AMOUNT = re.compile(r"\b(?:every|each|per)\s+~?$|\b(?:cache|memory|vram|ram|cost|costs|"
                          r"(?<!context )(?<!window )(?<!length )size|footprint)\s+(?:of|for)\s+(?:about\s+|roughly\s+)?~?$", re.I)
# the kind of model named, not a part of it: "a 46.7B-parameter Mixture-of-Experts model"
MIXTURE_NAMED = re.compile(r"\bmixture[\s‐‑-]+of[\s‐‑-]+experts?\b(?:\s*\(moe\))?", re.I)

# an accelerator named just before a memory figure ("H200 141GB", "A100 80GB", "RTX 4090
# 24GB", "RTX 4090 (24 GB)"): the figure is the device's memory, no nominal size and no
# model's memory
CARD_BEFORE = re.compile(r"(?:\b[A-Z]{1,3}\d{2,4}[A-Za-z]*|\bRTX|\bGTX|\bTPU\w*|"
                         r"\b\d{4}(?:\s?Ti)?)\s*\(?\s*~?\s*$")

# the numbers written as one word, zero to nineteen (`spelled`, and a count of devices in
# `figure.devices`)
UNIT_WORDS = {w: n for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen".split())}
