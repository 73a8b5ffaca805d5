"""The claim-function registry: every name a claim may call, joined explicitly from the
two tables that implement them.

`functions.FUNCTIONS` holds the counting, calculus and model-shape functions,
`model_functions.FUNCTIONS` the whole-model ones. A name in both is an error at import
(neither table may silently replace the other's entry). `signatures.SIGNATURES` gives
each name's parameters; `approx` is built by build.py itself (a relation, not a value).
"""

from ffnverify.claims import functions, model_functions

BUILT_IN = frozenset({"approx"})  # in SIGNATURES, decided by build.py, not a function here


def merge(*tables: dict) -> dict:
    """The union of `tables`; a name defined twice raises ValueError."""
    out: dict = {}
    for table in tables:
        twice = out.keys() & table.keys()
        if twice:
            raise ValueError(f"claim functions defined twice: {', '.join(sorted(twice))}")
        out.update(table)
    return out


FUNCTIONS = merge(functions.FUNCTIONS, model_functions.FUNCTIONS)
