"""The issue-24 table of third-party modules: module, identify, check, diagnosis, time.
Measured, never typed: every row is one identify_ffn and one check_ffn run (an MoE block:
one check_moe run, the gating it identifies in the identify column; a library left out:
its reason) on the installed libraries; with transformers, the eleven real classes broken
the ways issue 24 §1 names (hf_broken.HF_BROKEN) too.

    python -m tests.conformance.thirdparty_table [--examples 20] [--output FILE]
"""

import argparse
import importlib.util
import time
import warnings

from .diagnosis_table import _short, row
from .thirdparty import BROKEN, ENTRIES, MOE, MOE_BROKEN, MOE_DENSE, REJECTED


def _installed(pkg):
    try:
        return importlib.util.find_spec(pkg) is not None
    except Exception:
        return False


def moe_row(name, factory, variant, top_k, gating, examples):
    from ffnverify.testing.moe import check_moe
    from ffnverify.testing.results import ConformanceFailure

    start = time.monotonic()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r = check_moe(factory, variant, top_k, gating=gating, max_examples=examples)
            ident = f"{r.experts} × {variant}, top {r.top_k}, gates {r.gating} ({r.layout})"
            flops = (f"FLOPs exactly routed ({sum(r.counted)} forward, "
                     f"{sum(r.counted_train)} with backward)" if r.counted else r.flops_note)
            unchecked = "; ".join(f"{dt} {', '.join(k)} gradients not checkable"
                                  for dt, k in r.not_checkable().items())
            check = (f"conformant ({r.compared} token-dtype outputs, {r.tie_tokens} ties "
                     f"left out, {r.grads} gradients compared; {flops}"
                     + (f"; {unchecked}" if unchecked else "") + ")")
            diagnosis = "—"
        except ConformanceFailure as failure:
            c = failure.case
            ident = f"stated top {top_k}, gates {gating}"
            check = f"{failure.check}" + (f" at d={c.d} h={c.h} n={c.n}" if c else "")
            diagnosis = "; or ".join(d.what for d in failure.diagnoses) or "—"
    return [name, ident, check, _short(diagnosis), f"{time.monotonic() - start:.1f} s"]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--examples", type=int, default=20)
    p.add_argument("--output", default=None)
    args = p.parse_args(argv)
    lines = ["| module | identify | check | diagnosis | time |", "| --- | --- | --- | --- | --- |"]

    def emit(cells):
        lines.append("| " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)

    for name, factory, variant, bias, kw, pkg in ENTRIES + BROKEN:
        if not _installed(pkg):
            emit([name, "—", f"skipped: {pkg} not installed", "—", "—"])
            continue
        emit(row((name, factory, variant, "auto", bias, kw), args.examples))
    from .hf_broken import HF_BROKEN  # issue 24 §1: real classes broken each way

    for name, factory, variant, layout, bias, _kind, _words in HF_BROKEN:
        if not _installed("transformers"):
            break
        emit(row((name, factory, variant, layout, (bias,), {}), args.examples))
    for name, factory, variant, top_k, _gating, _, pkg in MOE:
        if _installed(pkg):
            emit(moe_row(name, factory, variant, top_k, "auto", max(2, args.examples // 4)))
    for name, factory, variant, top_k, gating, _, pkg in MOE_BROKEN:
        if _installed(pkg):
            emit(moe_row(name, factory, variant, top_k, gating, max(2, args.examples // 4)))
    for name, factory, variant, top_k, _, pkg in MOE_DENSE:
        if _installed(pkg):
            emit(moe_row(name, factory, variant, top_k, "auto", max(2, args.examples // 4)))
    for name, _, reason in REJECTED:
        emit([name, "—", "rejected", _short(reason, 160), "—"])
    if args.output:
        with open(args.output, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
