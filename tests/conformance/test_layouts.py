"""Layouts: reading a module's weights (and gradients) into the reference's names."""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="layouts read torch modules")

from ffnverify.testing import layouts  # noqa: E402

from .zoo import CORRECT, T5_MAPPING, TitanW13, XformersPacked  # noqa: E402

pytestmark = pytest.mark.torch


def test_transforms():
    t = torch.arange(12.0).reshape(6, 2)
    assert torch.equal(layouts.apply_transform("id", t), t)
    assert torch.equal(layouts.apply_transform("T", t), t.T)
    assert torch.equal(layouts.apply_transform("half0", t), t[:3])
    assert torch.equal(layouts.apply_transform("half1.T", t), t[3:].T)
    assert torch.equal(layouts.apply_transform("even", t), t[[0, 2, 4]])
    assert torch.equal(layouts.apply_transform("odd.T", t), t[[1, 3, 5]].T)
    assert torch.equal(layouts.apply_transform(lambda a: 2 * a, t), 2 * t)
    with pytest.raises(ValueError, match="unknown transform"):
        layouts.apply_transform("third0", t)
    with pytest.raises(ValueError, match="unknown transform"):
        layouts.apply_transform("half0.X", t)


def test_every_documented_layout_exists():
    from pathlib import Path

    assert {"hf", "torchtune", "xformers-packed", "phi3", "torchtitan-w13", "gpt2"} <= set(
        layouts.LAYOUTS)
    doc = (Path(__file__).resolve().parents[2] / "docs" / "conformance.md").read_text()
    missing = [name for name in layouts.LAYOUTS if f"`{name}`" not in doc]
    assert not missing, f"layouts not in docs/conformance.md: {missing}"
    # the zoo's hand-written classes cover the original six; test_auto_layout builds the rest
    assert {c[2] for c in CORRECT if isinstance(c[2], str)} <= set(layouts.LAYOUTS)


def test_unknown_or_mismatched_layout_is_a_clear_error():
    with pytest.raises(ValueError, match="no gated form"):
        layouts.mapping(True, "gpt2")
    with pytest.raises(ValueError, match="no non-gated form"):
        layouts.mapping(False, "phi3")
    assert layouts.mapping(True, T5_MAPPING) == T5_MAPPING


def _semantic_hidden(module, x):
    """gate and up pre-activations as the module itself computes them."""
    if isinstance(module, XformersPacked):
        return module.w12(x).chunk(2, dim=-1)
    z = module.w13(x).unflatten(-1, (-1, 2))
    return z[..., 0], z[..., 1]


@pytest.mark.parametrize("cls,layout", [(XformersPacked, "xformers-packed"),
                                        (TitanW13, "torchtitan-w13")])
def test_packed_layouts_read_gate_and_up_where_the_module_finds_them(cls, layout):
    m = cls("swiglu", 3, 5, True).double()
    w = layouts.read(m, layouts.mapping(True, layout))
    x = torch.randn(4, 3, dtype=torch.float64)
    gate, up = _semantic_hidden(m, x)
    xn = x.numpy()
    np.testing.assert_allclose(xn @ w["W_gate"] + w["b_gate"], gate.detach().numpy(),
                               rtol=1e-13)
    np.testing.assert_allclose(xn @ w["W_up"] + w["b_up"], up.detach().numpy(), rtol=1e-13)


def test_gradients_read_through_the_same_transform():
    m = XformersPacked("swiglu", 3, 5, False).double()
    x = torch.randn(4, 3, dtype=torch.float64)
    table = layouts.mapping(True, "xformers-packed")
    assert np.all(layouts.read(m, table, grads=True)["W_gate"] == 0)  # no .grad yet: zeros
    gate, _up = _semantic_hidden(m, x)
    gate.sum().backward()
    g = layouts.read(m, table, grads=True)
    np.testing.assert_allclose(g["W_gate"], np.repeat(x.sum(0).numpy()[:, None], 5, 1))
    assert np.all(g["W_up"] == 0)


def test_paths_list_every_tensor_the_layout_reads():
    m = XformersPacked("swiglu", 3, 5, True)
    got = layouts.paths(m, layouts.mapping(True, "xformers-packed"))
    assert got == {"w12.weight": ["W_gate", "W_up"], "w12.bias": ["b_gate", "b_up"],
                   "w3.weight": ["W_down"], "w3.bias": ["b_down"]}
