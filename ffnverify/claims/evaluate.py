"""Exact evaluation of one claim: syntax tree -> SymPy values -> a verdict.

- Numbers are exact rationals; sizes are checked *before* SymPy computes a power, so
  `10**10**10` is refused at once instead of being computed.
- Names: `true false none oo pi` are constants; the activation-argument names in
  REAL_NAMES (x, y, z, t, u, v, w, a, alpha, beta, gamma, eps, lam, mu) are real
  symbols; every other free name (d, h, n, d_ff, k, ...) is a positive-integer
  dimension symbol. A claim with free symbols is a claim for all their values.
- `==` with free symbols is an identity: proved by expansion / cancellation /
  simplification, refuted by a counterexample, otherwise `unknown`.
- Inequalities: proved by a sign argument (dimension symbols shifted to their lower
  bound, all polynomial coefficients non-negative; SymPy's sign assumptions otherwise),
  else refuted by searching small values, else `unknown`.
- `a ≈ b`: |a − b| <= half a unit in the last stated digit of the literals on the
  right (outside function calls); `approx(a, b, rel=…, abs=…)` states the tolerance.
- `assume` conditions restrict the symbols: simple bounds (`d >= 2`) shift the proof,
  and every condition filters the counterexample search.

`evaluate_claim(text, assume)` never raises: it returns a dict with `verdict`, `value`,
`detail` and `col` (1-based column of an error inside the claim text, or None).
"""

import itertools
from fractions import Fraction

import mpmath
import sympy as sp

from ffnverify.claims import parser as P
from ffnverify.claims.functions import FUNCTIONS, ClaimError
from ffnverify.claims.signatures import REQUIRED, SIGNATURES

REAL_NAMES = frozenset(
    "x y z t u v w a alpha beta gamma eps lam mu".split())
CONSTANTS = {"true": True, "false": False, "none": None, "oo": sp.oo, "pi": sp.pi}

MAX_BITS = 400_000  # ~120,000 decimal digits for any exact number
MAX_SYMBOLIC_EXPONENT = 1000
MAX_POINTS = 120  # counterexample search: values tried per claim
ZERO_EPS = sp.Float("1e-40")
PRECISION = 60

DIM_VALUES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 24, 32, 48, 64, 96, 128, 256, 1000,
              4096]
REAL_VALUES = [sp.Integer(v) for v in (0, 1, -1)] + [sp.Rational(1, 2), sp.Rational(-1, 2)] + [
    sp.Integer(v) for v in (2, -2, 3, -3)] + [sp.Rational(1, 10), sp.Rational(-1, 10)] + [
    sp.Integer(v) for v in (10, -10, 5, -5)]


def symbol(name: str) -> sp.Symbol:
    """The SymPy symbol a free name stands for (same assumptions as derivations.symbols)."""
    if name in REAL_NAMES:
        return sp.Symbol(name, real=True)
    return sp.Symbol(name, positive=True, integer=True)


def is_dimension(s: sp.Symbol) -> bool:
    return bool(s.is_integer)


# ---- formulas: what comparisons evaluate to -------------------------------------------


class Rel:
    """lhs OP rhs; for ≈ and approx, tol is the allowed |lhs − rhs| (an expression)."""

    def __init__(self, op, lhs, rhs, col, tol=None, label=None):
        self.op, self.lhs, self.rhs, self.col, self.tol = op, lhs, rhs, col, tol
        self.label = label

    def free(self):
        out = set()
        for e in (self.lhs, self.rhs, self.tol):
            if isinstance(e, sp.Basic):
                out |= e.free_symbols
        return out

    def subs(self, point):
        f = lambda e: e.xreplace(point) if isinstance(e, sp.Basic) else e
        return Rel(self.op, f(self.lhs), f(self.rhs), self.col, f(self.tol), self.label)

    def show(self):
        rhs = fmt(self.rhs)
        if self.tol is not None:
            rhs += f" ± {fmt(self.tol)}"
        return f"{fmt(self.lhs)} vs {rhs}"


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


