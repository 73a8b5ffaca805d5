"""The arguments of `check_counter` read (the mapping of our symbols onto the user's
parameters, the convention, h_per_d) and the values it reports written out."""


from __future__ import annotations

import inspect
import math
from fractions import Fraction

import sympy as sp

from derivations.flops import COUNTS, PASSES
from ffnverify.testing.closed_form import (
    pretty,
)

SYMBOLS = ("d", "h", "n", "bias", "gated", "variant", "batch", "seq")


# --- arguments ------------------------------------------------------------------------------


def _convention(convention, pass_, count, input_grad):
    conv = {"pass_": "forward", "count": "matmul", "input_grad": True}
    given_conv = {}
    for key, value in (convention or {}).items():
        key = {"pass": "pass_"}.get(key, key)
        if key not in conv:
            raise ValueError(f"unknown convention {key!r}; expected pass, count or input_grad")
        given_conv[key] = value
    for key, value in (("pass_", pass_), ("count", count), ("input_grad", input_grad)):
        if value is not None:
            if key in given_conv and given_conv[key] != value:
                raise ValueError(f"{key} given twice with different values")
            given_conv[key] = value
    conv.update(given_conv)
    if conv["pass_"] not in PASSES:
        raise ValueError(f"unknown pass {conv['pass_']!r}; expected one of {', '.join(PASSES)}")
    if conv["count"] not in COUNTS:
        raise ValueError(f"unknown count {conv['count']!r}; expected one of {', '.join(COUNTS)}")
    conv["input_grad"] = bool(conv["input_grad"])
    return conv


def parse_mapping(text: str) -> dict:
    """'d=hidden,h=ffn' -> {'d': 'hidden', 'h': 'ffn'} (names only; nothing is evaluated)."""
    out = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise ValueError(f"expected NAME=VALUE, got {item!r}")
        out[key.strip()] = value.strip()
    return out


def _mapping(fn, args):
    if isinstance(args, str):
        args = parse_mapping(args)
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        sig = None
    if args is None:
        if sig is None:
            raise ValueError("cannot read your function's signature: pass args explicitly")
        args = {s: s for s in SYMBOLS if s in sig.parameters}
    args = dict(args)
    unknown = set(args) - set(SYMBOLS)
    if unknown:
        raise ValueError(f"args maps unknown symbols {sorted(unknown)}; ours are "
                         f"{', '.join(SYMBOLS)}")
    if sig is not None and not any(p.kind == p.VAR_KEYWORD for p in sig.parameters.values()):
        missing = [name for name in args.values() if name not in sig.parameters]
        if missing:
            raise ValueError(f"your function has no parameter(s) {missing}; it takes "
                             f"{', '.join(sig.parameters)}")
    return args


def _ratio(h_per_d):
    if h_per_d is None:
        return None
    if isinstance(h_per_d, float):
        h_per_d = repr(h_per_d)  # the decimal the author wrote, as in derivations.widths.exact
    if isinstance(h_per_d, sp.Basic):
        h_per_d = str(sp.Rational(h_per_d))
    r = Fraction(h_per_d)
    if r <= 0:
        raise ValueError("h_per_d must be positive")
    return r


def _arg(v):
    """Numbers go to the user's function as ints where integral, else as Fractions."""
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v)
    return v


def _describe_call(fn, mapping, fixed, ratio):
    name = getattr(fn, "__qualname__", repr(fn))
    parts = [f"{param}={sym}" for sym, param in mapping.items()]
    parts += [f"{k}={v!r}" for k, v in fixed.items()]
    text = f"{getattr(fn, '__module__', '?')}.{name}({', '.join(parts)})"
    if ratio is not None:
        text += f" with h = {ratio}·d"
    return text


def _fmt_point(p):
    keys = ["d", "h", "n", "batch", "seq", "bias"]
    return ", ".join(f"{k}={_num(p[k])}" for k in keys if k in p)


TOO_LONG = "your values are integers of more than 4,300 digits (Python's int-to-str limit)"


def _too_long(e: ValueError) -> bool:
    """Whether `e` is Python's int-to-str limit (a huge count formatted somewhere)."""
    return "digits" in str(e) and "limit" in str(e)


MAX_DIGITS_SHOWN = 120  # a longer integer is shown by its size and leading digits


def _int_text(v: int) -> str:
    """An integer as text; one too long to print (a counter that returned 10**5000) by
    its magnitude, computed from its top bits (never a str() of all its digits)."""
    bits = abs(v).bit_length()
    if bits <= MAX_DIGITS_SHOWN * 3:  # at most ~108 digits: exact
        return str(v)
    shift = bits - 64
    log10 = math.log10(abs(v) >> shift) + shift * math.log10(2)
    exponent = math.floor(log10)
    if abs(log10 - round(log10)) < 1e-9 and bits < 10**7:  # near a power of ten: exactly
        exponent = round(log10) - (abs(v) < 10 ** round(log10))
    mantissa = min(max(10 ** (log10 - exponent), 1.0), 9.999999)
    return (f"{'-' if v < 0 else ''}{mantissa:.6f}e+{exponent} "
            f"(an integer of {exponent + 1:,} digits)")


def _num(v):
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, int):
        return _int_text(v)
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return _int_text(v.numerator)
        return f"{_int_text(v.numerator)}/{_int_text(v.denominator)}"
    return _text(v)


def _text(obj) -> str:
    """str(obj) for a report, or what it is when str() itself fails (a huge SymPy number
    past Python's int-to-str limit, an object whose __str__ raises)."""
    try:
        return str(obj)
    except Exception as e:  # the user's object, or a number too long
        if "digits" in str(e):
            return f"(a {type(obj).__name__} with numbers of more than 4,300 digits)"
        return f"(a {type(obj).__name__} that cannot be shown: {type(e).__name__})"


def _pretty(expr) -> str:
    try:
        return pretty(expr)
    except ValueError as e:  # Python's int-to-str limit inside SymPy's printer
        if not _too_long(e):
            raise
        return "(a closed form with integers of more than 4,300 digits: too long to print)"


def _exception_text(error: BaseException) -> str:
    name = type(error).__name__
    if isinstance(error, SystemExit):
        return f"SystemExit({_text(error.code)}) (sys.exit; a counter returns its count)"
    if isinstance(error, KeyboardInterrupt):
        return "KeyboardInterrupt (the call was interrupted)"
    text = _text(error)
    return f"{name}: {text}" if text else name
