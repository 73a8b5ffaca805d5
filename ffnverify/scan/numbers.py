"""Numbers as prose writes them, read exactly: a unit of text becomes a list of tokens.

`normalise(text)` rewrites the LaTeX and Markdown that prose carries around numbers
(`\\tfrac{8}{3}`, `\\cdot`, `2{,}67`, `11\\,008`, `**bold**`, `$...$`) into plain symbols;
`tokens(text)` then reads numbers with thousands separators (`11,008`, `11 008`, narrow
and thin spaces), decimals, scale words and suffixes (`6.7B`, `70 billion`, `14 GB`,
`13.5 GiB`), percentages, Unicode fractions (`2⅔`) and superscript powers (`4096²`),
scientific forms (`6.7 × 10⁹`, `6.7e9`), ratios (`4×`, `1.5x`), and a leading `~`.

Every number is an exact `Fraction` with `unit`, one unit in its last stated digit at its
scale (`6.7B`: 10^8; `2.67`: 1/100; `33%`: 1/100), the basis of `≈`. Nothing is evaluated:
this is a scanner over characters, with a bound on digits.
"""

import re
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from ffnverify import notation
from ffnverify.scan import cjk, european, words

MAX_DIGITS = 60
MAX_POWER = 64

# the value tables are ffnverify.notation's, shared with the claim language's lexer
SCALES = {s: 10**p for s, p in notation.SCALE_SUFFIXES.items()}
SCALE_WORDS = {w: 10**p for w, p in notation.SCALE_WORDS.items()}
FLOP_SCALES = notation.SI_PREFIXES
BYTE_UNITS = notation.BYTE_UNITS
FRACTIONS = notation.VULGAR_FRACTIONS
SUPERSCRIPTS = {c: str(i) for c, i in notation.SUPERSCRIPT_DIGITS.items()}


@dataclass
class Tok:
    kind: str  # NUM OP WORD RANGE
    text: str
    start: int
    end: int
    value: Fraction | None = None
    unit: Fraction | None = None  # one unit in the last stated digit, at the number's scale
    plain: bool = False  # written as a literal the claim language reads the same way
    scale: str = ""  # "", "K".., "bytes", "flops", "%"
    money: bool = False  # written after a currency sign: "$3M"
    tilde: bool = False  # "~" written before the number
    about: bool = False  # "about", "roughly", ... before the number
    ratio: bool = False  # followed by × / x with nothing multiplied: "4×"
    power: bool = False  # written with a power (4096², 10^9)
    space_before: bool = False
    space_after: bool = False

    @property
    def lower(self):
        return self.text.lower()


# ---- normalisation ---------------------------------------------------------------------

_LATEX_FRAC = re.compile(r"\\[dt]?frac\s*\{([^{}]{1,40})\}\s*\{([^{}]{1,40})\}")
_LATEX_WRAP = re.compile(r"\\(?:text|mathrm|operatorname|mathit|mathbf|textrm|texttt|"
                         r"boldsymbol|mathsf)\s*\{([^{}]{0,80})\}")
_LATEX_SYMBOLS = [("\\cdot", "·"), ("\\times", "×"), ("\\approx", "≈"), ("\\simeq", "≈"),
                  ("\\sim", "~"), ("\\leq", "≤"), ("\\geq", "≥"), ("\\le", "≤"), ("\\ge", "≥"),
                  ("\\neq", "≠"), ("\\ne", "≠"), ("\\rightarrow", "→"), ("\\to", "→"),
                  ("\\%", "%"), ("\\left", ""), ("\\right", ""), ("\\big", ""),
                  ("\\Big", ""), ("\\quad", " "), ("\\qquad", " "), ("\\,", "\u2009"),
                  ("\\;", " "), ("\\!", ""), ("\\ ", " "), ("{,}", "{DECIMAL}")]
