"""The kit's outcomes: `ConformanceFailure` (the full failure report and its runnable
reproducer), `Case` (one drawn example), `Report` (what a passing run did), and the
exceptions the checks raise inside a run (`Vacuous`, `ToolFailure`)."""

from dataclasses import dataclass, field

CHECKS = ("params", "independence", "forward", "backward", "train-mode", "saturation", "flops")
DTYPES = ("float64", "float32", "bfloat16", "float16")


class ConformanceFailure(AssertionError):
    """The module does not conform; str() is the full failure report."""

    def __init__(self, check, message, *, dtype=None, tensor=None, index=None, got=None,
                 expected=None, error=None, bound=None, scale=None, case=None):
        self.check, self.message, self.dtype, self.tensor = check, message, dtype, tensor
        self.scale = scale
        self.index, self.got, self.expected = index, got, expected
        self.error, self.bound, self.case = error, bound, case
        self.others = []  # further distinct failures found in the same run
        self.diagnoses = []  # diagnose.Diagnosis: what the module computes instead
        self.context = None  # (module64, x64) of the failing draw, until diagnosed
        super().__init__(self.report())

    def with_others(self, others):
        """This failure, reporting `others` (ConformanceFailures) too."""
        self.others = list(others)
        self.args = (self.report(),)
        return self

    def report(self):
        where = f"[{self.dtype}]" if self.dtype else ""
        lines = [f"FFN conformance failure: check '{self.check}'{where}: {self.message}"]
        if self.tensor is not None:
            lines.append(f"  tensor:    {self.tensor}")
        if self.index is not None:
            lines.append(f"  worst at:  index {self.index}: got {self.got!r}, "
                         f"reference {self.expected!r}")
        if self.error is not None:
            ratio = self.error / self.bound if self.bound else float("inf")
            lines.append(f"  error:     {self.error:.6g} > bound {self.bound:.6g} "
                         f"({ratio:.3g}× the bound)")
        if self.scale is not None:
            lines.append(f"  scale:     max |reference| over the tensor = {self.scale:.6g}")
        if self.diagnoses:
            lines.extend("  " + line for line in explain(self.diagnoses))
        if self.case is not None:
            c = self.case
            lines.append(f"  drawn:     d={c.d} h={c.h} n={c.n} bias={c.bias} seed={c.seed} "
                         f"variant={c.variant} layout={c.layout_name} device={c.device} "
                         f"act_eval={c.act_eval}")
            lines.append(f"  reproduce: {c.reproducer(self.dtype)}")
        if self.others:
            lines.append(f"and {len(self.others)} other distinct failure(s) in the same run:")
            for other in self.others:
                lines.extend("  " + line for line in other.report().splitlines())
        return "\n".join(lines)


class Vacuous(Exception):
    """The drawn case cannot discriminate: a bound is not far below the signal."""


@dataclass
class Case:
    """One drawn example: what to build and the seed of every drawn value."""

    factory: object
    variant: str
    layout: object
    bias: object  # bool, or {projection: bool}
    d: int
    h: int
    n: int
    seed: int
    device: str = "cpu"
    target: str | None = None
    act_eval: str = "auto"
    notes: set = field(default_factory=set)  # dtypes accepted only by the op-by-op bound
    call: object = None  # call(module, x) -> y (adapters); None: module(x)
    extra: tuple = ()  # fnmatch patterns of parameters outside the FFN (left alone)
    stage: str = "factory"  # the check running now (an unexpected exception names it)
    layout_arg: object = None  # the layout as the user gave it ("auto"): reproducers
    shapes: dict = field(default_factory=dict)  # d_multiple_of, h_of, d, h of the run
    command: str | None = None  # the reproducer, where another command ran this case
    tool_notes: set = field(default_factory=set)  # checks a tool could not run, and why
    expert: int | None = None  # the expert an experts layout reads (experts=)

    @property
    def layout_name(self):
        return self.layout if isinstance(self.layout, str) else "mapping"

    def reproducer(self, dtype=None):
        """A command that runs this one case again and fails the same way: the CLI's when
        every option has a command-line form, else a `python -c` line with its imports."""
        return self.command or self._cli(dtype) or self._python(dtype)

    def _cli(self, dtype):
        import shlex

        layout = _cli_layout(self.layout_arg if self.layout_arg is not None else self.layout)
        h_of = self.shapes.get("h_of")
        h_of_text = getattr(h_of, "cli_text", None) or _importable(h_of)
        call = _importable(self.call)
        if (not self.target or layout is None or not isinstance(self.bias, bool)
                or (self.call is not None and call is None)
                or (h_of is not None and h_of_text is None)):
            return None
        parts = [f"ffnverify check {self.target} --variant {self.variant} --layout {layout}",
                 f"--bias {str(self.bias).lower()}"]
        if dtype:
            parts.append(f"--dtypes {dtype}")
        if self.act_eval != "auto":
            parts.append(f"--act-eval {self.act_eval}")
        if call:
            parts.append(f"--call {call}")
        if self.extra:
            parts.append("--extra-params " + " ".join(shlex.quote(e) for e in self.extra))
        if self.shapes.get("d_multiple_of"):
            parts.append(f"--d-multiple-of {int(self.shapes['d_multiple_of'])}")
        if self.expert is not None:
            parts.append(f"--experts {int(self.expert)}")
        if h_of is not None:
            parts.append(f"--h-of {shlex.quote(h_of_text)}")
        parts.append(f"--device {self.device} --seed {self.seed} --d {self.d} --h {self.h} "
                     f"--n {self.n}")
        return " ".join(parts)

    def _python(self, dtype):
        imports = ["from ffnverify.testing import check_example"]
        name = getattr(self.factory, "__qualname__", repr(self.factory))
        if self.target:
            mod, _, qual = self.target.partition(":")
            imports.append(f"from {mod} import {qual.split('.')[0]}")
            name = qual
        args = [name, repr(self.variant),
                f"layout={(self.layout_arg or self.layout)!r}",
                f"bias={self.bias!r}", f"seed={self.seed}", f"d={self.d}", f"h={self.h}",
                f"n={self.n}", f"device={self.device!r}"]
        if dtype:
            args.append(f"dtypes=({dtype!r},)")
        if self.act_eval != "auto":
            args.append(f"act_eval={self.act_eval!r}")
        for key, fn in (("call", self.call), ("h_of", self.shapes.get("h_of"))):
            if fn is None:
                continue
            where = _importable(fn)
            if where:
                mod, _, qual = where.partition(":")
                imports.append(f"from {mod} import {qual.split('.')[0]}")
                args.append(f"{key}={qual}")
            else:
                args.append(f"{key}={getattr(fn, '__qualname__', key)}")
        if self.extra:
            args.append(f"extra_params={self.extra!r}")
        if self.shapes.get("d_multiple_of"):
            args.append(f"d_multiple_of={int(self.shapes['d_multiple_of'])}")
        if self.expert is not None:
            args.append(f"experts={int(self.expert)}")
        return f"python -c \"{'; '.join(imports)}; check_example({', '.join(args)})\""


