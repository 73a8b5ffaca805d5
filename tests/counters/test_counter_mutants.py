"""check_counter's result, on what the first mutation run of the kit area (issue 26,
docs/mutation.md) showed no selected test checked: the verdict a report prints, the
closed-form note in the JSON, a bias flag drawn beside a batch x seq split, and the time
a check took."""

import time

from ffnverify.testing.counters import check_counter


def forward_relu_flops(d, h, n):
    return 4 * n * d * h  # two matmuls of n x d x h, 2 FLOPs per multiply-add


def half_of_it(d, h, n):
    return 2 * n * d * h  # MACs counted as FLOPs


def test_the_report_says_disagrees_for_a_wrong_counter_and_agrees_for_a_right_one():
    # kills counters.CounterResult.report mutmut_7 (every verdict but an error "agrees")
    wrong = check_counter(half_of_it, "flops", "relu", max_examples=20)
    right = check_counter(forward_relu_flops, "flops", "relu", max_examples=20)
    assert not wrong.ok and right.ok
    assert wrong.report().splitlines()[0].endswith(": DISAGREES"), wrong.report()
    assert right.report().splitlines()[0].endswith(": agrees"), right.report()


def test_the_json_carries_the_note_of_the_recovered_closed_form():
    # kills counters.CounterResult.to_dict mutmut_36 (yours_note always None)
    wrong = check_counter(half_of_it, "flops", "relu", max_examples=50)
    assert wrong.yours is not None and wrong.yours.note
    data = wrong.to_dict()
    assert data["yours_note"] == wrong.yours.note
    assert data["yours"] is not None


def test_a_bias_flag_beside_a_batch_seq_split_is_passed_on():
    # kills counters._Session.complete mutmut_50 (the split point's "bias" key misspelt:
    # the drawn flag never reaches the comparison)
    def all_flops(d, h, batch, seq, bias):
        n = batch * seq
        # relu, count="all": matmuls 4ndh, relu n·h, and per token h + d bias adds
        return 4 * n * d * h + n * h + (n * (h + d) if bias else 0)

    result = check_counter(all_flops, "flops", "relu", count="all", max_examples=30)
    assert result.ok, result.report()
    assert "tokens n = batch x seq" in result.how

    def bias_ignored(d, h, batch, seq, bias):
        return all_flops(d, h, batch, seq, False)

    wrong = check_counter(bias_ignored, "flops", "relu", count="all", max_examples=30)
    assert not wrong.ok and wrong.counterexample["bias"] is True, wrong.report()


def test_the_result_says_how_long_the_check_took():
    # kills counters._Session.finish mutmut_2 (seconds left as None)
    t0 = time.monotonic()
    result = check_counter(forward_relu_flops, "flops", "relu", max_examples=10)
    wall = time.monotonic() - t0
    assert isinstance(result.seconds, float) and 0 < result.seconds <= wall