_POWER = re.compile(r"(?<=[\w)])\*\*(?=\(?\d)")
_CARD_MEMORY = re.compile(r"\b([A-Za-z]{1,4}\d{2,4}[A-Za-z]?)-(?=\d{1,3}\s?(?:GB|GiB|G)s?\b)")
_ITALIC = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]{1,200}?)(?<=[^\s*])\*(?![\w*])")


def _fraction(m) -> str:
    a, b = m.group(1).strip(), m.group(2).strip()
    a = a if re.fullmatch(r"[\w.]+", a) else f"({a})"
    b = b if re.fullmatch(r"[\w.]+", b) else f"({b})"
    return f"{a}/{b}"


# a byte unit spelled out after a figure ("140 gigabytes", "512 kibibytes"): its symbol
_SPELLED_BYTES = re.compile(r"(?<=\d)(\s?)(kilo|mega|giga|tera|kibi|mebi|gibi|tebi)bytes?\b",
                            re.I)
_NAME_DASH = re.compile(r"(?<=[A-Za-z]{2})(\d{0,2}(?:\.\d)?)[\u2013\u2014](?=\d{1,3}(?:\.\d)?[BbMm]\b)")
_CYRILLIC_BYTES = re.compile(r"(?<=\d)(\s?)([ГМКТ])(и?)Б(?![А-Яа-яЁё])")  # "26 ГБ", "512 КиБ"
_BYTE_SYMBOL = {"kilo": "KB", "mega": "MB", "giga": "GB", "tera": "TB", "kibi": "KiB",
                "mebi": "MiB", "gibi": "GiB", "tebi": "TiB"}


@lru_cache(maxsize=16384)
def normalise(text: str) -> str:
    """Prose with its LaTeX and emphasis markup turned into plain symbols (and a byte unit
    spelled out after a figure into its symbol)."""
    if "\\" in text or "{" in text:
        for _ in range(3):
            text = _LATEX_FRAC.sub(_fraction, text)
            text = _LATEX_WRAP.sub(r"\1", text)
        for a, b in _LATEX_SYMBOLS:
            text = text.replace(a, b)
        text = re.sub(r"\^\{([^{}]{1,12})\}", r"^\1", text)
        text = re.sub(r"_\{([^{}]{1,20})\}", r"_\1", text)
        text = text.replace("{DECIMAL}", ".")
    # Python's power between two operands ("768**2", "d_model**2", "(h)**2") is a power;
    # any other "**" is Markdown's bold, left out as rendered text has none
    text = _POWER.sub("^", text).replace("**", "").replace("`", "")
    if _CJK_CHAR.search(text):  # Chinese and Japanese write no space between a word and a
        text = _CJK_EDGE.sub(" ", text)  # figure or a Latin name: "7B的FP16权重" reads as
        # "7B 的 FP16 权重", so every pattern's word boundary holds; the domain's words are
        text = cjk.to_english(text)  # then the English ones the readers know (`cjk`)
    else:
        lang = european.language(text)  # German, French, Spanish: figures and words
        if lang:  # the English way (`european`)
            text = european.to_english(text, lang)
    if "\u2013" in text or "\u2014" in text:  # a dash inside a name ("LLama2–7b"), not a
        text = _NAME_DASH.sub(r"\1-", text)  # range ("32–40B", "Llama 2 7B–70B")
    if "\u2010" in text or "\u2011" in text:  # a (non-breaking) hyphen as typeset pages
        text = text.replace("\u2010", "-").replace("\u2011", "-")  # write "Qwen1.5‑MoE"
    if "$" in text:
        text = _dollars(text)
    if "Б" in text:  # Russian byte units: ГБ is GB, ГиБ GiB
        text = _CYRILLIC_BYTES.sub(lambda m: m.group(1) + "GMKT"["ГМКТ".index(m.group(2))]
                                   + ("i" if m.group(3) else "") + "B", text)
    if "yte" in text or "YTE" in text:
        text = _SPELLED_BYTES.sub(lambda m: m.group(1) + _BYTE_SYMBOL[m.group(2).lower()], text)
    text = _ITALIC.sub(r"\1", text)
    if "-" in text:  # "A100-80GB": the card, then its memory (a space of the same length)
        text = _CARD_MEMORY.sub(r"\1 ", text)
    return text


