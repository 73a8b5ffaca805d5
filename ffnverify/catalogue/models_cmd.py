"""`ffnverify models [--format text|json]`: the catalogue with its checks.

Each row: the stated shape (heads/kv_heads and the context included), d_ff as its width rule reproduces it ("—" where the width is
given, not derived) with MATCH/MISMATCH, the derived total against the published one
("—" where none is published) with MATCH/MISMATCH, and the source. Exit 0 when no row
shows MISMATCH, 1 otherwise.
"""

import json

from ffnverify import catalogue
from ffnverify.catalogue import GIVEN, MODELS, UNPUBLISHED, check

DASH = "—"
COLUMNS = ["name", "d_model", "d_ff", "variant", "bias", "layers", "heads/kv", "context",
           "rule width", "width", "derived total", "published total", "total", "source"]


def add_arguments(p):
    p.add_argument("--format", choices=("text", "json"), default="text")


def _record(m) -> dict:
    c = check(m)
    return {
        "name": m.name, "d_model": m.d_model, "d_ff": m.d_ff, "variant": m.variant,
        "bias": m.bias, "layers": m.layers, "encoder_layers": m.encoder_layers,
        "vocab": m.vocab, "heads": m.heads, "kv_heads": m.kv_heads, "head_dim": m.head_dim,
        "tied": m.tied, "norm": m.norm, "norm_weight": m.norm_weight,
        "norm_bias": m.norm_bias, "experts": m.experts, "active_experts": m.active_experts,
        "context": m.context, "hf_ids": list(m.hf_ids),
        "parts": catalogue.parts(m), "params_active": catalogue.params_active(m),
        "width_rule": m.width_rule, "width_params": {k: v if isinstance(v, int) else str(v)
                         for k, v in m.width_params.items()},
        "width_source": m.width_source,
        "derived_width": c.derived_width, "width_check": c.width,
        "derived_total": c.derived_total, "published_total": m.published_total,
        "published_source": m.published_source, "total_check": c.total,
        "source": m.source, "note": m.note, "ok": c.ok,
    }


def _cells(r: dict) -> list[str]:
    return [
        r["name"], str(r["d_model"]), str(r["d_ff"]), r["variant"], "yes" if r["bias"] else "no",
        str(r["layers"]) + (f"+{r['encoder_layers']}" if r["encoder_layers"] else ""),
        f"{r['heads']}/{r['kv_heads']}", DASH if r["context"] is None else str(r["context"]),
        DASH if r["derived_width"] is None else str(r["derived_width"]),
        DASH if r["width_check"] == GIVEN else r["width_check"],
        f"{r['derived_total']:,}",
        DASH if r["published_total"] is None else f"{r['published_total']:,}",
        DASH if r["total_check"] == UNPUBLISHED else r["total_check"],
        r["source"],
    ]


def _table(records: list[dict]) -> str:
    rows = [COLUMNS] + [_cells(r) for r in records]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS) - 1)]
    lines = []
    for row in rows:
        fixed = [c.ljust(w) for c, w in zip(row[:-1], widths)]
        lines.append("  ".join(fixed + [row[-1]]).rstrip())
    return "\n".join(lines)


def run(args) -> int:
    records = [_record(m) for m in MODELS.values()]
    if args.format == "json":
        print(json.dumps({"version": 1, "models": records}, indent=2, ensure_ascii=False))
    else:
        print(_table(records))
        failed = [r["name"] for r in records if not r["ok"]]
        print(f"\n{len(records)} models, {len(failed)} with a MISMATCH"
              + (f": {', '.join(failed)}" if failed else ""))
    return 0 if all(r["ok"] for r in records) else 1
