"""Proofs of formulas with free symbols, for every allowed value of the symbols.

Soundness contract: `prove(f, shift)` returns True only if f holds at every point of the
domain where its values are defined (the build conditions; the decider states them), for
all dimension symbols >= their lower bound and all real symbols (>= a stated lower
bound where an assumption gives one). It returns False when it finds no proof, never
because the claim is false. Its arguments, each exact:

- identities: `expand` / `cancel` (rational-function algebra: valid wherever both sides
  are defined) and, after the counterexample search, `simplify`;
- signs of polynomials: every coefficient of the numerator and denominator, in the
  shifted symbols (d = d0 + lower bound, d0 >= 0), non-negative rationals;
- floor / ceiling / round_up: each bounded by its interval (u - 1 < floor(u) <= u,
  u <= ceiling(u) < u + 1) with rational coefficients, then the relaxed claim proved;
- SymPy's sign assumptions (z**2 >= 0, sigmoid(z) > 0), but only after every closed
  irrational sub-term has been replaced by a symbol carrying its *certified* sign, so no
  assumption query ever evaluates a number in floating point.
"""

import sympy as sp

from ffnverify.claims.build import Logic, Rel, is_dimension
from ffnverify.claims.certify import sign as certified_sign
from ffnverify.claims.functions import ClaimError


def bounds(assumption, symbols):
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
                    lower[sym_side] = max(lower.get(sym_side, lo), lo)
                elif op in ("<", "<="):
                    upper[sym_side] = min(upper.get(sym_side, num_side), num_side)
    return lower, upper


def _flip(op):
    return {">": "<", ">=": "<=", "<": ">", "<=": ">="}.get(op, op)


def shifted(symbols, lower):
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


def relax_rounding(e):
    """(lower bound of e without floor/ceiling, strict), or (None, False) if e is not
    linear in them with rational coefficients: u <= ceiling(u) < u + 1, u - 1 < floor(u)
    <= u. strict: a term was bounded strictly, so e > bound and bound >= 0 gives e > 0."""
    e = sp.expand(e)
    strict = False
    for atom in e.atoms(sp.ceiling, sp.floor):
        c = e.coeff(atom)
        if not c.is_Rational or (e - c * atom).has(atom):
            return None, False
        if c == 0:
            continue
        u = atom.args[0]
        if isinstance(atom, sp.ceiling):
            low = u if c > 0 else u + 1
        else:
            low = u - 1 if c > 0 else u
        strict = strict or (c < 0) == isinstance(atom, sp.ceiling)
        e = sp.expand(e - c * atom + c * low)
    return e, strict


def _certified_form(e):
    """e with each closed, non-rational sub-term replaced by a symbol that carries its
    certified sign (or by 0 when exactly zero); None if some sign cannot be certified."""
    mapping = {}

    def walk(node):
        if node.is_Rational or node in mapping:
            return True
        if not node.free_symbols:
            if node in (sp.oo, -sp.oo):
                return True
            try:
                s = certified_sign(node)
            except ClaimError:
                return False
            if s is None:
                return False
            mapping[node] = sp.Integer(0) if s == 0 else sp.Dummy(
                "c", positive=s > 0, negative=s < 0)
            return True
        return all(walk(a) for a in node.args)

    if not walk(e):
        return None
    return e.xreplace(mapping) if mapping else e


def prove_sign(e, shift, want) -> bool:
    """Prove `e` > 0 (want='>'), >= 0 ('>='), for all allowed symbol values."""
    if e.has(sp.ceiling, sp.floor):
        relaxed, strict = relax_rounding(e)
        if relaxed is not None and not relaxed.has(sp.ceiling, sp.floor) and \
                prove_sign(relaxed, shift, ">=" if strict else want):
            return True
    e = e.xreplace(shift)
    gens = sorted({s for v in shift.values() for s in v.free_symbols}, key=str)
    try:
        num, den = sp.fraction(sp.cancel(sp.together(sp.expand(e))))
    except (sp.PolynomialError, TypeError, ValueError):
        num, den = e, sp.Integer(1)
    if num.free_symbols <= set(gens) and den.free_symbols <= set(gens):
        sn, sd = _poly_sign(num, gens), _poly_sign(den, gens)
        if sn is not None and sd is not None and abs(sd) == 1:
            sign = (1 if sn > 0 else -1) * (1 if sd > 0 else -1)
            strict = abs(sn) == 1
            if sign > 0 and (strict or want == ">="):
                return True
            if sn == 2 and want == ">=" and sd > 0:
                return True
    for form in _forms(e):
        form = _certified_form(form)
        if form is not None and (form.is_positive if want == ">" else form.is_nonnegative):
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


