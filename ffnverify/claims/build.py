"""Syntax tree -> exact SymPy values, the formula of a claim, and its domain conditions.

Contract: `build_claim(text)` returns the formula whose truth is the claim's meaning and
the list of `Cond`s under which its values are defined and real. A claim is a statement
about exactly the points where every condition holds: each division records "divisor
≠ 0", each root or fractional power "base ≥ 0", each log "argument > 0", each derivative
at a kink "not at the kink", *before* SymPy simplifies them away (`sqrt(z)**2` becomes
`z`, `(z**2 - 1)/(z - 1)` may cancel). The deciders never prove a claim at a point where
a condition fails or cannot be certified, and say which conditions a proof assumed.

- Numbers are exact rationals; sizes are checked *before* SymPy computes a power, so
  `10**10**10` is refused at once instead of being computed.
- Names: `true false none oo pi` are constants; the activation-argument names in
  REAL_NAMES are real symbols; every other free name is a positive-integer dimension.
- Chains of `+ -` or `* /` are built iteratively, so a flat sum of thousands of terms
  needs no recursion; the nesting the parser allows (parser.MAX_DEPTH) is the real limit.
- `subs(diff(f, z), z, p)` where the derivative has a kink at p (relu, abs, min, max
  inside f) is f'(p) only when f is continuous near p and both one-sided limits of f'
  at p exist and agree (then f is differentiable at p, by the mean value theorem);
  otherwise it is undefined (an error). relu'(0) = 0 holds for `diff(relu(z), z)` as
  written, and for no other spelling (max(z, 0), relu(z) + 0*z: no derivative at 0).
- A limit keeps its expression's conditions, as what must hold on a punctured
  neighbourhood of its point, or on the side `dir` names (near.py).
- Every function's value passes through `functions.exact`: SymPy's floor, ceiling, Max,
  Min, Abs, sign and Heaviside never evaluate a closed irrational argument by evalf.

The pieces: `formulas` (Rel, Logic, Const, Cond, conditions_of), `stated_precision` (the
tolerance of ≈); this module builds values and formulas from the tree, and re-exports
those names.
"""

import math

import sympy as sp

from ffnverify.claims import parser as P
from ffnverify.claims import stated_precision
from ffnverify.claims.errors import ClaimError
from ffnverify.claims.formulas import (
    KINK,
    Cond,
    Const,
    Formula,
    Logic,
    Rel,
    _not_real,
    conditions_of,
    uncertain,
)
from ffnverify.claims.functions import (
    Abs,
    Max,
    Mod,
    exact,
    plain,
    relu_derivative,
)
from ffnverify.claims.near import near_conditions
from ffnverify.claims.nonsmooth import DISCONTINUOUS, KINKS
from ffnverify.claims.registry import FUNCTIONS
from ffnverify.claims.show import bits, fmt
from ffnverify.claims.signatures import BOOLEAN_VALUED, BYTE_VALUED, REQUIRED, SIGNATURES

__all__ = [
    "CONSTANTS", "KINK", "MAX_BITS", "MAX_SYMBOLIC_EXPONENT", "REAL_NAMES", "Builder", "Cond",
    "Const", "Formula", "Logic", "Rel", "build", "build_claim", "conditions_of",
    "is_dimension", "stated_tolerance", "symbol",
]

REAL_NAMES = frozenset(
    "x y z t u v w a alpha beta gamma eps lam mu".split())
CONSTANTS = {"true": True, "false": False, "none": None, "oo": sp.oo, "pi": sp.pi}

MAX_BITS = 400_000  # ~120,000 decimal digits for any exact number
MAX_SYMBOLIC_EXPONENT = 1000


def symbol(name: str) -> sp.Symbol:
    """The SymPy symbol a free name stands for (same assumptions as derivations.symbols)."""
    if name in REAL_NAMES:
        return sp.Symbol(name, real=True)
    return sp.Symbol(name, positive=True, integer=True)


def is_dimension(s: sp.Symbol) -> bool:
    return bool(s.is_integer)


# ---- building values from the syntax tree ---------------------------------------------


def _check_size(value, col):
    if isinstance(value, sp.Rational) and bits(value) > MAX_BITS:
        raise ClaimError(f"intermediate number too large ({bits(value)} bits; limit {MAX_BITS})",
                         col)
    return value


