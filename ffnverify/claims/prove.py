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
from ffnverify.claims.errors import ClaimError


def bounds(assumption, symbols):
    """Lower/upper bounds on single symbols found in simple assumption relations."""
    lower: dict
    upper: dict
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


def _outermost(e):
    """A floor / ceiling of e not inside another one."""
    atoms = e.atoms(sp.ceiling, sp.floor)
    for a in atoms:
        if not any(a is not b and b.has(a) for b in atoms):
            return a
    return None


def relax_rounding(e, shift=None):
    """(lower bound of e without floor/ceiling, strict), or (None, False) if e is not
    linear in them with coefficients of known sign: u <= ceiling(u) < u + 1,
    u - 1 < floor(u) <= u, outermost first. A coefficient is a rational, or an expression
    proved >= 0 (or <= 0) for all allowed values. strict: a term was bounded strictly
    with a positive rational factor, so e > bound, and bound >= 0 gives e > 0."""
    e = sp.expand(e)
    strict = False
    for _ in range(64):
        atom = _outermost(e)
        if atom is None:
            return e, strict
        c = sp.expand(e).coeff(atom)
        if c == 0 or (sp.expand(e - c * atom)).has(atom):
            return None, False
        if c.is_Rational:
            positive, exact = c > 0, True
        elif shift is not None and not c.has(sp.floor, sp.ceiling) and \
                prove_sign(c, shift, ">="):
            positive, exact = True, False
        elif shift is not None and not c.has(sp.floor, sp.ceiling) and \
                prove_sign(-c, shift, ">="):
            positive, exact = False, False
        else:
            return None, False
        u = atom.args[0]
        if isinstance(atom, sp.ceiling):
            low = u if positive else u + 1
        else:
            low = u - 1 if positive else u
        if exact:
            strict = strict or (not positive) == isinstance(atom, sp.ceiling)
        e = sp.expand(e - c * atom + c * low)
    return None, False


MAX_CASES = 128  # residue classes tried per claim (width(llama, d) needs 96)


def _split_symbol(e, shift):
    """(symbol, modulus): an integer symbol whose coefficient in a floor / ceiling
    argument has denominator q > 1, innermost first; or None."""
    atoms = sorted(e.atoms(sp.ceiling, sp.floor), key=sp.count_ops)
    for atom in atoms:
        u = atom.args[0]
        for s in sorted(u.free_symbols, key=str):
            if not s.is_integer or s not in shift:
                continue
            c = sp.expand(u).coeff(s)
            if c.is_Rational and c.q > 1 and not sp.diff(u, s, 2):
                return s, int(c.q)
    return None


def _substitute(e, mapping):
    """e with the mapping applied bottom-up, where floor / ceiling of (integer terms +
    rest) become integer terms + floor / ceiling of the rest (exact: floor(n + y) =
    n + floor(y) for an integer n), which spares SymPy's slower evaluation."""
    if not e.args:
        return mapping.get(e, e)
    args = [_substitute(a, mapping) for a in e.args]
    if isinstance(e, sp.floor | sp.ceiling):
        u = sp.expand(args[0])
        whole = [t for t in sp.Add.make_args(u) if t.is_integer]
        rest = u - sp.Add(*whole)
        return sp.Add(*whole) + e.func(rest)
    return e.func(*args)


def prove_by_residues(e, shift, want, budget) -> bool:
    """e > 0 (or >= 0) for every allowed value, case by case: an integer symbol s >= lo
    is lo + q*k + r for one r in 0..q-1 and an integer k >= 0, so the cases cover all
    its values; in each, floor / ceiling of (integer + r-part) come out exactly."""
    split = _split_symbol(e, shift)
    if split is None:
        return False
    s, q = split
    if budget[0] < q:
        return False
    budget[0] -= q
    base = shift[s].subs({x: 0 for x in shift[s].free_symbols})  # the lower bound
    k = sp.Symbol(s.name + "_k", nonnegative=True, integer=True)
    for r in range(q):
        value = base + q * k + r
        sub_shift = {t: v for t, v in shift.items() if t is not s}
        sub_shift[k] = k
        case = _substitute(e, {s: value})
        if not prove_sign(case, sub_shift, want, budget or [0]):
            return False
    return True


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


def prove_sign(e, shift, want, budget=None) -> bool:
    """Prove `e` > 0 (want='>'), >= 0 ('>='), for all allowed symbol values."""
    if e.has(sp.ceiling, sp.floor):
        budget = budget if budget is not None else [MAX_CASES]
        relaxed, strict = relax_rounding(e, shift)
        if relaxed is not None and not relaxed.has(sp.ceiling, sp.floor) and \
                prove_sign(relaxed, shift, ">=" if strict else want):
            return True
        if prove_by_residues(e, shift, want, budget):
            return True
    e = e.xreplace(shift)
    gens = sorted({s for v in shift.values() for s in v.free_symbols}, key=str)
    if budget is not None and e.free_symbols <= set(gens) and e.is_polynomial(*gens):
        sn = _poly_sign(e, gens)  # the fast path of the residue cases
        if sn is not None and (abs(sn) == 1 or want == ">=") and sn > 0:
            return True
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
        if identity(diff):
            return True
        # with rounding: both inequalities, by intervals or residue classes
        return diff.has(sp.floor, sp.ceiling) and prove_sign(diff, shift, ">=") and \
            prove_sign(-diff, shift, ">=")
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