_MONEY = re.compile(r"\$(?=\d)")


def _dollars(text: str) -> str:
    """Math delimiters (`$x$`) become spaces; a currency sign before an amount (`$2 per
    GPU-hour`, `$3M`) stays. A `$` opens math when the next `$` closes it, straight after a
    non-space character; a `$` before a digit that opens no math is a currency sign."""
    out, i = [], 0
    while True:
        j = text.find("$", i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:j])
        k = text.find("$", j + 1)
        closes = k > j + 1 and not text[k - 1].isspace() and "\n\n" not in text[j:k]
        if _MONEY.match(text, j) and not closes:
            out.append("$")
            i = j + 1
        elif closes:
            out.append(" " + text[j + 1:k] + " ")
            i = k + 1
        else:
            out.append(" ")
            i = j + 1


# ---- tokens ------------------------------------------------------------------------------

_THOUSANDS = re.compile(r"\d{1,3}(?:(?P<sep>[,\u202f\u2009\u00a0 ])\d{3})(?:(?P=sep)\d{3})*"
                        r"(?P<dec>\.\d+)?(?![\d])(?!,\d)")
_ASCII_DIGITS = "0123456789"
_DIGIT_RUN = re.compile(r"[\d.,\u202f\u2009\u00a0]+")
_DECIMAL = re.compile(r"\d+(?:\.\d+)?|\.\d+")
_EXPONENT = re.compile(r"[eE]([+-]?\d{1,3})(?![\w])")
_SUPER = re.compile(f"[{''.join(SUPERSCRIPTS)}]+")
# "70 billion", "7-billion-parameter" (a hyphen or dash before the scale word)
_SCALE_WORD = re.compile(rf"(?:\s|[-‐–](?=[a-z]))?({notation.alternation(SCALE_WORDS)})\b",
                         re.I)
_BYTES = re.compile(rf"\s?({notation.alternation(BYTE_UNITS)})(?:s(?=\b))?(?![A-Za-z0-9_])")  # "80GBs"
_SCALE = re.compile(rf"(?:{notation.alternation(SCALES)})(?![A-Za-z0-9_])")
_FLOPS = re.compile(rf"\s?({notation.alternation(FLOP_SCALES)})(FLOPS|FLOPs|FLOP/s|"
                    r"FLOP|flops|flop/s|FLOPs/s)(?![A-Za-z0-9_])")
_RATIO = re.compile(r"\s?[×x](?![A-Za-z0-9_])")
# Chinese, Japanese and Korean letters: a run of them is one word, never glued to the
# digits or Latin letters beside it ("模型需要14GB显存": 模型需要, 14GB, 显存)
CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
CJK_PUNCTUATION = "\u3000-\u303f\uff00-\uffef"  # their stops, commas and full-width forms
_WORD = re.compile(rf"[{CJK}]+|[^\W\d_{CJK}][^\W{CJK}]*(?:['’-][^\W{CJK}]+)*|_[^\W{CJK}]+")
# the Chinese and Japanese scales (亿 10⁸, 万 10⁴, 万亿 10¹²) and byte words
_CJK_SCALE = re.compile(r"\s?(?:万亿|萬億|兆|亿|億|万|萬)")
_CJK_SCALES = {"万亿": (10**12, "T"), "萬億": (10**12, "T"), "兆": (10**12, "T"),
               "亿": (10**8, "B"), "億": (10**8, "B"), "万": (10**4, "万"), "萬": (10**4, "万")}
_CJK_CHAR = re.compile(f"[{CJK}]")
# a size in lower case before the noun that makes it one ("a 13b model", "7b params"; "8b"
# alone may be bits)
_LOWER_SIZE = re.compile(r"([bm])(?![A-Za-z0-9_])(?=[\s-]*(?:models?|param(?:eter)?s?|llms?|"
                         r"variants?|checkpoints?)\b)")