def _power(base, exp, col):
    """base**exp, refused before it is computed when the result would be too large."""
    if not (exp.is_number and exp.is_finite):
        return base**exp  # a symbolic exponent: sized when its symbols get values
    if exp.is_Rational:
        size = abs(sp.floor(exp))
    else:
        from ffnverify.claims.certify import _hi, _lo, enclose, workprec
        try:
            with workprec(64):
                x = enclose(exp, 64)
            size = int(max(abs(_lo(x)), abs(_hi(x))))
        except Exception:  # an exponent we cannot bound is refused
            raise ClaimError(f"exponent {fmt(exp)} cannot be bounded", col) from None
    if base.is_Rational and exp.is_Rational:
        if base not in (0, 1, -1) and size * max(bits(base) - 1, 1) > MAX_BITS:
            # the digits of the larger of numerator and denominator, to the power size
            top = max(abs(int(base.p)), int(base.q))
            digits = int(size) * int(math.log10(top) * 10**9) // 10**9 + 1
            shown = f"about {digits:,}" if digits.bit_length() < 100 else \
                f"about 10**{int(digits.bit_length() * 0.30103)}"
            b = fmt(base) if base.is_Integer and base > 0 else f"({fmt(base)})"
            raise ClaimError(f"power too large: {b}**{fmt(exp)} would have {shown} "
                             f"digits (limit {int(MAX_BITS * 0.30103):,})", col)
    elif size > MAX_SYMBOLIC_EXPONENT:
        # past the Rational branch: the base is not a rational number, or the exponent is not
        why = "and not a plain number" if base.is_Rational else \
            "for a base that is not a plain number"
        raise ClaimError(f"exponent {fmt(exp)} is beyond ±{MAX_SYMBOLIC_EXPONENT} {why}", col)
    return base**exp


def _undefined(out):
    from ffnverify.claims.certify import undefined

    return undefined(out)


