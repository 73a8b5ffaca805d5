"""Which units are numeric statements: a unit is one when it holds a number that is not a
name, a year or a reference, and speaks of FFN or transformer quantities (parameters,
FLOPs, widths, dimensions, layers, heads, vocabulary, attention, memory, variant and model
names, ...), or when it states arithmetic (`3×32 = 96`). The test leans towards recall: an
unchecked statement that is listed is worth more than a silent one.

Also here: `models(text)`, the catalogue models a text names ("Llama 2 7B",
"meta-llama/Llama-2-7b-hf", "LLaMA-7B", "Mistral 7B", "BERT-base"), matched from the
catalogue's rows, aliases and Hugging Face ids (the families too: no hand-written list);
`near_misses(text)`, names that go on to another release ("Mistral-7B-v0.3", "Llama 2 7B
Chat", "Code Llama 7B") with the row they nearly match; `other_names(text)`, model names
that are no row ("GPT-3", "Falcon 40B"), so that no figure of theirs binds to a row.
"""

import re
from functools import lru_cache

from ffnverify.scan.numbers import CJK, tokens
from ffnverify.scan.recognise import writes_arithmetic
from ffnverify.scan.words import (
    CARD_BEFORE,
    HYPERPARAMETER_BEFORE,
    MONTHS,
    VARIANT_PREFIX,
    VARIANT_SUFFIX,
)

VOCABULARY = re.compile(
    r"param|weight|flop|\bmacs?\b|multiply|\bcompute\b|computation|hidden|intermediate|d_?ff|"
    r"d_?model|dmodel|width|dimension|\bdims?\b|expansion|\bratios?\b|\blayers?\b|\bblocks?\b|"
    r"\bheads?\b|"
    r"vocab|token|attention|memory|\bgi?b\b|\bmi?b\b|bytes?\b|\bkv\b|cache|context|embedding|"
    r"\bffn|mlp|feed[- ]?forward|\bgat(?:e|ed|ing)\b|glu\b|gelu|relu|silu|swish|bilinear|"
    r"matmul|matri(?:x|ces)|multiplication|projection|neuron|\bexperts?\b|\bmoe\b|sequence|"
    r"\bbatch|"
    r"fp16|bf16|fp32|fp8|int8|int4|precision|transformer|llama|mistral|mixtral|gemma|gpt|"
    r"palm|qwen|\bt5\b|olmo|\bphi\b|bert|chinchilla|\bopt\b|bloom|falcon|(?<![\'’])\b[dh]\b|"
    r"\b\d+(?:\.\d+)?\s*[×x·*]?\s*d\b|8/3|activation|parametr|vram|\bgpus?\b|float\d\d|"
    r"quantiz|\bint[48]\b|\d\s?[kmgt]i?b\b|\b\d+(?:\.\d+)?\s?[bmt](?:-class)?\b(?=[\s-]*(?:"
    r"models?|class|param|active|dense|quality|scale|llm))|\bdense\b|\bactive\b|"
    r"(?<![A-Za-z])(?:n_)?(?:layers?|heads?|emb(?:d|_dim)?|n_embd|ctx|vocab_size|ffn_dim|"
    r"d_\w+)(?![A-Za-z])|\bmodels?\b|\bfeatures\b|\blookup table\b|"
    r"optimi[sz]er|\bgradients?\b|\binference\b|\btraining\b|throughput|bandwidth|"
    r"\blatency\b|\bgbps\b|gpu[- ]?hours?|\bhardware\b|"
    # the same words in Chinese, Japanese and Korean (parameters, layers, heads, dimension,
    # hidden, vocabulary, context, memory, bytes, cache, precision, weights, model,
    # activations, gradients, optimizer, training, inference, compute, experts, attention,
    # feed-forward, quantization, tokens)
    r"参数|參數|层|層|头|頭|维|維|隐藏|中间|词表|词汇|詞彙|上下文|显存|顯存|内存|記憶體|字节|"
    r"字節|缓存|快取|精度|权重|權重|模型|激活|梯度|优化器|優化器|训练|訓練|推理|计算|計算|算力|"
    r"专家|專家|注意力|前馈|量化|浮点|token|"
    r"パラメータ|レイヤー|ヘッド|次元|語彙|コンテキスト|メモリ|バイト|キャッシュ|重み|"
    r"モデル|学習|推論|エキスパート|量子化|"
    r"파라미터|매개변수|레이어|메모리|바이트|모델|캐시|학습|추론",
    re.I)
