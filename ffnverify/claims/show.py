"""Short, exact renderings of claim values for verdict details (display only: nothing here
takes part in a decision).

A rational is shown exactly (and as a decimal); an integer past ~160 bits is abbreviated
with its digit count, so no number ever reaches Python's 4,300-digit `str` limit; an
irrational number gets an approximate decimal in parentheses, marked `≈`. A byte count
gets a binary-prefixed form beside it (`536870912 (512 MiB)`), exact where it is, else
rounded and marked `≈`.
"""

import mpmath
import sympy as sp

MAX_TEXT = 300


def bits(q) -> int:
    q = sp.Rational(q)
    return max(int(q.p).bit_length(), int(q.q).bit_length())


def _abbreviate_integers(v):
    """v with every integer past 160 bits replaced by a short stand-in symbol."""
    big = [a for a in v.atoms(sp.Rational) if bits(a) > 160]
    if not big:
        return v
    return v.xreplace({a: sp.Symbol(f"<{int(bits(a) * 0.30103):,}-digit number>")
                       for a in big})


def approx(v, digits=8) -> str | None:
    """A decimal for a closed real number, from a certified enclosure (so it is never a
    float's wrong sign), or None when the enclosure is not tight enough to show one."""
    from ffnverify.claims import certify

    for prec in (128, 1024):
        try:
            with certify.workprec(prec):
                x = certify.enclose(v, prec)
        except Exception:  # display only
            return None
        lo, hi = certify._lo(x), certify._hi(x)
        if lo == hi or (lo * hi > 0 and abs(hi - lo) <= abs(lo) * mpmath.mpf(10) ** -(digits + 2)):
            return mpmath.nstr((lo + hi) / 2, digits)
        if lo <= 0 <= hi and hi - lo < mpmath.mpf(10) ** -(digits + 20):
            return f"0 within ±{mpmath.nstr(hi - lo, 2)}"
    return None


def fmt(v) -> str:
    """A short exact rendering; rationals also as a decimal; huge integers abbreviated."""
    if isinstance(v, bool) or v is None:
        return str(v).lower()
    if isinstance(v, sp.Rational):
        if bits(v) > 160:
            shown = mpmath.nstr(mpmath.mpf(int(v.p)) / int(v.q), 6)
            return f"{shown} (exact value has about {int(bits(v) * 0.30103):,} digits)"
        if v.is_Integer:
            return str(v)
        return f"{v} ({float(v):.6g})"
    if isinstance(v, sp.Basic):
        try:
            text = str(_abbreviate_integers(v))
        except (ValueError, RecursionError):
            return "(an expression holding very large numbers)"
        if len(text) > MAX_TEXT:
            text = text[:MAX_TEXT] + "…"
        if v.is_number and not v.free_symbols and not v.is_Rational and v.is_finite:
            shown = approx(v)
            if shown is not None:
                text += f" (≈ {shown})"
        return text
    return str(v)


BINARY_UNITS = ("KiB", "MiB", "GiB", "TiB", "PiB", "EiB")
DECIMAL_UNITS = ("kB", "MB", "GB", "TB", "PB", "EB")


def _exact_decimal(q) -> str | None:
    """q as a decimal of at most three places when that is exactly q, else None."""
    scaled = q * 1000
    if not scaled.is_Integer:
        return None
    whole, frac = divmod(abs(int(scaled)), 1000)
    text = f"{whole}" + (f".{frac:03d}".rstrip("0") if frac else "")
    return ("-" if q < 0 else "") + text


def human_bytes(v) -> str | None:
    """A byte count in KiB … EiB: exact where a decimal of at most three places is
    (`512 MiB`, `1.25 GiB`; else `5 GB` where only the decimal prefix is exact), otherwise
    to three significant digits marked ≈ (`≈ 2.35 GiB`); None below 1 KiB, for
    non-numbers and for huge values."""
    if not isinstance(v, sp.Rational) or bits(v) > 160 or abs(v) < 1024:
        return None
    k = min(len(BINARY_UNITS), (int(abs(v)).bit_length() - 1) // 10)
    q = v / sp.Integer(1024) ** k
    exact = _exact_decimal(q)
    if exact is not None:
        return f"{exact} {BINARY_UNITS[k - 1]}"
    j = min(len(DECIMAL_UNITS), (len(str(int(abs(v)))) - 1) // 3)
    exact = _exact_decimal(v / sp.Integer(1000) ** j) if j else None
    if exact is not None:
        return f"{exact} {DECIMAL_UNITS[j - 1]}"
    return f"≈ {float(q):.3g} {BINARY_UNITS[k - 1]}"  # display only: q < 1024 here


def with_bytes(v) -> str:
    """fmt(v), and its human_bytes form beside it where there is one."""
    shown, human = fmt(v), human_bytes(v)
    return shown if human is None else f"{shown} ({human})"
