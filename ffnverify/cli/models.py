"""`ffnverify models [NAME...] [--format text|json]`: the catalogue with its checks.

Each row: the stated shape; `width`, d_ff against its width rule (MATCH, or MISMATCH with
the width the rule gives; "given" where the source states the width and no rule derives
it); the derived total; `published`, the published total against it (MATCH, MISMATCH with
the published figure, "—" where none is published). The sources follow the table, which
fits 100 columns. NAMEs (case-insensitive, aliases accepted) select rows; an unknown name
is an error (exit 2) that suggests the closest. Exit 0 when no row shows MISMATCH, 1
otherwise. `--format json` gives every field of every selected row.
"""

import json
import sys
import textwrap

from ffnverify import catalogue
from ffnverify.catalogue import GIVEN, MISMATCH, MODELS, UNPUBLISHED, check, get

DASH = "—"
WIDTH = 100
COLUMNS = ["name", "d_model", "d_ff", "variant", "bias", "layers", "width", "params",
           "published"]


def add_arguments(p):
    p.add_argument("names", nargs="*", metavar="NAME",
                   help="only these models (default: all); e.g. llama-2-7b gemma-7b")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text: a table and the sources (default); json: every field")


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
    width = r["width_check"]
    if width == MISMATCH:
        width = f"MISMATCH {r['derived_width']}"
    published = r["total_check"]
    if published == UNPUBLISHED:
        published = DASH
    elif published == MISMATCH:
        published = f"MISMATCH {r['published_total']:,}"
    return [
        r["name"], str(r["d_model"]), str(r["d_ff"]), r["variant"], "yes" if r["bias"] else "no",
        str(r["layers"]) + (f"+{r['encoder_layers']}" if r["encoder_layers"] else ""),
        width, f"{r['derived_total']:,}", published,
    ]


def _table(records: list[dict]) -> str:
    rows = [COLUMNS] + [_cells(r) for r in records]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows]
    lines += ["", f"width: d_ff against its width rule ({GIVEN}: stated by the source); "
              "params: derived total;", "published: the published total against it."]
    lines += ["", "Sources:"]
    for r in records:
        lines += textwrap.wrap(f"{r['name']}: {r['source']}", WIDTH, initial_indent="  ",
                               subsequent_indent="    ", break_on_hyphens=False)
    return "\n".join(lines)


def run(args) -> int:
    try:
        chosen = [get(n) for n in args.names] if args.names else list(MODELS.values())
    except KeyError as e:
        print(f"ffnverify models: error: {e.args[0]}", file=sys.stderr)
        return 2
    chosen = list({m.name: m for m in chosen}.values())  # a name given twice: one row
    records = [_record(m) for m in chosen]
    if args.format == "json":
        print(json.dumps({"version": 1, "models": records}, indent=2, ensure_ascii=False))
    else:
        print(_table(records))
        failed = [r["name"] for r in records if not r["ok"]]
        noun = "model" if len(records) == 1 else "models"
        print(f"\n{len(records)} {noun}, {len(failed)} with a MISMATCH"
              + (f": {', '.join(failed)}" if failed else ""))
    return 0 if all(r["ok"] for r in records) else 1