class Builder:
    """Turns a syntax tree into SymPy values and Formulas; collects domain conditions."""

    def __init__(self):
        self.conds: list[Cond] = []
        self._derivatives = {}  # id(derivative) -> (derivative, f, var, conds of f)

    def note(self, value, col=None):
        if _not_real(value):  # sqrt(-2) is I*sqrt(2) in SymPy: not a real value
            raise ClaimError(f"the value is not a real number ({fmt(value)})", col)
        for c in conditions_of(value):
            if c not in self.conds:
                self.conds.append(c)
        return value

    def value(self, node):
        method = getattr(self, "v_" + type(node).__name__)
        return method(node)

    def expr(self, node, what="this"):
        v = self.value(node)
        if isinstance(v, Formula) or isinstance(v, bool) or v is None or isinstance(v, str):
            raise ClaimError(f"{what} must be a number or expression, not {_kind(v)}", node.col)
        return v

    def formula(self, node) -> Formula:
        v = self.value(node)
        if isinstance(v, Formula):
            return v
        if isinstance(v, bool):
            return Const(v, node.col)
        if isinstance(node, P.Call) and node.func in BOOLEAN_VALUED and v in (0, 1):
            return Const(v == 1, node.col)  # a yes/no field as a condition
        raise ClaimError(f"a claim must be a comparison (==, <, ≈, ...), not {_kind(v)}",
                         node.col)

    def v_Num(self, node):
        return sp.Rational(node.value.numerator, node.value.denominator)

    def v_Name(self, node):
        if node.id in CONSTANTS:
            return CONSTANTS[node.id]
        return symbol(node.id)

    def v_Word(self, node):
        return node.text

    def v_Unary(self, node):
        if node.op == "+":
            return self.expr(node.operand, "the operand of +")
        return -self.expr(node.operand, "the operand of -")

    def v_BinOp(self, node):
        if node.op in ("+", "-", "*", "/"):
            return self._chain(node)
        if node.op == "%":
            return self._remainder(node)
        a = self.expr(node.left, "the left operand of **")
        b = self.expr(node.right, "the right operand of **")
        if a == 0 and b.is_number and b.is_negative:
            raise ClaimError("division by zero (0 to a negative power)", node.col)
        out = _power(a, b, node.col)
        if _undefined(out):
            raise ClaimError(f"undefined value ({fmt(out)})", node.col)
        self.note(out, node.col)
        return _check_size(out, node.col)

    def _remainder(self, node):
        """a % b, the remainder with the sign of the divisor (as Python's); b != 0 is a
        domain condition, recorded like a divisor's."""
        a = self.expr(node.left, "the left operand of %")
        b = self.expr(node.right, "the right operand of %")
        if b == 0:
            raise ClaimError("remainder by zero (d % 0)", node.col)
        if uncertain(b) and not b.is_Rational:
            c = Cond("!=", b, "remainder")
            if c not in self.conds:
                self.conds.append(c)
        out = Mod(a, b)  # exact: SymPy's Mod would take floor(a/b) from evalf
        if _undefined(out):
            raise ClaimError(f"undefined value ({fmt(out)})", node.col)
        self.note(out, node.col)
        return _check_size(out, node.col)

    def _chain(self, node):
        """A left-leaning chain a + b - c ... (or a * b / c ...), built without recursion
        along the chain."""
        group = ("+", "-") if node.op in ("+", "-") else ("*", "/")
        ops = []
        while isinstance(node, P.BinOp) and node.op in group:
            ops.append((node.op, node.right, node.col))
            node = node.left
        ops.reverse()
        out = self.expr(node, f"the left operand of {ops[0][0]}")
        for op, right, col in ops:
            b = self.expr(right, f"the right operand of {op}")
            if op == "+":
                out = out + b
            elif op == "-":
                out = out - b
            elif op == "*":
                out = out * b
            else:
                if b == 0:
                    raise ClaimError("division by zero", col)
                if uncertain(b) and not b.is_Rational:
                    # b != 0, recorded before SymPy may cancel it; a closed b too, such as
                    # an unevaluated zero (its sign is certified, not taken from evalf)
                    c = Cond("!=", b, "division")
                    if c not in self.conds:
                        self.conds.append(c)
                out = out / b
            if _undefined(out):
                raise ClaimError(f"undefined value ({fmt(out)})", col)
            _check_size(out, col)
        return out

    def v_Compare(self, node):
        values = [self.expr(o, "a compared value") for o in node.operands]
        rels = []
        for i, op in enumerate(node.ops):
            tol = None
            if op == "≈":
                tol = stated_tolerance(node.operands[i + 1])
                if tol is None:
                    raise ClaimError("≈ needs a number literal on its right (it sets the "
                                     "tolerance); use approx(a, b, rel=...) otherwise",
                                     node.operands[i + 1].col)
            pair = node.operands[i:i + 2]
            unit = "bytes" if any(isinstance(o, P.Call) and o.func in BYTE_VALUED
                                  for o in pair) else None
            rels.append(Rel(op, values[i], values[i + 1], node.operands[i].col, tol,
                            unit=unit))
        return rels[0] if len(rels) == 1 else Logic("and", rels, node.col)

    def v_BoolOp(self, node):
        return Logic(node.op, [self.formula(v) for v in node.values], node.col)

    def v_Not(self, node):
        return Logic("not", [self.formula(node.operand)], node.col)

    def v_Call(self, node):
        # the call's own conditions are collected apart, so subs() moves every one of them
        # to its point and limit() drops them, also one that an earlier part of the claim
        # recorded (log(y - 3) + subs(0*log(y - 3), y, 1) is undefined: log(-2))
        outer, self.conds = self.conds, []
        try:
            return self._call(node)
        finally:
            inner, self.conds = self.conds, outer
            for c in inner:
                if c not in self.conds:
                    self.conds.append(c)

    def _call(self, node):
        sig = SIGNATURES.get(node.func)
        if sig is None:
            known = ", ".join(sorted(SIGNATURES))
            raise ClaimError(f"unknown function {node.func!r}; known: {known}", node.col)
        start = len(self.conds)
        bound = self.bind(node, sig)
        if node.func == "approx":
            return self.approx(node, bound)
        try:
            if node.func == "diff" and _bare_relu(node, sig):
                out = relu_derivative(bound["var"])
            elif sig.variadic:
                out = FUNCTIONS[node.func](*bound)
            else:
                out = FUNCTIONS[node.func](*[bound[p] for p in sig.params])
        except ClaimError as e:
            col = e.col or _argument_col(node, sig, e.param) or node.col
            raise ClaimError(f"{node.func}(): {e.message}", col) from None
        except (ValueError, TypeError, KeyError, NotImplementedError, ZeroDivisionError,
                AttributeError) as e:
            raise ClaimError(f"{node.func}(): {_one_line(e)}", node.col) from None
        out = exact(out)  # no SymPy floor / Max / Abs ... left to meet a closed value later
        if node.func == "subs":
            out = self._subs_conditions(node, bound, out, start)
        elif node.func == "limit":  # its expression must be defined near the point
            var = bound["var"]
            inner = [c for c in self.conds[start:] if c.expr.has(var)]
            self.conds[start:] = [c for c in self.conds[start:] if not c.expr.has(var)]
            try:
                near = near_conditions(inner, var, bound["point"], bound["dir"])
            except ClaimError as e:
                raise ClaimError(e.message, node.col) from None
            for c in near:
                if c not in self.conds:
                    self.conds.append(c)
        if isinstance(out, sp.Basic) and _undefined(out):
            raise ClaimError(f"{node.func}() is undefined here ({fmt(out)})", node.col)
        if node.func == "diff":
            self._derivatives[id(out)] = (out, bound["expr"], bound["var"],
                                          list(self.conds[start:]))
        self.note(out, node.col)  # a limit's value too: limit(sqrt(y + z), z, 0) needs y ≥ 0
        return _check_size(out, node.col)

    def _subs_conditions(self, node, bound, out, start):
        """subs(): the conditions of its expression, at the substituted value; and the
        derivative at a kink (see the module docstring)."""
        var, value = bound["var"], bound["value"]
        new = self.conds[start:]
        origin = self._derivatives.get(id(bound["expr"]))
        if _undefined(out) and origin is not None and origin[0] is bound["expr"]:
            deriv, f, dvar, f_conds = origin
            if dvar == var:
                rescued = _derivative_at_kink(deriv, f, var, value, f_conds)
                if rescued is not None:
                    out = rescued
                    new = [c for c in new if c.why != KINK]
        self.conds[start:] = []
        for c in new:
            c = c.subs({var: value})
            if _undefined(c.expr):
                raise ClaimError(f"subs(): the expression is undefined at {var} = "
                                 f"{fmt(value)}", node.col)
            if c not in self.conds:
                self.conds.append(c)
        return out

    def bind(self, node, sig):
        if sig.variadic:
            if node.kwargs or not node.args:
                raise ClaimError(f"{node.func}() takes one or more positional arguments",
                                 node.col)
            return [self.expr(a, f"an argument of {node.func}()") for a in node.args]
        if len(node.args) > len(sig.params):
            raise ClaimError(f"{node.func}() takes at most {len(sig.params)} arguments "
                             f"({', '.join(sig.params)}), got {len(node.args)}", node.col)
        given = dict(zip(sig.params, node.args))
        for key, value, col in node.kwargs:
            if key not in sig.params:
                raise ClaimError(f"{node.func}() has no argument {key!r}; its arguments are "
                                 f"{', '.join(sig.params)}", col)
            if key in given:
                raise ClaimError(f"{node.func}() got {key!r} twice", col)
            given[key] = value
        bound = {}
        for p in sig.params:
            if p not in given:
                default = sig.defaults.get(p, REQUIRED)
                if default is REQUIRED:
                    raise ClaimError(f"{node.func}() needs its argument {p!r}", node.col)
                bound[p] = default
            elif p in sig.words:
                bound[p] = self.word(given[p], node.func, p)
            else:
                bound[p] = self.value(given[p])
                if isinstance(bound[p], Formula | str):
                    raise ClaimError(f"{node.func}()'s {p!r} must be a number, expression or "
                                     f"true/false, not {_kind(bound[p])}", given[p].col)
        return bound

    def word(self, node, func, param):
        if isinstance(node, P.Word):
            return node.text
        if isinstance(node, P.Name):
            return node.id
        raise ClaimError(f"{func}()'s {param!r} must be a name (e.g. swiglu, forward), "
                         "a bare word or a quoted string", node.col)

    def approx(self, node, bound):
        """a ≈ b within max(rel * |b|, abs) (either alone when the other is not given);
        an error points at the argument at fault."""
        sig = SIGNATURES["approx"]
        a, b = bound["a"], bound["b"]
        for name in ("a", "b"):
            if not isinstance(bound[name], sp.Basic):
                raise ClaimError(f"approx()'s {name!r} must be an expression, not "
                                 f"{_kind(bound[name])}", _argument_col(node, sig, name))
        rel, abs_ = bound["rel"], bound["abs"]
        if rel is None and abs_ is None:
            raise ClaimError("approx() needs rel=... or abs=...", node.col)
        terms = []
        for name, t in (("rel", rel), ("abs", abs_)):
            if t is not None and not (isinstance(t, sp.Basic) and t.is_Rational and t >= 0):
                raise ClaimError(f"approx()'s {name} must be a non-negative number, not "
                                 f"{_kind(t)}", _argument_col(node, sig, name))
        if rel is not None:
            terms.append(rel * Abs(b))
        if abs_ is not None:
            terms.append(abs_)
        tol = terms[0] if len(terms) == 1 else Max(*terms)
        # sizes beside the exact integers where `a` or `b` is a byte-valued function's value,
        # as the comparison operators show them (display only)
        given = dict(zip(sig.params, node.args)) | {key: arg for key, arg, _ in node.kwargs}
        unit = "bytes" if any(isinstance(given.get(name), P.Call)
                              and given[name].func in BYTE_VALUED for name in ("a", "b")) else None
        return Rel("≈", a, b, node.col, tol, label="approx", unit=unit)


