"""What the tolerance model refuses to bound, and that it says so by name.

The rounding bound of relu's derivative rests on a sign argument that holds at a kink at 0
only (tolerances.first_order_bounds): an activation whose derivative jumps elsewhere has no
bound, and a user who registers one must be told which activation and why, not handed a
bound that does not hold or a bare error."""

import dataclasses

import numpy as np
import pytest

from ffnverify.backends.activations import FACTS
from ffnverify.testing import tolerances as T


def _draw(gated):
    rng = np.random.default_rng(0)
    w = {"W_up": rng.standard_normal((4, 6)) / 2, "W_down": rng.standard_normal((6, 4)) / 3}
    if gated:
        w["W_gate"] = rng.standard_normal((4, 6)) / 2
    return w, rng.standard_normal((3, 4)), rng.standard_normal((3, 4))


@pytest.mark.parametrize("variant, act", [("relu", "relu"), ("reglu", "relu")])
def test_a_kink_away_from_zero_is_refused_naming_the_activation(monkeypatch, variant, act):
    monkeypatch.setitem(FACTS, act, dataclasses.replace(FACTS[act], kinks=(1.0,)))
    w, x, dy = _draw(variant == "reglu")
    with pytest.raises(ValueError) as info:
        T.first_order_bounds(variant, w, x, dy, "float32", "fused")
    assert act in str(info.value) and "kink away from 0" in str(info.value), info.value


def test_the_kink_at_zero_is_bounded():
    w, x, dy = _draw(False)
    bounds = T.first_order_bounds("relu", w, x, dy, "float32", "fused")
    assert bounds and all(np.all(np.isfinite(b)) and np.all(b >= 0) for b in bounds.values())
