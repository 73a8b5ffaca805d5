"""The FLOP counters people run, wrapped as counting functions for `check_counter`.

Each wrapper builds a small FFN block the way model code writes one (nn.Linear projections,
the activation as an nn.Module as Hugging Face, nanoGPT and Megatron do, the gating product
as Python's `*` or as torch.mul), feeds it a real (batch, d) or (batch, seq, d) tensor and
returns the tool's total. TOOLS says, for each tool, the unit it claims and the ffnverify
target its number should equal; EXPECTED holds the explanation `check_counter` must name
for every cell where it does not.

Run as a script (in the `counters` tox env, where the tools are installed) it rewrites the
table in docs/counters.md between the markers; tests/counters/test_real_tools.py checks that
the committed table is what the tools give.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import logging
import re
import sys
import warnings
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "counters.md"
BEGIN, END = "<!-- real-counters-table: begin -->", "<!-- real-counters-table: end -->"
VARIANTS = ("relu", "gelu", "swiglu")
SHAPE = {"d": 8, "h": 12, "batch": 3, "seq": 5}  # where the ratio column is evaluated
CHECK = {"max_examples": 16, "max_dim": 24, "timeout": 60}  # per check_counter run


@dataclass(frozen=True)
class Tool:
    name: str
    module: str  # the import that must succeed for the tool to be checked
    unit: str  # what the tool says it reports
    counts: str  # what it actually adds up, in a few words
    quantity: str  # the ffnverify target its number should equal
    convention: tuple = ()  # (key, value) pairs for check_counter

    def installed(self) -> bool:
        if self.name == "ultralytics-thop":
            return _ultralytics_thop() is not None
        return importlib.util.find_spec(self.module.split(".")[0]) is not None and \
            _importable(self.module)


def _importable(module):
    return _import_error(module) is None


@functools.cache
def _import_error(module):
    """Why `module` does not import (None when it does); tried once per process, so a
    half-imported package is never retried."""
    try:
        __import__(module)
    except Exception as e:  # a tool that fails to import is not installed
        return f"{type(e).__name__}: {e}"
    return None


def import_error(tool):
    t = BY_NAME[tool]
    if t.name == "ultralytics-thop":
        return f"no ultralytics-thop folder in ${ULTRALYTICS_THOP}"
    return _import_error(t.module)


TOOLS = [
    Tool("FlopCounterMode", "torch.utils.flop_counter", "FLOPs",
         "aten matmuls at 2 per multiply-add", "flops"),
    Tool("fvcore", "fvcore.nn", "flops", "one per fused multiply-add (linear, matmul)", "flops"),
    Tool("ptflops (pytorch)", "ptflops", "MACs",
         "module hooks ÷ batch, plus patched F.* activations", "macs"),
    Tool("ptflops (aten)", "ptflops", "MACs", "aten mm/addmm, the bias add as 1 MAC", "macs"),
    Tool("thop", "thop", "MACs", "nn.Linear hooks: in_features per output element", "macs"),
    Tool("ultralytics-thop", "thop", "MACs",
         "nn.Linear hooks: in_features per output element", "macs"),
    Tool("torchinfo", "torchinfo", "mult-adds",
         "parameters x the first (batch) dimension of the output", "macs"),
    Tool("calflops", "calflops", "FLOPs",
         "patched F.linear (2 per MAC), F.* activations and torch.mul at 1", "flops",
         (("count", "all"),)),
    Tool("calflops (backward)", "calflops", "FLOPs",
         "the forward count x (1 + compute_bp_factor = 2)", "flops",
         (("count", "all"), ("pass", "train"))),
    Tool("deepspeed", "deepspeed.profiling.flops_profiler", "FLOPs",
         "patched F.linear (2 per MAC), F.* activations and torch.mul at 1", "flops",
         (("count", "all"),)),
    Tool("torchtnt", "torchtnt.utils.flops", "flop", "aten mm/addmm/bmm, one per MAC", "flops"),
    Tool("torchprofile", "torchprofile", "MACs",
         "jit-traced aten ops: matmuls, and aten::mul at 1 per element; no activations",
         "macs"),
    Tool("torchscan", "torchscan", "FLOPs",
         "module formulas: a linear at 2k - 1 per output (+1 with bias), ReLU at 1", "flops",
         (("count", "all"),)),
    Tool("pthflops", "pthflops", "FLOPs",
         "fx-traced modules: a linear at 1 per MAC, the bias once per call, ReLU at 2, "
         "a mul at 1 per operand", "flops"),
    Tool("torch-operation-counter", "torch_operation_counter", "operations",
         "every aten op, clones from its own module hooks and weight transposes included",
         "flops", (("count", "all"),)),
]
BY_NAME = {t.name: t for t in TOOLS}

# The explanation each tool must get, per (variant, bias, rank); "exact" where it agrees.
# Keys not listed for a tool are "exact".


def expected(tool: str, variant: str, bias: bool, rank: int) -> str:
    gated = variant == "swiglu"
    if tool in ("FlopCounterMode",):
        return "exact"
    if tool in ("fvcore", "torchtnt"):
        return "macs_vs_flops"
    if tool in ("thop", "ultralytics-thop"):
        return "exact"
    if tool == "ptflops (aten)":
        return "bias_term" if bias else "exact"
    if tool == "ptflops (pytorch)":
        return "per_sample_functional_activation" if gated else "per_sample_double_activation"
    if tool == "torchinfo":
        if rank == 2:
            return "bias_term" if bias else "exact"
        return "seq_dropped+bias_term" if bias else "seq_dropped"
    if tool in ("calflops", "deepspeed", "calflops (backward)"):
        parts = []
        if variant != "relu":
            parts.append("activation_one_flop")
        if gated:
            parts.append("gate_not_counted")
        if bias:
            parts.append("bias_adds_not_counted" if parts else "missing_bias")
        key = "+".join(parts) or "exact"
        if tool == "calflops (backward)":
            if key == "missing_bias":  # the two commute; the search names the bias first
                return "missing_bias+backward_as_2x_forward"
            return "backward_as_2x_forward" + ("" if key == "exact" else f"+{key}")
        return key
    if tool == "torchprofile":  # the gating product, or the activation: one of the two
        return "activation_added" if gated else "exact"
    if tool == "torchscan":
        if variant != "relu":
            return "error"  # no formula for GELU or SiLU: no total
        # with the bias fixed on, ours less 1 per output element is also the bias adds left
        # out: the two are listed, indistinguishable
        return "missing_bias" if bias else "linear_2k_minus_1"
    if tool == "pthflops":
        # the order is the search's: a pair is outer+inner; three, the unit first
        elementwise = {"relu": "activation_added_twice", "gelu": None,
                       "swiglu": "activation_and_gate_added"}[variant]
        if elementwise is None:
            return "bias_per_call+macs_vs_flops" if bias else "macs_vs_flops"
        return (f"macs_vs_flops+bias_per_call+{elementwise}" if bias
                else f"{elementwise}+macs_vs_flops")
    if tool == "torch-operation-counter":
        # its own hooks' clones: no named mechanism, but a closed form; on a 2-D SwiGLU
        # input with bias the clones happen to equal 4 per bias parameter per token
        if variant == "swiglu" and bias and rank == 2:
            return "macs_vs_flops+bias_term+count"
        return "none"
    raise KeyError(tool)


# --- the FFN block and the calls ----------------------------------------------------------


def block(variant, d, h, bias, mul="python", device=None):
    import torch
    from torch import nn

    acts = {"relu": nn.ReLU, "gelu": nn.GELU, "swiglu": nn.SiLU}

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.gated = variant == "swiglu"
            kw = {"bias": bias, "device": device}
            if self.gated:
                self.gate_proj = nn.Linear(d, h, **kw)
            self.up_proj = nn.Linear(d, h, **kw)
            self.down_proj = nn.Linear(h, d, **kw)
            self.act = acts[variant]()

        def forward(self, x):
            if self.gated:
                a, u = self.act(self.gate_proj(x)), self.up_proj(x)
                return self.down_proj(a * u if mul == "python" else torch.mul(a, u))
            return self.down_proj(self.act(self.up_proj(x)))

    return Block()


def count(tool, variant, d, h, batch, seq=None, bias=False, mul="python"):
    """The tool's total for the block on a (batch, d) input, or (batch, seq, d) if seq."""
    import torch

    torch.manual_seed(0)
    with torch.no_grad():
        m = block(variant, d, h, bias, mul)
    x = torch.zeros(batch, d) if seq is None else torch.zeros(batch, seq, d)
    quiet = io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stdout(quiet), \
            contextlib.redirect_stderr(quiet):
        warnings.simplefilter("ignore")
        logging.disable(logging.WARNING)
        try:
            return _count(tool, m, x)
        finally:
            logging.disable(logging.NOTSET)


