"""Readers for the quantities real documents state beyond arithmetic and catalogue fields,
each a module of its own: KV-cache and weights memory at a dtype (`memory`), MoE total
and active parameters, the 2N / 6N / 6ND FLOPs rules and FLOPs → time, GPU-hours or cost
at a stated throughput and price (`compute`), multi-step arithmetic (`chains`) and numbers
in words (`spelled`). Each returns `parts.Part` records; `read.reading` calls
`read_quantities`.

Every reader binds a figure only through the words attached to it (its noun, unit or
subject), reads it at its stated precision (`figure`), and returns no part when a reading
would need a model, a context or a dtype the sentence does not give — or a `sure=False`
part whose `reading` names what it assumed.
"""

from ffnverify.scan import chains, compute, memory, moe
from ffnverify.scan.parts import Part

READERS = (memory.kv_cache, memory.weights, memory.dtype_sizes, moe.parameters, moe.routing,
           compute.rules, compute.throughput, chains.chains)


def read_quantities(toks, text: str, names) -> list[Part]:
    """The parts `text` (normalised, tokenised as `toks`) states about the quantities
    above; `names` are the catalogue models it names, as `detect.models` returns them
    ((start, end, catalogue name), left to right)."""
    parts: list[Part] = []
    for reader in READERS:
        parts += reader(toks, text, names)
    return parts
