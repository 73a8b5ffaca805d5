"""Pages generated at build time: the closed-forms reference, written from the derivations.

`closed_forms_page()` returns the Markdown of `closed-forms.md`; every formula on it is
`formulas.render(spec)` for a spec listed here, so the page always shows what the
derivations say today. Tables are raw HTML blocks so Markdown never touches the MathML.
"""

from html import escape

import sympy as sp

from derivations import activations, variants
from docs_build import formulas

PAGE = "closed-forms.md"
GATED = [v for v, row in variants.VARIANTS.items() if row.gated]
LONG = {"Activations and derivatives"}  # formulas too wide for a table row
PLOTTED_ACTIVATIONS = [a for a in activations.ACTIVATIONS if a != "identity"]


def _call(spec: str) -> str:
    """The claim-language call a spec's closed form answers, with the variant as `v`."""
    lhs, _ = formulas.equation(spec)
    words = spec.split()
    if words[0] == "match":  # match FROM TO: the row is the variant solved for
        return sp.sstr(lhs).replace(f", {words[2]},", ", v,")
    return sp.sstr(lhs).replace(f"({words[1]},", "(v,")


def _table(header: list[str], rows: list[tuple[str, list[str]]]) -> str:
    """A raw HTML table: first column text, the others the closed forms (MathML) alone;
    each column header names the claim-language call it answers, so cells stay narrow."""
    calls = [""] + [_call(spec) for spec in rows[0][1]]
    head = "".join(f"<th>{escape(h)}" + (f"<br><code>{escape(c)}</code>" if c else "") + "</th>"
                   for h, c in zip(header, calls))
    body = "".join(
        f"<tr><td><code>{escape(label)}</code></td>"
        + "".join(f"<td>{formulas.render(spec, display='inline', rhs_only=True)}</td>"
                  for spec in specs)
        + "</tr>"
        for label, specs in rows
    )
    return f'<div class="formula-table"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def sections() -> list[tuple[str, str, list[str], list[tuple[str, list[str]]]]]:
    """(heading, explanation, column titles, rows of (label, specs)) for every table."""
    names = list(variants.VARIANTS)
    return [
        ("Parameters", "Exact counts for model width d and hidden width h: a projection from width a to "
         "width b has a·b weights, and b biases with bias.",
         ["variant", "no bias", "with bias"],
         [(v, [f"params {v}", f"params {v} bias"]) for v in names]),
        ("Matmul FLOPs", "2 FLOPs per multiply-add, n tokens; backward includes the "
         "input-gradient matmuls.",
         ["variant", "forward", "backward", "train"],
         [(v, [f"flops {v} forward", f"flops {v} backward", f"flops {v} train"]) for v in names]),
        ("All FLOPs", "Matmuls plus the activation and the gating multiply, priced by "
         "the per-element cost table of `derivations.flops`.",
         ["variant", "forward", "backward"],
         [(v, [f"flops {v} forward all", f"flops {v} backward all"]) for v in names]),
        ("Activation memory", "Elements saved for the backward pass.",
         ["variant", "store", "recompute"],
         [(v, [f"memory {v} store", f"memory {v} recompute"]) for v in names]),
        ("Parameter-matched widths", "The hidden width that gives a gated variant the "
         "parameters of a ReLU FFN with h = 4d.",
         ["variant", "no bias", "with bias"],
         [(v, [f"match relu {v}", f"match relu {v} bias"]) for v in GATED]),
        ("Activations and derivatives", "SymPy's derivative, and the textbook form the "
         "tests prove equal to it.",
         ["activation", "act(z)", "SymPy's derivative", "textbook form"],
         [(a, [f"activation {a}", f"derivative {a}", f"derivative-form {a}"])
          for a in PLOTTED_ACTIVATIONS]),
    ]


def _blocks(rows: list[tuple[str, list[str]]]) -> list[str]:
    """Long formulas: one sub-heading per row, its formulas as display math."""
    parts = []
    for label, specs in rows:
        parts += ["", f"### {label}", ""]
        parts += [f'<div class="formula">{formulas.render(spec)}</div>' for spec in specs]
    return parts


def closed_forms_page() -> str:
    parts = [
        "# Closed forms",
        "",
        "Every formula on this page is printed at build time from `derivations/` by "
        "SymPy's MathML printer; none is typed by hand. Run `ffnverify derive` for the "
        "same expressions as text or LaTeX.",
    ]
    for heading, text, header, rows in sections():
        parts += ["", f"## {heading}", "", text]
        if heading in LONG:
            parts += _blocks(rows)
        else:
            parts += ["", _table(header, rows)]
    return "\n".join(parts) + "\n"


def all_specs() -> list[str]:
    """Every formula spec the generated page renders."""
    return [spec for *_, rows in sections() for _, specs in rows for spec in specs]
