"""Hidden-width rules, in exact integer and rational arithmetic.

`llama_width` reproduces Meta's reference code (llama/model.py, FeedForward.__init__):

    hidden_dim = int(2 * hidden_dim / 3)          # hidden_dim = 4 * dim
    if ffn_dim_multiplier is not None:
        hidden_dim = int(ffn_dim_multiplier * hidden_dim)
    hidden_dim = multiple_of * ((hidden_dim + multiple_of - 1) // multiple_of)

with each int() a floor (the values are positive). The multiplier is taken as the exact
rational of its decimal literal (1.3 = 13/10); where Meta's float product lies within
rounding of an integer the two could differ, which tests/derivations/test_widths.py examines.
"""

import sympy as sp

from derivations.params import params


def exact(x) -> sp.Rational:
    """x as an exact rational. A float is read as the decimal it prints as (1.3 -> 13/10),
    the number its author wrote, never as its binary expansion."""
    if isinstance(x, float):
        x = repr(x)
    return sp.Rational(x)


def round_up(x, multiple):
    """The least multiple of `multiple` that is >= x (exact for rationals)."""
    x = exact(x) if isinstance(x, (float, str)) else sp.sympify(x)
    multiple = sp.Integer(multiple)
    if multiple <= 0:
        raise ValueError("multiple must be positive")
    return sp.ceiling(x / multiple) * multiple


def llama_width(d, multiple_of=256, multiplier=None) -> sp.Integer:
    """Meta's Llama FFN width for model width d."""
    d = sp.Integer(d)
    hidden = sp.floor(sp.Rational(2 * 4 * d, 3))
    if multiplier is not None:
        hidden = sp.floor(exact(multiplier) * hidden)
    return round_up(hidden, multiple_of)


def ratio_width(d, ratio) -> sp.Rational:
    """h = ratio·d, exactly (ratio 4, 8/3, 2/3·4 ...)."""
    return exact(ratio) * sp.sympify(d)


def match_width(from_variant, from_h, to_variant, d, bias=False) -> sp.Expr:
    """The exact h giving `to_variant` the parameter count of `from_variant` at `from_h`.

    Parameter counts are linear in h, so the solution is unique (a rational, or a
    rational function of d when d is symbolic).
    """
    target = params(from_variant, d, from_h, bias)
    # Solve for an unassumed h: with the integer symbol derivations.symbols.h, sp.solve
    # drops every non-integer root (relu at d=1, h=1 matched to glu is h = 2/3).
    h = sp.Dummy("h")
    (solution,) = sp.solve(sp.Eq(params(to_variant, d, h, bias), target), h)
    return sp.simplify(solution)