_REFERENCE_WORDS = {"figure", "fig", "table", "tab", "section", "sec", "chapter", "ch", "eq",
                    "equation", "step", "page", "pages", "p", "pp", "lecture", "appendix",
                    "version", "v", "issue", "line", "lines", "example", "exercise", "part",
                    "lab", "week", "day", "item", "listing", "algorithm", "theorem", "lemma",
                    "arxiv", "pr", "#", "no", "number", "python", "pytorch", "torch",
                    "transformers", "cuda",
                    "apache", "gpl", "lgpl", "agpl", "mpl", "licence", "license"}  # Apache 2.0
_OTHER_FAMILIES = {"claude", "gemini", "falcon", "opt", "bloom", "mpt", "deepseek", "yi",
                   "codellama"}  # not in the catalogue: "Falcon 40" is still a name


def _family(name: str) -> str:
    head = re.split(r"[-_]", name.lower())[0]
    stripped = re.sub(r"[\d.]+$", "", head)
    return stripped if len(stripped) > 1 else head


@lru_cache(maxsize=1)
def _catalogue_names() -> dict:
    """written name -> catalogue row, for every row, alias and Hugging Face id (and the
    id's part after the owner: `Mistral-7B-v0.1`)."""
    from ffnverify.catalogue.models import ALIASES, ROWS

    names = {m.name: m.name for m in ROWS}
    names.update(ALIASES)
    for m in ROWS:
        for hf in m.hf_ids:
            tail = hf.split("/", 1)[-1].lower()
            if "/" in hf and re.search(r"[-_]", tail):  # "gpt2" alone is the family's name
                names.setdefault(tail, m.name)
    return names


@lru_cache(maxsize=1)
def families() -> frozenset:
    """The model families the catalogue holds (llama, mistral, bert, t5, ...)."""
    return frozenset(_family(n) for n in _catalogue_names()) - {"meta"}


@lru_cache(maxsize=1)
def _family_hint():
    return re.compile("|".join(sorted(map(re.escape, families()), key=len, reverse=True)),
                      re.I)


def _family_words() -> set:
    return set(families()) | _OTHER_FAMILIES


# names the catalogue writes as one word that prose also writes as two ("Code Llama 7B",
# "Tiny Llama 1.1B", "Deep Seek")
_COMPOUNDS = {"codellama": r"code[\s_-]*llama", "tinyllama": r"tiny[\s_-]*llama",
              "deepseek": r"deep[\s_-]*seek"}


@lru_cache(maxsize=1)
def _model_patterns():
    out = []
    for written, name in _catalogue_names().items():
        parts = [p for p in re.split(r"[-_]", written) if p]
        pieces = []
        for part in parts:
            if part in _COMPOUNDS:
                pieces.append(_COMPOUNDS[part])
                continue
            p = re.escape(part)
            p = re.sub(r"(\d)x(\d)", r"\1[x×]\2", p)  # 8x7b / 8×7b
            p = re.sub(r"(\d)([a-z])$", r"\1\\s?\2", p)  # 7b / 7 b
            p = re.sub(r"^([a-z]+)(\d)", r"\1[\\s_-]*\2", p)  # gpt2 / gpt-2, qwen2.5
            pieces.append(p)
        if parts[0] == "llama" and len(parts) > 1 and parts[1] == "1":
            body = "llama[\\s_-]*(?:1[\\s_-]*|v1[\\s_-]*)?" + "[\\s_-]*".join(pieces[2:])
        elif len(pieces) > 1 and re.fullmatch(r"[\d.]+[bm]", parts[-1]):
            # the size may stand in parentheses: "Llama 2 (70B)"
            body = "[\\s_-]*".join(pieces[:-1]) + r"[\s_-]*(?:" + pieces[-1] + r"|\(" \
                + pieces[-1] + r"\))"
        else:
            body = "[\\s_-]*".join(pieces)
        # no "org/" prefix in the pattern: `(?:[\w.-]+/)?` at every position made the
        # search quadratic in a run of word characters (a hostile file); `_with_org`
        # widens a match over its "meta-llama/" instead, in linear time
        # (a Chinese or Japanese letter beside a name is no part of it: "Llama 2 7B的")
        out.append((name, re.compile(rf"(?<![^\W{CJK}]|\.)" + body
                                     + rf"(?![^\W{CJK}]|\.\d|-\d)", re.I)))
    out.sort(key=lambda x: -len(x[1].pattern))
    return out


