"""What a counter is supposed to count, and when two counts agree.

`Target` names a count of the derivations (params, FLOPs or MACs of a variant, with its
pass, count and input_grad conventions: docs/architecture.md §3) and gives its exact value
at a point {d, h, n, bias} as a Fraction; `close` is the rule by which a user's value
equals it (exactly, or, for a value computed in floating point, within FLOAT_OPS units of
roundoff u = 2⁻⁵³, the first-order bound of a formula of up to that many roundings).
`Fit` is one explanation that fits every point (`explain`). The guarantee: `Target.value`
is the derivation's count in exact rational arithmetic, never a float.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import sympy as sp

from derivations.flops import flops, macs
from derivations.params import params
from derivations.symbols import d as D
from derivations.symbols import h as H
from derivations.symbols import n as N
from ffnverify.testing.closed_form import evaluator

QUANTITIES = ("params", "flops", "macs")
UNIT_ROUNDOFF = Fraction(1, 2**53)
FLOAT_OPS = 16
EXACT_FLOAT_LIMIT = 2**53  # every integer up to here is a float; beyond, floats skip integers

# ungated <-> gated with the same activation (docs/architecture.md §2 names)
_GATED_OF = {"relu": "reglu", "gelu": "geglu", "gelu_tanh": "geglu_tanh", "silu": "swiglu"}
_UNGATED_OF = {g: u for u, g in _GATED_OF.items()}


@dataclass(frozen=True)
class Target:
    """What the user's function is supposed to count (docs/architecture.md §3 conventions)."""

    quantity: str
    variant: str
    pass_: str = "forward"
    count: str = "matmul"
    input_grad: bool = True

    def expr(self, bias: bool) -> sp.Expr:
        return _derived(self.quantity, self.variant, self.pass_, self.count, self.input_grad,
                        bool(bias))[0]

    def value(self, point) -> Fraction:
        """The exact count at point {d, h, n, bias}."""
        f = _derived(self.quantity, self.variant, self.pass_, self.count, self.input_grad,
                     bool(point.get("bias", False)))[1]
        return f(point)

    def describe(self) -> str:
        if self.quantity == "params":
            return f"{self.variant} params"
        return (f"{self.variant} {self.quantity} (pass={self.pass_}, count={self.count}, "
                f"input_grad={str(self.input_grad).lower()})")


@lru_cache(maxsize=512)
def _derived(quantity, variant, pass_, count, input_grad, bias):
    if quantity == "params":
        expr = params(variant, D, H, bias)
    elif quantity in ("flops", "macs"):
        fn = flops if quantity == "flops" else macs
        expr = fn(variant, D, H, N, pass_=pass_, count=count, input_grad=input_grad, bias=bias)
    else:
        raise ValueError(f"unknown quantity {quantity!r}; expected one of {', '.join(QUANTITIES)}")
    return expr, evaluator(expr, ("d", "h", "n"))


@dataclass
class Fit:
    """An explanation that fits every evaluated point."""

    key: str
    title: str
    expected: object = field(default=None, repr=False, compare=False)  # point -> Fraction
    ties: bool = False  # the same numbers as the first fit at every shape tried

    def __str__(self):
        return self.title


def close(yours: Fraction, expected: Fraction, floating: bool, float_ops=FLOAT_OPS) -> bool:
    """Exact equality, or (for a float result) agreement within float_ops units of roundoff."""
    if yours == expected:
        return True
    return floating and abs(yours - expected) <= float_ops * UNIT_ROUNDOFF * abs(expected)


def _with(point, **changes):
    p = dict(point)
    p.update(changes)
    return p


def _bias_params(variant, p):
    """Bias parameters of `variant` at p (the sum of its projections' output widths)."""
    on = _derived("params", variant, "forward", "matmul", True, True)[1]
    off = _derived("params", variant, "forward", "matmul", True, False)[1]
    return on(p) - off(p)