_CJK_EDGE = re.compile(rf"(?<=[{CJK}])(?=[^\s{CJK}{CJK_PUNCTUATION}])|"
                       rf"(?<=[^\s{CJK}{CJK_PUNCTUATION}])(?=[{CJK}])")
_OPS = [("**", "^"), ("==", "="), ("~=", "≈"), ("<=", "≤"), (">=", "≥"), ("!=", "≠"),
        ("->", "→"), ("⟶", "→"), ("⇒", "→"), ("≃", "≈"), ("≅", "≈"), ("+", "+"),
        ("−", "-"), ("-", "-"), ("–", "–"), ("×", "×"), ("·", "×"), ("⋅", "×"), ("*", "×"),
        ("/", "/"), ("÷", "/"), ("^", "^"), ("(", "("), (")", ")"), ("[", "("), ("]", ")"),
        ("=", "="), ("≈", "≈"), ("~", "~"), ("≠", "≠"), ("<", "<"), (">", ">"), ("≤", "≤"),
        ("≥", "≥"), ("→", "→"), (",", ","), (":", ":"), (";", ";"), ("%", "%"),
        # the full-width forms of Chinese and Japanese text
        ("：", ":"), ("，", ","), ("；", ";"), ("（", "("), ("）", ")"), ("＝", "="),
        ("＋", "+"), ("％", "%"), ("～", "~"), ("、", ",")]


def _digits_ok(s: str) -> bool:
    return sum(c.isdigit() for c in s) <= MAX_DIGITS


def _read_number(text: str, i: int):
    """(Tok, end) for a number starting at i, or None."""
    m = _THOUSANDS.match(text, i)
    sep = m and m.group("sep")
    if m and sep == " " and (text[i - 1:i].isdigit() or len(m.group()) > 12
                             or re.match(r"-[^\W\d]", text[m.end():m.end() + 2])):
        m = None  # "32 128-dimensional heads": two numbers, the second a compound's
    if m:
        raw = m.group()
        dec = m.group("dec") or ""
        digits = re.sub(r"\D", "", raw[:len(raw) - len(dec)])
        value, unit, plain = Fraction(int(digits)), Fraction(1), False
        if dec:
            value += Fraction(int(dec[1:]), 10 ** (len(dec) - 1))
            unit = Fraction(1, 10 ** (len(dec) - 1))
        end = m.end()
    else:
        m = _DECIMAL.match(text, i)
        if not m:
            return None
        raw = m.group()
        whole, _, dec = raw.partition(".")
        value = Fraction(int((whole or "0") + dec)) / 10 ** len(dec)
        unit, plain = Fraction(1, 10 ** len(dec)), True
        end = m.end()
    if not _digits_ok(raw):
        return None
    tok = Tok("NUM", raw, i, end, value, unit, plain)
    if end < len(text) and text[end] in FRACTIONS:  # 2⅔
        tok.value += FRACTIONS[text[end]]
        tok.unit, tok.plain, end = Fraction(0), False, end + 1
    e = _EXPONENT.match(text, end)
    if e and abs(int(e.group(1))) <= MAX_POWER:
        tok.value *= Fraction(10) ** int(e.group(1))
        tok.unit *= Fraction(10) ** int(e.group(1))
        end = e.end()
    s = _SUPER.match(text, end)
    if s:
        p = int("".join(SUPERSCRIPTS[c] for c in s.group()))
        if p > MAX_POWER:
            return None
        tok.value, tok.unit, tok.plain, tok.power = tok.value ** p, Fraction(0), False, True
        end = s.end()
    f = _FLOPS.match(text, end)
    if f:  # 14 GFLOPs, 312 TFLOPS, 8.4e22 FLOPs: a count (or rate) of FLOPs at its scale
        factor = FLOP_SCALES[f.group(1)]
        tok.value *= factor
        tok.unit *= factor
        tok.plain, tok.scale = False, "flops"
        tok.end, tok.text = f.end(), text[i:f.end()]
        return tok, f.end()
    c = _CJK_SCALE.match(text, end)
    if c:  # 1700亿 (170 billion), 40亿字节 (4 GB)
        factor, scale = _CJK_SCALES[c.group().strip()]
        tok.value *= factor
        tok.unit *= factor
        tok.plain, tok.scale, end = False, scale, c.end()
    for pattern, table, kind in ((_BYTES, BYTE_UNITS, "bytes"), (_SCALE_WORD, None, "K")):
        if tok.scale:
            break
        w = pattern.match(text, end)
        if w:
            factor = table[w.group(1)] if table else SCALE_WORDS[w.group(1).lower()]
            tok.value *= factor
            tok.unit *= factor
            tok.plain, tok.scale, end = False, kind if kind == "bytes" else w.group(1), w.end()
            break
    else:
        w = _SCALE.match(text, end) if not tok.scale else None
        if w:
            factor = SCALES[w.group()]
            tok.value *= factor
            tok.unit *= factor
            tok.plain, tok.scale, end = False, w.group(), w.end()
        elif not tok.scale and (w := _LOWER_SIZE.match(text, end)):  # "a 13b model"
            factor = SCALES[w.group(1).upper()]
            tok.value *= factor
            tok.unit *= factor
            tok.plain, tok.scale, end = False, w.group(1).upper(), w.end(1)
    if text.startswith("%", end):
        tok.value /= 100
        tok.unit /= 100
        tok.scale, end = "%", end + 1
        tok.plain = tok.plain  # 33% is a literal of the claim language too
    r = _RATIO.match(text, end)
    if r and not re.match(r"\s*(?:[\d(]|\.\d)", text[r.end():]) and not re.match(
            r"\s*[dDhH](?![A-Za-z])|\s*d_", text[r.end():]):
        tok.ratio, end = True, r.end()
    tok.end = end
    tok.text = text[i:end]
    return tok, end


