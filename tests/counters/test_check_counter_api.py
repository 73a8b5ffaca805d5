"""The check_counter API: conventions, argument mapping, and where Hypothesis cannot run."""

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ffnverify.testing.counters import check_counter


def train_relu(d, h, n):
    return 12 * n * d * h


def test_convention_dict_and_keywords_agree():
    assert check_counter(train_relu, "flops", "relu", convention={"pass": "train"},
                         max_examples=20).ok
    assert check_counter(train_relu, "flops", "relu", pass_="train", max_examples=20).ok
    with pytest.raises(ValueError, match="given twice"):
        check_counter(train_relu, "flops", "relu", convention={"pass": "train"},
                      pass_="forward")


@pytest.mark.parametrize("kwargs, message", [
    ({"quantity": "bytes"}, "unknown quantity"),
    ({"convention": {"pass": "sideways"}}, "unknown pass"),
    ({"convention": {"count": "some"}}, "unknown count"),
    ({"args": {"z": "d"}}, "unknown symbols"),
    ({"args": {"d": "width"}}, "no parameter"),
    ({"args": {"h": "h"}}, "must map d"),
])
def test_bad_arguments_are_explained(kwargs, message):
    call = {"fn": train_relu, "quantity": "flops", "variant": "relu", **kwargs}
    with pytest.raises(ValueError, match=message):
        check_counter(**call)


def test_unknown_variant():
    with pytest.raises(KeyError, match="unknown FFN variant"):
        check_counter(train_relu, "flops", "swiglu2")


def test_function_without_hidden_width_needs_h_per_d():
    with pytest.raises(ValueError, match="h_per_d"):
        check_counter(lambda d, n: 16 * n * d * d, "flops", "relu")
    assert check_counter(lambda d, n: 16 * n * d * d, "flops", "relu", h_per_d=4,
                         max_examples=20).ok


def test_variant_and_gated_arguments_are_passed():
    seen = set()

    def counter(width, hidden, kind, is_gated):
        seen.add((kind, is_gated))
        return (3 if is_gated else 2) * width * hidden

    result = check_counter(counter, "params", "geglu", max_examples=20,
                           args={"d": "width", "h": "hidden", "variant": "kind",
                                 "gated": "is_gated"})
    assert result.ok and seen == {("geglu", True)}


@settings(max_examples=3, deadline=None)
@given(st.sampled_from(["relu", "swiglu"]))
def test_usable_inside_a_users_own_hypothesis_test(variant):
    result = check_counter(lambda d, h, n: 2 * n * d * h * (3 if variant == "swiglu" else 2),
                           "flops", variant, max_examples=30)
    assert result.ok and "inside a Hypothesis test" in result.how


def test_without_hypothesis_installed_it_still_checks(monkeypatch):
    monkeypatch.setitem(sys.modules, "hypothesis", None)
    good = check_counter(train_relu, "flops", "relu", pass_="train", max_examples=50)
    assert good.ok and "Hypothesis not installed" in good.how
    bad = check_counter(train_relu, "flops", "swiglu", pass_="train", max_examples=50)
    assert bad.explanation.key == "gated_as_ungated", bad.report()
