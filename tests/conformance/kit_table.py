"""The table of third-party MLP classes the kit was run on: class, layout found, identify's
answer, examples, time. Measured, never typed: every row is one identify_ffn and one
check_ffn run (layout="auto") of this machine's installed libraries.

    python -m tests.conformance.kit_table [--examples 25] [--output build/kit_table.md]

A class whose library does not import gets a row saying why; a class the kit rejects gets
the failing check (BloomMLP in float64: its truncated tanh-GELU constant).
"""

import argparse
import importlib
import platform
import time
import warnings
from pathlib import Path

from .hf_modules import HF_CLASSES, MCALL, MEGATRON_CLASSES, TIMM_CLASSES, megatron_mlp
from .real_modules import torchtune_feedforward

# torchtune's FeedForward(gate_proj, down_proj, up_proj) as the other entries
TORCHTUNE = [("torchtune FeedForward", torchtune_feedforward, "swiglu", (False, True), {},
              "torchtune")]
# megatron-core's fused bias-GELU (config F.gelu; the kernel: tanh-GELU, constant 0.79788456),
# run with torch.compile off (megatron's jit_fuser compiles it per shape: minutes on a CPU)
FUSED = [("megatron-core MLP(bias_activation_fusion)", megatron_mlp(fused=True), "gelu",
          (True,), MCALL, "megatron")]
ALL = HF_CLASSES + TORCHTUNE + TIMM_CLASSES + MEGATRON_CLASSES + FUSED
LOW = ("float32", "bfloat16", "float16")
IMPORTS = {"transformers": "transformers", "x_transformers": "x_transformers.x_transformers",
           "torchtune": "torchtune.modules", "timm": "timm.layers", "megatron": "megatron.core",
           "torchvision": "torchvision.ops"}


def _importable(pkg):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            importlib.import_module(IMPORTS[pkg])
        return None
    except Exception as exc:
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:80]}"


def _bias_text(bias):
    def one(b):
        return ", ".join(f"{k}={v}" for k, v in b.items()) if isinstance(b, dict) else str(b)
    return " / ".join(one(b) for b in bias)


def row(entry, examples):
    """One measured row: {class, package, variant, bias, layout, identify, examples, time,
    result}."""
    from ffnverify.testing import check_ffn, identify_ffn
    from ffnverify.testing.conformance import ConformanceFailure

    name, factory, variant, bias, kw, pkg = entry
    out = {"class": name, "package": pkg, "variant": variant, "bias": _bias_text(bias),
           "layout": "", "identify": "", "examples": "", "time": "", "result": ""}
    why = _importable(pkg)
    if why:
        out["result"] = f"not run: {pkg} does not import ({why})"
        return out
    shapes = {k: kw[k] for k in ("h_of", "d_multiple_of") if k in kw}
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        last = bias[-1]
        found = identify_ffn(factory, bias=bool(last), call=kw.get("call"), **shapes)
        top = found.best or found.closest
        out["identify"] = (f"{top.variant} ({top.error:.1g})" if found.best else
                           f"none; closest {top.variant} ({top.error:.1g})") if top else "none"
        try:
            report = check_ffn(factory, variant, bias=bias, max_examples=examples,
                               shrink=False, **kw)
            out["result"] = "pass"
        except ConformanceFailure as exc:
            out["layout"] = found.layout or ""
            out["result"] = f"rejected: {exc.check}[{exc.dtype}]"
            if exc.dtype != "float64":
                out["time"] = f"{time.perf_counter() - start:.0f} s"
                return out
            # rejected in float64 only (a truncated constant): the working precisions
            try:
                report = check_ffn(factory, variant, bias=bias, max_examples=examples,
                                   shrink=False, dtypes=LOW, **kw)
            except ConformanceFailure as low:
                out["result"] += f"; in {', '.join(LOW)}: {low.check}[{low.dtype}]"
                out["time"] = f"{time.perf_counter() - start:.0f} s"
                return out
            out["result"] += "; pass in " + ", ".join(LOW)
        out["layout"] = report.layout
        if found.layout != report.layout:
            out["identify"] += f", layout {found.layout}"
        out["examples"] = " + ".join(str(n) for n in report.examples.values())
    out["time"] = f"{time.perf_counter() - start:.0f} s"
    return out


COLUMNS = ["class", "variant", "bias", "layout", "identify", "examples", "time", "result"]
HEADS = ["class", "variant asked", "bias settings", "layout found (auto)",
         "identify (max error)", "examples", "time", "result"]


def table(rows, examples):
    from importlib import metadata

    import torch

    versions = []
    for dist in ("transformers", "timm", "torchvision", "x-transformers", "torchtune",
                 "megatron-core"):
        try:
            versions.append(f"{dist} {metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{dist} absent")
    lines = [f"Measured by `python -m tests.conformance.kit_table --examples {examples}`: "
             f"torch {torch.__version__}, {', '.join(versions)}, Python "
             f"{platform.python_version()}. Examples: per bias setting, every dtype; time: "
             "identify plus the kit, on a shared 2-core machine.", "",
             "| " + " | ".join(HEADS) + " |", "|" + "---|" * len(HEADS)]
    for r in rows:
        lines.append("| " + " | ".join(str(r[c]).replace("|", "/") for c in COLUMNS) + " |")
    return "\n".join(lines) + "\n"


def _no_compile(off):
    import contextlib

    if not off:
        return contextlib.nullcontext()
    import torch._dynamo

    return torch._dynamo.config.patch(disable=True)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--examples", type=int, default=25)
    p.add_argument("--output", default="build/kit_table.md")
    p.add_argument("-k", default="", help="only classes whose name contains this")
    args = p.parse_args(argv)
    rows = []
    for entry in ALL:
        if args.k.lower() in entry[0].lower():
            with _no_compile(entry in FUSED):
                rows.append(row(entry, args.examples))
            print(" | ".join(str(rows[-1][c]) for c in COLUMNS), flush=True)
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(table(rows, args.examples), encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
