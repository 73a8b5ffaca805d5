"""The mechanisms of torchprofile, torchscan, pthflops and torch-operation-counter, named.

Each tool is restated as a hand-written counter that counts exactly the way the tool does
(read off its source: torchprofile's aten handlers, torchscan's `flops_linear`, pthflops'
`_count_linear`, `_count_relu` and `_count_add_mul`), and check_counter must name the
mechanism. Each has mutants, the same counter with one mechanism changed, that must get a
different explanation or none. Where two explanations give the same numbers at every
shape (torchprofile's gating product and an activation at 1 per element, on a gated unit)
both are listed, and the report says that the numbers cannot tell them apart. The real
tools are run in test_real_tools.py (the `counters` tox env installs them).
"""

import math
import runpy
from pathlib import Path

import pytest

from ffnverify.testing.counters import check_counter, recovery_degree
from ffnverify.testing.explain import Target

FAST = {"max_examples": 40, "max_dim": 64}


def _keys(result):
    return [f.key for f in result.explanations]


# --- torchprofile: MACs of the matmuls, aten::mul at 1 per element, no activation ---------


def torchprofile_swiglu(d, h, n):
    return 3 * n * d * h + n * h  # gate, up, down; the a*b at 1 MAC; SiLU not counted


def test_torchprofile_lists_both_readings_and_says_they_cannot_be_told_apart():
    result = check_counter(torchprofile_swiglu, "macs", "swiglu", **FAST)
    keys = _keys(result)
    assert keys[:2] == ["activation_added", "gate_added"], result.report()
    report = result.report()
    assert "the numbers cannot tell them apart" in report, report
    assert "the gating product at 1 per element and the activation not counted" in report
    assert result.explanations[0].ties and result.explanations[1].ties


def test_an_ungated_unit_has_no_gate_to_tie_with():
    def relu_with_activation(d, h, n):
        return 2 * n * d * h + n * h

    result = check_counter(relu_with_activation, "macs", "relu", **FAST)
    assert _keys(result) == ["activation_added"], result.report()
    assert "cannot tell" not in result.report()


@pytest.mark.parametrize("mutant, key", [
    (lambda d, h, n: 3 * n * d * h + 2 * n * h, "activation_and_gate_added"),  # both at 1
    (lambda d, h, n: 3 * n * d * h + n * d, None),  # a per-token d term: no mechanism
])
def test_torchprofile_mutants(mutant, key):
    result = check_counter(mutant, "macs", "swiglu", args={"d": "d", "h": "h", "n": "n"},
                           **FAST)
    assert not result.ok
    keys = _keys(result)
    if key is None:
        assert "gate_added" not in keys and "activation_added" not in keys, result.report()
    else:
        assert keys[0] == key and "gate_added" not in keys, result.report()


# --- torchscan: a linear with k inputs at 2k - 1 per output, +1 with bias; ReLU at 1 -----


def torchscan_relu(d, h, n, bias):
    linear = n * h * (2 * d - 1) + n * d * (2 * h - 1)
    return linear + (n * (h + d) if bias else 0) + n * h  # the bias add, then ReLU at 1


def test_torchscan_linear_at_2k_minus_1():
    result = check_counter(torchscan_relu, "flops", "relu", count="all", **FAST)
    assert _keys(result) == ["linear_2k_minus_1"], result.report()
    assert "k multiplies and k - 1 adds" in result.report()


def test_torchscan_with_the_bias_fixed_on_ties_with_the_bias_adds_left_out():
    def with_bias(d, h, n):
        return torchscan_relu(d, h, n, True)

    result = check_counter(with_bias, "flops", "relu", count="all", bias=True, **FAST)
    keys = _keys(result)
    assert "linear_2k_minus_1" in keys and "missing_bias" in keys, result.report()
    assert "cannot tell them apart" in result.report()


@pytest.mark.parametrize("mutant", [
    lambda d, h, n, bias: torchscan_relu(d, h, n, bias) + n * h,  # ReLU at 2, not 1
    lambda d, h, n, bias: torchscan_relu(d, h, n, bias) + n * (h + d),  # a linear at 2k
])
def test_torchscan_mutants(mutant):
    result = check_counter(mutant, "flops", "relu", count="all",
                           args={"d": "d", "h": "h", "n": "n", "bias": "bias"}, **FAST)
    assert "linear_2k_minus_1" not in _keys(result)[:1], result.report()


# --- pthflops: a linear at 1 per MAC (+ out_features once per call), ReLU at 2, a mul at 2 -


def pthflops(variant):
    outputs = {"relu": lambda d, h: h + d, "gelu": lambda d, h: h + d,
               "swiglu": lambda d, h: 2 * h + d}[variant]
    projections = 3 if variant == "swiglu" else 2
    elementwise = {"relu": 2, "gelu": 0, "swiglu": 2}[variant]  # ReLU at 2; a*b at 2

    def count(d, h, n, bias):
        return (projections * n * d * h + (outputs(d, h) if bias else 0)
                + elementwise * n * h)

    count.__qualname__ = f"pthflops_{variant}"
    return count


