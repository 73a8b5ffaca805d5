"""The explanations for what real profilers do, pairs of explanations, and coincidences.

Pure-Python counters with the behaviour of each tool (the tools themselves run in
test_real_tools.py, in the counters env): each must get its named explanation, with the
factor or term in the text.
"""

from fractions import Fraction

import pytest

from ffnverify.testing.counters import check_counter
from ffnverify.testing.explain import Target, discriminating, explain

RUN = {"max_examples": 60, "max_dim": 4096}


@pytest.mark.parametrize("fn, quantity, variant, kwargs, key, text", [
    # calflops / deepspeed: activation at 1 FLOP per element, count=all
    (lambda d, h, n: 4 * n * d * h + n * h, "flops", "gelu", {"count": "all"},
     "activation_one_flop", "priced at 1 FLOP per element (ours: 5)"),
    # ... and Python's * of the gating product unseen
    (lambda d, h, n: 6 * n * d * h + n * h, "flops", "swiglu", {"count": "all"},
     "activation_one_flop+gate_not_counted", "Python's * on tensors"),
    # calflops include_backPropagation: 3 x the forward count, elementwise included
    (lambda d, h, n: 3 * (4 * n * d * h + n * h), "flops", "relu",
     {"count": "all", "pass_": "train"}, "backward_as_2x_forward", "yours = 3 x the forward"),
    (lambda d, h, n: 3 * (4 * n * d * h + n * h), "flops", "gelu",
     {"count": "all", "pass_": "train"}, "backward_as_2x_forward+activation_one_flop",
     "priced at 1 FLOP"),
    # torchinfo on (batch, seq, d)
    (lambda d, h, batch, seq: 2 * batch * d * h, "macs", "relu", {}, "seq_dropped",
     "n = batch tokens"),
    # per-sample averaging
    (lambda d, h, batch, seq: 2 * seq * d * h, "macs", "relu", {}, "per_sample",
     "divided by the batch size"),
    # ptflops pytorch backend: (module MACs + ReLU module) / batch + F.relu, not divided
    (lambda d, h, batch, seq: Fraction(2 * batch * seq * d * h + batch * seq * h, batch)
     + batch * seq * h, "macs", "relu", {}, "per_sample_double_activation", "not divided"),
    # a tool adding the activation on top of the matmuls
    (lambda d, h, n: 2 * n * d * h + n * h, "macs", "relu", {}, "activation_added",
     "the activation at 1 per element"),
])
def test_profiler_behaviour_is_named(fn, quantity, variant, kwargs, key, text):
    result = check_counter(fn, quantity, variant, **kwargs, **RUN)
    assert not result.ok and result.error is None, result.report()
    assert result.explanation.key == key, result.report()
    assert text in result.explanation.title, result.report()


def test_pair_macs_and_a_bias_term():
    # ptflops' aten backend, read as FLOPs: MACs plus 1 per bias parameter per token
    result = check_counter(lambda d, h, n, bias: 2 * n * d * h + (n * (h + d) if bias else 0),
                           "flops", "relu", **RUN)
    assert set(result.explanation.key.split("+")) == {"macs_vs_flops", "bias_term"}, \
        result.report()
    assert "factor 2" in result.explanation.title and "+ 1 per bias parameter" in \
        result.explanation.title


def test_pair_macs_and_a_dropped_sequence_dimension():
    result = check_counter(lambda d, h, batch, seq: 2 * batch * d * h, "flops", "relu", **RUN)
    assert set(result.explanation.key.split("+")) == {"macs_vs_flops", "seq_dropped"}, \
        result.report()


def test_single_explanations_rank_before_pairs():
    result = check_counter(lambda d, h, n: 2 * n * d * h, "flops", "relu", **RUN)
    assert result.explanation.key == "macs_vs_flops"
    assert all("+" not in f.key for f in result.explanations), result.report()


def test_mac_text_names_no_tool_it_would_be_wrong_for():
    result = check_counter(lambda d, h, n: 3 * n * d * h, "flops", "swiglu", **RUN)
    assert result.explanation.key == "macs_vs_flops"
    assert "fvcore, thop and torchinfo" not in result.report()
    assert "MAC count reported under the name FLOPs" in result.explanation.title


def _points(fn, shapes, bias=False):
    return [{"d": d, "h": h, "n": n, "bias": bias, "yours": Fraction(fn(d, h, n)),
             "float": False} for d, h, n in shapes]


@pytest.mark.parametrize("truth, key, impostor", [
    # an off-by-one width that equals the backward pass wherever h = 3
    (lambda d, h, n: 12 * n * d * (h - 1), "off_by_one_h-1", "pass_backward"),
    # the backward pass, which equals an off-by-one width wherever h = 3
    (lambda d, h, n: 8 * n * d * h, "pass_backward", "off_by_one_h-1"),
])
def test_a_coincidence_at_the_drawn_shapes_is_dropped(truth, key, impostor):
    target = Target("flops", "relu", "train")
    shapes = [(d, 3, n) for d in (1, 2, 5, 9) for n in (1, 4)]
    points = _points(truth, shapes)
    fits = explain(target, points)
    assert {key, impostor} <= {f.key for f in fits}  # both fit at h = 3 ...
    extra = discriminating(fits, target, [{"d": d, "h": h, "n": n, "bias": False}
                                          for d, h, n in [(2, 3, 1), (4, 7, 2), (5, 11, 3)]],
                           {(p["d"], p["h"], p["n"], False, None, None) for p in points})
    assert extra and all(p["h"] != 3 for p in extra)  # ... and differ elsewhere
    confirmed = explain(target, points + _points(truth, [(p["d"], p["h"], p["n"])
                                                         for p in extra]))
    assert [f.key for f in confirmed] == [key]


def test_check_counter_confirms_on_points_where_the_fits_differ():
    # at max_dim 4 the draws are few; confirmation still separates the two readings
    result = check_counter(lambda d, h, n: 12 * n * d * (h - 1), "flops", "relu",
                           pass_="train", max_examples=60, max_dim=4)
    assert [f.key for f in result.explanations] == ["off_by_one_h-1"], result.report()
