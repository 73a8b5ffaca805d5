"""The verdict of one claim: build it, then certify, prove or refute it.

Why a verdict can be trusted:

- `true` for a claim without symbols: `certify.truth` showed it with exact rationals or
  an interval that excludes zero (or exact algebra for `==`). With symbols: `prove.prove`
  showed it for every allowed value where the claim is defined; when that needs domain
  conditions that are not implied (a divisor ≠ 0, a root's argument ≥ 0, ...), the
  detail names them ("proved for all real z where z - 1 ≠ 0") and a point of that
  domain was found, so the statement is not vacuous.
- `false`: certified false as above, or a counterexample from `refute.search`, certified
  at that point (where the claim is defined and the assumptions hold).
- `unknown` for everything else, including any sign that could not be certified;
  `error` for a claim that is undefined (1/0, log(-1), a two-sided limit that does not
  exist) or not in the language.

- `a ≈ b`: |a − b| <= the tolerance the right side states: each literal's half-unit in
  its last stated digit, propagated through the right side's arithmetic (outside function
  calls; build.stated_tolerance); `approx(a, b, rel=…, abs=…)` states the tolerance.
- `assume` conditions restrict the symbols: simple bounds (`d >= 2`) shift the proof,
  and every condition filters the counterexample search.

`evaluate_claim(text, assume)` never raises: it returns a dict with `verdict`, `value`,
`detail` and `col` (1-based column of an error inside the claim text, or None).
"""

import sympy as sp

from ffnverify.claims import parser as P
from ffnverify.claims.build import Const, Logic, Rel, build, build_claim, is_dimension, symbol
from ffnverify.claims.certify import PRECISIONS, truth
from ffnverify.claims.errors import ClaimError
from ffnverify.claims.prove import bounds, prove, prove_hard, prove_sign, shifted
from ffnverify.claims.refute import failing, search
from ffnverify.claims.show import approx, fmt

__all__ = ["build", "decide", "evaluate_claim", "fmt", "symbol"]


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


def _result(verdict, rel, detail):
    return {"verdict": verdict, "value": rel.show() if rel is not None else "",
            "detail": detail, "col": None}


def _implied(c, shift) -> bool:
    """The condition holds for every allowed value of its symbols (so it need not be
    stated)."""
    try:
        if c.op == "!=":
            return prove_sign(c.expr, shift, ">") or prove_sign(-c.expr, shift, ">")
        return prove_sign(c.expr, shift, c.op)
    except (TypeError, ValueError, NotImplementedError, AttributeError):
        return False


def _uncertified(conds, first):
    """Certify each closed domain condition: raise for one that fails, return the
    `unknown` result for the first that cannot be certified, else None."""
    for c in conds:
        ok = truth(c.as_rel())
        if ok is False:
            raise ClaimError(f"the value is undefined ({c.why}: {c.show()} fails)")
        if ok is None:
            return _result("unknown", first, f"could not certify that {c.show()}, where "
                           "the claim's values are defined")
    return None


def _closed(f, conds, first):
    stop = _uncertified(conds, first)
    if stop is not None:
        return stop
    verdict = truth(f)
    if verdict is None:
        return _result("unknown", first,
                       f"the two sides agree to {PRECISIONS[-1]} bits, but exact equality "
                       "could not be proved")
    if verdict:
        detail = "exact"
        if isinstance(f, Rel) and f.op == "≈" and f.lhs.is_finite and f.rhs.is_finite:
            gap = sp.Abs(f.lhs - f.rhs)
            shown = fmt(gap) if gap.is_Rational else "about " + (approx(gap, 6) or "?")
            detail = f"|difference| = {shown} <= {fmt(f.tol)}"
        return _result("true", first, detail)
    bad = failing(f) or first
    detail = ""
    if bad is not None and bad.op in ("==", "≈") and bad.lhs.is_number and \
            bad.rhs.is_number and bad.lhs.is_finite and bad.rhs.is_finite:
        detail = f"differs by {fmt(bad.lhs - bad.rhs)}"
    return _result("false", bad, detail)


def decide(f, assumption=None, assumed: str = "", conds=()) -> dict:
    conds = list(conds)
    # a symbol that cancelled out of the formula still ranges where the claim is defined
    # (0*log(z - 5) == 0 holds only for z > 5)
    free = f.free().union(*(c.expr.free_symbols for c in conds))
    symbols = sorted(free, key=lambda s: s.name)
    first = _first_rel(f)
    if not symbols:
        return _closed(f, [c for c in conds if not c.expr.free_symbols], first)
    stop = _uncertified([c for c in conds if not c.expr.free_symbols], first)
    if stop is not None:
        return stop
    conds = [c for c in conds if c.expr.free_symbols]
    lower, upper = bounds(assumption, set(symbols))
    shift = shifted(symbols, lower)
    open_conds = [c for c in conds if not _implied(c, shift)]
    domain = _domain(symbols) + (f" with {assumed}" if assumed else "")
    if open_conds:
        domain += " where " + " and ".join(c.show() for c in open_conds) + \
            " (elsewhere the claim is undefined)"
    # one cheap point first: a false claim is refuted before any expensive expansion
    found = search(f, open_conds, assumption, symbols, lower, upper, limit=1)
    if found.point is None and prove(f, shift):
        return _proved(open_conds, assumption, symbols, lower, upper, first, domain)
    if found.point is None:
        found = search(f, open_conds, assumption, symbols, lower, upper)
    if found.point is not None:
        at = ", ".join(f"{s.name}={fmt(v)}" for s, v in found.point.items())
        bad = failing(f.subs(found.point))
        shown = f": {bad.show()}" if bad is not None else ""
        return _result("false", first, f"counterexample {at}{shown}")
    if prove_hard(f):
        return _proved(open_conds, assumption, symbols, lower, upper, first, domain)
    return _result("unknown", first,
                   f"not proved, and no counterexample among {found.tried} values of "
                   f"{domain}")


def _proved(open_conds, assumption, symbols, lower, upper, first, domain):
    if open_conds:
        witness = search(Const(True, 1), open_conds, assumption, symbols, lower, upper)
        if witness.witness is None:
            return _result("unknown", first, f"proved for all {domain}, but no point was "
                           "found where the claim is defined")
    return _result("true", first, f"proved for all {domain}")


def evaluate_claim(text: str, assume=()) -> dict:
    """The verdict for one claim (never raises; errors become the `error` verdict)."""
    try:
        f, conds = build_claim(text)
        assumption = None
        parts = []
        for a in assume or ():
            try:
                parts.append(build(a))
            except (P.ClaimSyntaxError, ClaimError) as e:
                return {"verdict": "error", "value": "", "col": None,
                        "detail": f"in assume {a!r}: {e.message}"}
        if parts:
            assumption = parts[0] if len(parts) == 1 else Logic("and", parts, 1)
        return decide(f, assumption, " and ".join(assume or ()), conds)
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
    except Exception as e:  # SymPy can fail in many ways on odd input
        try:
            why = f"{type(e).__name__}: {e}"
        except Exception:  # str(e) itself can fail on huge numbers
            why = type(e).__name__
        if "digits" in why and "limit" in why:
            why = "a number too large to convert to text"
        return {"verdict": "unknown", "value": "", "col": None,
                "detail": f"SymPy could not decide this claim ({why})"[:500]}
