"""Units of text: the sentences of paragraphs and list items, table rows (with their
header), headings and display math, each with the exact position of its first character.

A paragraph is cut into sentences after `.`, `!` or `?` followed by a space and a new
sentence (not after a decimal point, an abbreviation such as "e.g." or "vs.", or an
initial, nor before a figure with its noun and nothing else: "…, context=1024. 124M
parameters.", nor after a question that is a figure alone: "Why 28,672?"), at a line of a paragraph set as lines of figures, and before an inline bullet (" - **Name**: ...", " • ") or a bold run-in heading
("**Name:**"), as text pasted from web pages writes lists inside one paragraph. Table rows,
headings and display math are one unit each. Inline code is code (blanked from what is
detected and read), except inline code that is only numbers and arithmetic
(`` `4096 * 11008 * 3` ``): that is arithmetic written in prose, and is read.
"""

import itertools
import re
from dataclasses import dataclass

from ffnverify.scan.blocks import Block
from ffnverify.scan.numbers import CJK, CJK_PUNCTUATION

MAX_UNIT_CHARS = 2000  # a longer sentence is cut (it is read in pieces of this size)

_ABBREVIATIONS = {"e.g", "i.e", "al", "vs", "fig", "eq", "eqs", "approx", "cf", "resp", "no",
                  "sec", "ch", "ref", "refs", "etc", "ca", "cca", "tab", "dept", "mr", "dr",
                  "st", "jr", "inc", "ltd", "p", "pp", "vol", "ed", "eds", "ibid",
                  # German, French, Spanish: "46,7 Mrd. Parameter", "z.B.", "env."
                  "mrd", "mio", "bzw", "z.b", "d.h", "u.a", "usw", "ggf", "inkl", "env",
                  "p.ex", "aprox"}
# words that open sentences and are no one's surname: "= P. With LoRA" ends a sentence,
# "N. Shazeer" does not
_STARTERS = {"the", "a", "an", "this", "that", "these", "those", "it", "its", "with", "in",
             "for", "on", "at", "by", "to", "from", "if", "when", "so", "but", "and", "or",
             "we", "they", "our", "each", "every", "all", "some", "here", "there", "then",
             "thus", "hence", "note", "see", "as", "since", "because", "while", "however",
             "also", "one", "two", "both", "now", "after", "before"}
# a stop, then any citation markers ("… batch size.[1][2] These …"), quotes, brackets
_SENTENCE_END = re.compile(r"[.!?](?:\[(?:\^\w{1,16}|\d{1,3}(?:\s?[,–-]\s?\d{1,3}){0,8})\])*"
                           r"[)\]\"'”’*]*\s+(?=[\"'“(\[*$]*[A-Z0-9À-ÖØ-ÞΑ-ΩА-Я])")
_BULLET = re.compile(r"\s(?:-|–|•|\*)\s+(?=\*\*|[A-Z])")
_RUN_IN = re.compile(r"\s(?=\*\*[^*\n]{1,80}:\*\*)")
_BOLD_START = re.compile(r"\s(?=\*\*[A-Z])")
_LABEL = re.compile(r"^\W*[A-Z][A-Za-z-]*(?: [A-Za-z-]+)?\.\W*\s*$")  # "Data.", "Key idea."
# inline code that is only numbers and arithmetic (`4096 * 11008 * 3`, `8/3 * 4096 =
# 10922`), or a comparison in one-letter symbols (`2*d*h = 2*4096*11008`), is arithmetic
# written in prose, and is read; any other inline code (a call, a command) is code
_ARITHMETIC = re.compile(r"`*\s*(?=[^`]*\d[^`]*[-+*/×·^=≈<>])(?:[\d\s.,+\-*/×·^()=≈~<>²³⁰¹⁴⁵⁶⁷⁸⁹]|"
                         r"(?<![A-Za-z_])[A-Za-z](?:_[a-z]+)?(?![A-Za-z_(]))+`*")


@dataclass
class Unit:
    file: str
    line: int
    col: int
    end_line: int
    text: str
    kind: str  # sentence | item | row | heading | math | line
    header: tuple = ()
    cells: tuple = ()
    group: tuple = ()
    offset: int = 0  # source offset of the first character
    probe: str = ""  # the text with inline code blanked: what is detected and read
    section: str = ""  # the catalogue model its place names (heading, paragraph before)
    origin: str = ""  # where that model (or `family`) came from: "the heading “GPT-3” (line 1)"
    family: str = ""  # a family its place names without a size ("GPT-2"), for a row of sizes
    nominal: object = None  # the size the section's model was identified by: a name
    guessed: bool = False  # `section` is only the model the document named before
    field: object = None  # the field its section's heading names (`structure.Field`)
    around: object = None  # what the text before gives it (`carried.Around`)
    sized: bool = False  # its header's sizes were named as a family's rows (`structure`)


