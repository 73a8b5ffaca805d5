"""Certified signs of closed real expressions, and certified truth of closed formulas.

Soundness contract:

- `sign(e)` returns +1 only if e > 0 and -1 only if e < 0, each shown by an interval that
  encloses the exact value and excludes zero; it returns 0 only if e == 0 is shown by
  exact algebra (SymPy's expand / cancel / simplify of the exact expression); otherwise
  None. It never rests on a float: every value is an mpmath `iv` interval with outward
  rounding (exp, log, sqrt, +, -, *, /, integer powers are rigorous in mpmath's interval
  context), and the few functions mpmath has no rigorous interval version of (tanh, erf)
  are bounded here from monotonicity and series with explicit remainder bounds. The
  precision is raised from 64 to 16,384 bits until the interval excludes zero, also when
  a root, log or step meets an argument that straddles 0 (sqrt of a tiny positive value
  is decided at the precision that separates it from 0); an interval that never does
  means `None` unless exact algebra proves zero.
- `truth(f)` returns True / False for a formula without free symbols only when every
  sign it rests on is certified as above; `None` (unknown) otherwise. Unknown parts
  propagate by three-valued (Kleene) logic: `not unknown` is unknown, `x and unknown` is
  False only if x is False, `x or unknown` is True only if x is True.

A value that is certainly not real (sqrt or log of a negative number) or undefined
(nan, complex infinity) raises ClaimError; one that merely cannot be bounded gives None.
"""

from functools import lru_cache

import mpmath
import sympy as sp
from mpmath import iv

from ffnverify.claims.errors import ClaimError
from ffnverify.claims.nonsmooth import PIECEWISE

PRECISIONS = (64, 256, 1024, 4096, 16384)
MAX_EXP_ARG = 2**20  # exp(x) with x beyond this, and powers past 2**(2**20), are not bounded


class _Unbounded(Exception):
    """The expression has a part this module cannot enclose in an interval."""


class _NotReal(Exception):
    pass


class _Imprecise(_Unbounded):
    """The interval straddles a point where a function is undefined or has a kink (a root
    or log of an argument near 0, a step near its jump): a higher precision may decide."""


def _lo(x):
    return mpmath.mp.make_mpf(x._mpi_[0])


def _hi(x):
    return mpmath.mp.make_mpf(x._mpi_[1])


def _hull(*xs):
    return iv.mpf([min(_lo(x) for x in xs), max(_hi(x) for x in xs)])


def _pos(x):
    return _lo(x) > 0


def _neg(x):
    return _hi(x) < 0


def _point_tanh(a):
    """tanh(a) for an exact binary a, as an interval (tanh = 1 - 2/(exp(2a) + 1))."""
    if a < 0:
        return -_point_tanh(-a)
    return 1 - 2 / (iv.exp(2 * iv.mpf(a)) + 1)


def _tanh(x):
    lo, hi = _point_tanh(_lo(x)), _point_tanh(_hi(x))  # tanh is increasing
    return iv.mpf([_lo(lo), _hi(hi)])


def _point_erf(a, prec):
    """erf(a) for an exact binary a >= 0, as an interval.

    Small a: erf(a) = 2/sqrt(pi) exp(-a^2) sum_n 2^n a^(2n+1) / (1*3*...*(2n+1)), a series of
    positive terms whose ratio 2a^2/(2n+3) falls below 1/2, after which the remainder is at
    most the last term (geometric bound). Large a (a^2 > prec): the classical bounds
    e^{-a^2}/(a sqrt(pi)) (1 - 1/(2a^2)) < erfc(a) < e^{-a^2}/(a sqrt(pi)).
    """
    if a == 0:
        return iv.mpf(0)
    x = iv.mpf(a)
    if a * a > prec:
        top = iv.exp(-x * x) / (x * iv.sqrt(iv.pi))
        low = top * (1 - 1 / (2 * x * x))
        return iv.mpf([_lo(1 - top), _hi(1 - low)])
    term = x
    total = x
    n = 0
    two_x2 = 2 * x * x
    while True:
        term = term * two_x2 / (2 * n + 3)
        total = total + term
        n += 1
        ratio = two_x2 / (2 * n + 3)
        if _hi(ratio) <= 0.5 and _hi(term) < mpmath.ldexp(_lo(total), -prec - 10):
            break
        if n > 20 * prec:
            raise _Unbounded
    total = total + iv.mpf([0, _hi(term)])  # remainder <= term * r/(1-r) <= term
    return 2 / iv.sqrt(iv.pi) * iv.exp(-x * x) * total


