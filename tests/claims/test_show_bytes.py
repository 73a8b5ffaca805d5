"""Byte counts in verdict text: the exact integer, and a binary-prefixed form beside it,
exact where it is (`512 MiB`, `1.25 GiB`) and marked ≈ where rounded; only where a side of
the comparison is a byte-valued function (signatures.BYTE_VALUED)."""

import pytest
import sympy as sp

from ffnverify.claims import evaluate, show
from ffnverify.claims.signatures import BYTE_VALUED, SIGNATURES


@pytest.mark.parametrize(("value", "text"), [
    (536870912, "512 MiB"), (2**30, "1 GiB"), (1342177280, "1.25 GiB"), (1024, "1 KiB"),
    (1536, "1.5 KiB"), (10**9, "1 GB"), (32768000000, "32.768 GB"),
    (2526451712, "≈ 2.35 GiB"), (13476831232, "≈ 12.6 GiB"), (2**60, "1 EiB"),
    (2**70, "1024 EiB"), (1023, None), (2, None), (sp.Rational(3, 2) * 2**30, "1.5 GiB"),
    (sp.Rational(2**31, 3), "≈ 683 MiB"), (-(2**20), "-1 MiB"),
])
def test_human_bytes(value, text):
    assert show.human_bytes(sp.sympify(value)) == text


def test_an_exact_form_is_exact_and_a_rounded_one_is_marked():
    for v in (536870912, 1342177280, 2526451712, 1300000000, 2**40 + 1, 3 * 2**29):
        text = show.human_bytes(sp.Integer(v))
        number, unit = text.removeprefix("≈ ").split()
        scales = {u: 1024 ** (i + 1) for i, u in enumerate(show.BINARY_UNITS)} | {
            u: 1000 ** (i + 1) for i, u in enumerate(show.DECIMAL_UNITS)}
        scale = scales[unit]
        assert (sp.Rational(number) * scale == v) == (not text.startswith("≈")), text


def test_byte_valued_functions_are_known_functions():
    assert BYTE_VALUED <= set(SIGNATURES)


def value(claim):
    return evaluate.evaluate_claim(claim)["value"]


def test_a_byte_comparison_shows_both_sides_with_units():
    assert value("kv_cache_bytes(llama-2-7b, 2048) == 1073741824") == (
        "1073741824 (1 GiB) vs 1073741824 (1 GiB)")
    assert value("kv_cache_bytes(llama-2-7b, 1024) == 2**30") == (
        "536870912 (512 MiB) vs 1073741824 (1 GiB)")
    assert value("weight_bytes(llama-2-7b) > 10**9") == (
        "13476831232 (≈ 12.6 GiB) vs 1000000000 (1 GB)")
    assert value("2**30 == kv_cache_bytes(llama-2-7b, 2048)").endswith("(1 GiB)")


def test_approx_of_a_byte_count_shows_the_sizes_too():
    """The scan checks byte figures with approx: its verdicts name the sizes as well."""
    assert value("approx(kv_cache_bytes(llama-2-70b, 4096, dtype=fp16), 2500000000, "
                 "abs=50000000)") == ("1342177280 (1.25 GiB) vs 2500000000 (2.5 GB) "
                                      "± 50000000 (50 MB)")
    assert value("approx(b=2**30, a=kv_cache_bytes(llama-2-7b, 1024), rel=0.01)").startswith(
        "536870912 (512 MiB) vs 1073741824 (1 GiB) ± ")
    assert value("approx(params(relu, 4096, 16384), 134217728, rel=0.01)").startswith(
        "134217728 vs 134217728 ± ")


def test_other_comparisons_show_plain_values():
    assert value("params(relu, 4096, 16384) == 134217728") == "134217728 vs 134217728"
    assert value("kv_cache_bytes(llama-2-7b, 2048) / 2**30 == 1") == "1 vs 1"
    assert value("bytes(bf16) == 2") == "2 vs 2"
