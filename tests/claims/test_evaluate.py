"""Exact evaluation: the seeds' claims, identities and inequalities with free symbols,
the stated-digits rule of ≈, approx, assume, and the deliberately wrong claims (mutants)
that must come out false."""

import pytest
from helpers import verdict

from ffnverify.claims.evaluate import evaluate_claim

# ---- the seeds (/work/shared/seeds): facts checked exactly ------------------------------

@pytest.mark.parametrize("claim, expected", [
    # "SwiGLU at 8/3 width cuts parameters by 33%": both are 8 d^2
    ("1 - params(swiglu, d, 8/3*d) / params(relu, d, 4*d) ≈ 33%", "false"),
    ("params(swiglu, d, 8/3*d) == 8*d**2 and params(relu, d, 4*d) == 8*d**2", "true"),
    # "~1.5x compute": only at equal width
    ("flops(swiglu, d, h) / flops(relu, d, h) ≈ 1.5", "true"),
    ("flops(swiglu, d, 8/3*d) / flops(relu, d, 4*d) ≈ 1.5", "false"),
    # "8/3·4096 = 10922"
    ("8/3*4096 == 10922", "false"),
    ("8/3*4096 ≈ 10922.67", "true"),
    ("floor(8/3*4096) == 10922", "true"),
    # "11008 is 8/3·4096 rounded up to a multiple of 256"
    ("round_up(8/3*4096, 256) == 11008", "true"),
    ("width(llama, 4096) == 11008", "true"),
    # the printed counts of the Swedish notes
    ("params(gelu, 4096, 16384) == 134_217_728", "true"),
    ("params(swiglu, 4096, 11008) == 135_266_304", "true"),
    # seed 000: d = 4, d_ff = 8
    ("params(relu, 4, 8, bias=true) == 76", "true"),
    ("params(swiglu, 4, 8) == 96", "true"),
])
def test_seed_claims(claim, expected):
    assert verdict(claim) == expected


def test_false_carries_the_exact_value():
    r = evaluate_claim("8/3*4096 == 10922")
    assert r["value"].startswith("32768/3") and "vs 10922" in r["value"]
    assert "2/3" in r["detail"]
    r = evaluate_claim("1 - params(swiglu, d, 8/3*d) / params(relu, d, 4*d) ≈ 33%")
    assert r["value"].startswith("0 vs 33/100") and "± 1/200" in r["value"]


def test_symbolic_false_carries_a_counterexample():
    r = evaluate_claim("params(swiglu, d, h) == 2*d*h")
    assert r["verdict"] == "false"
    assert r["value"] == "3*d*h vs 2*d*h"
    assert "counterexample d=1, h=1: 3 vs 2" in r["detail"]


# ---- the stated-digits rule -----------------------------------------------------------

@pytest.mark.parametrize("claim, expected", [
    ("0.325 ≈ 33%", "true"), ("0.335 ≈ 33%", "true"),
    ("0.3249 ≈ 33%", "false"), ("0.3351 ≈ 33%", "false"),
    ("2.65 ≈ 2.7", "true"), ("2.6499 ≈ 2.7", "false"), ("2.75 ≈ 2.7", "true"),
    ("10922.5 ≈ 10922", "true"), ("10922.51 ≈ 10922", "false"),
    ("32768/3 ≈ 10922.67", "true"), ("32768/3 ≈ 10922.7", "true"),
    ("32768/3 ≈ 10922.66", "false"),
    ("1600 ≈ 2e3", "true"), ("1600 ≈ 2.0e3", "false"),
    ("-2.66 ~= -2.7", "true"),
])
def test_approx_uses_half_a_unit_in_the_last_stated_digit(claim, expected):
    assert verdict(claim) == expected


def test_approx_function_and_missing_literal():
    assert verdict("approx(1000, 1009, rel=1%)") == "true"
    assert verdict("approx(1000, 1011, rel=1%)") == "false"
    assert verdict("approx(gelu(1), 0.8413, abs=0.0001)") == "true"
    assert verdict("approx(2, 3)") == "error"
    r = evaluate_claim("params(relu, d, h) ≈ params(gelu, d, h)")
    assert r["verdict"] == "error" and "number literal" in r["detail"]


# ---- identities and inequalities ------------------------------------------------------

@pytest.mark.parametrize("claim, expected", [
    ("match_width(relu, 4*d, swiglu, d) == 8/3*d", "true"),
    ("flops(swiglu, d, h, n, pass=train) == 3*flops(swiglu, d, h, n)", "true"),
    ("diff(silu(z), z) == sigmoid(z)*(1 + z*(1 - sigmoid(z)))", "true"),
    ("diff(silu(z), z) == sigmoid(z) + z*sigmoid(z)", "false"),
    ("tanh(z) == 2*sigmoid(2*z) - 1", "true"),
    ("sigmoid(z) > 0 and sigmoid(z) < 1", "true"),
    ("params(swiglu, d, h) > params(relu, d, h)", "true"),
    ("d**2 >= d", "true"),
    ("d**2 > 2*d", "false"),
    ("floor(8*d/3) > 8*d/3 - 1", "true"),
    ("round_up(8/3*d, 256) - 8/3*d < 256", "true"),
    ("silu(z) >= 0", "false"),
    ("d - 1 >= 0 or d < 0", "true"),
    ("not params(relu, d, h) == params(swiglu, d, h)", "true"),
])
def test_symbolic_claims(claim, expected):
    assert verdict(claim) == expected