def _count(tool, m, x):
    if tool == "FlopCounterMode":
        from torch.utils.flop_counter import FlopCounterMode
        with FlopCounterMode(display=False) as c:
            m(x)
        return c.get_total_flops()
    if tool == "fvcore":
        from fvcore.nn import FlopCountAnalysis
        a = FlopCountAnalysis(m, x)
        a.unsupported_ops_warnings(False)
        a.uncalled_modules_warnings(False)
        return a.total()
    if tool.startswith("ptflops"):
        from ptflops import get_model_complexity_info
        backend = "aten" if "aten" in tool else "pytorch"
        return get_model_complexity_info(m, tuple(x.shape[1:]), input_constructor=lambda _: x,
                                         as_strings=False, print_per_layer_stat=False,
                                         backend=backend)[0]
    if tool == "thop":
        from thop import profile
        return profile(m, inputs=(x,), verbose=False)[0]
    if tool == "ultralytics-thop":
        return _ultralytics_thop().profile(m, inputs=(x,), verbose=False)[0]
    if tool == "torchinfo":
        from torchinfo import summary
        return summary(m, input_data=x, verbose=0).total_mult_adds
    if tool.startswith("calflops"):
        from calflops import calculate_flops
        return calculate_flops(m, args=[x], print_results=False, print_detailed=False,
                               output_as_string=False,
                               include_backPropagation="backward" in tool)[0]
    if tool == "deepspeed":
        from deepspeed.profiling.flops_profiler import get_model_profile
        return get_model_profile(m, args=[x], print_profile=False, detailed=False,
                                 as_string=False)[0]
    if tool == "torchtnt":
        from torchtnt.utils.flops import FlopTensorDispatchMode
        with FlopTensorDispatchMode(m) as f:
            m(x)
        return sum(f.flop_counts[""].values())
    if tool == "torchprofile":
        from torchprofile import profile_macs
        return profile_macs(m, args=(x,))
    if tool == "torchscan":
        from torchscan import crawl_module
        total = crawl_module(m, args=(x,))["totals"]["module_flops"]
        if total["status"] != "complete":
            raise Unsupported(f"torchscan: module_flops is {total['status']} (no formula for "
                              "a module of the block)")
        return total["value"]
    if tool == "pthflops":
        from pthflops import count_ops
        return count_ops(m, x, print_readable=False, verbose=False)[0]
    if tool == "torch-operation-counter":
        import torch
        from torch_operation_counter import OperationsCounterMode
        with torch.no_grad(), OperationsCounterMode(m) as c:
            m(x)
        return c.total_operations
    raise KeyError(tool)


