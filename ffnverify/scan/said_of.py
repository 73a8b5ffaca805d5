"""Arithmetic whose result the statement also says of a named model (docs/architecture.md
§5.2, wholeness).

"In Llama 3 8B the K and V projections hold `2 * 4096 * 4096 = 33554432` parameters", or
"Mixtral, with an architecture totaling 8*7B=56B": the arithmetic holds as written, but
the sentence also gives its result to a model's quantity (a field noun after it, or a word
of totalling before the expression), a second claim the arithmetic does not read. Such a
part is never `checked` on the arithmetic alone: it becomes a reading to confirm.
"""

import re
from dataclasses import replace

from ffnverify.catalogue.families import members
from ffnverify.scan import words
from ffnverify.scan.detect import other_names, squash
from ffnverify.scan.fields import fields_in

# a word that gives what follows to the subject as its total ("totaling 8*7B=56B", "which
# comes to", "for a total of"), with at most a few words between it and the expression
_TOTALLING = re.compile(r"\b(?:total(?:s|ing|ling|ed|led)?|sums? (?:up )?to|adds? up to|"
                        r"amounts? to|comes? (?:out )?to|for a total of|in total)"
                        r"[\s:]*(?:\S+\s+){0,2}?[\s(~≈]*$", re.I)


def results_said_of(parts, toks, clean, names) -> list:
    """`parts` with each sure arithmetic part whose result is said of a named model's
    quantity made a reading to confirm (nothing changes without a named model or family)."""
    if not names and not any(members(squash(clean[a:b])) for a, b in other_names(clean)):
        return parts
    fields = fields_in(clean)
    out = []
    for p in parts:
        if p.sure and p.figures and p.reading.startswith("arithmetic"):
            first, last = toks[min(p.figures)], toks[max(p.figures)]
            after = any(fs >= last.end and words.NOUN_AFTER.match(clean[last.end:fs])
                        for fs, _, _ in fields)
            if after or _TOTALLING.search(clean, max(0, first.start - 40), first.start):
                p = replace(p, sure=False, reading=p.reading + " (the result is then said of "
                            "a model's quantity, which is not read)")
        out.append(p)
    return out