# ---- building values from the syntax tree ---------------------------------------------


def _bits(q) -> int:
    q = sp.Rational(q)
    return max(int(q.p).bit_length(), int(q.q).bit_length())


def _check_size(value, col):
    if isinstance(value, sp.Rational) and _bits(value) > MAX_BITS:
        raise ClaimError(f"intermediate number too large ({_bits(value)} bits; limit {MAX_BITS})",
                         col)
    return value


def _power(base, exp, col):
    """base**exp, refused before it is computed when the result would be too large."""
    if not (exp.is_number and exp.is_finite):
        return base**exp  # a symbolic exponent: sized when its symbols get values
    size = abs(sp.floor(exp)) if exp.is_Rational else sp.floor(abs(sp.N(exp, 15)))
    if base.is_Rational and exp.is_Rational:
        if base not in (0, 1, -1) and size * max(_bits(base) - 1, 1) > MAX_BITS:
            digits = int(size * _bits(base) * 0.30103)
            raise ClaimError(f"power too large: {fmt(base)}**{fmt(exp)} would have about "
                             f"{digits:,} digits (limit {int(MAX_BITS * 0.30103):,})", col)
    elif size > MAX_SYMBOLIC_EXPONENT:
        raise ClaimError(f"exponent {fmt(exp)} is beyond ±{MAX_SYMBOLIC_EXPONENT} for a "
                         "base that is not a plain number", col)
    return base**exp


class Builder:
    """Turns a syntax tree into SymPy values and Formulas."""

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
        a = self.expr(node.left, f"the left operand of {node.op}")
        b = self.expr(node.right, f"the right operand of {node.op}")
        if node.op == "+":
            out = a + b
        elif node.op == "-":
            out = a - b
        elif node.op == "*":
            out = a * b
        elif node.op == "/":
            if b == 0:
                raise ClaimError("division by zero", node.col)
            out = a / b
        elif node.op == "%":  # the remainder, with the sign of the divisor (as Python's)
            if b == 0:
                raise ClaimError("remainder by zero (d % 0)", node.col)
            out = sp.Mod(a, b)
        else:
            if a == 0 and b.is_number and b.is_negative:
                raise ClaimError("division by zero (0 to a negative power)", node.col)
            out = _power(a, b, node.col)
        if out.has(sp.zoo, sp.nan):
            raise ClaimError(f"undefined value ({fmt(out)})", node.col)
        return _check_size(out, node.col)

    def v_Compare(self, node):
        values = [self.expr(o, "a compared value") for o in node.operands]
        rels = []
        for i, op in enumerate(node.ops):
            tol = None
            if op == "≈":
                unit = stated_unit(node.operands[i + 1])
                if unit is None:
                    raise ClaimError("≈ needs a number literal on its right (it sets the "
                                     "tolerance); use approx(a, b, rel=...) otherwise",
                                     node.operands[i + 1].col)
                tol = sp.Rational(unit.numerator, unit.denominator) / 2
            rels.append(Rel(op, values[i], values[i + 1], node.operands[i].col, tol))
        return rels[0] if len(rels) == 1 else Logic("and", rels, node.col)

    def v_BoolOp(self, node):
        return Logic(node.op, [self.formula(v) for v in node.values], node.col)

    def v_Not(self, node):
        return Logic("not", [self.formula(node.operand)], node.col)

    def v_Call(self, node):
        sig = SIGNATURES.get(node.func)
        if sig is None:
            known = ", ".join(sorted(SIGNATURES))
            raise ClaimError(f"unknown function {node.func!r}; known: {known}", node.col)
        bound = self.bind(node, sig)
        if node.func == "approx":
            return self.approx(node, bound)
        try:
            if sig.variadic:
                out = FUNCTIONS[node.func](*bound)
            else:
                out = FUNCTIONS[node.func](*[bound[p] for p in sig.params])
        except ClaimError as e:
            raise ClaimError(f"{node.func}(): {e.message}", e.col or node.col) from None
        except (ValueError, TypeError, KeyError, NotImplementedError, ZeroDivisionError,
                AttributeError) as e:
            raise ClaimError(f"{node.func}(): {e}", node.col) from None
        if isinstance(out, sp.Basic) and out.has(sp.zoo, sp.nan):
            raise ClaimError(f"{node.func}() is undefined here ({fmt(out)})", node.col)
        return _check_size(out, node.col)

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
        a, b = bound["a"], bound["b"]
        for name in ("a", "b"):
            if not isinstance(bound[name], sp.Basic) or isinstance(bound[name], Formula):
                raise ClaimError(f"approx()'s {name!r} must be an expression", node.col)
        rel, abs_ = bound["rel"], bound["abs"]
        if rel is None and abs_ is None:
            raise ClaimError("approx() needs rel=... or abs=...", node.col)
        terms = []
        for name, t in (("rel", rel), ("abs", abs_)):
            if t is not None and not (isinstance(t, sp.Basic) and t.is_number
                                      and t.is_nonnegative):
                raise ClaimError(f"approx()'s {name} must be a non-negative number", node.col)
        if rel is not None:
            terms.append(rel * sp.Abs(b))
        if abs_ is not None:
            terms.append(abs_)
        tol = terms[0] if len(terms) == 1 else sp.Max(*terms)
        return Rel("≈", a, b, node.col, tol, label="approx")


