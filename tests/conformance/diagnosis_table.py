"""The table of broken and correct modules the diagnoses were run on: module, identify's
answer, check's answer, the diagnosis, time. Measured, never typed: every row is one
identify_ffn and one check_ffn run (the CLI's defaults: 100 examples per bias setting,
four dtypes, shrinking on) on this machine.

    python -m tests.conformance.diagnosis_table [--examples 100] [--output FILE]
"""

import argparse
import time
import warnings

from . import experts
from .broken import BROKEN, FalconH1Like
from .zoo import HF, SwiGLU, correct

CORRECT = [  # (name, factory, variant, layout, bias, identify's options)
    ("SwiGLU (hf)", SwiGLU, "swiglu", "auto", (False, True), {}),
    ("GELU MLP (hf)", correct(HF, "gelu"), "gelu", "auto", (False, True), {}),
    ("MixtralExperts copy, expert 2", experts.MixtralExpertsCopy, "swiglu", "auto", (False,),
     {"experts": 2}),
    ("DbrxExperts copy, expert 1", experts.DbrxExpertsCopy, "swiglu", "auto", (False,),
     {"experts": 1}),
    ("litgpt LLaMAMoE copy (router apart)", experts.LLaMAMoECopy, "swiglu", "auto",
     (False, True), {"experts": 0}),
]
ROWS = CORRECT + [(name, f, v, layout, (b,), {}) for name, f, v, layout, b, _, _ in BROKEN] + [
    ("FalconH1 mlp_multipliers, no biases", FalconH1Like, "swiglu", "hf", (False,), {})]


def _short(text, n=110):
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def row(entry, examples):
    from ffnverify.testing import check_ffn, identify_ffn
    from ffnverify.testing.conformance import ConformanceFailure

    name, factory, variant, layout, bias, kw = entry
    start = time.monotonic()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            found = identify_ffn(factory, bias=bias[-1], **kw)
            ident = (f"{found.variant} ({found.layout})" if found.best else
                     f"none; closest {found.closest.variant}" if found.closest else "none")
            found_diagnoses = found.diagnoses
        except ConformanceFailure as failure:  # e.g. a forward that raises at d != h
            ident, found_diagnoses = f"{failure.check} failure", failure.diagnoses
        t_identify = time.monotonic() - start
        start = time.monotonic()
        diagnosis = ""
        try:
            report = check_ffn(factory, variant, layout, bias=bias, max_examples=examples,
                               **kw)
            check = f"conformant ({report.layout})"
        except ConformanceFailure as failure:
            c = failure.case
            at = f" at d={c.d} h={c.h} n={c.n}" if c else ""
            check = f"{failure.check}{at}"
            diagnosis = "; or ".join(f"{d.variant}: {d.what}" for d in failure.diagnoses)
        t_check = time.monotonic() - start
    if not diagnosis and found_diagnoses:
        diagnosis = "; or ".join(f"{d.variant}: {d.what}" for d in found_diagnoses)
    return [name, ident, check, _short(diagnosis) or "—",
            f"{t_identify:.1f} s + {t_check:.1f} s"]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--examples", type=int, default=100)
    p.add_argument("--output", default=None)
    args = p.parse_args(argv)
    lines = ["| module | identify | check | diagnosis | time (identify + check) |",
             "| --- | --- | --- | --- | --- |"]
    for entry in ROWS:
        lines.append("| " + " | ".join(row(entry, args.examples)) + " |")
        print(lines[-1], flush=True)
    if args.output:
        with open(args.output, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
