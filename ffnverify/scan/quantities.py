"""Readers for the quantities real documents state beyond arithmetic and catalogue fields,
each a module of its own: KV-cache and weights memory at a dtype (`memory`, `weights`), MoE total
and active parameters, the 2N / 6N / 6ND FLOPs rules and FLOPs → time, GPU-hours or cost
at a stated throughput and price (`compute`), multi-step arithmetic (`chains`) and numbers
in words (`spelled`). Each returns `parts.Part` records; `read.reading` calls
`read_quantities`.

Every reader binds a figure only through the words attached to it (its noun, unit or
subject), reads it at its stated precision (`figure`), and returns no part when a reading
would need a model, a context or a dtype the sentence does not give — or a `sure=False`
part whose `reading` names what it assumed.
"""

import dataclasses

from ffnverify.scan import (
    binding,
    carried,
    chains,
    compute,
    formats,
    kv_tables,
    memory,
    moe,
    optimizer,
    spelled,
    weights,
)
from ffnverify.scan.parts import Part

_COUNTS = tuple(f"{pre}{f}(" for pre in ("", "approx(") for f in ("params_total", "params_active"))
MAX_PARTS = 64  # per unit: a unit is at most 2,000 characters; more parts is a hostile one

READERS = (memory.kv_cache, weights.weights, weights.products, weights.dtype_sizes,
           optimizer.optimizer_states, optimizer.training_totals,
           optimizer.weights_and_gradients, moe.parameters, moe.routing,
           compute.rules, compute.throughput, compute.amount_at_rate, chains.chains, chains.stated_ratios,
           spelled.ratios, formats.rows, formats.lines, formats.per_billion,
           kv_tables.rows)
# the readers that also bind a cardinal written in words ("eighty layers", "two of its
# eight experts"), run on the tokens with each such cardinal made one number
WORD_READERS = (memory.kv_cache, weights.weights, moe.parameters, moe.routing, spelled.fields)


def read_quantities(toks, text: str, names, subject: str | None = None,
                    about: str = "", around=None) -> list[Part]:
    """The parts `text` (normalised, tokenised as `toks`) states about the quantities
    above; `names` are the catalogue models it names, as `detect.models` returns them
    ((start, end, catalogue name), left to right).

    `subject`: the model the document speaks of around the unit (the sentence before, the
    paragraph or heading over a table), used only when the unit names none; every part
    read with it is `sure=False` and its `reading` says so. `about`: words around the unit
    that say what it measures (a table's header: "Context | KV cache"), used only to
    recognise the quantity, never as figures. `around`: what the text before the unit
    gives it (`carried.Around`): the nominal count "a 7B model" the weights reader may
    use; whether the document's title or section speaks of the KV cache, which lets the KV
    reader read a byte figure at a context that does not say so; the context the paragraph
    over a table states, for rows that state none; all only in parts to confirm."""
    names = binding.subjects(text, names)
    assumed = not names and subject is not None
    if assumed:
        names = ((-1, -1, subject),)
    around = around or carried.Around()
    parts: list[Part] = []
    for reader in READERS:
        if reader in (weights.weights, formats.rows, formats.lines, formats.per_billion):
            parts += reader(toks, text, names, about, count=around.count)
        elif reader is kv_tables.rows:
            parts += reader(toks, text, names, about, topic=around.kv_topic,
                            context=around.context, dtype=around.dtype)
        elif reader is memory.kv_cache:
            parts += reader(toks, text, names, about, topic=around.kv_topic,
                            context=around.context)
        else:
            parts += reader(toks, text, names, about)
    worded, where = spelled.as_tokens(toks, text)
    if worded is not toks:
        for reader in WORD_READERS:
            for p in reader(worded, text, names, about):
                if any(spelled.is_spelled(worded[i]) for i in p.figures):
                    parts.append(dataclasses.replace(
                        p, figures=tuple(sorted({where[i] for i in p.figures}))))
    unique = list({(p.strict, p.figures): p for p in parts}.values())[:MAX_PARTS]
    if assumed:  # "Active Parameters | 405B" under "Llama 3.1 405B": the name's size again
        size = binding.nominal(toks, names, subject)
        named = {i for i, t in enumerate(toks) if size is not None and t.kind == "NUM"
                 and t.value == size.value and t.unit >= size.unit}
        unique = [p for p in unique if not (named & set(p.figures) and p.strict.startswith(
            _COUNTS) and f"({subject})" in p.strict)]
        unique = [dataclasses.replace(p, sure=False, reading=f"{p.reading} (said of {subject}, "
                                      "named around it, not in it: assumed)")
                  if subject in p.strict else p for p in unique]
    return unique
