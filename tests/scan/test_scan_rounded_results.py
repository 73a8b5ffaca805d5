"""A scaled result after `=` states a rounded figure (docs/architecture.md §5.2: `= 67.1M` is [67.05M,
67.15M]), and `X, which is E = V rounded up to a multiple of M` binds X, never the last
operand of E. True statements come out TRUE, their mutants FALSE."""

import pytest

from ffnverify.scan.numbers import normalise, tokens
from ffnverify.scan.read import arithmetic, rounding
from ffnverify.scan.scan import scan


def _strict(text):
    parts, _ = arithmetic(tokens(normalise(text)))
    return [p.strict for p in parts]


@pytest.mark.parametrize("text, claim", [
    ("8,192 × 8,192 = 67.1M", "approx(8192 * 8192, 67100000, abs=50000)"),
    ("4096 × 11008 = 45.1M", "approx(4096 * 11008, 45100000, abs=50000)"),
    ("3 × 4096 × 11008 = 135.3M", "approx(3 * 4096 * 11008, 135300000, abs=50000)"),
    ("12 × 12288² = 1.81B", "approx(12 * (150994944), 1810000000, abs=5000000)"),
])
def test_a_scaled_result_is_read_at_its_stated_precision(text, claim):
    assert claim in _strict(text)


def test_a_plain_integer_result_stays_exact():
    assert "4096 * 11008 == 45088768" in _strict("4096 × 11008 = 45088768")


@pytest.mark.parametrize("text, want", [
    ("Its FFN width is 11008, which is 8/3 × 4096 = 10922.67 rounded up to a multiple of 256.",
     ["round_up(8 / 3 * 4096, 256) == 11008"]),
    ("11008 is 8/3·4096 rounded up to a multiple of 256.", ["round_up(8 / 3 * 4096, 256) == 11008"]),
    ("The width 14336 is 3.5 × 4096 rounded up to a multiple of 1024.",
     ["round_up(3.5 * 4096, 1024) == 14336"]),
    # the last operand of a computation is no X
    ("so 8/3 × 4096 = 10922.67 rounded up to a multiple of 256 gives the width", []),
])
def test_rounding_binds_the_number_it_names(text, want):
    assert rounding(None, normalise(text)) == want


@pytest.fixture(scope="module")
def results(tmp_path_factory, engine):
    d = tmp_path_factory.mktemp("rounded")
    (d / "a.md").write_text(
        "One layer holds 4096 × 11008 = 45.1M weights.\n\n"
        "This gives 4096 × 11008 = 45.0M weights.\n\n"
        "The attention matrix is 8,192 × 8,192 = 67.1M entries.\n\n"
        "Its FFN width is 11008, which is 8/3 × 4096 = 10922.67 rounded up to a "
        "multiple of 256.\n\n"
        "Its FFN width is 11264, which is 8/3 × 4096 = 10922.67 rounded up to a "
        "multiple of 256.\n", encoding="utf-8")
    return {r["line"]: r for r in scan([str(d)], engine)["statements"]}


def test_rounded_figures_true_and_their_mutants_false(results):
    assert (results[1]["status"], results[1]["verdict"]) == ("checked", "true")
    assert (results[3]["status"], results[3]["verdict"]) == ("checked", "false")  # 45.09M
    assert (results[5]["status"], results[5]["verdict"]) == ("checked", "true")
    assert results[7]["verdict"] == "true"
    assert results[9]["verdict"] == "false"  # 11264 is not round_up(10922.67, 256)


# ---- CHECKED FALSE on true sentences, found on the held-out half's last run ------------

@pytest.fixture(scope="module")
def heldout_lessons(tmp_path_factory, engine):
    d = tmp_path_factory.mktemp("lessons")
    (d / "a.md").write_text(
        "Total: ≈ 96 × (12 × 12,288² + 2 × 12,288 × 2,048) ≈ 96 × (1.8 × 10⁹ + 5 × 10⁷) "
        "≈ 1.8 × 10¹¹ FLOPs\n\n"
        "Time = 3×10²³ / 1.5×10¹⁷ ≈ 2×10⁶ seconds ≈ 23 days\n\n"
        "(2+4)/2==3\n(2+4)/2!=3.5\n\n"
        "BERT-base consists of 12 encoder layers, each stacked one on top of the other.\n\n"
        "BERT-base consists of 10 encoder layers, each stacked one on top of the other.\n\n"
        "Total: ≈ 96 × (12 × 12,288² + 2 × 12,288 × 2,048) ≈ 96 × (2.5 × 10⁹ + 5 × 10⁷) "
        "FLOPs\n", encoding="utf-8")
    return {r["line"]: r for r in scan([str(d)], engine)["statements"]}


def test_an_approximation_between_expressions_keeps_the_stated_precision(heldout_lessons):
    assert heldout_lessons[1]["verdict"] == "true"  # 1.8 × 10⁹ is ±0.05e9, not exact
    assert heldout_lessons[12]["verdict"] == "false"  # 2.5 × 10⁹ is not 1.81e9 at ±0.05e9


def test_a_restated_figure_in_another_unit_is_not_the_same_value(heldout_lessons):
    assert heldout_lessons[3]["verdict"] != "false"  # 2×10⁶ seconds ≈ 23 days


def test_two_expressions_side_by_side_are_no_product(heldout_lessons):
    assert heldout_lessons.get(5, {}).get("verdict") != "false"


def test_an_encoder_only_models_layers_are_its_encoder_layers(heldout_lessons):
    assert (heldout_lessons[8]["status"], heldout_lessons[8]["verdict"]) == ("checked", "true")
    assert (heldout_lessons[10]["status"], heldout_lessons[10]["verdict"]) == ("checked", "false")
