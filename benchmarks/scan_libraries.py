"""The scan's hand-written readers against the libraries issue 27 names, on the dev half.

    python3 -m venv /tmp/libs && /tmp/libs/bin/pip install -e . quantulum3 spacy
    PYTHONPATH=$PWD /tmp/libs/bin/python benchmarks/scan_libraries.py [tests/scan/corpus_v3/dev]

Two comparisons, each on the corpus's development folder only (never a held-out one):

1. Sentence boundaries: spaCy's rule-based `sentencizer` on a blank English pipeline (no
   model download) put in place of `units._sentence_starts`; the whole scan is rerun and
   its prose recall and detection precision are compared with the hand-written rule's
   (the measure of tests/scan/corpus_v3/measure.py). pysbd was compared the same way in
   an earlier session (tests/scan/test_scan_sentences.py).
2. Quantities with a scale: every number the scan's tokenizer reads with a scale suffix
   or word (`6.7B`, `32K`, `13.5 GB`, `70 billion`), in every statement the scan lists,
   is looked up among quantulum3's quantities at the same place. quantulum3's reading is
   counted right when it is a plain (dimensionless) number equal to the scan's value, or
   a data unit (byte, kilobyte, ..., gibibyte) whose value in bytes equals it; the other
   readings (kelvin for `32K`, tesla for `1.2T`, byte for `7B` parameters, metre for
   `67.1M`) are counted wrong, and a sample of them is printed so the counting can be
   checked by eye. The scan's values are exact Fractions; quantulum3's are floats, compared
   to a relative 1e-9.

spaCy's `Matcher` for negation and bound words would match the same phrase list the scan
keeps in ffnverify/scan/words.py (BOUNDS, negations): a second engine over one table, so
it is not measured; the table stays the one source.
"""

import sys
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "scan" / "corpus_v3"))

import measure  # noqa: E402  (the corpus's own measure)

from ffnverify.scan import units  # noqa: E402
from ffnverify.scan.numbers import normalise, tokens  # noqa: E402

_DATA = {"byte": 1, "kilobyte": 10**3, "megabyte": 10**6, "gigabyte": 10**9,
         "terabyte": 10**12, "kibibyte": 2**10, "mebibyte": 2**20, "gibibyte": 2**30,
         "tebibyte": 2**40, "mibibyte": 2**20}  # quantulum3 spells MiB "mibibyte"


def _figures(folder: Path) -> dict:
    out = measure.run(folder)
    out.pop("lists")
    return out


def sentences(folder: Path) -> dict:
    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")

    def spacy_starts(text: str) -> list[int]:
        return [s.start_char for s in nlp(text).sents][1:]

    hand = _figures(folder)
    original = units._sentence_starts
    units._sentence_starts = spacy_starts
    try:
        lib = _figures(folder)
    finally:
        units._sentence_starts = original
    keys = ("prose_recall", "detection_precision", "checked_verdicts_right", "read_share")
    return {"hand-written": {k: hand[k] for k in keys}, f"spaCy {spacy.__version__} "
            "sentencizer": {k: lib[k] for k in keys}}


def _right(q, value: Fraction) -> bool:
    name = q.unit.name
    if name == "dimensionless":
        got = Fraction(q.value)
    elif name in _DATA:
        got = Fraction(q.value) * _DATA[name]
    else:
        return False
    return value != 0 and abs(got - value) <= abs(value) * Fraction(1, 10**9)


def quantities(folder: Path) -> dict:
    from quantulum3 import parser

    from ffnverify.claims.budget import Engine
    from ffnverify.scan.scan import scan

    with Engine() as engine:
        found = scan([str(folder)], engine)["statements"]
    total = right = 0
    wrong = []
    for st in found:
        text = normalise(st["text"])
        quants = parser.parse(text)
        for t in tokens(text):
            if t.kind != "NUM" or not t.scale or t.scale == "%" or t.value is None:
                continue
            total += 1
            here = [q for q in quants if q.span[0] <= t.start < q.span[1]
                    or t.start <= q.span[0] < t.end]
            if any(_right(q, t.value) for q in here):
                right += 1
            else:
                shown = ", ".join(f"{q.value:g} {q.unit.name}" for q in here) or "nothing"
                wrong.append(f"{t.text!r} (scan: {t.value}) -> quantulum3: {shown}")
    return {"numbers with a scale": total, "quantulum3 right": right, "wrong": wrong}


def main(argv) -> int:
    folder = Path(argv[0]) if argv else HERE.parent / "tests" / "scan" / "corpus_v3" / "dev"
    if folder.name != "dev":
        print("compare on the development folder only (the held-out ones are not for tuning)")
        return 2
    for name, figs in sentences(folder).items():
        print(f"sentences, {name}: " + ", ".join(f"{k} {v:.3f}" for k, v in figs.items()))
    q = quantities(folder)
    print(f"quantities: {q['numbers with a scale']} numbers with a scale; quantulum3 reads "
          f"{q['quantulum3 right']} as the scan does "
          f"({q['quantulum3 right'] / max(q['numbers with a scale'], 1):.1%})")
    for line in q["wrong"][:25]:
        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
