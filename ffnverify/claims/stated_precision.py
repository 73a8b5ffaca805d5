"""The tolerance the right side of `a ≈ b` states, from how b's literals are written.

Each literal is stated to half a unit of its last digit (704.7M: ±0.05M; 2⅔: ±1/6), and
`stated_tolerance` propagates those half-units through b's arithmetic exactly, as the
worst case over every literal's interval (docs/architecture.md §4.1). The guarantee: the
tolerance is an exact expression (rationals, or expressions in b's symbols), never a
float, and where no precision can be carried (through an exponent or '%', a divisor
whose interval reaches 0) a ClaimError says so instead of a guess.
"""

import sympy as sp

from ffnverify.claims import nodes as P
from ffnverify.claims.errors import ClaimError
from ffnverify.claims.functions import Abs, Min


class _Stated:
    """What the right side of ≈ states: err, the largest |deviation| of its value when
    each literal moves within half a unit of its last stated digit; whole, whether it is
    an integer literal (or integers combined by + - * ** %), exact inside a product,
    quotient or power; literal, whether it holds a literal at all."""

    def __init__(self, err, whole=False, literal=False):
        self.err, self.whole, self.literal = err, whole, literal

    def factor_err(self):
        """The error it brings into a product, quotient or power (none for an integer)."""
        return sp.Integer(0) if self.whole else self.err


_ZERO = sp.Integer(0)


def _whole_literal(n: P.Num) -> bool:
    return n.form in ("", "pow10") and n.value.denominator == 1 and n.unit.denominator == 1


class _Tolerance:
    """The tolerance of `a ≈ b` from the syntax tree of b (docs/architecture.md §4.1, v3): each stated
    literal's half-unit propagated through b's arithmetic, exactly (rationals, or
    expressions in b's symbols). Integers inside a product, quotient or power are exact;
    a ratio of integers a/b states a precision of 1/(2|b|), as the vulgar fractions do.
    A sum of integers alone (100 + 28) is stated to its finest unit, as one integer is;
    an integer added to a stated fraction is exact (1 - 33% is ±0.5%); otherwise the
    errors of a sum add.
    The bounds are the worst case over every literal's interval:
    |(a+δa)(b+δb) - ab| <= |a|eb + |b|ea + ea·eb;
    |(a+δa)/(b+δb) - a/b| <= (|a|eb + |b|ea) / (|b|(|b| - eb)) for eb < |b|;
    |(a+δa)**n - a**n| <= (|a| + ea)**n - |a|**n (n > 0), (|a| - ea)**n - |a|**n (n < 0)."""

    def __init__(self, value):
        self.value = value  # node -> its exact value (a builder of its own: build.py)

    def of(self, node) -> _Stated:
        if isinstance(node, P.Num):
            half = sp.Rational(node.unit.numerator, node.unit.denominator) / 2
            return _Stated(half, _whole_literal(node), True)
        if isinstance(node, P.Unary):
            return self.of(node.operand)
        if not isinstance(node, P.BinOp):
            return _Stated(_ZERO)  # a name, a call: exact values
        a, b = self.of(node.left), self.of(node.right)
        literal, whole = a.literal or b.literal, a.whole and b.whole
        if node.op in ("+", "-"):
            if whole:  # integers alone (100 + 28): stated to the finest of their units
                return _Stated(Min(a.err, b.err), True, literal)
            return _Stated(a.factor_err() + b.factor_err(), False, literal)
        if node.op == "/" and whole:
            return _Stated(1 / (2 * Abs(self.value(node.right))), False, literal)
        scientific = _scientific(node)
        if scientific is not None:
            return _Stated(scientific, False, True)
        ea, eb = a.factor_err(), b.factor_err()
        if node.op == "*":
            err = _ZERO
            if eb != 0:
                err += Abs(self.value(node.left)) * eb
            if ea != 0:
                err += Abs(self.value(node.right)) * ea
            return _Stated(err + ea * eb, whole, literal)
        if node.op == "/":
            return _Stated(self.quotient(node, ea, eb), False, literal)
        if node.op == "**":
            if eb != 0:
                raise ClaimError("≈ cannot carry a stated precision through an exponent; "
                                 "write approx(a, b, abs=...)", node.right.col)
            return _Stated(self.power(node, ea), whole, literal)
        if ea != 0 or eb != 0:  # the remainder
            raise ClaimError("≈ cannot carry a stated precision through '%'; write "
                             "approx(a, b, abs=...)", node.col)
        return _Stated(_ZERO, whole, literal)

    def quotient(self, node, ea, eb):
        if ea == 0 and eb == 0:
            return _ZERO
        B = Abs(self.value(node.right))
        if eb == 0:
            return ea / B
        if (B - eb).is_number and not (B - eb).is_positive:
            raise ClaimError("≈: the divisor's stated precision reaches 0, so the right "
                             "side states no precision; write approx(a, b, abs=...)",
                             node.right.col)
        return (Abs(self.value(node.left)) * eb + B * ea) / (B * (B - eb))

    def power(self, node, ea):
        if ea == 0:
            return _ZERO
        n = self.value(node.right)
        if not n.is_Integer:
            raise ClaimError("≈ carries a stated precision only through a whole-number "
                             "power; write approx(a, b, abs=...)", node.right.col)
        A = Abs(self.value(node.left))
        if n == 0:
            return _ZERO
        if n < 0 and (A - ea).is_number and not (A - ea).is_positive:
            raise ClaimError("≈: the base's stated precision reaches 0, so its negative "
                             "power states no precision; write approx(a, b, abs=...)",
                             node.left.col)
        return (A + ea) ** n - A**n if n > 0 else (A - ea) ** n - A**n


def _bare_num(node):
    while isinstance(node, P.Unary):
        node = node.operand
    return node if isinstance(node, P.Num) else None


def _scientific(node):
    """`10⁹ * 7`: a power of ten times a plain literal, in either order, states what
    `7 × 10⁹` does (the parser folds only the mantissa-first order): half the mantissa's
    unit, times the power. None for any other node."""
    if not (isinstance(node, P.BinOp) and node.op == "*"):
        return None
    a, b = _bare_num(node.left), _bare_num(node.right)
    for power, mantissa in ((a, b), (b, a)):
        if power is not None and mantissa is not None and power.form == "pow10" and \
                mantissa.form == "":
            half = mantissa.unit * power.value / 2
            return sp.Rational(half.numerator, half.denominator)
    return None


def stated_tolerance(node, value):
    """The tolerance that the right side `node` of ≈ states (see _Tolerance), or None when
    it holds no number literal outside function calls. `value(node)` is a node's exact
    value (build.stated_tolerance passes a fresh Builder's)."""
    stated = _Tolerance(value).of(node)
    return stated.err if stated.literal else None