# a reference marker glued to the word or stop before it: [1], [2, 3], [4–6], [^7]
# (a shape "[2, 768]" or "为[2, 768]" is no citation: its numbers are large, or it
# follows no word or stop of a Latin script)
_REFERENCE_AFTER = re.compile(r"[A-Za-z.,;:!?)\]\"'”’]")
_REFERENCE = re.compile(r"\[(?:\^\w{1,16}|\d{1,3}(?:\s?[,–-]\s?\d{1,3}){0,8})\]")


@lru_cache(maxsize=16384)
def tokens(text: str) -> tuple:
    """The tokens of `text` (cached: the detector, the context pass and the reader all
    ask for the same unit; tokens are never changed after this returns)."""
    return tuple(_tokens(text))


def _tokens(text: str) -> list[Tok]:
    out: list[Tok] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if ch in _ASCII_DIGITS or (ch == "." and text[i + 1:i + 2] in _ASCII_DIGITS
                                   and i + 1 < n):
            run = _DIGIT_RUN.match(text, i).end()
            if not _digits_ok(text[i:run]):  # too long to be a quantity: skip it whole
                out.append(Tok("OTHER", text[i:run], i, run))
                i = run
                continue
            got = _read_number(text, i)
            glued = i and ((text[i - 1].isalpha() and not _CJK_CHAR.match(text[i - 1]))
                           or text[i - 1] == "_" or (
                ch == "." and out and out[-1].kind == "WORD" and out[-1].end == i))
            if got and not glued:
                tok, i = got
                out.append(tok)
                continue
            if got:  # a digit inside a name (L08, W1, the .5 of Qwen1.5): part of the word
                tok, j = got
                if ch == "." and out and out[-1].kind == "WORD" and out[-1].end == i:
                    i = out.pop().start
                out.append(Tok("WORD", text[i:j], i, j))
                i = j
                continue
        if ch == "[" and i and _REFERENCE_AFTER.match(text[i - 1]):
            ref = _REFERENCE.match(text, i)
            if ref and all(int(x) < 200 for x in re.findall(r"\d+", ref.group())
                           if not ref.group().startswith("[^")):
                # "…batch size.[1][2]", "Wikipedia[12]": a citation, not a figure
                out.append(Tok("OTHER", ref.group(), i, ref.end()))
                i = ref.end()
                continue
        if ch == "$" and text[i + 1:i + 2].isdigit():  # a currency sign: "$3M"
            got = _read_number(text, i + 1)
            if got:
                tok, i = got
                tok.money = True
                out.append(tok)
                continue
        if ch in FRACTIONS:
            out.append(Tok("NUM", ch, i, i + 1, FRACTIONS[ch], Fraction(0)))
            i += 1
            continue
        m = _WORD.match(text, i)
        if m:
            out.append(Tok("WORD", m.group(), i, m.end()))
            i = m.end()
            continue
        for a, b in _OPS:
            if text.startswith(a, i):
                out.append(Tok("OP", b, i, i + len(a)))
                i += len(a)
                break
        else:
            out.append(Tok("OTHER", ch, i, i + 1))
            i += 1
    _mark_spacing(out, text)
    _merge(out)
    return out


