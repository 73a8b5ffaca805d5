"""Per-layer FFN counts of every catalogue row, cross-checked against the torch backend
instantiated on the meta device (shapes only, no memory)."""

import dataclasses

import pytest

from derivations import transformer
from ffnverify import catalogue
from ffnverify.catalogue import MODELS

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch)")
from ffnverify.backends.torch_ffn import FFN  # noqa: E402


def meta_ffn_numel(m) -> int:
    """One layer's FFN as torch builds it: the experts' FFNs plus an nn.Linear router, and
    a shared expert with its d x 1 nn.Linear gate where the row has them."""
    total = sum(p.numel() for p in FFN(m.variant, m.d_model, m.d_ff, m.bias, device="meta")
                .parameters())
    if m.experts > 1:
        router = torch.nn.Linear(m.d_model, m.experts, bias=False, device="meta")
        total = m.experts * total + router.weight.numel()
    if m.shared_d_ff:
        total += sum(p.numel() for p in FFN(m.variant, m.d_model, m.shared_d_ff, m.bias,
                                            device="meta").parameters())
    if m.shared_expert_gate:
        total += torch.nn.Linear(m.d_model, 1, bias=False, device="meta").weight.numel()
    return total


@pytest.mark.parametrize("name", list(MODELS))
def test_ffn_per_layer_matches_the_meta_module(name):
    m = MODELS[name]
    derived = transformer.ffn_params(catalogue.architecture(m))
    assert meta_ffn_numel(m) == derived, f"{name}: torch {meta_ffn_numel(m):,} vs {derived}"


def test_meta_module_catches_a_wrong_width():
    """Mutant: a derivation fed the wrong d_ff disagrees with the module of the right one."""
    m = MODELS["llama-2-7b"]
    wrong = dataclasses.replace(m, d_ff=14336)
    assert meta_ffn_numel(m) != transformer.ffn_params(catalogue.architecture(wrong))


def _nn_transformer(m, device="meta"):
    """The 2017 Transformer as torch.nn builds it: post-norm encoder and decoder layers
    (no final norms: the paper's stacks end at the last layer's norm) and one embedding."""
    nn = torch.nn
    kw = dict(d_model=m.d_model, nhead=m.heads, dim_feedforward=m.d_ff, activation="relu",
              norm_first=False, bias=True, device=device)
    return nn.ModuleDict({
        "embedding": nn.Embedding(m.vocab, m.d_model, device=device),
        "encoder": nn.ModuleList(nn.TransformerEncoderLayer(**kw)
                                 for _ in range(m.encoder_layers)),
        "decoder": nn.ModuleList(nn.TransformerDecoderLayer(**kw) for _ in range(m.layers)),
    })


def _nn_part(name):
    if name.startswith("embedding"):
        return "embedding"
    if "norm" in name:
        return "norms"
    if "attn" in name:
        return "attention"
    if "linear" in name:
        return "ffn"
    raise AssertionError(name)


@pytest.mark.parametrize("name", ["transformer-base", "transformer-big"])
def test_2017_transformer_matches_torch_nn_transformer_layers(name):
    m = MODELS[name]
    model = _nn_transformer(m)
    parts = dict.fromkeys(transformer.PARTS, 0)
    for pname, p in model.named_parameters():
        parts[_nn_part(pname)] += p.numel()
    assert sum(parts.values()) == catalogue.params_total(name)
    assert parts == catalogue.parts(name)


def test_2017_transformer_mutant_with_final_norms_is_caught():
    """nn.Transformer adds a LayerNorm after each stack; the paper's post-norm stacks have
    none, and counting them changes the total."""
    m = MODELS["transformer-base"]
    with_final = dataclasses.replace(m, final_norm=True)
    model = _nn_transformer(m)
    assert sum(p.numel() for p in model.parameters()) != catalogue.params_total(with_final)
