"""Deliberately wrong counters: each must be caught, and named by the right explanation."""

import ffnverify_counter_gallery as g
import pytest
from hypothesis import settings

from ffnverify.testing.counters import check_counter

EXAMPLES = 4 * settings().max_examples

MUTANTS = [
    # (id, function, quantity, variant, check_counter keywords, expected explanation key)
    ("dropped bias", g.mutant_dropped_bias, "params", "swiglu", {}, "missing_bias"),
    ("dropped bias, ungated", g.mutant_dropped_bias, "params", "gelu", {}, "missing_bias"),
    ("off-by-one width", g.mutant_off_by_one_width, "flops", "swiglu", {}, "off_by_one_h-1"),
    ("swapped d and h", g.mutant_swapped_d_h, "params", "swiglu", {}, "swapped_d_h"),
    ("truncated width", g.mutant_truncated_width, "params", "swiglu", {"h_per_d": "8/3"},
     "truncated_width_floor"),
    ("truncated width argument", g.mutant_truncated_width_arg, "params", "swiglu",
     {"h_per_d": "8/3"}, "truncated_width_floor"),
    ("float round-off", g.mutant_float_round_off, "flops", "relu", {"pass_": "train"},
     "float_round_off"),
    ("MACs as FLOPs", g.mutant_macs_as_flops, "flops", "geglu", {}, "macs_vs_flops"),
    ("missing input grad", g.mutant_missing_input_grad, "flops", "reglu", {"pass_": "train"},
     "input_grad"),
    ("gated as ungated", lambda d, h, n: 4 * n * d * h, "flops", "swiglu", {}, "gated_as_ungated"),
    ("truncated result", lambda d, h, n: (4 * n * d * h + n * h) // 2, "macs", "relu",
     {"count": "all"}, "truncated_result_floor"),
    ("matmuls only", lambda d, h, n: 6 * n * d * h, "flops", "swiglu", {"count": "all"},
     "count"),
]


@pytest.mark.parametrize("fn, quantity, variant, kwargs, key",
                         [m[1:] for m in MUTANTS], ids=[m[0] for m in MUTANTS])
def test_mutant_is_caught_and_named(fn, quantity, variant, kwargs, key):
    result = check_counter(fn, quantity, variant, max_examples=EXAMPLES, **kwargs)
    report = result.report()
    assert not result.ok, report
    assert result.error is None, report
    assert result.explanation is not None and result.explanation.key == key, report
    c = result.counterexample
    assert c["yours"] != c["derived"], report
    assert "counterexample:" in report and "derived =" in report and "yours" in report


def test_float_round_off_only_shows_beyond_2_53():
    result = check_counter(g.mutant_float_round_off, "flops", "relu", pass_="train",
                           max_examples=EXAMPLES)
    c = result.counterexample
    assert c["derived"] > 2**53, result.report()
    assert "above 2^53" in result.explanation.title
    # the same formula on shapes whose counts stay below 2^53 is exact
    small = check_counter(g.mutant_float_round_off, "flops", "relu", pass_="train",
                          max_dim=2**16, max_examples=EXAMPLES)
    assert small.ok, small.report()


def test_swapping_d_and_h_is_harmless_where_the_count_is_symmetric():
    # relu params with bias, 2dh + h + d, is symmetric in d and h: nothing to report
    result = check_counter(g.mutant_swapped_d_h, "params", "relu", max_examples=EXAMPLES)
    assert result.ok, result.report()


def test_truncation_report_says_the_closed_form_is_not_a_polynomial():
    result = check_counter(g.mutant_truncated_width, "params", "swiglu", h_per_d="8/3",
                           max_examples=EXAMPLES)
    assert result.yours.expr is None
    assert "not a polynomial of total degree ≤ 3 in d" in result.report()
    assert result.counterexample["h"] != int(result.counterexample["h"])


def test_a_function_that_raises_is_an_error_not_a_pass():
    def broken(d, h, n):
        raise ZeroDivisionError("oops")

    result = check_counter(broken, "flops", "relu", max_examples=EXAMPLES)
    assert not result.ok and "ZeroDivisionError" in result.error


def test_a_function_returning_text_is_an_error():
    result = check_counter(lambda d, h, n: "12", "flops", "relu", max_examples=EXAMPLES)
    assert not result.ok and "not a number" in result.error


def test_unexplained_disagreement_says_so():
    result = check_counter(lambda d, h, n: 4 * n * d * h + 7, "flops", "relu",
                           max_examples=EXAMPLES)
    assert not result.ok and result.explanations == []
    assert "none of the named explanations fits" in result.report()


def test_int64_overflow_is_named():
    np = pytest.importorskip("numpy")

    def int64_counter(d, h, n):
        with np.errstate(over="ignore"):
            return np.int64(18) * np.int64(n) * np.int64(d) * np.int64(h)

    result = check_counter(int64_counter, "flops", "swiglu", pass_="train",
                           max_examples=EXAMPLES)
    assert result.explanation.key == "int64_overflow", result.report()
    assert result.counterexample["derived"] >= 2**63