def _erf_at(a, prec):
    return -_point_erf(-a, prec) if a < 0 else _point_erf(a, prec)


def _erf(x, prec):
    lo, hi = _erf_at(_lo(x), prec), _erf_at(_hi(x), prec)  # erf is increasing
    return iv.mpf([_lo(lo), _hi(hi)])


def _step(u, at_zero):
    """Heaviside(u) with H(0) = at_zero (an interval, or None when undefined there)."""
    if _pos(u):
        return iv.mpf(1)
    if _neg(u):
        return iv.mpf(0)
    if at_zero is None:
        raise _Imprecise
    return _hull(iv.mpf(0), iv.mpf(1), at_zero)


def _floor(x):
    # prec=0: the exact integer (mpmath rounds it to mp.prec, 53 bits, otherwise)
    return iv.mpf([mpmath.floor(_lo(x), prec=0), mpmath.floor(_hi(x), prec=0)])


def _ceiling(x):
    return iv.mpf([mpmath.ceil(_lo(x), prec=0), mpmath.ceil(_hi(x), prec=0)])


def _scale(x) -> int:
    """max |binary exponent| of the interval's ends (0 for zero)."""
    return max((abs(int(mpmath.mag(v))) for v in (_lo(x), _hi(x)) if v != 0 and
                mpmath.isfinite(v)), default=0)


def _power(base, e, prec):
    if e.is_Integer:
        n = int(e)
        if n < 0 and not (_pos(base) or _neg(base)):
            raise _Imprecise  # the base may be zero
        if abs(n) > 10**6 or abs(n) * _scale(base) > MAX_EXP_ARG:
            raise _Unbounded
        return base**n
    if e.is_Rational:
        if _neg(base):
            raise _NotReal  # SymPy's principal root of a negative number is not real
        if not _lo(base) >= 0:
            raise _Imprecise
        p, q = int(e.p), int(e.q)
        if q == 2:
            root = iv.sqrt(base)
        elif _pos(base):
            root = iv.exp(iv.log(base) / q)
        else:
            raise _Imprecise
        if abs(p) * _scale(root) > MAX_EXP_ARG:
            raise _Unbounded
        if p < 0 and not _pos(root):
            raise _Imprecise
        return root**p
    ex = enclose(e, prec)
    if not _pos(base):
        raise _Imprecise
    arg = ex * iv.log(base)
    if _hi(arg) > MAX_EXP_ARG:
        raise _Unbounded
    return iv.exp(arg)


def enclose(e, prec):
    """An mpmath interval that contains the exact real value of `e` (no free symbols)."""
    if e.is_Float:
        e = sp.Rational(e)  # a Float is an exact binary number (iv.mpf refuses its _mpf_)
    if e.is_Rational:
        return iv.mpf(int(e.p)) / int(e.q) if e.q != 1 else iv.mpf(int(e.p))
    if e is sp.pi:
        return iv.pi
    if e is sp.E:
        return iv.e
    if e.is_Add:
        out = iv.mpf(0)
        for a in e.args:
            out = out + enclose(a, prec)
        return out
    if e.is_Mul:
        out = iv.mpf(1)
        for a in e.args:
            out = out * enclose(a, prec)
        return out
    if e.is_Pow:
        return _power(enclose(e.base, prec), e.exp, prec)
    if not isinstance(e, sp.Function | sp.Max | sp.Min):  # Max, Min: not Function subclasses
        raise _Unbounded
    if isinstance(e, sp.Heaviside):
        at_zero = None
        if len(e.args) > 1 and e.args[1].is_Rational:
            at_zero = enclose(e.args[1], prec)
        return _step(enclose(e.args[0], prec), at_zero)
    args = [enclose(a, prec) for a in e.args]
    if isinstance(e, sp.exp):
        if _hi(args[0]) > MAX_EXP_ARG:
            raise _Unbounded  # a value past e**(2**20) is not bounded here
        return iv.exp(args[0])
    if isinstance(e, sp.log) and len(args) == 1:
        if _pos(args[0]):
            return iv.log(args[0])
        if _hi(args[0]) <= 0:
            raise _NotReal
        raise _Imprecise
    if isinstance(e, sp.tanh):
        return _tanh(args[0])
    if isinstance(e, sp.erf):
        return _erf(args[0], prec)
    if isinstance(e, sp.Abs):
        x = args[0]
        if _lo(x) >= 0:
            return x
        if _hi(x) <= 0:
            return -x
        return iv.mpf([0, max(-_lo(x), _hi(x))])
    if isinstance(e, sp.Mod):  # a - b*floor(a/b), SymPy's sign convention (that of b)
        a, b = args
        if not (_pos(b) or _neg(b)):
            raise _Imprecise
        return a - b * _floor(a / b)
    if isinstance(e, sp.floor):
        return _floor(args[0])
    if isinstance(e, sp.ceiling):
        return _ceiling(args[0])
    if isinstance(e, sp.Max):
        return iv.mpf([max(_lo(a) for a in args), max(_hi(a) for a in args)])
    if isinstance(e, sp.Min):
        return iv.mpf([min(_lo(a) for a in args), min(_hi(a) for a in args)])
    if isinstance(e, sp.sign):
        x = args[0]
        if _pos(x):
            return iv.mpf(1)
        if _neg(x):
            return iv.mpf(-1)
        return iv.mpf([-1, 1])
    raise _Unbounded


