"""Closed forms from the derivations, printed as MathML (browsers render it natively).

A formula is named by a short spec, the same words a docs page writes in a directive
`<!-- formula: SPEC -->`:

    params VARIANT [bias]
    flops VARIANT [forward|backward|train] [all] [bias] [no-input-grad]    (also macs)
    memory VARIANT [store|recompute]
    activation NAME | derivative NAME | derivative-form NAME
    match FROM TO [bias]        the h giving TO the parameters of FROM at h = 4d

`equation(spec)` asks the derivations for the right-hand side and builds the left-hand
side from the spec (in the claim language's own notation); `to_mathml` prints both with
SymPy's presentation-MathML printer. Nothing here types a formula: the only MathML
written by hand is the outer `<math>` element.
"""

import re
from html import escape

import sympy as sp
from sympy.printing.mathml import MathMLPresentationPrinter

from derivations import activations, flops, memory, params, variants, widths
from derivations.symbols import d, h, n, z

DIRECTIVE = re.compile(r"<!--\s*formula:\s*(?P<spec>[A-Za-z0-9_ \-]+?)\s*-->")

QUANTITIES = ("params", "flops", "macs", "memory", "activation", "derivative",
              "derivative-form", "match")


class FormulaError(ValueError):
    """A directive names a formula the derivations do not have."""


def _variant(name: str) -> str:
    if name not in variants.VARIANTS:
        raise FormulaError(f"unknown variant {name!r}; known: {', '.join(variants.VARIANTS)}")
    return name


def _activation(name: str) -> str:
    if name not in activations.ACTIVATIONS:
        known = ", ".join(activations.ACTIVATIONS)
        raise FormulaError(f"unknown activation {name!r}; known: {known}")
    return name


def _options(words: list[str], allowed: set[str], spec: str) -> set[str]:
    bad = [w for w in words if w not in allowed]
    if bad:
        raise FormulaError(f"formula {spec!r}: unknown option(s) {bad}; allowed: {sorted(allowed)}")
    return set(words)


class Word(sp.Symbol):
    """A bare word of the claim language (`gelu_tanh`, `pass=train`), printed as written:
    SymPy would read `gelu_tanh` as gelu with subscript tanh."""


class Printer(MathMLPresentationPrinter):
    """SymPy's presentation-MathML printer, printing a Word verbatim."""

    def _print_Word(self, word, style="plain"):
        element = self.dom.createElement("mi")
        element.setAttribute("mathvariant", "normal")
        element.appendChild(self.dom.createTextNode(word.name))
        return element


def mathml(expr: sp.Expr) -> str:
    """Presentation MathML of `expr` (the outer <math> element not included)."""
    return Printer().doprint(expr)


def _call(name: str, *args) -> sp.Expr:
    """The left-hand side `name(args...)`, as an unevaluated function application."""
    return sp.Function(name)(*[a if isinstance(a, sp.Basic) else Word(a) for a in args])


def equation(spec: str) -> tuple[sp.Expr, sp.Expr]:
    """(left-hand side, closed form) for a formula spec; raises FormulaError if unknown."""
    words = spec.split()
    if len(words) < 2 or words[0] not in QUANTITIES:
        raise FormulaError(f"formula {spec!r}: expected one of {', '.join(QUANTITIES)} and a name")
    quantity, name, rest = words[0], words[1], words[2:]
    if quantity == "params":
        opts = _options(rest, {"bias"}, spec)
        bias = "bias" in opts
        lhs = _call("params", name, d, h, *(["bias=true"] if bias else []))
        return lhs, params.params(_variant(name), bias=bias)
    if quantity in ("flops", "macs"):
        opts = _options(rest, {*flops.PASSES, "all", "bias", "no-input-grad"}, spec)
        pass_ = next((p for p in flops.PASSES if p in opts), "forward")
        extra = [f"pass={pass_}"] if pass_ != "forward" else []
        extra += ["count=all"] if "all" in opts else []
        extra += ["bias=true"] if "bias" in opts else []
        extra += ["input_grad=false"] if "no-input-grad" in opts else []
        fn = flops.flops if quantity == "flops" else flops.macs
        rhs = fn(_variant(name), pass_=pass_, count="all" if "all" in opts else "matmul",
                 input_grad="no-input-grad" not in opts, bias="bias" in opts)
        return _call(quantity, name, d, h, n, *extra), rhs
    if quantity == "memory":
        opts = _options(rest, set(memory.CONVENTIONS), spec)
        convention = next(iter(opts), "store")
        lhs = _call("memory", name, d, h, n, f"convention={convention}")
        return lhs, memory.activation_memory(_variant(name), convention=convention)
    if quantity == "activation":
        _options(rest, set(), spec)
        return _call(_activation(name), z), activations.expr(name)
    if quantity == "derivative":
        _options(rest, set(), spec)
        return sp.Derivative(_call(_activation(name), z), z), activations.derivative(name)
    if quantity == "derivative-form":
        _options(rest, set(), spec)
        form = activations.DERIVATIVE_FORMS[_activation(name)]
        return sp.Derivative(_call(name, z), z), form
    # match FROM TO [bias]
    if not rest:
        raise FormulaError(f"formula {spec!r}: expected `match FROM TO [bias]`")
    to, opts = rest[0], _options(rest[1:], {"bias"}, spec)
    bias = "bias" in opts
    lhs = _call("match_width", name, 4 * d, to, d, *(["bias=true"] if bias else []))
    return lhs, widths.match_width(_variant(name), 4 * d, _variant(to), d, bias)


def to_mathml(lhs: sp.Expr, rhs: sp.Expr, key: str = "", display: str = "block") -> str:
    """`lhs = rhs` as a <math> element, printed by SymPy (presentation MathML)."""
    body = mathml(sp.Eq(lhs, rhs, evaluate=False))
    return (
        f'<math xmlns="http://www.w3.org/1998/Math/MathML" display="{display}" '
        f'data-formula="{escape(key, quote=True)}">{body}</math>'
    )


def render(spec: str, display: str = "block", rhs_only: bool = False) -> str:
    """The formula `spec` as MathML, straight from the derivations; `rhs_only`: the closed
    form alone (a table cell, whose row and column say what it is)."""
    spec = " ".join(spec.split())
    lhs, rhs = equation(spec)
    if rhs_only:
        return (f'<math xmlns="http://www.w3.org/1998/Math/MathML" display="{display}" '
                f'data-formula="{escape(spec, quote=True)}">{mathml(rhs)}</math>')
    return to_mathml(lhs, rhs, key=spec, display=display)


def expand_directives(markdown: str) -> str:
    """Replace each `<!-- formula: SPEC -->` by the rendered MathML (a raw HTML block)."""
    def one(match: re.Match) -> str:
        return f'<div class="formula">{render(match["spec"])}</div>'

    return DIRECTIVE.sub(one, markdown)