def stated_unit(node) -> Fraction | None:
    """The finest last-stated-digit unit among the literals of `node` outside calls."""
    units = []

    def walk(n):
        if isinstance(n, P.Num):
            units.append(n.unit)
        elif isinstance(n, P.Unary):
            walk(n.operand)
        elif isinstance(n, P.BinOp):
            walk(n.left)
            walk(n.right)

    walk(node)
    return min(units) if units else None


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


# ---- formatting ---------------------------------------------------------------------


def fmt(v) -> str:
    """A short exact rendering; rationals also as a decimal; huge integers abbreviated."""
    if isinstance(v, bool) or v is None:
        return str(v).lower()
    if isinstance(v, sp.Rational):
        if _bits(v) > 160:
            approx = mpmath.nstr(mpmath.mpf(int(v.p)) / int(v.q), 6)
            return f"{approx} (exact value has about {int(_bits(v) * 0.30103):,} digits)"
        if v.is_Integer:
            return str(v)
        return f"{v} ({float(v):.6g})"
    if isinstance(v, sp.Basic):
        try:
            text = str(v)
        except ValueError:  # an integer beyond Python's str() digit limit inside
            return "(an expression holding very large numbers)"
        if len(text) > 300:
            text = text[:300] + "…"
        if v.is_number and not v.free_symbols and not v.is_Rational and v.is_finite:
            try:
                text += f" (≈ {mpmath.nstr(mpmath.mpf(sp.N(v, 15)), 8)})"
            except (TypeError, ValueError):
                pass
        return text
    return str(v)


# ---- deciding -----------------------------------------------------------------------


def _undefined(e):
    return isinstance(e, sp.Basic) and (e.has(sp.zoo) or e.has(sp.nan))


