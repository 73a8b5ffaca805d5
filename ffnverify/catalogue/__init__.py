"""The catalogue of real architectures, and the one function that checks a row.

`MODELS` maps a name (docs/architecture.md §4: `llama-2-7b`, `gemma-7b`, ...) to its `Model` row. The row's
d_ff is reproduced from its width rule and its whole-model total from
`derivations.transformer`; `check(model)` compares both with what the row states
(MATCH / MISMATCH). The claims engine uses `d_model`, `d_ff`, `layers`, `params_total` and, through
`ffnverify.claims.model_functions`, `architecture` for the whole-model counts. Names are
case-insensitive and Hugging Face repository ids are aliases; an unknown name gets the
closest ones suggested (difflib).

This module joins the data to the derivations (like the claims engine); the numeric
backends stay independent of both.
"""

import difflib
from dataclasses import dataclass

from derivations import transformer
from derivations.widths import exact, llama_width
from ffnverify.catalogue.models import ALIASES, ROWS, Model

MODELS: dict[str, Model] = {m.name: m for m in ROWS}

MATCH, MISMATCH, GIVEN, UNPUBLISHED = "MATCH", "MISMATCH", "given", "unpublished"


class UnknownModel(KeyError):
    """A name the catalogue does not know; str() is the message (KeyError's would quote it)."""

    def __str__(self):
        return str(self.args[0]) if self.args else ""


def _lookup() -> dict[str, str]:
    """lower-cased name, alias or Hugging Face repository id -> catalogue name."""
    table = {n.lower(): n for n in MODELS}
    table.update({a.lower(): n for a, n in ALIASES.items()})
    for m in ROWS:
        table.update({hf.lower(): m.name for hf in m.hf_ids})
    return table


LOOKUP = _lookup()


def closest(name: str, n: int = 3) -> list[str]:
    """The catalogue names (or repository ids) nearest to `name`, by difflib."""
    hits = difflib.get_close_matches(name.lower(), list(LOOKUP), n=n, cutoff=0.5)
    out = []
    for h in hits:  # report the catalogue name, once
        if LOOKUP[h] not in out:
            out.append(LOOKUP[h])
    return out


def get(name: str) -> Model:
    """The row for `name`: a catalogue name, an alias or a Hugging Face repository id, in
    any case (`Llama-2-7B`, `meta-llama/Llama-2-7b-hf`). A KeyError suggests the closest."""
    key = LOOKUP.get(str(name).lower())
    if key is None:
        near = closest(str(name))
        hint = f"did you mean {', '.join(near)}?" if near else "see `ffnverify models`"
        raise UnknownModel(f"unknown model {name!r}; {hint}") from None
    return MODELS[key]


def _model(m) -> Model:
    return m if isinstance(m, Model) else get(m)


def architecture(m) -> transformer.Architecture:
    """The row's shape as the derivations read it."""
    m = _model(m)
    return transformer.Architecture(
        d_model=m.d_model, d_ff=m.d_ff, variant=m.variant, layers=m.layers, vocab=m.vocab,
        heads=m.heads, kv_heads=m.kv_heads, head_dim=m.head_dim, bias=m.bias,
        qkv_bias=m.qkv_bias, o_bias=m.o_bias, tied=m.tied, norm=m.norm,
        norm_weight=m.norm_weight, norm_bias=m.norm_bias, norms_per_layer=m.norms_per_layer,
        positions=m.positions, experts=m.experts, encoder_layers=m.encoder_layers,
        relative_attention_buckets=m.relative_attention_buckets,
        active_experts=m.active_experts, shared_d_ff=m.shared_d_ff,
        shared_expert_gate=m.shared_expert_gate, qk_norm=m.qk_norm,
        token_types=m.token_types, embedding_norm=m.embedding_norm, pooler=m.pooler,
        final_norm=m.final_norm,
    )


def derived_width(m) -> int | None:
    """d_ff as the row's width rule produces it, or None where the width is given."""
    m = _model(m)
    p = m.width_params
    if m.width_rule is None:
        return None
    if m.width_rule == "llama":
        w = llama_width(m.d_model, p.get("multiple_of", 256), p.get("multiplier"))
    elif m.width_rule == "ratio":
        w = exact(p["ratio"]) * m.d_model
    elif m.width_rule == "half_fused":
        w = exact(p["fused"]) / 2
    else:
        raise ValueError(f"{m.name}: unknown width rule {m.width_rule!r}")
    if not w.is_integer:
        raise ValueError(f"{m.name}: the {m.width_rule} rule gives a non-integer width {w}")
    return int(w)


def params_total(m) -> int:
    """The derived whole-model parameter count, as a Python int."""
    return int(transformer.params_total(architecture(m)))


def breakdown(m) -> dict[str, int]:
    return {k: int(v) for k, v in transformer.breakdown(architecture(m)).items()}


def parts(m) -> dict[str, int]:
    """{embedding, lm_head, positions, attention, ffn, norms, pooler}: they add to the total."""
    return {k: int(v) for k, v in transformer.parts(architecture(m)).items()}


def layer_parts(m) -> dict[str, int]:
    return {k: int(v) for k, v in transformer.layer_parts(architecture(m)).items()}


def params_active(m) -> int:
    return int(transformer.active_params(architecture(m)))


def d_model(m) -> int:
    return _model(m).d_model


def d_ff(m) -> int:
    return _model(m).d_ff


def layers(m) -> int:
    return _model(m).layers


@dataclass(frozen=True)
class Check:
    name: str
    width: str  # MATCH | MISMATCH | given
    derived_width: int | None
    total: str  # MATCH | MISMATCH | unpublished
    derived_total: int

    @property
    def ok(self) -> bool:
        return MISMATCH not in (self.width, self.total)


def check(m) -> Check:
    """Compare a row with its derivations: its d_ff against its width rule, its published
    total against the derived total. The one checking function for every row and mutant."""
    m = _model(m)
    w = derived_width(m)
    total = params_total(m)
    width_verdict = GIVEN if w is None else (MATCH if w == m.d_ff else MISMATCH)
    if m.published_total is None:
        total_verdict = UNPUBLISHED
    else:
        total_verdict = MATCH if total == m.published_total else MISMATCH
    return Check(m.name, width_verdict, w, total_verdict, total)