def test_dimension_symbols_are_positive_integers_and_activation_arguments_real():
    assert verdict("d >= 1") == "true"  # d ranges over 1, 2, 3, ...
    assert verdict("z >= 1") == "false"  # z is real
    assert verdict("floor(d) == d") == "true"
    assert verdict("floor(x) == x") == "false"


def test_undecided_is_unknown_never_true():
    r = evaluate_claim("silu(z) >= -0.28")
    assert r["verdict"] == "unknown"
    assert "no counterexample" in r["detail"]


def test_assume_restricts_the_symbols():
    assert verdict("d**2 >= 2*d") == "false"
    assert verdict("d**2 >= 2*d", "d >= 2") == "true"
    assert verdict("d**2 > 3*d", "d >= 4") == "true"
    assert verdict("d**2 > 3*d", "d >= 2") == "false"  # d = 2, 3 are counterexamples
    assert verdict("h > d", "h >= 2*d") in ("true", "unknown")  # never false
    assert evaluate_claim("d > 0", ["d >>= 2"])["verdict"] == "error"


def test_relu_derivative_at_zero_follows_the_frameworks():
    assert verdict("subs(diff(relu(z), z), z, 0) == 0") == "true"


# ---- errors ---------------------------------------------------------------------------

@pytest.mark.parametrize("claim, fragment", [
    ("params(relu, d)", "needs its argument 'h'"),
    ("params(nope, d, h) == 1", "unknown FFN variant"),
    ("flops(relu, d, h, pass=sideways) == 1", "unknown pass"),
    ("params(relu, d, h, biass=true) == 1", "no argument 'biass'"),
    ("foo(1) == 2", "unknown function"),
    ("d_model(gpt-7) == 1", "unknown model"),
    ("width(llama, z) == 1", "positive integer"),
    ("1/0 == 1", "division by zero"),
    ("params(relu, d, h)", "must be a comparison"),
    ("diff(z**2, 2) == 1", "bare symbol"),
    ("10**10**10 > 1", "power too large"),
    ("((9**9)**9999)**9999 > 1", "power too large"),
    ("d**100000 > 1", "not a plain number"),
])
def test_errors(claim, fragment):
    r = evaluate_claim(claim)
    assert r["verdict"] == "error", r
    assert fragment in r["detail"], r


def test_error_column_points_into_the_claim():
    r = evaluate_claim("1 + foo(2) == 3")
    assert (r["verdict"], r["col"]) == ("error", 5)


# ---- mutants: wrong versions of true facts must all be false ---------------------------

MUTANTS = [
    "params(swiglu, d, h) == 2*d*h",  # gated counted as two matrices
    "params(relu, d, h, bias=true) == 2*d*h + 2*h",  # down bias counted as h
    "params(swiglu, d, h, bias=true) == 3*d*h + 3*h",
    "flops(relu, d, h, n) == 2*n*d*h",  # MACs reported as FLOPs
    "flops(swiglu, d, h, n, pass=backward) == flops(swiglu, d, h, n)",
    "flops(relu, d, h, n, pass=backward, input_grad=false) == 8*n*d*h",
    "match_width(relu, 4*d, swiglu, d) == 3*d",
    "width(llama, 4096) == 10922",
    "width(llama, 4096, multiple_of=1024, multiplier=1.3) == 14080",
    "diff(sigmoid(z), z) == sigmoid(z)**2",
    "diff(tanh(z), z) == 1 - tanh(z)",
    "memory(swiglu, d, h, n) == n*d + 3*n*h",
    "gelu(1) ≈ 0.8412",
    "matmuls(bilinear) == 2",
]


@pytest.mark.parametrize("claim", MUTANTS)
def test_mutants_are_caught(claim):
    assert verdict(claim) == "false"


@pytest.mark.parametrize("claim, token", [
    ("params(swiglu, d, h, bias=maybe) == 1", "bias=maybe"),
    ("flops(swiglu, d, h, pass=sideways) == 1", "pass=sideways"),
    ("params(swigle, d, h) == 1", "swigle"),
    ("flops(swiglu, d, h, 1, sideways) == 1", "sideways"),
])
def test_an_argument_error_points_at_its_argument(claim, token):
    r = evaluate_claim(claim)
    assert r["verdict"] == "error"
    assert r["col"] == claim.index(token) + 1, r