class Unsupported(RuntimeError):
    """The tool gives no total for this block (a module it has no formula for)."""


ULTRALYTICS_THOP = "FFNVERIFY_ULTRALYTICS_THOP"  # a folder holding ultralytics-thop's `thop`


@functools.cache
def _ultralytics_thop():
    """ultralytics-thop, installed with `pip install --target` into the folder named by
    $FFNVERIFY_ULTRALYTICS_THOP, since it installs the same `thop` package as thop does.
    Imported under its own sys.modules entries, then the original thop put back."""
    import os

    folder = os.environ.get(ULTRALYTICS_THOP)
    if not folder or not (Path(folder) / "thop" / "__init__.py").is_file():
        return None
    ours = {k: sys.modules.pop(k) for k in list(sys.modules) if k == "thop" or
            k.startswith("thop.")}
    sys.path.insert(0, folder)  # the one way to import a second `thop` beside the installed one
    try:
        import thop as module
    except Exception:  # not importable: not installed
        module = None
    finally:
        sys.path.remove(folder)
        for k in [k for k in sys.modules if k == "thop" or k.startswith("thop.")]:
            del sys.modules[k]
        sys.modules.update(ours)
    if module is None or not str(getattr(module, "__version__", "")).startswith("2"):
        return None
    return module


def counter(tool, variant, rank, bias, mul="python"):
    """A counting function for check_counter: (d, h, batch[, seq]) -> the tool's total."""
    if rank == 2:
        def f2(d, h, batch):
            return count(tool, variant, d, h, batch, None, bias, mul)
        f2.__qualname__ = f"{_slug(tool)}_{variant}_2d"
        return f2

    def f3(d, h, batch, seq):
        return count(tool, variant, d, h, batch, seq, bias, mul)
    f3.__qualname__ = f"{_slug(tool)}_{variant}_3d"
    return f3


def _slug(name):
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


@functools.cache
def cached_check(tool, variant, rank, bias, mul="python"):
    """check() with the default settings, once per process (the table and the tests share it)."""
    return check(tool, variant, rank, bias, mul)


