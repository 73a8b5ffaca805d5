"""The numeric backends' own statement of what each variant is.

The independence rule forbids the NumPy and torch backends from importing
`derivations`, so they state the variants here, in their own words: activation name and
whether the block is gated. tests/derivations/test_tables.py proves this agrees row for row with
`derivations.variants.VARIANTS`, the table everything else iterates.
"""

import difflib

# variant -> (activation, gated)
BACKEND_VARIANTS = {
    "relu": ("relu", False),
    "gelu": ("gelu", False),
    "gelu_tanh": ("gelu_tanh", False),
    "silu": ("silu", False),
    "glu": ("sigmoid", True),
    "bilinear": ("identity", True),
    "reglu": ("relu", True),
    "geglu": ("gelu", True),
    "geglu_tanh": ("gelu_tanh", True),
    "swiglu": ("silu", True),
    "tanhglu": ("tanh", True),
    "relu2": ("relu2", False),
    "quick_gelu": ("quick_gelu", False),
}


def lookup(variant: str) -> tuple[str, bool]:
    try:
        return BACKEND_VARIANTS[variant]
    except KeyError:
        close = difflib.get_close_matches(str(variant), list(BACKEND_VARIANTS), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise KeyError(f"unknown FFN variant {variant!r}{hint}; known: "
                       f"{', '.join(BACKEND_VARIANTS)}") from None


def projections(variant: str) -> tuple[str, ...]:
    return ("gate", "up", "down") if lookup(variant)[1] else ("up", "down")
