"""The one table of the non-smooth SymPy classes a claim's value can hold.

- KINKS: continuous but not differentiable at a point (relu is Max(0, z)); `diff` turns
  their derivative into a step undefined at the kink, and build decides a derivative at
  a kink by its one-sided limits.
- JUMPS: discontinuous functions a claim can write (floor, ceil, steps, `%`); certify
  selects their value, like a kink's, by certified signs (PIECEWISE).
- DISCONTINUOUS: JUMPS and the discontinuous forms SymPy's own calculus builds
  (Piecewise, DiracDelta); `diff` refuses them, and a derivative at a kink is decided only
  for a function free of them.
"""

import sympy as sp

KINKS = (sp.Max, sp.Min, sp.Abs)
JUMPS = (sp.floor, sp.ceiling, sp.Heaviside, sp.sign, sp.Mod)
DISCONTINUOUS = (*JUMPS, sp.Piecewise, sp.DiracDelta)
PIECEWISE = (*KINKS, *JUMPS)