@lru_cache(maxsize=1)
def _one_pattern():
    """Every catalogue name as one alternation, longest first (a match at a position is
    the longest name written there); group k is the k-th name."""
    pats = _model_patterns()
    return re.compile("|".join(f"({p.pattern})" for _, p in pats), re.I), [n for n, _ in pats]


def _matches(text: str) -> tuple:
    if not _family_hint().search(text):
        return ()
    pattern, names = _one_pattern()
    return tuple((_with_org(text, m.start()), m.end(), names[m.lastindex - 1])
                 for m in pattern.finditer(text))


_ORG = re.compile(r"[\w.-]{1,64}/$")


def _with_org(text: str, start: int) -> int:
    """The start of a name widened over the hub organisation written before it
    ("meta-llama/Llama-2-7b-hf" starts at "meta-llama/")."""
    if start == 0 or text[start - 1] != "/":
        return start
    m = _ORG.search(text, max(0, start - 65), start)
    return m.start() if m else start


@lru_cache(maxsize=16384)
def _identified(text: str) -> tuple:
    """(start, end, row, why-not or "") for every catalogue name in the text: why-not is
    set when the name goes on to another release ("-Instruct", "-v0.3", "Code Llama")."""
    out = []
    for s, e, name in _matches(text):
        after = VARIANT_SUFFIX.match(text, e)
        before = VARIANT_PREFIX.search(text[max(0, s - 12):s])
        if after:
            out.append((s, after.end(), name, f"{after.group().strip(' _-')} is another "
                                              "release"))
        elif before:
            out.append((s - len(before.group()), e, name,
                        f"{before.group().strip()} is another model"))
        else:
            out.append((s, e, name, ""))
    out += [x for x in _split_names(text) if not any(x[0] < b and a < x[1] for a, b, *_ in out)]
    return tuple(sorted(out))


# a size and its family apart: "the 7B variant of Llama 2", "Llama 2's 13B model"
_SIZE_OF = re.compile(r"\b(\d+(?:\.\d+)?)\s?([MB])\s+(?:variant|version|model|size|checkpoint)\s+"
                      r"of\s+(?:the\s+)?(?P<f>[A-Z][\w.-]*(?:\s\d(?:\.\d)?)?)\b")
_FAMILY_S = re.compile(r"\b(?P<f>[A-Z][\w.-]*(?:\s\d(?:\.\d)?)?)['’]s\s+(\d+(?:\.\d+)?)\s?([MB])\b"
                       r"(?:\s+(?:variant|version|model|checkpoint))?")


def _split_names(text: str) -> list:
    """(start, end, row, "") for a size said apart from its family, where the family's
    rows hold exactly one of that size ("the 7B variant of Llama 2": llama-2-7b)."""
    from fractions import Fraction

    out = []
    for m in list(_SIZE_OF.finditer(text)) + list(_FAMILY_S.finditer(text)):
        number, scale = (m.group(1), m.group(2)) if m.re is _SIZE_OF else (m.group(2), m.group(3))
        row = row_of_size(m.group("f"), Fraction(number) * (10**9 if scale == "B" else 10**6))
        if row:
            out.append((m.start(), m.end(), row, ""))
    return out


def row_of_size(family: str, size) -> str | None:
    """The one catalogue row whose name starts with `family` (written as the text has it,
    four letters at least when squashed) and states `size`: "Llama 2" and 7·10⁹ give
    llama-2-7b; None where no row or several do ("Llama" and 7B: LLaMA 1's or Llama 2's)."""
    key = squash(family)
    rows = {r for name, r in squashed_rows() if len(key) >= 4 and name.startswith(key)
            and size_of(r) == size}
    return rows.pop() if len(rows) == 1 else None


def squash(s: str) -> str:
    """A name as the catalogue's tables key it: lower case, only letters, digits, dots."""
    return re.sub(r"[^a-z0-9.]", "", s.lower())