def numeric_sign(e, exact_zero=True):
    """+1, -1 or 0 for a number without free symbols; None if it cannot be told apart
    from zero at PRECISION digits and SymPy cannot prove it is exactly zero (with
    exact_zero=False, the fast mode of the counterexample search, it does not try)."""
    if _undefined(e):
        raise ClaimError(f"the value is undefined ({fmt(e)})")
    if e.is_Rational:
        return int(sp.sign(e))
    if e.has(sp.I) or e.is_extended_real is False:
        raise ClaimError(f"the value is not a real number ({fmt(e)})")
    if e == sp.oo:
        return 1
    if e == -sp.oo:
        return -1
    v = e.evalf(PRECISION)
    if v.is_Number and not v.is_Rational:
        if v.is_infinite:
            return 1 if v > 0 else -1
        if abs(v) > ZERO_EPS:
            return 1 if v > 0 else -1
    elif not v.is_number:
        return None
    if not exact_zero:
        return None
    if _is_zero(e):
        return 0
    if e.is_positive:
        return 1
    if e.is_negative:
        return -1
    return None


def _is_zero(e) -> bool:
    if sp.expand(e) == 0:
        return True
    try:
        return sp.simplify(e.rewrite(sp.exp)) == 0
    except (TypeError, ValueError, NotImplementedError):
        return False


def decide_numeric(f, exact_zero=True) -> bool | None:
    """A formula without free symbols: True, False or None (undecidable here)."""
    if isinstance(f, Const):
        return f.value
    if isinstance(f, Logic):
        values = [decide_numeric(p, exact_zero) for p in f.parts]
        if f.op == "not":
            return None if values[0] is None else not values[0]
        if f.op == "and":
            if any(v is False for v in values):
                return False
            return None if any(v is None for v in values) else True
        if any(v is True for v in values):
            return True
        return None if any(v is None for v in values) else False
    diff = f.lhs - f.rhs
    if f.op == "≈":
        s = numeric_sign(f.tol - sp.Abs(diff), exact_zero)
        return None if s is None else s >= 0
    s = numeric_sign(diff, exact_zero)
    if s is None:
        return None
    return {"==": s == 0, "!=": s != 0, "<": s < 0, "<=": s <= 0, ">": s > 0,
            ">=": s >= 0}[f.op]


def _bounds(assumption, symbols):
    """Lower/upper bounds on single symbols found in simple assumption relations."""
    lower, upper = {}, {}
    rels = []

    def collect(f):
        if isinstance(f, Rel):
            rels.append(f)
        elif isinstance(f, Logic) and f.op == "and":
            for p in f.parts:
                collect(p)

    if assumption is not None:
        collect(assumption)
    for r in rels:
        for sym_side, num_side, op in ((r.lhs, r.rhs, r.op), (r.rhs, r.lhs, _flip(r.op))):
            if isinstance(sym_side, sp.Symbol) and sym_side in symbols and \
                    isinstance(num_side, sp.Basic) and num_side.is_Rational:
                if op in (">", ">="):
                    lo = num_side
                    if is_dimension(sym_side):
                        lo = sp.floor(lo) + 1 if op == ">" else sp.ceiling(lo)
                        if lo < 1:
                            continue
                    elif op == ">":  # strict real bound: use it for the search only
                        pass
                    lower[sym_side] = max(lower.get(sym_side, lo), lo)
                elif op in ("<", "<="):
                    upper[sym_side] = min(upper.get(sym_side, num_side), num_side)
    return lower, upper


def _flip(op):
    return {">": "<", ">=": "<=", "<": ">", "<=": ">="}.get(op, op)


def _shifted(symbols, lower):
    """{s: s0 + lower bound} with s0 >= 0, so a sign argument can use the bounds."""
    shift = {}
    for s in symbols:
        if is_dimension(s):
            lo = lower.get(s, 1)
            shift[s] = sp.Symbol(s.name + "_0", nonnegative=True, integer=True) + lo
        elif s in lower:
            shift[s] = sp.Symbol(s.name + "_0", nonnegative=True) + lower[s]
    return shift


