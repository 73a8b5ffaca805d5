"""Prose numbers are read exactly, with the unit of their last stated digit."""

from fractions import Fraction

import pytest

from ffnverify.scan.numbers import literal, normalise, tokens


def nums(text):
    return [t for t in tokens(normalise(text)) if t.kind == "NUM"]


@pytest.mark.parametrize("text,value,unit", [
    ("11,008", 11008, 1), ("11 008", 11008, 1), ("11\u202f008", 11008, 1),
    ("134,217,728", 134217728, 1), ("10,922.67", Fraction(1092267, 100), Fraction(1, 100)),
    ("2.67", Fraction(267, 100), Fraction(1, 100)), ("6.7B", 6_700_000_000, 10**8),
    ("704.7M", 704_700_000, 10**5), ("70 billion", 70 * 10**9, 10**9),
    ("14 GB", 14 * 10**9, 10**9), ("13.5 GiB", Fraction(27, 2) * 2**30, Fraction(2**30, 10)),
    ("33%", Fraction(33, 100), Fraction(1, 100)), ("2⅔", Fraction(8, 3), 0),
    ("4096²", 4096**2, 0), ("6.7 × 10⁹", 6_700_000_000, 10**8), ("6.7e9", 6_700_000_000, 10**8),
    ("6.7·10^9", 6_700_000_000, 10**8), (r"2{,}67", Fraction(267, 100), Fraction(1, 100)),
])
def test_numbers(text, value, unit):
    (t,) = nums(text)
    assert t.value == value
    assert t.unit == unit


def test_latex_and_ratio_and_range():
    toks = tokens(normalise(r"$\tfrac{8}{3}\cdot 4096 = 10922$, a 4× expansion, 1-2% better"))
    kinds = [(t.kind, t.text) for t in toks]
    assert ("OP", "/") in kinds and ("OP", "×") in kinds
    four = next(t for t in toks if t.kind == "NUM" and t.value == 4)
    assert four.ratio
    assert any(t.kind == "RANGE" for t in toks)


def test_names_and_tilde():
    toks = tokens("L08 and W1 are names; ~69.5B is approximate")
    assert [t.text for t in toks if t.kind == "NUM"] == ["69.5B"]
    assert next(t for t in toks if t.kind == "NUM").tilde


def test_a_version_inside_a_name_is_part_of_the_word():
    toks = tokens("Qwen1.5-MoE has 14.3B parameters; Phi3.5 and x.5 too")
    assert [t.text for t in toks if t.kind == "NUM"] == ["14.3B"]
    assert [t.text for t in toks if t.kind == "WORD"][:1] == ["Qwen1.5"]


def test_huge_inputs_are_bounded():
    assert nums("1" * 500) == []  # beyond the digit bound: not a number at all
    assert nums("10⁹⁹⁹") == [] or nums("10⁹⁹⁹")[0].value != 10**999


@pytest.mark.parametrize("x,text", [(Fraction(8, 3), "(8/3)"), (Fraction(267, 100), "2.67"),
                                    (Fraction(-1, 8), "-0.125"), (Fraction(96), "96")])
def test_literal(x, text):
    assert literal(x) == text


@pytest.mark.parametrize("text,value,scale", [
    ("14 GFLOPs", 14 * 10**9, "flops"), ("312 TFLOPS", 312 * 10**12, "flops"),
    ("8.4e22 FLOPs", 84 * 10**21, "flops"), ("2 petaFLOP/s", 2 * 10**15, "flops"),
    ("6 FLOP", 6, "flops"), ("7 x 10^22", 7 * 10**22, ""),
])
def test_flop_units_and_x_as_times(text, value, scale):
    (t,) = nums(text)
    assert (t.value, t.scale) == (value, scale)


def test_a_currency_sign_stays_and_math_dollars_go():
    toks = tokens(normalise("$2 per GPU-hour → $3M, and $d = 4096$ in math"))
    money = [(t.value, t.money) for t in toks if t.kind == "NUM"]
    assert money == [(2, True), (3 * 10**6, True), (4096, False)]
    assert normalise("$4096 \\times 3 = 12288$").count("$") == 0