@lru_cache(maxsize=1)
def squashed_rows() -> tuple:
    """(squashed written name, row) for every catalogue row and alias."""
    from ffnverify.catalogue.models import ALIASES, ROWS

    out = [(squash(m.name), m.name) for m in ROWS]
    out += [(squash(a), row) for a, row in ALIASES.items()]
    return tuple(out)


def consistent(written: str, row: str) -> bool:
    """Whether a name that is no row ("Llama 2", "GPT-2") may be the row's family."""
    key = squash(written)
    return bool(key) and any(name.startswith(key) for name, r in squashed_rows() if r == row)


def models(text: str) -> tuple:
    """(start, end, catalogue name) of every model the text names, left to right (a name
    that goes on to another release, "Llama 2 7B Chat", "Mistral-7B-v0.3", is not one)."""
    return tuple((s, e, n) for s, e, n, why in _identified(text) if not why)


def near_misses(text: str) -> tuple:
    """(start, end, nearly-matched row, why) of each name that is not its row."""
    return tuple(x for x in _identified(text) if x[3])


def size_of(name: str):
    """The nominal size a catalogue name states (`llama-2-70b`: 70·10⁹), or None."""
    from fractions import Fraction

    m = re.search(r"(?<![x\d.])(\d+(?:\.\d+)?)([bm])$", name)
    if not m:
        return None
    return Fraction(m.group(1)) * (10**9 if m.group(2) == "b" else 10**6)


def _is_year(t, prev, nxt) -> bool:
    if not (t.plain and len(t.text) == 4 and t.value.denominator == 1
            and 1900 <= t.value <= 2039):
        return False
    if prev is not None and prev.kind == "WORD" and (
            prev.text[:1].isupper() or prev.lower in ("in", "since", "al", "year", "from",
                                                      "late", "early", "mid", "during",
                                                      "until")):
        return True
    if prev is not None and prev.kind == "OP" and prev.text in "(,":
        return True
    if nxt is not None and nxt.kind == "WORD" and nxt.text[:1].isupper():
        return True  # "the 2017 Transformer": a year naming a model or an event
    return nxt is not None and nxt.kind == "OP" and nxt.text in ");,"


# a reference marker after a space: "described in [12].", "as shown [3, 4]", "[5–7]"
_SPACED_CITATION = re.compile(r"(?<=\s)\[\d{1,3}(?:\s?[,–-]\s?\d{1,3}){0,8}\](?=[\s.,;:)]|$)")
_NOT_CITING = re.compile(r"(?:shapes?|sizes?|dims?|values?|of|are|is|be|was|were|to|[=:(])\s*$",
                         re.I)


# a link ("https://arxiv.org/abs/1810.04805", "huggingface.co/org/model-7b"), a commit
# hash ("commit 7d38e96": hex digits with a letter before a digit), a reference marker
# glued to a year ("Vaswani et al, 2017[2]") and a reading time ("· 12 min", "a
# 10-minute read"): their digits state nothing
_NOT_PROSE = re.compile(r"\bhttps?://\S+|\bwww\.\S+|\b[\w-]+\.(?:com|org|io|ai|co|net|dev)/\S*|"
                        r"\b(?=[0-9a-f]*[a-f]\d)(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b|"
                        r"(?<=(?:19|20)\d\d)\[\d{1,3}\]|"
                        r"\b\d{1,3}[\s-]?min(?:ute)?s?\s+read\b|(?<=·\s)\d{1,3}\s?min\s*$|"
                        r"\bmerge\s+\d+\s+commits?\b")  # a pull request's header


def _spaced_citations(text: str) -> list:
    """(start, end) of reference markers written after a space ("described in [12].");
    the glued ones ("Wikipedia[12]") are `numbers.tokens`' own. A bracket after a
    quantity word, "of", "=" or ":" holds values ("hidden sizes [64, 128]"), as does one
    with a number of 200 or more."""
    out = []
    for m in _SPACED_CITATION.finditer(text):
        before = text[max(0, m.start() - 40):m.start()]
        word = re.search(r"(\S+)\s*$", before)
        if word and (VOCABULARY.search(word.group(1)) or _NOT_CITING.search(before)):
            continue
        if all(int(x) < 200 for x in re.findall(r"\d+", m.group())):
            out.append((m.start(), m.end()))
    return out


