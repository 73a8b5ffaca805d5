"""Closed-form recovery: symbolic call, exact interpolation, and honest failure."""

from fractions import Fraction

import pytest
import sympy as sp

from derivations.symbols import d, h, n
from ffnverify.testing.closed_form import NotANumber, pretty, recover, to_fraction


def call_of(fn):
    return lambda v: fn(**v)


def test_plain_arithmetic_is_recovered_symbolically():
    cf = recover(call_of(lambda d, h, n: 6 * n * d * h + 2 * d), ("d", "h", "n"))
    assert cf.method == "symbolic"
    assert sp.expand(cf.expr - (6 * n * d * h + 2 * d)) == 0
    assert pretty(cf.expr) == "6·d·h·n + 2·d"


def test_function_refusing_symbols_is_interpolated_exactly():
    def counter(d, h, n):
        if not isinstance(d, int):  # refuses SymPy symbols
            raise TypeError("ints only")
        return Fraction(3, 2) * 12 * n * d * h + d * d

    cf = recover(call_of(counter), ("d", "h", "n"), degree=3)
    assert cf.method == "interpolation"
    assert sp.expand(cf.expr - (18 * n * d * h + d**2)) == 0
    assert "total degree ≤ 3" in cf.note and "confirmed on" in cf.note


def test_interpolation_states_its_degree_bound():
    def quartic(d, h):
        if not isinstance(d, int):
            raise TypeError("ints only")
        return d**4 + h

    cf = recover(call_of(quartic), ("d", "h"), degree=3)
    assert cf.expr is None
    assert "not a polynomial of total degree ≤ 3 in d, h" in cf.note
    assert recover(call_of(quartic), ("d", "h"), degree=4).expr == d**4 + h


def test_truncation_is_not_passed_off_as_a_polynomial():
    cf = recover(call_of(lambda d: 3 * d * int(8 * d / 3)), ("d",))
    assert cf.expr is None and "not a polynomial" in cf.note


def test_symbolic_result_that_disagrees_with_numeric_calls_is_rejected():
    def branchy(d, h):
        if isinstance(d, sp.Basic):
            return 2 * d * h  # what it claims symbolically
        return 3 * d * h  # what it computes

    cf = recover(call_of(branchy), ("d", "h"))
    assert cf.method == "interpolation" and cf.expr == 3 * d * h


def test_float_coefficients_are_flagged_and_read_as_simple_fractions():
    cf = recover(call_of(lambda d: (8 / 3) * d * 3.0), ("d",),
                 tolerance=lambda exact: 16 * abs(exact) / 2**53)
    assert cf.floating and cf.expr == 8 * d


@pytest.mark.parametrize("value, exact", [
    (7, Fraction(7)), (0.1, Fraction(3602879701896397, 2**55)), (sp.Rational(8, 3), Fraction(8, 3)),
    (Fraction(5, 2), Fraction(5, 2)),
])
def test_to_fraction_is_exact(value, exact):
    assert to_fraction(value) == exact


@pytest.mark.parametrize("bad", [True, "12", None, float("nan"), d])
def test_to_fraction_rejects_non_numbers(bad):
    with pytest.raises(NotANumber):
        to_fraction(bad)