def _derivative_at_kink(deriv, f, var, value, f_conds):
    """f'(value) where the derivative expression has an undefined step there, or None.

    Sound because: f is continuous (only relu / abs / min / max and smooth functions, and
    every condition of f holds strictly at the point, so f is defined near it), and if
    f' tends to the same finite L from both sides then f'(value) = L (mean value theorem).
    """
    from ffnverify.claims.certify import sign, truth

    if f.has(*DISCONTINUOUS) or not value.is_number:
        return None
    # SymPy takes a one-sided limit of a step whose argument holds another symbol as if
    # that symbol's sign were known (|y*z| got the derivative 0 at z = 0 for every y)
    if any(a.free_symbols - {var} for k in f.atoms(*KINKS) for a in k.args):
        return None
    for c in f_conds:
        strict = Cond(">" if c.op == ">=" else c.op, c.expr, c.why).subs({var: value})
        try:
            if truth(strict.as_rel()) is not True:
                return None
        except ClaimError:
            return None
    steps = plain(deriv).replace(lambda e: isinstance(e, sp.Heaviside),
                                 lambda e: sp.Heaviside(e.args[0]))
    try:
        left = sp.limit(steps, var, value, "-")
        right = sp.limit(steps, var, value, "+")
    except (ValueError, NotImplementedError, TypeError):
        return None
    for side in (left, right):
        if not (side.is_number and side.is_finite) or side.has(sp.AccumBounds, sp.Limit):
            return None
    try:
        return left if sign(left - right) == 0 else None
    except ClaimError:
        return None