def _dtype_width(text: str, t) -> bool:
    """A bit width that spells out a dtype named beside it ("FP16 (16-bit floating
    point)", "INT8 (8-bit integer)"): the name again, no figure."""
    if not (t.plain and t.value.denominator == 1 and re.match(r"[\s-]?bits?\b", text[t.end:])):
        return False
    n = str(t.value)
    return bool(re.search(r"\b(?:fp|bf|int|float|uint)" + n + r"\b",
                          text[max(0, t.start - 30):t.end + 30], re.I))


def _is_day(t, prev, nxt) -> bool:
    """A day of a month ("March 28", "28 Mar", "Dec 11, 2023")."""
    if not (t.plain and t.value.denominator == 1 and 1 <= t.value <= 31 and not t.scale):
        return False
    return any(w is not None and w.kind == "WORD" and MONTHS.fullmatch(w.text)
               for w in (prev, nxt)) and not (prev is not None and prev.lower == "may"
                                              and nxt is not None and nxt.kind == "WORD"
                                              and nxt.lower not in ("and", "to"))


_VERSION = re.compile(r"\d+\.\d+\.\d+")


def elided_names(text: str) -> tuple:
    """(start, end) of sizes that name a model by eliding its family ("Llama 2 7B and
    13B": the 13B)."""
    spans = [(s, e) for s, e, _, _ in _identified(text)]
    return tuple((t.start, t.end) for t in tokens(text) if t.kind == "NUM"
                 and t.scale in ("B", "M", "b", "m") and _elided_name(text, t, spans))


def _elided_name(text: str, t, spans) -> bool:
    """Whether size t follows a model name and a conjunction ("Llama 2 7B and 13B")."""
    return any(re.fullmatch(r"\s*(?:,|and|or|/|&)\s*(?:\d+(?:\.\d+)?[bBmM]\s*(?:,|and|or|/)\s*)*",
                            text[e:t.start]) for _, e in spans if e <= t.start)


def meaningful_numbers(text: str, toks=None, heading: bool = False):
    """The number tokens that state a quantity (not part of a name, a year or a
    reference such as "Table 2" or "Section 15.4")."""
    toks = tokens(text) if toks is None else toks
    spans = [(s, e) for s, e, _, _ in _identified(text)] + list(other_names(text)) \
        + _spaced_citations(text) + [m.span() for m in _NOT_PROSE.finditer(text)]
    out = []
    enumerated = "(1)" in text and "(2)" in text
    for i, t in enumerate(toks):
        if t.kind != "NUM":
            continue
        if any(s <= t.start < e for s, e in spans):
            continue
        prev = toks[i - 1] if i else None
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if prev is not None and prev.kind == "WORD" and prev.lower in _REFERENCE_WORDS:
            continue
        if prev is not None and prev.kind == "OTHER" and prev.text in "#§":
            continue
        if i >= 2 and prev.text in (":", "-", ".") and toks[i - 2].kind == "WORD" \
                and toks[i - 2].lower in _REFERENCE_WORDS:
            continue  # arXiv:2002.05202, Table-2, Fig. 1
        if (prev is not None and prev.kind == "WORD" and prev.lower in _family_words()
                and t.plain and t.value < 10 and not t.ratio):
            continue  # "Llama 2", "Gemma 2", "Llama 3.1": a version, part of a name
        if _is_year(t, prev, nxt) or _is_day(t, prev, nxt):
            continue
        if HYPERPARAMETER_BEFORE.search(text, max(0, t.start - 40), t.start):
            continue  # "weight decay of 0.1", "β1=0.9": a training setting, no size
        if enumerated and text[t.start - 1:t.start] == "(" and text[t.end:t.end + 1] == ")" \
                and t.plain and t.value <= 9:
            continue  # "(1) GQA for reduction, (2) Flash Attention": an enumeration
        if _dtype_width(text, t):
            continue  # "FP16 (16-bit floating point)": the width the dtype's name says
        if i >= 2 and prev.kind == "OP" and prev.text == "+" and toks[i - 2].text == "U":
            continue  # a code point, U+2212
        if t.text.startswith(".") and prev is not None and prev.kind == "NUM" \
                and prev.end == t.start:
            continue  # the last piece of a version, 5.24.0
        if re.match(r"-D\b", text[t.end:t.end + 3]):
            continue  # "a 2-D input": a tensor's rank, a name of its shape
        if _VERSION.match(text, t.start) and not t.scale:
            continue  # a version, 5.24.0
        if t.scale in ("B", "M", "b", "m") and _elided_name(text, t, spans):
            continue  # "Llama 3.1 8B and 70B": the second size names a model too
        if heading and i == 0 and not t.scale and not _LOWER_SCALE.match(text, t.end):
            continue  # section numbering ("2.2.1 Training"; "1.1b parameters" is a size)
        if i == 0 and nxt is not None and nxt.kind == "OTHER" and nxt.text == "." \
                and t.value.denominator == 1:
            continue  # "1. " list numbering
        out.append(t)
    return out