def undefined(e) -> bool:
    """nan or complex infinity anywhere, except as the undefined value at the kink of a
    derivative's step, Heaviside(u, nan), which is undefined only where u = 0."""
    if not isinstance(e, sp.Basic) or not e.has(sp.nan, sp.zoo):
        return False
    if e.has(sp.zoo):
        return True
    steps = {h: sp.Heaviside(h.args[0]) for h in e.atoms(sp.Heaviside)}
    return e.xreplace(steps).has(sp.nan)


class workprec:
    """iv.prec set for a block (mpmath's iv context has no workprec of its own)."""

    def __init__(self, prec):
        self.prec = prec

    def __enter__(self):
        self.saved = iv.prec
        iv.prec = self.prec

    def __exit__(self, *exc):
        iv.prec = self.saved


def check_real(e):
    """Raise ClaimError if `e` is certainly undefined or not a real number."""
    if undefined(e):
        raise ClaimError(f"the value is undefined ({_short(e)})")
    if e.has(sp.I) or (e.free_symbols and e.is_extended_real is False):
        # for a closed e, SymPy's is_extended_real asks evalf (sqrt of a tiny positive
        # number came out not real): enclose() certifies a negative root's argument instead
        raise ClaimError(f"the value is not a real number ({_short(e)})")


def _short(e):
    try:
        text = str(e)
    except ValueError:
        return "an expression with very large numbers"
    return text if len(text) <= 200 else text[:200] + "…"


def exact_zero(e) -> bool:
    """e == 0 shown by exact algebra (never numerically)."""
    try:
        if sp.expand(e) == 0 or sp.cancel(sp.together(e)) == 0:
            return True
        return sp.simplify(e.rewrite(sp.exp)) == 0
    except (TypeError, ValueError, NotImplementedError, AttributeError,
            sp.PolynomialError):
        return False


@lru_cache(maxsize=8192)
def _sign_cached(e, try_zero):
    for prec in PRECISIONS:
        try:
            with workprec(prec):
                x = enclose(e, prec)
        except _Imprecise:
            continue  # a root, log or step whose argument is near 0: more bits
        except _Unbounded:
            break
        except _NotReal:
            raise ClaimError(f"the value is not a real number ({_short(e)})") from None
        except (ZeroDivisionError, OverflowError, ValueError, mpmath.libmp.ComplexResult):
            break
        if _pos(x):
            return 1
        if _neg(x):
            return -1
        if _lo(x) == 0 and _hi(x) == 0:
            return 0  # an enclosure of width zero: the exact value is 0
    if try_zero and exact_zero(e):
        return 0
    return None


