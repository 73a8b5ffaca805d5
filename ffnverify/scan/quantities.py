"""Readers for the quantities real documents state beyond arithmetic and catalogue fields:
KV-cache and weights memory at a dtype, MoE total and active parameters, the 2N / 6N / 6ND
FLOPs rules, FLOPs → time, GPU-hours or cost at a stated throughput and price, and numbers
in words. Each returns `parts.Part` records; `read.reading` calls `read_quantities`.

(Filled in by the v3 scan work; until then it reads nothing.)
"""

from ffnverify.scan.parts import Part


def read_quantities(toks, text: str, names) -> list[Part]:
    """The parts `text` (normalised, tokenised as `toks`) states about the quantities
    above; `names` are the catalogue models it names, as `detect.models` returns them."""
    return []