def _spelled_counts(text: str) -> bool:
    """Whether a number written in words counts something a model has ("eighty layers",
    "twice as many layers as", "a quarter of its experts")."""
    from ffnverify.scan.spelled import spelled

    for sp in spelled(text):
        gap = _COUNTED_GAP.match(text, sp.end)
        if _COUNTED.match(text, gap.end()):
            return True
    return False


# between a number in words and the noun it counts: "twice as many layers", "a quarter of
# its experts", "eight key-value heads"
_COUNTED_GAP = re.compile(r"(?:\s+(?:as|many|much|of|its|the|their|more|fewer|times|"
                          r"key-value|kv|query|attention|hidden|active|total|transformer|"
                          r"decoder|encoder|these|those|distinct|separate|different|"
                          r"independent|parallel|feed-?forward|ffn|mlp)\b){0,4}\s*", re.I)
_COUNTED = re.compile(r"(?:layers?|blocks?|heads?|experts?|param(?:eter)?s?|weights?|"
                      r"dimensions?|dims?|tokens?|bytes?|flops?|matri(?:x|ces)|"
                      r"multiplications?|projections?|gpus?|bits?|neurons?|embeddings?)\b",
                      re.I)


def _proportion(text: str, near: bool = False) -> bool:
    """Whether the text states a fraction or a multiple in words ("two-thirds", "half the
    size", "halves or quarters", "twice as many"); with `near`, one that has a model
    quantity word within five words of it ("Two-thirds of this is FFN", "KV cache (FP8
    or INT4) halves"; not "fresh caches: ... up to half a minute")."""
    from ffnverify.scan.spelled import spelled

    for sp in spelled(text):
        if sp.kind not in ("fraction", "multiple"):
            continue
        if not near:
            return True
        before = " ".join(text[:sp.start].split()[-5:])
        after = " ".join(text[sp.end:].split()[:5])
        if VOCABULARY.search(before) or VOCABULARY.search(after) or \
                VOCABULARY.search(text[sp.start:sp.end]):
            return True
    return False


def is_statement(text: str, heading: bool = False) -> bool:
    """Whether the unit is a numeric statement (see the module docstring)."""
    digits = any(c.isdigit() or c in "½⅓⅔¼¾⅛" for c in text)
    if not digits and not _proportion(text) and not _spelled_counts(text):
        return False
    nums = meaningful_numbers(text, heading=heading)
    if not nums:  # "Two-thirds of this is FFN", "half the size of FP32"
        return _proportion(text, near=True) or _spelled_counts(text)
    if VOCABULARY.search(text) or FORMULA.search(text) or _scaled_row(nums, text):
        return True
    return writes_arithmetic(tokens(text))


# after a figure, what makes it a nominal size ("a 7B model", "7 Billion Parameter Model",
# "70B LLM performance", "70B-class"); before it, an accelerator whose memory it is
# ("H200 141GB", "RTX 4090 24GB")
_NOMINAL_AFTER = re.compile(r"[\s-]*(?:parameters?[\s-]+)?(?:models?|llms?|variants?|"
                            r"class|versions?)\b", re.I)


_LOWER_SCALE = re.compile(r"\s?[bmk]\b(?=[\s-]*param)")  # "1.1b parameter", "350m params"
# a figure a heading states with its unit ("Why Adam Needs 12 Bytes per Parameter"); a
# model's count with its noun, where the heading names the model ("Llama 2 7B: 32 Layers";
# "Step 4: 32 layers" is a title)
_UNIT_AFTER = re.compile(r"\s*-?\s*(?:bytes?|bits?)\b", re.I)
_COUNTED_AFTER = re.compile(r"\s*-?\s*(?:layers?|(?:kv |key-value |attention )?heads?|"
                            r"experts?|dimensions?)\b", re.I)