def _poly_sign(p, gens) -> int | None:
    """+1: p > 0, 2: p >= 0 for all gens >= 0 (by coefficients); -1/-2 likewise; None."""
    try:
        poly = sp.Poly(sp.expand(p), *gens) if gens else None
    except (sp.PolynomialError, sp.GeneratorsError):
        return None
    if poly is None:
        return None
    if any(c.free_symbols or not c.is_Rational for c in poly.coeffs()):
        return None
    coeffs = poly.coeffs()
    const = poly.coeff_monomial(1) if gens else p
    if all(c >= 0 for c in coeffs):
        return 1 if const > 0 else 2
    if all(c <= 0 for c in coeffs):
        return -1 if const < 0 else -2
    return None


def _relax_rounding(e):
    """(lower bound of e without floor/ceiling, strict), or (None, False) if e is not
    linear in them with numeric coefficients: u <= ceiling(u) < u + 1, u - 1 < floor(u)
    <= u. strict: a term was bounded strictly, so e > bound and bound >= 0 gives e > 0."""
    e = sp.expand(e)
    strict = False
    for atom in e.atoms(sp.ceiling, sp.floor):
        c = e.coeff(atom)
        if not (c.is_number and c.is_real) or (e - c * atom).has(atom):
            return None, False
        u = atom.args[0]
        if isinstance(atom, sp.ceiling):
            low = u if c > 0 else u + 1
        else:
            low = u - 1 if c > 0 else u
        strict = strict or (c < 0) == isinstance(atom, sp.ceiling)
        e = sp.expand(e - c * atom + c * low)
    return e, strict


def prove_sign(e, shift, want) -> bool:
    """Prove `e` > 0 (want='>'), >= 0 ('>='), for all allowed symbol values."""
    if e.has(sp.ceiling, sp.floor):
        relaxed, strict = _relax_rounding(e)
        if relaxed is not None and not relaxed.has(sp.ceiling, sp.floor) and \
                prove_sign(relaxed, shift, ">=" if strict else want):
            return True
    e = e.xreplace(shift)
    gens = sorted({s for v in shift.values() for s in v.free_symbols}, key=str)
    try:
        num, den = sp.fraction(sp.cancel(sp.together(sp.expand(e))))
    except (sp.PolynomialError, TypeError, ValueError):
        num, den = e, sp.Integer(1)
    if not (num.free_symbols <= set(gens) and den.free_symbols <= set(gens)):
        gens_ok = False
    else:
        gens_ok = True
    if gens_ok:
        sn, sd = _poly_sign(num, gens), _poly_sign(den, gens)
        if sn is not None and sd is not None and abs(sd) == 1:
            sign = (1 if sn > 0 else -1) * (1 if sd > 0 else -1)
            strict = abs(sn) == 1
            if sign > 0 and (strict or want == ">="):
                return True
            if sn == 2 and want == ">=" and sd > 0:
                return True
    for form in _forms(e):
        if (form.is_positive if want == ">" else form.is_nonnegative):
            return True
    return False


def _forms(e):
    """e, then rearrangements on which SymPy's sign assumptions often succeed."""
    yield e
    for rewrite in (sp.together, sp.factor_terms, lambda x: sp.together(x.rewrite(sp.exp))):
        try:
            yield rewrite(e)
        except (TypeError, ValueError, NotImplementedError, AttributeError):
            continue


def prove_rel(r: Rel, shift) -> bool:
    diff = r.lhs - r.rhs
    if r.op == "==":
        return _identity(diff)
    if r.op == "!=":
        return prove_sign(diff, shift, ">") or prove_sign(-diff, shift, ">")
    if r.op in ("<", "<="):
        return prove_sign(r.rhs - r.lhs, shift, ">" if r.op == "<" else ">=")
    if r.op in (">", ">="):
        return prove_sign(diff, shift, ">" if r.op == ">" else ">=")
    # ≈: -tol <= diff <= tol
    if _identity(diff):
        return numeric_sign(r.tol) in (0, 1) if not r.tol.free_symbols else \
            prove_sign(r.tol, shift, ">=")
    return prove_sign(r.tol - diff, shift, ">=") and prove_sign(r.tol + diff, shift, ">=")