def _importable(fn):
    """'module:qualname' of a function importable at top level, else None."""
    mod, qual = getattr(fn, "__module__", None), getattr(fn, "__qualname__", "")
    if fn is None or not mod or not qual or "<" in qual or mod == "__main__" or \
            not _resolves(mod, qual, fn):
        return None
    return f"{mod}:{qual}"


def _cli_layout(layout):
    """The --layout argument for `layout`: its name, or a shell-quoted JSON mapping when every
    transform is a name (a callable transform has no command-line form: None)."""
    import json
    import shlex

    if isinstance(layout, str):
        return layout
    table = {}
    for k, v in layout.items():
        path, transform = (v, "id") if isinstance(v, str) else (v[0], v[1])
        if not isinstance(transform, str):
            return None
        table[k] = [path, transform]
    return shlex.quote(json.dumps(table, separators=(",", ":")))


@dataclass
class Report:
    """What a passing `check_ffn` run did."""

    variant: str
    layout: str
    examples: dict = field(default_factory=dict)  # bias -> examples run
    discarded: dict = field(default_factory=dict)  # bias -> draws vacuous in every dtype
    skipped: dict = field(default_factory=dict)  # bias -> (draw, dtype) runs left out as vacuous
    first: dict = field(default_factory=dict)  # bias -> runs at the smallest shapes, first
    dtypes: tuple = ()
    checks: tuple = CHECKS
    seconds: float = 0.0
    act_eval: str = "auto"
    layout_note: str | None = None  # how layout="auto" chose
    op_by_op: tuple = ()  # dtypes that needed the op-by-op activation bound (act_eval auto)
    tool_notes: tuple = ()  # what a tool could not check (FlopCounterMode failing), and why

    def summary(self):
        runs = ", ".join(
            f"bias={b}: {k} examples × {len(self.dtypes)} dtypes ({self.skipped.get(b, 0)} "
            f"example-dtype runs skipped and {self.discarded.get(b, 0)} draws discarded as "
            "vacuous)" for b, k in self.examples.items())
        first = sum(self.first.values())
        if first:
            runs += f"; first {first} runs at the smallest shapes"
        how = f" ({self.layout_note})" if self.layout_note else ""
        notes = "".join(f"; {t}" for t in self.tool_notes)
        return (f"conformant: variant {self.variant}, layout {self.layout}{how}; checks "
                f"{', '.join(self.checks)}; dtypes {', '.join(self.dtypes)}; {runs}; "
                f"{self.activation_note()}{notes}; {self.seconds:.1f} s")

    def activation_note(self):
        """How the activation's rounding was judged (act_eval)."""
        if self.act_eval == "op-by-op":
            return "activation bound: evaluated op by op at the working precision"
        if self.act_eval == "fused" or not self.op_by_op:
            return "activation bound: evaluated in float32 and rounded once"
        return ("activation bound: evaluated op by op at the working precision in "
                f"{', '.join(self.op_by_op)} (as gelu_new or x*sigmoid(x) do; within "
                "the float32-then-round-once bound elsewhere)")


def _target_of(factory):
    return _importable(factory)


def _resolves(mod: str, qual: str, fn) -> bool:
    """Whether `mod:qual` names `fn` itself in its loaded module (a closure whose
    `__qualname__` was set to a class name does not: its reproducer would not import)."""
    import sys

    obj = sys.modules.get(mod)
    for part in qual.split("."):
        obj = getattr(obj, part, None)
    return obj is fn


def explain(diagnoses):
    """The report's lines for a list of diagnoses (several: the numbers cannot tell them
    apart)."""
    if not diagnoses:
        return []
    if len(diagnoses) == 1:
        return [f"diagnosis: {diagnoses[0].text()}"]
    lines = [f"diagnosis: {len(diagnoses)} explanations fit identically (the numbers cannot "
             "tell them apart):"]
    lines += [f"  - {d.text()}" for d in diagnoses]
    return lines


class ToolFailure(Exception):
    """FlopCounterMode itself failed on a forward that runs without it."""
