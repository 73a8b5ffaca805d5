"""The one table of FFN variants (docs/architecture.md §2).

Each row says what a variant *is*: its activation and whether it is gated. Everything
symbolic in `derivations` (parameters, FLOPs, memory, gradients), the tests and the docs
iterate this table; adding a variant is one row here (plus its activation in
`derivations.activations`). Plain data: this module imports nothing.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Variant:
    name: str
    activation: str  # a key of derivations.activations.ACTIVATIONS
    gated: bool
    title: str

    @property
    def projections(self) -> tuple[str, ...]:
        """Weight matmuls of one forward pass, in order."""
        return ("gate", "up", "down") if self.gated else ("up", "down")


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in [
        Variant("relu", "relu", False, "ReLU FFN"),
        Variant("gelu", "gelu", False, "GELU FFN (exact erf)"),
        Variant("gelu_tanh", "gelu_tanh", False, "GELU FFN (tanh approximation)"),
        Variant("silu", "silu", False, "SiLU / Swish-1 FFN"),
        Variant("glu", "sigmoid", True, "GLU (sigmoid gate)"),
        Variant("bilinear", "identity", True, "Bilinear (no gate nonlinearity)"),
        Variant("reglu", "relu", True, "ReGLU"),
        Variant("geglu", "gelu", True, "GEGLU (exact erf)"),
        Variant("geglu_tanh", "gelu_tanh", True, "GEGLU (tanh approximation)"),
        Variant("swiglu", "silu", True, "SwiGLU"),
        Variant("tanhglu", "tanh", True, "tanh-gated GLU"),
        Variant("relu2", "relu2", False, "Squared-ReLU FFN (relu(z)²)"),
        Variant("quick_gelu", "quick_gelu", False, "Quick-GELU FFN (z·σ(1.702·z))"),
    ]
}


def get(name: str) -> Variant:
    """The table row for `name`, with a helpful error for unknown names."""
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise KeyError(f"unknown FFN variant {name!r}; known: {known}") from None