def _bare_relu(node, sig) -> bool:
    """`diff(relu(z), z)` as written: the one derivative that takes relu'(0) = 0."""
    given = dict(zip(sig.params, node.args))
    given.update({key: value for key, value, _ in node.kwargs})
    expr, var = given.get("expr"), given.get("var")
    return (isinstance(expr, P.Call) and expr.func == "relu" and not expr.kwargs and
            len(expr.args) == 1 and isinstance(expr.args[0], P.Name) and
            isinstance(var, P.Name) and expr.args[0].id == var.id)


def _one_line(e, limit=160) -> str:
    """An exception's message on one line (SymPy's span several), at most `limit` long."""
    text = " ".join(str(e).split()) or type(e).__name__
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _argument_col(node, sig, param) -> int | None:
    """The column of the argument named `param` in the call `node` (a keyword, or the
    positional argument in that parameter's place), so an error points at it."""
    for key, _, col in node.kwargs:
        if key == param:
            return col
    given = dict(zip(sig.params, node.args))
    return given[param].col if param in given else None


def stated_tolerance(node):
    """The tolerance that the right side `node` of ≈ states (stated_precision), or None
    when it holds no number literal outside function calls."""
    values = Builder()  # a builder of its own: the claim's conditions are not touched
    return stated_precision.stated_tolerance(
        node, lambda n: values.expr(n, "a value on the right of ≈"))


def _kind(v):
    if isinstance(v, Formula):
        return "a comparison"
    if isinstance(v, bool):
        return "true/false"
    if v is None:
        return "none"
    if isinstance(v, str):
        return f"the name {v!r}"
    return f"the value {fmt(v)}"


def build_claim(text: str) -> tuple[Formula, list[Cond]]:
    """The formula of a claim and the conditions under which its values are defined."""
    b = Builder()
    f = b.formula(P.parse(text))
    return f, b.conds


def build(text: str) -> Formula:
    """The formula of a claim (conditions dropped: for callers that only inspect it)."""
    return build_claim(text)[0]
