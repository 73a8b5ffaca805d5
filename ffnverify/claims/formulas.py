"""What a claim's comparisons evaluate to: formulas, and the conditions they hold under.

`Rel` (lhs OP rhs, with the tolerance of ≈ or approx), `Logic` (and, or, not) and `Const`
are the `Formula` a claim builds to; a `Cond` (expr != 0, >= 0 or > 0) is a domain
condition under which the claim's values are defined and real. `conditions_of` finds
those of a SymPy value before SymPy simplifies them away (docs/architecture.md §4). The
deciders prove a formula only where every condition holds: nothing here decides a truth.
"""

from dataclasses import dataclass

import sympy as sp

from ffnverify.claims.errors import ClaimError
from ffnverify.claims.show import fmt, with_bytes

KINK = "kink"


class Rel:
    """lhs OP rhs; for ≈ and approx, tol is the allowed |lhs − rhs| (an expression);
    unit "bytes" where a side is a byte-valued function's value (display only)."""

    def __init__(self, op, lhs, rhs, col, tol=None, label=None, unit=None):
        self.op, self.lhs, self.rhs, self.col, self.tol = op, lhs, rhs, col, tol
        self.label, self.unit = label, unit

    def free(self):
        out = set()
        for e in (self.lhs, self.rhs, self.tol):
            if isinstance(e, sp.Basic):
                out |= e.free_symbols
        return out

    def subs(self, point):
        f = lambda e: e.xreplace(point) if isinstance(e, sp.Basic) else e
        return Rel(self.op, f(self.lhs), f(self.rhs), self.col, f(self.tol), self.label,
                   self.unit)

    def show(self):
        shown = with_bytes if self.unit == "bytes" else fmt
        rhs = shown(self.rhs)
        if self.tol is not None:
            rhs += f" ± {shown(self.tol)}"
        return f"{shown(self.lhs)} vs {rhs}"


class Logic:
    def __init__(self, op, parts, col):
        self.op, self.parts, self.col = op, list(parts), col  # op: and | or | not

    def free(self):
        return set().union(*(p.free() for p in self.parts))

    def subs(self, point):
        return Logic(self.op, [p.subs(point) for p in self.parts], self.col)


class Const:
    def __init__(self, value, col):
        self.value, self.col = value, col

    def free(self):
        return set()

    def subs(self, point):
        return self


Formula = Rel | Logic | Const


@dataclass(frozen=True)
class Cond:
    """expr OP 0 (OP one of != >= >) must hold for the claim's values to be defined."""

    op: str
    expr: sp.Expr
    why: str  # "division", "root", "log", "kink", "power"

    def as_rel(self) -> Rel:
        return Rel(self.op, self.expr, sp.Integer(0), 1)

    def subs(self, mapping):
        return Cond(self.op, self.expr.subs(mapping), self.why)

    def show(self) -> str:
        return f"{fmt(self.expr)} {dict({'!=': '≠', '>=': '≥'}).get(self.op, self.op)} 0"


def uncertain(x) -> bool:
    """x may be zero or negative somewhere, as far as the builder knows: it has symbols
    and SymPy's assumptions do not make it positive, or it is a closed number other than a
    positive rational. A closed number's sign is never taken from SymPy (its is_positive
    asks evalf, an uncertified float): log(exp(1000)*sigmoid(1/2) - exp(1000)) stays an
    unevaluated log of a negative number, so its argument becomes a condition that
    certify.truth must show with interval bounds before any verdict."""
    if x.free_symbols:
        return not x.is_positive
    return not (x.is_Rational and x > 0)


def conditions_of(value) -> list[Cond]:
    """The conditions under which the SymPy value `value` is defined and real."""
    out: list[Cond] = []
    if not isinstance(value, sp.Basic):
        return out
    for node in sp.preorder_traversal(value):
        if node.is_Pow:
            base, e = node.base, node.exp
            # a rational base is exact (SymPy decides 0**z, (-8)**(1/3), 2**z itself)
            if base.is_Rational or not uncertain(base):
                continue
            if e.is_Integer or (e.is_integer and e.is_nonnegative):
                if e.is_negative:
                    out.append(Cond("!=", base, "division"))
            elif e.is_Rational:
                out.append(Cond(">" if e.is_negative else ">=", base, "root"))
            else:
                out.append(Cond(">", base, "power"))
        elif isinstance(node, sp.log):
            if uncertain(node.args[0]):
                out.append(Cond(">", node.args[0], "log"))
        elif isinstance(node, sp.Heaviside) and len(node.args) > 1 and \
                node.args[1] is sp.nan and node.args[0].free_symbols:
            out.append(Cond("!=", node.args[0], KINK))
    return out


def _not_real(value) -> bool:
    """The value has a part that is not real for any value of its symbols: the imaginary
    unit (SymPy writes sqrt(-d) as I*sqrt(d)), or a fractional power of a negative
    number (SymPy's principal root of -8 is 1 + I*sqrt(3))."""
    if not isinstance(value, sp.Basic):
        return False
    if value.has(sp.I):
        return True
    return any(p.base.is_number and p.exp.is_number and not p.exp.is_integer and
               _negative(p.base) for p in value.atoms(sp.Pow))


def _negative(number) -> bool:
    """Certified < 0 (SymPy's is_negative asks evalf, which takes a tiny positive number
    for a negative one)."""
    if number.is_Rational:
        return number < 0
    from ffnverify.claims.certify import sign

    try:
        return sign(number, False) == -1
    except ClaimError:
        return False