def resolve(e):
    """e with each closed min / max / abs / floor / ceiling / step replaced by the exact
    value it selects, chosen by certified signs (left as it is where they cannot be
    certified). Then exact algebra can cancel what an interval hull cannot:
    max(a, b) - b with a < b is b - b."""
    if not e.has(*PIECEWISE):
        return e
    args = [resolve(a) for a in e.args] if e.args else []
    if args and any(a is not b for a, b in zip(args, e.args)):
        e = e.func(*args)
    if e.free_symbols or not isinstance(e, PIECEWISE):
        return e
    try:
        if isinstance(e, sp.Max | sp.Min):
            want = 1 if isinstance(e, sp.Max) else -1
            for a in e.args:
                if all(a is b or sign(a - b, False) in (want, 0) for b in e.args):
                    return a
        elif isinstance(e, sp.Abs):
            s = sign(e.args[0], False)
            if s is not None:
                return e.args[0] if s >= 0 else -e.args[0]
        elif isinstance(e, sp.floor | sp.ceiling):
            with workprec(PRECISIONS[-1]):
                x = enclose(e, PRECISIONS[-1])
            if _lo(x) == _hi(x):
                return sp.Integer(int(_lo(x)))
        elif isinstance(e, sp.Mod):  # a - b*q, with q = floor(a/b) when it is decided
            a, b = e.args
            with workprec(PRECISIONS[-1]):
                q = _floor(enclose(a / b, PRECISIONS[-1]))
            if _lo(q) == _hi(q):
                return a - b * sp.Integer(int(_lo(q)))
        else:
            s = sign(e.args[0], False)
            if s is not None and s != 0:
                return sp.Integer(1 if s > 0 else (0 if isinstance(e, sp.Heaviside) else -1))
    except (ClaimError, _Unbounded, _NotReal, ArithmeticError, ValueError):
        pass
    return e


def sign(e, try_zero: bool = True) -> int | None:
    """+1, -1 or 0, certified; None when it cannot be certified. `e` has no free symbols.
    With try_zero=False (the fast mode of the counterexample search) exact algebra is not
    tried, so a zero difference gives None."""
    if not isinstance(e, sp.Basic):
        e = sp.Integer(e) if isinstance(e, int) else sp.Rational(e)
    check_real(e)
    if e.is_Rational:
        return int(sp.sign(e))
    if e is sp.oo:
        return 1
    if e is sp.S.NegativeInfinity:
        return -1
    if e.free_symbols:
        return None
    if e.has(*PIECEWISE):
        e = resolve(e)
        if e.is_Rational:
            return int(sp.sign(e))
    return _sign_cached(e, try_zero)


def _infinite(e) -> bool:
    return isinstance(e, sp.Basic) and e in (sp.oo, sp.S.NegativeInfinity)


def _compare_infinite(op, lhs, rhs, tol):
    """A relation where a side is ±oo: compared as extended reals (no oo - oo)."""
    def rank(v):
        if v is sp.oo:
            return 1
        if v is sp.S.NegativeInfinity:
            return -1
        check_real(v)
        return 0
    a, b = rank(lhs), rank(rhs)
    if op == "≈":
        return a == b
    s = (a > b) - (a < b)
    return _OPS[op](s)


_OPS = {"==": lambda s: s == 0, "!=": lambda s: s != 0, "<": lambda s: s < 0,
        "<=": lambda s: s <= 0, ">": lambda s: s > 0, ">=": lambda s: s >= 0}


def truth(f, try_zero: bool = True) -> bool | None:
    """The certified truth value of a formula without free symbols (Rel / Logic / Const
    from `build`), or None when it cannot be certified."""
    kind = type(f).__name__
    if kind == "Const":
        return f.value
    if kind == "Logic":
        values = [truth(p, try_zero) for p in f.parts]
        if f.op == "not":
            return None if values[0] is None else not values[0]
        if f.op == "and":
            if any(v is False for v in values):
                return False
            return None if any(v is None for v in values) else True
        if any(v is True for v in values):
            return True
        return None if any(v is None for v in values) else False
    if _infinite(f.lhs) or _infinite(f.rhs):
        return _compare_infinite(f.op, f.lhs, f.rhs, f.tol)
    check_real(f.lhs)
    check_real(f.rhs)
    diff = f.lhs - f.rhs
    if f.op == "≈":  # |diff| <= tol, without building Abs (SymPy would evalf it)
        s = sign(diff, try_zero)
        if s is None:
            return None
        s = sign(f.tol - diff if s >= 0 else f.tol + diff, try_zero)
        return None if s is None else s >= 0
    s = sign(diff, try_zero)
    return None if s is None else _OPS[f.op](s)
