"""Per-layer FFN counts of every catalogue row, cross-checked against the torch backend
instantiated on the meta device (shapes only, no memory)."""

import dataclasses

import pytest

from derivations import transformer
from ffnverify import catalogue
from ffnverify.catalogue import MODELS

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install ffnverify[torch])")
from ffnverify.backends.torch_ffn import FFN  # noqa: E402


def meta_ffn_numel(m) -> int:
    """One layer's FFN as torch builds it: the experts' FFNs plus an nn.Linear router."""
    total = sum(p.numel() for p in FFN(m.variant, m.d_model, m.d_ff, m.bias, device="meta")
                .parameters())
    if m.experts > 1:
        router = torch.nn.Linear(m.d_model, m.experts, bias=False, device="meta")
        total = m.experts * total + router.weight.numel()
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