@pytest.mark.parametrize("variant, parts", [
    ("relu", {"macs_vs_flops", "bias_per_call", "activation_added_twice"}),
    ("gelu", {"macs_vs_flops", "bias_per_call"}),
    ("swiglu", {"macs_vs_flops", "bias_per_call", "activation_and_gate_added"}),
])
def test_pthflops_names_the_relu_price_and_the_bias_once_per_call(variant, parts):
    result = check_counter(pthflops(variant), "flops", variant, **FAST)
    assert set(result.explanations[0].key.split("+")) == parts, result.report()
    report = result.report()
    assert "a bias term once per call, not per token" in report, report
    if variant == "relu":  # ReLU at 2, or the activation counted twice: the same numbers
        assert "activation_two_per_element" in {k for f in result.explanations
                                                for k in f.key.split("+")}, report
        assert "cannot tell them apart" in report


@pytest.mark.parametrize("mutant, banned", [
    # the bias per token (a bias term), not once per call
    (lambda d, h, n, bias: 2 * n * d * h + (n * (h + d) if bias else 0) + 2 * n * h,
     "bias_per_call"),
    # ReLU at 3 per element: no price of 1 or 2 fits
    (lambda d, h, n, bias: 2 * n * d * h + ((h + d) if bias else 0) + 3 * n * h,
     "activation_added_twice"),
])
def test_pthflops_mutants(mutant, banned):
    result = check_counter(mutant, "flops", "relu",
                           args={"d": "d", "h": "h", "n": "n", "bias": "bias"}, **FAST)
    assert not result.ok
    assert all(banned not in f.key.split("+") for f in result.explanations), result.report()


# --- torch-operation-counter: every aten op, its hooks' clones included: a closed form -----


def operation_counter_relu(d, h, batch):
    d, h, batch = int(d), int(h), int(batch)  # a tool: no SymPy symbols
    return 2 * batch * d * h + 2 * batch * d + 6 * batch * h


def test_operation_counter_is_recovered_and_named_by_nothing():
    result = check_counter(operation_counter_relu, "flops", "relu", count="all",
                           max_examples=16, max_dim=24)
    assert not result.ok and not result.explanations, result.report()
    assert result.yours.method == "interpolation", result.report()
    assert str(result.yours) == "2·batch·d·h + 2·batch·d + 6·batch·h", result.report()


# --- the recovery degree, from the variables ------------------------------------------------


@pytest.mark.parametrize("quantity, names, ratio, degree", [
    ("flops", ["d", "h", "n"], None, 3),
    ("flops", ["d", "h", "batch", "seq"], None, 4),
    ("flops", ["d", "batch", "seq"], 4, 4),  # h = 4·d: d²·batch·seq
    ("params", ["d", "h"], None, 3),  # d·h, at least the default 3
    ("flops", ["d", "h"], None, 3),  # one token
])
def test_recovery_degree_is_the_derivations_own_in_the_variables(quantity, names, ratio,
                                                                  degree):
    assert recovery_degree(Target(quantity, "swiglu"), names, ratio) == degree


def test_a_3d_input_counter_is_recovered_at_degree_4_within_max_examples_16():
    def tool(d, h, batch, seq):
        d, h, batch, seq = int(d), int(h), int(batch), int(seq)
        return 2 * batch * seq * d * h + 3 * batch * seq * h  # MACs + 3 per hidden element

    result = check_counter(tool, "macs", "relu", max_examples=16, max_dim=24)
    assert not result.ok
    assert result.yours.method == "interpolation", result.report()
    assert "total degree ≤ 4" in result.yours.note, result.report()
    assert str(result.yours) == "2·batch·d·h·seq + 3·batch·h·seq", result.report()
    assert result.calls <= math.comb(4 + 4, 4) + 16 + 2, result.report()


def test_degree_3_is_too_low_for_a_3d_input_and_says_so():
    def tool(d, h, batch, seq):
        d, h, batch, seq = int(d), int(h), int(batch), int(seq)
        return 4 * batch * seq * d * h + 1

    result = check_counter(tool, "flops", "relu", max_examples=60, max_dim=24, degree=3)
    assert result.yours.expr is None and "total degree ≤ 3" in result.yours.note, \
        result.report()


# --- the docs' own example ------------------------------------------------------------------


def _docs_example():
    text = (Path(__file__).resolve().parents[2] / "docs" / "counters.md").read_text()
    start = text.index("```python\nimport torch\nimport torchinfo")
    return text[start + len("```python\n"):text.index("```", start + 10)]


def test_the_docs_example_recovers_the_closed_form(tmp_path):
    """The torchinfo example of docs/counters.md, run as printed (--max-examples 16)."""
    pytest.importorskip("torch")
    pytest.importorskip("torchinfo", reason="the counters tox env installs torchinfo")
    script = tmp_path / "docs_example.py"
    script.write_text(_docs_example())
    result = runpy.run_path(str(script))["result"]
    assert result.explanation.key == "seq_dropped", result.report()
    assert str(result.yours) == "2·batch·d·h", result.report()