def _cuts(text: str, code=()) -> list[int]:
    cuts = set(_sentence_starts(text))
    # a ` * ` inside inline code is an operator (`12 * d^2 * L`), never a bullet
    bullets = [m for m in _BULLET.finditer(text) if not any(a <= m.start() < b for a, b in code)]
    if len(bullets) >= 2:  # a list pasted into one paragraph; one " - " is a dash
        cuts.update(m.start() + 1 for m in bullets)
    for m in _RUN_IN.finditer(text):
        cuts.add(m.end())
    for m in _BOLD_START.finditer(text):  # a bold phrase opening a new sentence
        if text.count("**", 0, m.start()) % 2 == 0 and re.search(r"[.!?:)\w]\s*$",
                                                                text[:m.start()]):
            cuts.add(m.end())
    return sorted(cuts)


def _sentence_starts(text: str) -> list[int]:
    """Where sentences start (the hand-written rule of the module docstring; measured
    against pysbd 0.3.4 on the v3 dev corpus: the same units but one, where pysbd cut
    `2048 * 4KB != 640MB` at the `!`)."""
    cuts = []
    for m in _SENTENCE_END.finditer(text):
        before = text[:m.start()]
        word = re.search(r"([A-Za-z.]+)$", before)
        if word:
            w = word.group(1).lower().rstrip(".")
            initial = (len(w) == 1 and w.isalpha() and word.group(1).isupper()
                       and (word.start() == 0 or text[word.start() - 1].isspace()
                            or text[word.start() - 1] in "\"'“‘(["))  # '"N. Shazeer"'
            nxt = re.match(r"\W*(\w+)", text[m.end():])
            starter = nxt is not None and nxt.group(1).lower() in _STARTERS
            abbreviation = w in _ABBREVIATIONS and not initial  # "p." is a page, "P." not
            if abbreviation or (initial and text[m.start()] == "." and not starter):
                continue
        cuts.append(m.end())
    # a figure with its noun and nothing else ("…, context=1024. 124M parameters.") ends
    # the sentence before it, as a list of figures goes on: no cut before it
    # a question that is a figure alone ("Why 28,672? Convention says …") leads into its
    # answer, as a run-in heading does
    cuts = [c for k, c in enumerate(cuts)
            if not _FIGURE_QUESTION.fullmatch(text[cuts[k - 1] if k else 0:c])]
    cuts = [c for c in cuts if not _FRAGMENT.match(text, c)]
    # Chinese and Japanese end a sentence with a full-width stop, no space after it
    cuts += [m.end() for m in _CJK_END.finditer(text)]
    return sorted(set(cuts))


_CJK_END = re.compile(r"[。！？](?:[」』）”’]*)(?=\s*\S)")


_FIGURE_QUESTION = re.compile(r"\s*(?:why|how come|so why|but why)\s+(?:the\s+|a\s+)?[~≈]?\d"
                              r"[\d.,/×x]*\s*\??\s*", re.I)


_FRAGMENT = re.compile(r"[~≈]?\d[\d.,]*\s?[KMBT]?\s+(?:[a-z-]+\s+)?(?:parameters|params|layers|"
                       r"heads|experts|tokens)\.?\s*(?:$|(?=[A-Z]))")


# arithmetic with its units, said as a result (`70B params × 0.6 bytes = 42 GB`): figures
# with a scale or a byte unit, and the nouns of counted things, around one `=` or `≈`
_UNITS_ARITHMETIC = re.compile(
    r"`*(?=[^`]*\d[^`]*[×*·/+][^`]*[=≈])(?:[\d\s.,+\-*/×·^()=≈~]|(?<=\d)\s?(?:[KMBT]|[KMGT]i?B)"
    r"\b|\b(?:params|parameters|bytes?|tokens|layers|heads|bits|GB|GiB|MB|MiB|KB|KiB|TB|FLOPs?)"
    r"\b)+`*")


def _is_arithmetic(code: str) -> bool:
    """Inline code that is arithmetic: numbers and operators, or a formula in one-letter
    symbols that states a comparison (`3 * d * h == 3 * 4096 * 11008`), or figures with
    their units and counted nouns computed to a result (`70B params × 0.6 bytes = 42 GB`)."""
    if _UNITS_ARITHMETIC.fullmatch(code):
        return True
    if not _ARITHMETIC.fullmatch(code):
        return False
    return not re.search(r"[A-Za-z]", code) or bool(re.search(r"[=≈<>]", code))


def _is_formula(code: str) -> bool:
    """Inline code that is a formula in one-letter symbols with a number times a symbol
    (`12 * d^2 * L + 2 * V * d`): math when it is the whole unit (a list item that states
    it), as a later unit may evaluate it."""
    return bool(_ARITHMETIC.fullmatch(code)) and bool(re.search(r"\d\s*[*×·]\s*[A-Za-z]",
                                                                 code))


def _strip_marker(segment: str) -> int:
    """How many leading characters are a bullet marker and spaces."""
    m = re.match(r"\s*(?:[-–•*](?!\*)\s+)?", segment)
    return m.end() if m else 0