def _mark_spacing(toks, text):
    for t in toks:
        t.space_before = t.start > 0 and text[t.start - 1].isspace()
        t.space_after = t.end < len(text) and text[t.end].isspace()


def _merge(toks: list[Tok]):
    """Scientific forms, ranges, `~` and words of approximation, number words."""
    for i in range(1, len(toks) - 1):  # 2 x 32: a multiplication sign written as the letter x
        t = toks[i]
        if t.kind == "WORD" and t.text == "x" and toks[i - 1].kind == "NUM" \
                and toks[i + 1].kind == "NUM":
            t.kind, t.text = "OP", "×"
    i = 0
    while i < len(toks):
        t = toks[i]
        # 6.7 × 10⁹ / 6.7·10^9 / 6.7 * 10**9: one number with the mantissa's precision
        if (t.kind == "NUM" and i + 2 < len(toks) and toks[i + 1].kind == "OP"
                and toks[i + 1].text == "×" and toks[i + 2].kind == "NUM"
                and toks[i + 2].text.startswith("10")):
            ten = toks[i + 2]
            power = None
            if ten.power and ten.text[:2] == "10":
                power = ten.value
            elif (i + 4 < len(toks) and ten.text == "10" and toks[i + 3].text == "^"
                  and toks[i + 4].kind == "NUM" and toks[i + 4].value.denominator == 1
                  and 0 <= toks[i + 4].value <= MAX_POWER):
                power = 10 ** int(toks[i + 4].value)
                exponent = toks[i + 4]
                ten = replace(ten, end=exponent.end, text=f"10^{exponent.text}",
                              scale=exponent.scale)
                del toks[i + 3:i + 5]  # the figure ends after its exponent ("2×10^6 GPU-hours")
            if power is not None:
                t.value *= power
                t.unit *= power
                t.plain = False
                t.end = ten.end
                t.text = t.text + "×" + ten.text
                if ten.scale == "flops" and not t.scale:  # "8.4 × 10^22 FLOPs": the unit
                    t.scale = "flops"  # written after the exponent is the figure's
                del toks[i + 1:i + 3]
        # 1-2%, 10–15%: a range, not a subtraction
        if (t.kind == "OP" and t.text in "-–" and 0 < i < len(toks) - 1
                and toks[i - 1].kind == "NUM" and toks[i + 1].kind == "NUM"
                and (t.text == "–" or (not t.space_before and not t.space_after))):
            t.kind = "RANGE"
        i += 1
    _scale_apart(toks)
    for i, t in enumerate(toks):
        if t.kind == "NUM" and i:
            prev = toks[i - 1]
            if prev.kind == "OP" and prev.text == "~":
                t.tilde = True
            elif prev.kind == "WORD" and words.hedge_before(_words_before(toks, i)):
                t.about = True
        if t.kind == "NUM" and _hedged_after(toks, i):
            t.about = True