def _identity(diff) -> bool:
    e = sp.expand(diff)
    if e == 0:
        return True
    try:
        if sp.cancel(sp.together(e)) == 0:
            return True
        if e.has(sp.Function) and sp.cancel(sp.together(sp.expand(e.rewrite(sp.exp)))) == 0:
            return True
    except (sp.PolynomialError, TypeError, ValueError, NotImplementedError):
        pass
    return False


def _identity_hard(diff) -> bool:
    """The slow attempt (simplify), tried only after the counterexample search."""
    try:
        e = sp.expand(diff.rewrite(sp.exp))
        return e == 0 or sp.simplify(e) == 0
    except (TypeError, ValueError, NotImplementedError, AttributeError):
        return False


def prove(f, shift) -> bool:
    if isinstance(f, Const):
        return f.value is True
    if isinstance(f, Rel):
        return prove_rel(f, shift)
    if f.op == "and":
        return all(prove(p, shift) for p in f.parts)
    if f.op == "or":
        return any(prove(p, shift) for p in f.parts)
    (inner,) = f.parts
    if isinstance(inner, Rel) and inner.op in ("==", "<", "<=", ">", ">="):
        neg = {"==": "!=", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}[inner.op]
        return prove_rel(Rel(neg, inner.lhs, inner.rhs, inner.col), shift)
    return False


def prove_hard(f) -> bool:
    """Identities that need simplify (activation derivatives and the like)."""
    if isinstance(f, Rel) and f.op == "==":
        return _identity_hard(f.lhs - f.rhs)
    if isinstance(f, Logic) and f.op == "and":
        return all(isinstance(p, Rel) and (p.op == "==" and _identity_hard(p.lhs - p.rhs))
                   for p in f.parts)
    return False


def _points(symbols, lower, upper):
    """Candidate values, small first, at most MAX_POINTS of them."""
    per = max(2, int(MAX_POINTS ** (1 / max(len(symbols), 1))))
    axes = []
    for s in symbols:
        if is_dimension(s):
            lo = int(lower.get(s, 1))
            vals = [sp.Integer(lo + v - 1) for v in DIM_VALUES]
        else:
            vals = list(REAL_VALUES)
            if s in lower:
                lo = lower[s]
                vals = [lo + abs(v) for v in vals]
                vals = list(dict.fromkeys(vals))
        if s in upper:
            vals = [v for v in vals if v <= upper[s]] or vals[:1]
        axes.append(vals[:per])
    combos = sorted(itertools.product(*[range(len(a)) for a in axes]),
                    key=lambda idx: (sum(idx), idx))
    for idx in combos[:MAX_POINTS]:
        yield {s: axes[k][i] for k, (s, i) in enumerate(zip(symbols, idx))}


def search(f, assumption, symbols, lower, upper, limit=MAX_POINTS):
    """The first point where f is False (and the assumptions hold), and how many tried."""
    tried = 0
    for point in itertools.islice(_points(symbols, lower, upper), limit):
        try:
            if assumption is not None and decide_numeric(assumption.subs(point)) is not True:
                continue
            tried += 1
            if decide_numeric(f.subs(point), exact_zero=False) is False:
                return point, tried
        except ClaimError:
            continue  # undefined at this point (e.g. log(0)): not a counterexample
    return None, tried


def _failing(f):
    """The relation that makes a numeric formula false (for the value field)."""
    if isinstance(f, Rel):
        return f
    if isinstance(f, Logic):
        for p in f.parts:
            if f.op == "not" or decide_numeric(p) is False:
                return _failing(p)
    return None


def _first_rel(f):
    if isinstance(f, Rel):
        return f
    if isinstance(f, Logic):
        for p in f.parts:
            r = _first_rel(p)
            if r is not None:
                return r
    return None


