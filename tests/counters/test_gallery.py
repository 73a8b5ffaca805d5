"""The known-formula gallery: each public formula classified as exact, off by a named factor,
or wrong only for some variants."""

from fractions import Fraction

import ffnverify_counter_gallery as g
import pytest
from hypothesis import settings

from derivations.flops import flops
from derivations.variants import VARIANTS
from ffnverify.testing.counters import check_counter

EXAMPLES = 2 * settings().max_examples
GATED = [v for v, row in VARIANTS.items() if row.gated]
UNGATED = [v for v, row in VARIANTS.items() if not row.gated]
MEGATRON = "d=hidden_size,h=ffn_hidden_size,n=seq_length"


def verdict(result):
    """'exact', or the key of the likely explanation."""
    return "exact" if result.ok else (result.explanation.key if result.explanation else "?")


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_megatron_counts_only_swiglu_as_gated(variant):
    # the config a user would write: --swiglu for SwiGLU, something else for other units
    fixed = {"batch_size": 1, "swiglu": variant == "swiglu", "quick_geglu": variant == "geglu"}
    result = check_counter(g.megatron_ffn_flops, "flops", variant, args=MEGATRON, fixed=fixed,
                           pass_="train", max_examples=EXAMPLES)
    expected = "gated_as_ungated" if variant in GATED and variant != "swiglu" else "exact"
    assert verdict(result) == expected, result.report()


def test_megatron_geglu_report():
    result = check_counter(g.megatron_ffn_flops, "flops", "geglu", args=MEGATRON,
                           fixed={"batch_size": 1, "quick_geglu": True}, pass_="train",
                           max_examples=EXAMPLES)
    report = result.report()
    assert "yours   = 12·d·h·n" in report and "derived = 18·d·h·n" in report
    assert "geglu counted as ungated" in report and "derived / yours = 3/2" in report


def test_megatron_recompute_is_one_extra_forward():
    result = check_counter(g.megatron_ffn_flops, "flops", "relu", args=MEGATRON,
                           fixed={"batch_size": 1, "recompute": True}, pass_="train",
                           max_examples=EXAMPLES)
    assert verdict(result) == "recompute", result.report()


def test_megatron_float_division_shows_as_round_off():
    args = dict(args=MEGATRON, pass_="train", max_examples=EXAMPLES)
    swiglu = check_counter(g.megatron_ffn_flops_float, "flops", "swiglu",
                           fixed={"batch_size": 1, "swiglu": True}, **args)
    assert verdict(swiglu) == "float_round_off", swiglu.report()
    geglu = check_counter(g.megatron_ffn_flops_float, "flops", "geglu",
                          fixed={"batch_size": 1}, **args)
    assert verdict(geglu) == "gated_as_ungated", geglu.report()
    assert "up to float round-off" in geglu.explanation.title


@pytest.mark.parametrize("fn, pass_", [(g.kaplan_ffn_forward_flops, "forward"),
                                       (g.kaplan_ffn_train_flops, "train")])
@pytest.mark.parametrize("variant", ["relu", "gelu", "swiglu", "geglu"])
def test_kaplan_2n_and_6n(fn, pass_, variant):
    result = check_counter(fn, "flops", variant, args="d=d_model,h=d_ff,n=tokens", pass_=pass_,
                           max_examples=EXAMPLES)
    expected = "gated_as_ungated" if variant in GATED else "exact"
    assert verdict(result) == expected, result.report()


def test_kaplan_parameter_count():
    for variant, expected in (("gelu", "exact"), ("swiglu", "gated_as_ungated")):
        result = check_counter(g.kaplan_ffn_params, "params", variant, args="d=d_model,h=d_ff",
                               max_examples=EXAMPLES)
        assert verdict(result) == expected, result.report()


@pytest.mark.parametrize("variant", ["relu", "gelu", "reglu", "swiglu"])
@pytest.mark.parametrize("train", [False, True])
def test_chinchilla_dense_block(variant, train):
    result = check_counter(g.chinchilla_dense_block_flops, "flops", variant,
                           args="d=d_model,h=ffw_size,n=seq_len", fixed={"train": train},
                           pass_="train" if train else "forward", max_examples=EXAMPLES)
    expected = "gated_as_ungated" if variant in GATED else "exact"
    assert verdict(result) == expected, result.report()


def test_nanogpt_6n_exact_without_bias_and_charges_biases_as_matmuls():
    common = dict(args="d=n_embd", h_per_d=4, pass_="train", max_examples=EXAMPLES)
    plain = check_counter(g.nanogpt_mlp_flops_per_token, "flops", "gelu",
                          fixed={"bias": False}, **common)
    assert verdict(plain) == "exact", plain.report()
    with_bias = check_counter(g.nanogpt_mlp_flops_per_token, "flops", "gelu",
                              fixed={"bias": True}, bias=True, **common)
    assert verdict(with_bias) == "bias_term", with_bias.report()
    assert "+ 6 per bias parameter per token" in with_bias.explanation.title


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_fvcore_counts_macs(variant):
    kwargs = dict(args="d=d,h=h,n=tokens,gated=gated", max_examples=EXAMPLES)
    as_flops = check_counter(g.fvcore_ffn_flops, "flops", variant, **kwargs)
    assert verdict(as_flops) == "macs_vs_flops", as_flops.report()
    as_macs = check_counter(g.fvcore_ffn_flops, "macs", variant, **kwargs)
    assert verdict(as_macs) == "exact", as_macs.report()


@pytest.mark.parametrize("variant", ["relu", "gelu", "swiglu", "geglu"])
def test_cookbook_ignores_the_hidden_width(variant):
    fixed = {"num_mlp_linears": 3 if variant in GATED else 2, "iter_factor": 1}
    result = check_counter(g.cookbook_ffn_flops, "flops", variant,
                           args="d=hidden_size,h=ffn_hidden_size,n=tokens", fixed=fixed,
                           max_examples=EXAMPLES)
    assert verdict(result) == "width_ignored", result.report()
    assert "h = 4·d" in result.explanation.title


def test_cookbook_llama2_7b_numbers():
    # --infer, one token, 32 layers, 3 MLP linears, --ffn-hidden-size 11008 (ignored)
    calculator = g.cookbook_ffn_flops(4096, 11008, 1, num_layers=32, num_mlp_linears=3,
                                      iter_factor=1)
    assert round(calculator / 10**9, 2) == 12.88
    assert calculator == g.cookbook_ffn_flops(4096, 1, 1, num_layers=32, num_mlp_linears=3,
                                              iter_factor=1)
    right = 32 * flops("swiglu", 4096, 11008, 1)
    assert round(Fraction(int(right), 10**9), 2) == Fraction(866, 100)
