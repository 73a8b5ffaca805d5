"""The argument checks every claim function shares: each returns the argument as the
function needs it, or raises `ClaimError` naming the parameter at fault.

Used by `functions` (the counting and calculus functions) and `model_functions` (the
whole-model ones); the catalogue is imported lazily, so a claim that names no model never
loads it.
"""

import sympy as sp

from derivations import variants
from ffnverify.claims.errors import ClaimError


def as_variant(name):
    """An FFN variant's name, known to derivations.variants."""
    if name not in variants.VARIANTS:
        raise ClaimError(f"unknown FFN variant {name!r}; known: {', '.join(variants.VARIANTS)}",
                         param="variant")
    return name


def as_flag(value, what):
    """true / false (or the integers 1 / 0) as a bool."""
    if isinstance(value, bool):
        return value
    if isinstance(value, sp.Integer) and value in (0, 1):
        return bool(value)
    raise ClaimError(f"{what} must be true or false, not {value}", param=what)


def as_choice(value, allowed, what):
    """One of the names `allowed`."""
    if value not in allowed:
        raise ClaimError(f"unknown {what} {value!r}; expected one of {', '.join(allowed)}",
                         param=what)
    return value


def as_expr(value, what, param=None):
    """`value` as an expression; else an error naming `what`, pointing at the argument
    `param` (the signature's name for it; `what` when they are the same)."""
    if isinstance(value, sp.Expr):
        return value
    raise ClaimError(f"{what} must be a number or an expression, not {value!r}",
                     param=param or what)


def int_default(value):
    """A default written as a Python int in signatures (n=1, multiple_of=256) as SymPy."""
    return sp.Integer(value) if isinstance(value, int) and not isinstance(value, bool) else value


def positive_integer(value, what, param=None):
    """A positive integer (a number, not a symbol)."""
    value = as_expr(value, what, param)
    if not (value.is_Integer and value > 0):
        raise ClaimError(f"{what} must be a positive integer here, not {value}",
                         param=param or what)
    return value


def as_symbol(var, what):
    """A bare symbol, the variable of diff / subs / limit."""
    if not isinstance(var, sp.Symbol):
        raise ClaimError(f"{what} must be a bare symbol such as z, not {var}", param="var")
    return var


def catalogue_module():
    """`ffnverify.catalogue`, imported on first use."""
    try:
        from ffnverify import catalogue
    except ImportError as e:
        raise ClaimError(f"the model catalogue is not available: {e}") from None
    return catalogue


def catalogue_row(name):
    """The catalogue's row for a model's name or alias."""
    catalogue = catalogue_module()
    try:
        return catalogue.get(name)
    except Exception as e:  # any lookup failure is the claim's problem
        raise ClaimError(str(e) if isinstance(e, KeyError) else f"unknown model {name!r}: {e}") from None