# a source line that ends in a figure ("4 x 8192 x 8192", "~140 GB", "(dmodel = 8192)"),
# and the next line's start: a capital, a figure or a multiplication sign
_ENDS_IN_FIGURE = re.compile(r"\d[\d,.]*\s?(?:[A-Za-z%]{1,3})?\)?$")
_STARTS_LINE = re.compile(r"[A-Z0-9×~≈]")


def _line_cuts(block: Block, where) -> list[int]:
    """Where a line of a paragraph starts a statement of its own: between two lines that
    each end in a figure, when the second starts with a capital, a figure or ×
    ("Attention parameters per layer: 4 x 8192 x 8192" over "MLP parameters per layer: 3
    x 8192 x 28672"; "~140 GB" over "Standard inference today — half the size of FP32");
    between two lines that are each a label and its value ("License: Apache 2.0" over
    "Context window: 32,768 tokens").
    A paragraph set as lines, as notes, diagrams and pasted cards write them; prose that
    wraps goes on mid-sentence."""
    if block.kind not in ("para", "item"):
        return []
    text = block.text
    breaks = [i for i in range(1, len(text) - 1) if text[i] == " "
              and where(block.offset(i + 1))[0] > where(block.offset(i - 1))[0]]
    bounds = [-1, *breaks, len(text)]
    lines = [text[a + 1:b].strip() for a, b in itertools.pairwise(bounds)]
    return [i + 1 for k, (i, before, after) in enumerate(zip(breaks, lines, lines[1:]))
            if (k == 0 and _GREETING.fullmatch(before)) or _CJK_LINES(before, after) or (
                _KEY_VALUE.fullmatch(before) and _KEY_VALUE.fullmatch(after)) or (
                _STARTS_LINE.match(after) and (
                (_figure_line(before) and _figure_line(after)) or _BARE_FIGURE.fullmatch(before)))]


def _CJK_LINES(before: str, after: str) -> bool:
    """Chinese and Japanese are not wrapped at spaces (they have none): a line break
    beside their letters ends a line set on its own, as notes write them."""
    return bool(_CJK_LETTER.search(before[-1:] + after[:1]))


_CJK_LETTER = re.compile(f"[{CJK}{CJK_PUNCTUATION}]")


# a first line that only greets or mentions ("Hi @maintainer", "@alice @bob"): the
# statement starts on the next line
_GREETING = re.compile(r"(?:(?:hi|hey|hello|thanks|thank you|cc)[,!]?\s+)?@[\w-]+"
                       r"(?:\s+@[\w-]+)*\s*[,:!]?", re.I)


# a line that is a label and its value ("Parameter size: 8x7B (47B total)" over "Context
# window: 32,768 tokens"): a card's fields, set one a line
_KEY_VALUE = re.compile(r"[A-Z][\w .'/()&-]{0,40}?:\s+\S.*")
_BARE_FIGURE = re.compile(r"[~≈]?\d[\d,.]*\s?[A-Za-z%]{0,3}")  # a value line: "~140 GB"


def _figure_line(line: str) -> bool:
    """A line that ends in a figure and holds a word ("MLP parameters per layer: 3 x 8192
    x 28672", "~140 GB"); a bare "L = 12" is one setting of a spec written over lines."""
    return bool(_ENDS_IN_FIGURE.search(line)) and bool(re.search(r"[A-Za-z]{2}", line))


def split(block: Block, file: str, where) -> list[Unit]:
    """The units of one block."""
    text = block.text
    if block.kind in ("row", "heading", "math"):
        pieces = [(0, len(text))]
    else:
        cuts = sorted(set(_cuts(text, block.code)) | set(_line_cuts(block, where)))
        if block.kind == "item" and cuts and _LABEL.match(text[:cuts[0]]):
            cuts = cuts[1:]  # "- **Data.** Roughly 500B tokens": a run-in label
        bounds = [0, *cuts, len(text)]
        pieces = list(itertools.pairwise(bounds))
    kind = {"para": "sentence", "line": "sentence"}.get(block.kind, block.kind)
    units = []
    for start, end in pieces:
        while end - start > MAX_UNIT_CHARS:
            units.extend(_unit(block, file, where, text, start, start + MAX_UNIT_CHARS, kind))
            start += MAX_UNIT_CHARS
        units.extend(_unit(block, file, where, text, start, end, kind))
    return units


def _unit(block, file, where, text, start, end, kind):
    seg = text[start:end]
    lead = _strip_marker(seg)
    body = seg[lead:].rstrip()
    if not body.strip():
        return []
    first = start + lead
    last = first + len(body) - 1
    offset = block.offset(first)
    line, col = where(offset)
    end_line, _ = where(block.offset(last))
    probe = body
    for cs, ce in block.code:  # inline code is code: commands, identifiers, claim text
        a, b = max(cs, first) - first, min(ce, first + len(body)) - first
        whole = not body[:a].strip(" -*:") and not body[b:].strip(" .,;")
        if a < b and not _is_arithmetic(body[a:b]) and not (whole and _is_formula(body[a:b])):
            probe = probe[:a] + " " * (b - a) + probe[b:]
    return [Unit(file, line, col, max(line, end_line), body, kind, block.header, block.cells,
                 block.group, offset, probe)]
