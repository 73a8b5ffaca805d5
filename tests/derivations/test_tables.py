"""The backends' own variant table and activation dicts agree with the derivations' table.

The NumPy and torch backends may not import `derivations`, so they restate the variants
(`ffnverify.backends.variants.BACKEND_VARIANTS`) and implement the activations themselves.
These tests join the two sides: row for row the same (activation, gated), and every
activation of `derivations.activations.ACTIVATIONS` implemented by both backends.
"""

import pytest

from derivations.activations import ACTIVATIONS as SYMBOLIC_ACTIVATIONS
from derivations.variants import VARIANTS
from ffnverify.backends import variants as backend_variants
from ffnverify.backends.activations import ACTIVATIONS as NP_ACTIVATIONS


def check_tables_agree(backend_table, variants=VARIANTS):
    """Every variant of the derivations' table has the same (activation, gated) in the
    backend table, and the backend table has no extra rows."""
    missing = sorted(set(variants) - set(backend_table))
    extra = sorted(set(backend_table) - set(variants))
    assert not missing and not extra, f"backend table lacks {missing}, has extra {extra}"
    for name, v in variants.items():
        assert backend_table[name] == (v.activation, v.gated), (
            f"{name}: backend says (activation, gated) = {backend_table[name]}, "
            f"derivations say {(v.activation, v.gated)}"
        )


def check_activations_cover(backend_activations, symbolic=SYMBOLIC_ACTIVATIONS):
    """The backend implements every activation the derivations define."""
    missing = sorted(set(symbolic) - set(backend_activations))
    assert not missing, f"backend has no implementation of {missing}"


def test_backend_variants_agree_row_for_row():
    check_tables_agree(backend_variants.BACKEND_VARIANTS)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_backend_projections_match(name):
    assert backend_variants.projections(name) == VARIANTS[name].projections


def test_every_row_names_a_known_activation():
    for name, v in VARIANTS.items():
        assert v.activation in SYMBOLIC_ACTIVATIONS, f"{name} uses unknown {v.activation!r}"


def test_numpy_activations_cover_derivations():
    check_activations_cover(NP_ACTIVATIONS)
    for name, pair in NP_ACTIVATIONS.items():
        assert len(pair) == 2 and all(callable(f) for f in pair), f"{name}: (fn, derivative)"


def test_torch_activations_cover_derivations():
    pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch)")
    from ffnverify.backends.torch_ffn import TORCH_ACTIVATIONS

    check_activations_cover(TORCH_ACTIVATIONS)


def test_unknown_variant_is_a_helpful_error():
    with pytest.raises(KeyError, match="known: relu"):
        backend_variants.lookup("swigloo")
