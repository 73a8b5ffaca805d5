"""Whole-model derivations where the `model` mutation area found the suite blind (issue 26):
an encoder-decoder's FLOPs (both stacks, the decoder's cross-attention), Meta's default
`multiple_of`, and attention's defaults, each against an oracle of its own."""

import dataclasses

import pytest

from derivations import attention, model_costs
from ffnverify import catalogue
from ffnverify.catalogue import MODELS


def test_an_encoder_decoder_counts_both_stacks_like_torch_nn_transformer():
    """model_flops of a small 2017-style Transformer (3 encoder, 2 decoder layers) against
    FlopCounterMode on torch.nn.Transformer with a bias-free LM head. The counter sees the
    projections and the FFN matmuls; QKᵀ and A·V (2·2·heads·n·c·head_dim for each of the
    7 attention blocks: 3 encoder self, 2 decoder self, 2 cross) are added by hand."""
    torch = pytest.importorskip("torch")
    from torch.utils.flop_counter import FlopCounterMode

    d, heads, d_ff, enc, dec, vocab, n = 8, 2, 16, 3, 2, 11, 5
    m = dataclasses.replace(MODELS["transformer-base"], d_model=d, d_ff=d_ff, heads=heads,
                            kv_heads=heads, head_dim=d // heads, layers=dec,
                            encoder_layers=enc, vocab=vocab)
    torch.manual_seed(0)
    net = torch.nn.Transformer(d_model=d, nhead=heads, num_encoder_layers=enc,
                               num_decoder_layers=dec, dim_feedforward=d_ff, dropout=0.0,
                               batch_first=True)
    head = torch.nn.Linear(d, vocab, bias=False)
    with FlopCounterMode(display=False) as counter:
        head(net(torch.randn(1, n, d), torch.randn(1, n, d)))
    blocks = enc + 2 * dec
    scores = blocks * 2 * 2 * heads * n * n * (d // heads)
    assert model_costs.model_flops(catalogue.architecture(m), n) == \
        counter.get_total_flops() + scores


def test_a_llama_rule_without_multiple_of_uses_metas_default():
    """Meta's llama/model.py ModelArgs has multiple_of = 256: LLaMA 7B's 4096 gives 11008
    (the published width) when the row does not state it."""
    m = MODELS["llama-1-7b"]
    params = {k: v for k, v in m.width_params.items() if k != "multiple_of"}
    assert catalogue.derived_width(dataclasses.replace(m, width_params=params)) == 11008


def test_attention_without_bias_arguments_has_no_biases():
    """attention_params(d, heads) is torch.nn.MultiheadAttention(bias=False)'s count."""
    torch = pytest.importorskip("torch")
    for d, heads in ((64, 4), (96, 8)):
        mha = torch.nn.MultiheadAttention(d, heads, bias=False)
        assert attention.attention_params(d, heads) == sum(p.numel() for p in mha.parameters())


def test_attention_flops_default_context_is_the_queries():
    """Without a cache, n queries attend to n keys: context defaults to n."""
    for n in (1, 7, 128):
        assert attention.attention_flops(512, 8, n) == attention.attention_flops(512, 8, n, n)
        assert attention.attention_flops(512, 8, n, pass_="train") == \
            attention.attention_flops(512, 8, n, n, pass_="train")