# a scale letter written apart from its figure, before the noun it scales: "32 k tokens",
# "128 K context", "46.7 B parameters" (read as 32k, 128K, 46.7B)
_APART = ("k", "K", "M", "B")
_SCALED_NOUNS = frozenset({"tokens", "token", "context", "ctx", "vocabulary", "vocab",
                           "parameters", "params", "parameter", "param"})


def _scale_apart(toks):
    """Also a capital scale letter apart from its figure at the end of a table cell or a
    text ("| 124 M |", "~70,000 M"): nothing after it but the cell's edge."""
    i = 0
    while i + 1 < len(toks):
        t, s = toks[i], toks[i + 1]
        noun = toks[i + 2] if i + 2 < len(toks) else None
        ends = noun is None or (noun.kind in ("OP", "OTHER") and noun.text in ("|", ")"))
        if t.kind == "NUM" and not t.scale and not t.ratio and not t.power and not t.money \
                and t.unit and s.kind == "WORD" and s.text in _APART and s.start == t.end + 1 \
                and ((noun is not None and noun.kind == "WORD" and noun.lower in _SCALED_NOUNS)
                     or (ends and s.text.isupper())):
            factor = SCALES[s.text]
            t.value, t.unit, t.scale = t.value * factor, t.unit * factor, s.text
            t.plain, t.text, t.end, t.space_after = False, f"{t.text} {s.text}", s.end, True
            del toks[i + 1]
        i += 1


def _words_before(toks, i, n: int = 4) -> list[str]:
    """The words (lower case) that run up to token i, at most n."""
    out = []
    for t in reversed(toks[max(0, i - n):i]):
        if t.kind != "WORD":
            break
        out.insert(0, t.lower)
    return out


def _hedged_after(toks, i) -> bool:
    """A hedge after the figure: `30 layers or so`, `7B or thereabouts`, `6.5B-ish`,
    `32 give or take` (up to two words of its noun between)."""
    after = [t.text.lower() for t in toks[i + 1:i + 6]]
    if after[:2] in (["-", "ish"], ["ish"]) and (toks[i].end == toks[i + 1].start):
        return True
    for k in range(0, 3):
        if k and (len(after) < k or not all(toks[i + 1 + j].kind == "WORD"
                                            for j in range(k))):
            break
        rest = after[k:k + 3]
        if rest[:2] in (["or", "so"], ["or", "thereabouts"]) or rest == ["give", "or", "take"]:
            return True
    return False


def literal(x: Fraction) -> str:
    """`x` in the claim language, exactly."""
    if x.denominator == 1:
        return str(x.numerator)
    d = x.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d == 1:  # a finite decimal
        digits = 0
        y = x
        while y.denominator != 1:
            y *= 10
            digits += 1
        sign = "-" if y < 0 else ""
        s = str(abs(y.numerator)).rjust(digits + 1, "0")
        return f"{sign}{s[:-digits]}.{s[-digits:]}"
    return f"({x.numerator}/{x.denominator})"


# "70×109×4 bytes", "8.4×1022 FLOPs": 10⁹ and 10²² whose superscripts a copied page lost
_LOST_POWER = re.compile(r"(?<=[×x*·])(\s?)10(?!24\b)([3-9]|1\d|2\d)(?![\d.,])")
_LARGE = re.compile(r"\b(?:[KMGT]i?B|bytes?|flops?|param(?:eter)?s?|tokens?)\b|\d{7,}", re.I)


def lost_superscripts(text: str) -> str | None:
    """`text` with each "×10N" (N from 3 to 29, not 1024) read as ×10^N, where the text
    speaks of large amounts (bytes, FLOPs, parameters, tokens): the superscript of a power
    of ten that copying lost ("70×109×4 bytes" is 70 × 10⁹ × 4); None where there is none.
    A reading of the restored text is to confirm: "4 × 109" may be 436."""
    found = [int(m.group(2)) for m in _LOST_POWER.finditer(text)]
    if not found or not (_LARGE.search(text) or max(found) >= 12):  # ("×1022": large itself)
        return None
    return _LOST_POWER.sub(r"\g<1>10^\2", text)