def identity(diff) -> bool:
    """diff == 0 identically, by expansion and rational-function cancellation."""
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


def identity_hard(diff) -> bool:
    """The slow attempt (simplify), tried only after the counterexample search."""
    try:
        e = sp.expand(diff.rewrite(sp.exp))
        return e == 0 or sp.simplify(e) == 0
    except (TypeError, ValueError, NotImplementedError, AttributeError):
        return False


def _infinite(e):
    return isinstance(e, sp.Basic) and e.has(sp.oo, -sp.oo)


def _versus_infinity(r: Rel) -> bool:
    """x OP ±oo where x holds no infinity, so x is a finite real wherever defined."""
    lhs, rhs, op = r.lhs, r.rhs, r.op
    if lhs in (sp.oo, -sp.oo):
        lhs, rhs, op = rhs, lhs, {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op)
    if rhs not in (sp.oo, -sp.oo) or _infinite(lhs):
        return False
    return op == "!=" or (op in ("<", "<=") if rhs is sp.oo else op in (">", ">="))


def prove_rel(r: Rel, shift) -> bool:
    if _infinite(r.lhs) or _infinite(r.rhs) or _infinite(r.tol):
        return _versus_infinity(r)  # otherwise by the search, or unknown
    diff = r.lhs - r.rhs
    if r.op == "==":
        return identity(diff)
    if r.op == "!=":
        return prove_sign(diff, shift, ">") or prove_sign(-diff, shift, ">")
    if r.op in ("<", "<="):
        return prove_sign(r.rhs - r.lhs, shift, ">" if r.op == "<" else ">=")
    if r.op in (">", ">="):
        return prove_sign(diff, shift, ">" if r.op == ">" else ">=")
    # ≈: -tol <= diff <= tol
    if identity(diff):
        return prove_sign(r.tol, shift, ">=")
    return prove_sign(r.tol - diff, shift, ">=") and prove_sign(r.tol + diff, shift, ">=")


_NEGATE = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}


def prove(f, shift) -> bool:
    """True only if f holds at every allowed point where it is defined (see above)."""
    kind = type(f).__name__
    if kind == "Const":
        return f.value is True
    if kind == "Rel":
        return prove_rel(f, shift)
    if f.op == "and":
        return all(prove(p, shift) for p in f.parts)
    if f.op == "or":
        return any(prove(p, shift) for p in f.parts)
    (inner,) = f.parts
    if isinstance(inner, Rel) and inner.op in _NEGATE:
        return prove_rel(Rel(_NEGATE[inner.op], inner.lhs, inner.rhs, inner.col), shift)
    if isinstance(inner, Logic) and inner.op in ("and", "or"):  # De Morgan
        parts = [Logic("not", [p], inner.col) for p in inner.parts]
        return prove(Logic("or" if inner.op == "and" else "and", parts, inner.col), shift)
    if isinstance(inner, Logic) and inner.op == "not":
        return prove(inner.parts[0], shift)
    return False


def prove_hard(f) -> bool:
    """Identities that need simplify (activation derivatives and the like)."""
    if isinstance(f, Rel) and f.op == "==":
        return not (_infinite(f.lhs) or _infinite(f.rhs)) and identity_hard(f.lhs - f.rhs)
    if isinstance(f, Logic) and f.op == "and":
        return all(prove_hard(p) for p in f.parts)
    return False