def _domain(symbols):
    dims = [s.name for s in symbols if is_dimension(s)]
    reals = [s.name for s in symbols if not is_dimension(s)]
    parts = []
    if dims:
        parts.append(f"positive integers {', '.join(dims)}")
    if reals:
        parts.append(f"real {', '.join(reals)}")
    return " and ".join(parts)


def decide(f, assumption=None, assumed: str = "") -> dict:
    symbols = sorted(f.free(), key=lambda s: s.name)
    first = _first_rel(f)
    if not symbols:
        verdict = decide_numeric(f)
        if verdict is None:
            return _result("unknown", first,
                           f"the two sides agree to {PRECISION - 20} digits, but exact "
                           "equality could not be proved")
        if verdict:
            detail = "exact"
            if isinstance(f, Rel) and f.op == "≈":
                gap = sp.Abs(f.lhs - f.rhs)
                shown = fmt(gap) if gap.is_Rational else \
                    "about " + mpmath.nstr(mpmath.mpf(sp.N(gap, 15)), 6)
                detail = f"|difference| = {shown} <= {fmt(f.tol)}"
            return _result("true", first, detail)
        bad = _failing(f) or first
        detail = ""
        if bad is not None and bad.op in ("==", "≈") and bad.lhs.is_number and \
                bad.rhs.is_number:
            detail = f"differs by {fmt(bad.lhs - bad.rhs)}"
        return _result("false", bad, detail)
    lower, upper = _bounds(assumption, set(symbols))
    shift = _shifted(symbols, lower)
    domain = _domain(symbols) + (f" with {assumed}" if assumed else "")
    # one cheap point first: a false claim is refuted before any expensive expansion
    point, _ = search(f, assumption, symbols, lower, upper, limit=1)
    if point is None and prove(f, shift):
        return _result("true", first, f"proved for all {domain}")
    if point is None:
        point, tried = search(f, assumption, symbols, lower, upper)
    if point is not None:
        at = ", ".join(f"{s.name}={fmt(v)}" for s, v in point.items())
        bad = _failing(f.subs(point))
        shown = f": {bad.show()}" if bad is not None else ""
        return _result("false", first, f"counterexample {at}{shown}")
    if prove_hard(f):
        return _result("true", first, f"proved for all {domain}")
    return _result("unknown", first,
                   f"not proved, and no counterexample among {tried} values of {domain}")


def _result(verdict, rel, detail):
    return {"verdict": verdict, "value": rel.show() if rel is not None else "",
            "detail": detail, "col": None}


def build(text: str) -> Formula:
    return Builder().formula(P.parse(text))


def evaluate_claim(text: str, assume=()) -> dict:
    """The verdict for one claim (never raises; errors become the `error` verdict)."""
    try:
        f = build(text)
        assumption = None
        conds = []
        for a in assume or ():
            try:
                conds.append(build(a))
            except (P.ClaimSyntaxError, ClaimError) as e:
                msg = e.message if hasattr(e, "message") else str(e)
                return {"verdict": "error", "value": "", "col": None,
                        "detail": f"in assume {a!r}: {msg}"}
        if conds:
            assumption = conds[0] if len(conds) == 1 else Logic("and", conds, 1)
        return decide(f, assumption, " and ".join(assume or ()))
    except P.ClaimSyntaxError as e:
        return {"verdict": "error", "value": "", "detail": e.message, "col": e.col}
    except ClaimError as e:
        return {"verdict": "error", "value": "", "detail": e.message, "col": e.col}
    except RecursionError:
        return {"verdict": "error", "value": "", "col": None,
                "detail": "expression too deeply nested to evaluate"}
    except MemoryError:
        return {"verdict": "error", "value": "", "col": None,
                "detail": "out of memory while evaluating (size budget)"}
    except Exception as e:  # noqa: BLE001 — SymPy can fail in many ways on odd input
        return {"verdict": "unknown", "value": "", "col": None,
                "detail": f"SymPy could not decide this claim ({type(e).__name__}: {e})"[:500]}