def heading_states(text: str) -> bool:
    """Whether a heading states a figure of its own ("Where GPT-2 small's 124M goes",
    "Estimate overcounts by ~8x", "… with Only 2.7B Activated Parameters", "Why Adam
    Needs 12 Bytes per Parameter"): a figure with a scale, a unit, a counted noun or a ratio that is no nominal size ("Fine-tuning a 7B model"), no
    card's memory ("on H200 141GB") and no section number. A heading is a title
    otherwise: its section's text holds the statements."""
    if not is_statement(text, heading=True):
        return False
    return any((t.scale or t.ratio or _LOWER_SCALE.match(text, t.end)
                or _UNIT_AFTER.match(text, t.end)
                or (_COUNTED_AFTER.match(text, t.end) and models(text)))
               and not _NOMINAL_AFTER.match(text, t.end)
               and not CARD_BEFORE.search(text[:t.start])
               for t in meaningful_numbers(text, heading=True))


def _scaled_row(nums, text: str) -> bool:
    """A row of figures and nothing else, two or more of them with a scale ("13B 2k
    1.0T": a size, a context and a token count, a table's row written as a line)."""
    words = [t for t in tokens(text) if t.kind == "WORD"]
    return not words and sum(bool(t.scale) for t in nums) >= 2


# what makes a unit with numbers a statement about a model even without a quantity word:
# a product of numbers (`16 x 256 x 2B`), a number times a symbol (`12 * d^2 * L`), a
# symbol set to a number (`B=1 S=2048 L=32`), accelerators (`8 A100s`), overheads and
# passes (`2 passes`); a number in scientific notation (`6.7 × 10⁹`) is no product
FORMULA = re.compile(
    r"\d[\d,.]*\s*[kmgbt]?\s*[×x*·]\s*\(?(?!10(?:[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]|\^|\*\*))\d|"
    r"\d\s*[×*·]\s*\(?[A-Za-z](?:_\w+)?\b(?!\s*[a-z])|"
    r"(?<![\w.])[A-Z]{1,3}\s?=\s?~?\d|"
    r"\b[AHV]100s?\b|\bH200s?\b|\bTPUs?\b|\bpetaflops?\b|\boverhead\b|"
    r"\d\s+(?:forward\s+|backward\s+)?passes\b")


_OTHER_MODELS = {"chinchilla", "gopher", "grok", "jamba", "megatron", "bloomz", "vicuna",
                 "alpaca", "mamba", "starcoder", "codex"}


@lru_cache(maxsize=1)
def _other_pattern():
    fams = (families() - {"transformer"}) | _OTHER_FAMILIES | _OTHER_MODELS
    words = "|".join(sorted(map(re.escape, fams), key=len, reverse=True))
    # the family ends where its word ends: "optimizer" is no OPT, "GPTQ" no GPT, "yield"
    # no Yi (a digit may follow: "gpt2", "qwen2.5")
    return re.compile(r"(?<![\w/])(?:code\s?)?(?:" + words + r")(?![A-Za-z])(?:[\s_-]?(?:\d+(?:\.\d+)?"
                      r"(?:x\d+)?[bmk]?|xl|xxl|large|medium|small|base|mini|tiny|pro|ultra|"
                      r"chat|instruct|v\d[\w.]*)(?![\w]))*"
                      r"(?!\s+AI\b)", re.I)  # "Mistral AI" is a company


@lru_cache(maxsize=16384)
def other_names(text: str) -> tuple:
    """(start, end) of model names that are no catalogue row ("GPT-3", "Falcon 40B",
    "Chinchilla"), so that a figure in their clause is not bound to another model."""
    if not _other_pattern().search(text):
        return ()
    taken = [(s, e) for s, e, _, _ in _identified(text)]
    out = []
    for m in _other_pattern().finditer(text):
        if not any(m.start() < e and s < m.end() for s, e in taken):
            out.append((m.start(), m.end()))
    return tuple(out)
