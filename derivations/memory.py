"""Activation memory saved by the forward pass for the backward pass, in elements.

Multiply by the element size (4 for float32, 2 for bfloat16) for bytes. Two conventions:

- "store" (ffnverify's NumPy backend): keep the input x (n·d), every pre-activation
  (n·h each), the activation output (n·h, except for the identity gate, whose output
  *is* its input) and, for gated variants, the product p = a ⊙ u (n·h), the left
  operand of the down projection. Eager PyTorch autograd keeps exactly this for gelu,
  gelu_tanh, silu, bilinear, geglu, geglu_tanh and swiglu; for relu, glu, reglu and
  tanhglu it differentiates the activation from its output alone and keeps n·h less
  (relu, gelu and swiglu measured in benchmarks/RESULTS.md; the others follow from what
  torch.sigmoid, torch.tanh and F.relu save: their output).
- "recompute": keep only x and the pre-activations; the backward recomputes the
  activation (and the product) from them.

Weights, their gradients and the output are not counted: they exist in either case.
"""

import sympy as sp

from derivations import variants
from derivations.symbols import d as D
from derivations.symbols import h as H
from derivations.symbols import n as N

CONVENTIONS = ("store", "recompute")


def saved_tensors(variant: str, convention: str = "store") -> list[str]:
    """Names of the tensors kept for backward, in the order the forward makes them."""
    if convention not in CONVENTIONS:
        raise ValueError(f"unknown convention {convention!r}; expected one of {CONVENTIONS}")
    v = variants.get(variant)
    names = ["x"] + [f"z_{p}" for p in v.projections if p != "down"]
    if convention == "store":
        if v.activation != "identity":
            names.append("a")
        if v.gated:
            names.append("p")
    return names


def activation_memory(variant: str, d=D, h=H, n=N, convention: str = "store") -> sp.Expr:
    """Elements saved for backward (see the module docstring for what is counted)."""
    d, h, n = sp.sympify(d), sp.sympify(h), sp.sympify(n)
    sizes = {"x": n * d}
    return sp.expand(sum(sizes.get(t, n * h) for t in saved_tensors(variant, convention)))
