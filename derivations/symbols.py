"""The symbols every derivation is written in.

Dimension symbols (d, h, n) are positive integers; activation arguments (z) are real.
`h` is also allowed to be a rational multiple of `d` (8/3·d): the formulas are
polynomials, so substituting any rational is exact.
"""

import sympy as sp

d, h, n = sp.symbols("d h n", positive=True, integer=True)
z = sp.Symbol("z", real=True)