def check(tool, variant, rank, bias, mul="python", **overrides):
    """check_counter on the tool's number, against the target in TOOLS."""
    from ffnverify.testing.counters import check_counter

    t = BY_NAME[tool]
    return check_counter(counter(tool, variant, rank, bias, mul), t.quantity, variant,
                         convention=dict(t.convention), bias=bias, **{**CHECK, **overrides})


def ratio(tool, variant, rank, bias):
    """yours / derived at SHAPE, exactly."""
    from ffnverify.testing.closed_form import to_fraction
    from ffnverify.testing.explain import Target

    t = BY_NAME[tool]
    conv = dict(t.convention)
    target = Target(t.quantity, variant, conv.get("pass", "forward"), conv.get("count", "matmul"))
    s = SHAPE
    seq = s["seq"] if rank == 3 else None
    n = s["batch"] * (seq or 1) if rank == 3 else s["batch"] * s["seq"]
    batch = s["batch"] if rank == 3 else n
    try:
        yours = to_fraction(count(tool, variant, s["d"], s["h"], batch, seq, bias))
    except Unsupported:
        return None
    return yours / target.value({"d": s["d"], "h": s["h"], "n": n, "bias": bias})


# --- the table ------------------------------------------------------------------------------


def rows():
    """[(tool, rank, [(variant, bias, ratio, key)])] for every installed tool."""
    out = []
    for tool in TOOLS:
        if not tool.installed():
            continue
        for rank in (2, 3):
            cells = []
            for variant in VARIANTS:
                for bias in (False, True):
                    result = cached_check(tool.name, variant, rank, bias)
                    key = ("error" if result.error else
                           "exact" if result.ok else
                           result.explanation.key if result.explanation else "none fits")
                    cells.append((variant, bias, ratio(tool.name, variant, rank, bias), key))
            out.append((tool, rank, cells))
    return out


def table(rows_) -> str:
    s = SHAPE
    head = ["tool", "unit", "counts", "target", "input"]
    head += [f"{v}{' +bias' if b else ''}" for v in VARIANTS for b in (False, True)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for tool, rank, cells in rows_:
        conv = ", ".join(f"{k}={v}" for k, v in tool.convention)
        target = tool.quantity + (f" ({conv})" if conv else "")
        shape = "(batch, d)" if rank == 2 else "(batch, seq, d)"
        lines.append("| " + " | ".join(
            [tool.name, tool.unit, tool.counts, target, shape]
            + [f"{'-' if r is None else _frac(r)} · {_short(k)}" for _, _, r, k in cells])
            + " |")
    note = (f"\nRatio = the tool's number / the derivation at d = {s['d']}, h = {s['h']}, "
            f"{s['batch'] * s['seq']} tokens (a ({s['batch'] * s['seq']}, d) input, or "
            f"({s['batch']}, {s['seq']}, d)), followed by the explanation check-counter "
            "names. Generated by `python tests/counters/real_tools.py` in the `counters` tox "
            "env.\n")
    return "\n".join(lines) + "\n" + note


_SHORT = {"exact": "exact", "macs_vs_flops": "MACs as FLOPs", "bias_term": "bias term",
          "seq_dropped": "seq dropped", "missing_bias": "bias adds not counted",
          "bias_adds_not_counted": "bias adds not counted",
          "activation_one_flop": "activation at 1", "gate_not_counted": "gate not counted",
          "backward_as_2x_forward": "backward = 2x forward",
          "per_sample_double_activation": "per-sample, activation twice",
          "per_sample_functional_activation": "per-sample, activation undivided",
          "activation_added": "activation at 1 (or gate at 1: indistinguishable)",
          "activation_added_twice": "activation at 2",
          "activation_and_gate_added": "activation and gate at 1",
          "bias_per_call": "bias once per call",
          "linear_2k_minus_1": "linear at 2k - 1",
          "error": "no total (a module unsupported)"}


def _short(key):
    return " + ".join(_SHORT.get(k, k) for k in key.split("+"))


def _frac(r: Fraction) -> str:
    return str(r.numerator) if r.denominator == 1 else f"{r.numerator}/{r.denominator}"


def write(doc=DOC) -> str:
    text = doc.read_text()
    new = table(rows())
    before, _, rest = text.partition(BEGIN)
    _, _, after = rest.partition(END)
    doc.write_text(f"{before}{BEGIN}\n{new}{END}{after}")
    return new


def committed(doc=DOC) -> str:
    text = doc.read_text()
    return text.partition(BEGIN)[2].partition(END)[0].lstrip("\n")


if __name__ == "__main__":  # `python tests/counters/real_tools.py`: not under pytest, so the
    sys.path.insert(0, str(ROOT))  # checkout's ffnverify must be put on the path by hand
    print(write())
