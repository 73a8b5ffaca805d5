"""Which units are numeric statements: a unit is one when it holds a number that is not a
name, a year or a reference, and speaks of FFN or transformer quantities (parameters,
FLOPs, widths, dimensions, layers, heads, vocabulary, attention, memory, variant and model
names, ...), or when it states arithmetic (`3×32 = 96`). The test leans towards recall: an
unchecked statement that is listed is worth more than a silent one.

Also here: `models(text)`, the catalogue models a text names ("Llama 2 7B",
"meta-llama/Llama-2-7b-hf", "LLaMA-7B", "Mistral 7B"), longest name first.
"""

import re
from functools import lru_cache

from ffnverify.scan.numbers import number_words, tokens

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
    r"\b\d+(?:\.\d+)?\s*[×x·*]?\s*d\b|8/3|activation|parametr",
    re.I)
_REFERENCE_WORDS = {"figure", "fig", "table", "tab", "section", "sec", "chapter", "ch", "eq",
                    "equation", "step", "page", "pages", "p", "pp", "lecture", "appendix",
                    "version", "v", "issue", "line", "lines", "example", "exercise", "part",
                    "lab", "week", "day", "item", "listing", "algorithm", "theorem", "lemma",
                    "arxiv", "pr", "#", "no", "number", "python", "pytorch", "torch",
                    "transformers", "cuda"}
_FAMILIES = {"llama", "gemma", "qwen", "mistral", "palm", "olmo", "phi", "gpt", "bert", "t5",
             "claude", "gemini", "falcon", "opt", "bloom", "mpt", "deepseek", "yi", "codellama"}


_FAMILY_HINT = re.compile(r"llama|mistral|mixtral|qwen|gemma|t5|palm|gpt|olmo|phi", re.I)


@lru_cache(maxsize=1)
def _model_patterns():
    from ffnverify.catalogue.models import ALIASES, ROWS

    names = {m.name: m.name for m in ROWS}
    names.update(ALIASES)
    out = []
    for written, name in names.items():
        parts = re.split(r"[-_]", written)
        pieces = []
        for part in parts:
            p = re.escape(part)
            p = re.sub(r"(\d)([a-z])$", r"\1\\s?\2", p)  # 7b / 7 b
            pieces.append(p)
        if parts[0] == "llama" and parts[1] == "1":  # "LLaMA 7B" is the first Llama
            body = "llama[\\s_-]*(?:1[\\s_-]*|v1[\\s_-]*)?" + "[\\s_-]*".join(pieces[2:])
        else:
            body = "[\\s_-]*".join(pieces)
        body = body.replace("gpt2", "gpt[\\s_-]*2").replace("qwen2\\.5", "qwen[\\s_-]*2\\.5")
        out.append((name, re.compile(r"(?<![\w.])" + body + r"(?![\w]|\.\d|-\d)", re.I)))
    out.sort(key=lambda x: -len(x[0]))
    return out


@lru_cache(maxsize=16384)
def models(text: str) -> tuple:
    """(start, end, catalogue name) of every model the text names, left to right."""
    if not _FAMILY_HINT.search(text):
        return ()
    found = []
    taken = []
    for name, pattern in _model_patterns():
        for m in pattern.finditer(text):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            taken.append((m.start(), m.end()))
            found.append((m.start(), m.end(), name))
    return tuple(sorted(found))


def _is_year(t, prev, nxt) -> bool:
    if not (t.plain and len(t.text) == 4 and t.value.denominator == 1
            and 1900 <= t.value <= 2039):
        return False
    if prev is not None and prev.kind == "WORD" and (
            prev.text[:1].isupper() or prev.lower in ("in", "since", "al", "year", "from")):
        return True
    if prev is not None and prev.kind == "OP" and prev.text in "(,":
        return True
    return nxt is not None and nxt.kind == "OP" and nxt.text in ");,"


def meaningful_numbers(text: str, toks=None, heading: bool = False):
    """The number tokens that state a quantity (not part of a name, a year or a
    reference such as "Table 2" or "Section 15.4")."""
    toks = tokens(text) if toks is None else toks
    spans = [(s, e) for s, e, _ in models(text)]
    out = []
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
        if i >= 2 and prev.kind == "OP" and prev.text in (":", "-") and toks[i - 2].kind == "WORD" \
                and toks[i - 2].lower in _REFERENCE_WORDS:
            continue  # arXiv:2002.05202, Table-2
        if (prev is not None and prev.kind == "WORD" and prev.lower in _FAMILIES
                and t.plain and t.value < 10 and not t.ratio):
            continue  # "Llama 2", "Gemma 2", "Llama 3.1": a version, part of a name
        if _is_year(t, prev, nxt):
            continue
        if heading and i == 0:
            continue  # section numbering
        if i == 0 and nxt is not None and nxt.kind == "OTHER" and nxt.text == "." \
                and t.value.denominator == 1:
            continue  # "1. " list numbering
        out.append(t)
    return out


def is_statement(text: str, heading: bool = False) -> bool:
    """Whether the unit is a numeric statement (see the module docstring)."""
    if not any(c.isdigit() or c in "½⅓⅔¼¾⅛" for c in text) and not number_words(text):
        return False
    nums = meaningful_numbers(text, heading=heading)
    if not nums:
        return bool(number_words(text)) and bool(
            re.search(r"param|flop|compute|weight", text, re.I))
    if VOCABULARY.search(text):
        return True
    from ffnverify.scan.read import arithmetic

    return bool(arithmetic(tokens(text))[0])
