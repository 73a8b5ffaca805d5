"""Every MathML formula on the site is printed from the derivations, never typed by hand."""

import re
from pathlib import Path

import pytest
import sympy as sp
from sympy.printing.mathml import mathml

from derivations import activations, flops, memory, params, widths
from derivations.symbols import d, h, n, z
from docs_build import formulas, pages

ROOT = Path(__file__).resolve().parents[2]
MATH = re.compile(r'<math [^>]*data-formula="([^"]*)"[^>]*>(.*?)</math>', re.S)
# MathML token and layout elements: written only by SymPy's printer, never in our sources
HAND_TYPED = re.compile(r"<(mi|mn|mo|mrow|mfrac|msup|msub|msqrt|mtext|mfenced)[\s>]")


def rhs_of(spec):
    """The closed form a spec means, asked of the derivations directly (not via formulas)."""
    kind, name, *opts = spec.split()
    if kind == "params":
        return params.params(name, bias="bias" in opts)
    if kind == "flops":
        pass_ = next((o for o in opts if o in flops.PASSES), "forward")
        return flops.flops(name, d, h, n, pass_, "all" if "all" in opts else "matmul")
    if kind == "memory":
        return memory.activation_memory(name, convention=opts[0])
    if kind == "activation":
        return activations.expr(name)
    if kind == "derivative":
        return activations.derivative(name)
    if kind == "derivative-form":
        return activations.DERIVATIVE_FORMS[name]
    if kind == "match":
        return widths.match_width(name, 4 * d, opts[0], d, "bias" in opts[1:])
    raise AssertionError(spec)


def test_every_formula_of_the_generated_page_is_the_derivation_printed():
    page = pages.closed_forms_page()
    found = MATH.findall(page)
    specs = pages.all_specs()
    assert [spec for spec, _ in found] == specs
    for spec, body in found:
        lhs, _ = formulas.equation(spec)
        rhs = rhs_of(spec)
        in_table = not any(spec in specs for heading, _, _, rows in pages.sections()
                           if heading in pages.LONG for _, specs in rows)
        # a table cell shows the closed form alone (its column header names the call);
        # a display formula shows call = closed form
        expected = rhs if in_table else sp.Eq(lhs, rhs, evaluate=False)
        assert body == formulas.mathml(expected), spec
        # and the right-hand side is exactly what SymPy's own printer makes of the derivation
        assert mathml(rhs, printer="presentation") in body, f"{spec}: not the derivation's"


def test_table_columns_name_the_call_their_cells_answer():
    page = pages.closed_forms_page()
    for call in ["params(v, d, h)", "params(v, d, h, bias=true)",
                 "flops(v, d, h, n, pass=backward)", "flops(v, d, h, n, pass=train)",
                 "memory(v, d, h, n, convention=recompute)",
                 "match_width(relu, 4*d, v, d, bias=true)"]:
        assert f"<br><code>{call}</code></th>" in page, call


def test_the_page_follows_the_derivations_when_they_change(monkeypatch):
    """If the derivation changed, the page would: it is printed at build time, not stored."""
    sentinel = sp.Symbol("SENTINEL") * d * h
    monkeypatch.setattr(params, "params", lambda *a, **k: sentinel)
    page = pages.closed_forms_page()
    assert mathml(sentinel, printer="presentation") in page


def test_no_mathml_is_typed_by_hand_in_docs_or_build_code():
    sources = [*ROOT.joinpath("docs").rglob("*.md"), *ROOT.joinpath("docs_build").glob("*.py")]
    assert sources, "no sources found to scan"
    offenders = [str(p.relative_to(ROOT)) for p in sources if HAND_TYPED.search(p.read_text())]
    assert offenders == [], f"hand-typed MathML (render it from the derivations): {offenders}"


def test_the_hand_typed_check_would_catch_typed_mathml():
    assert HAND_TYPED.search("<math><mn>3</mn><mi>d</mi></math>")
    assert not HAND_TYPED.search('<math display="block" data-formula="params relu"></math>')


def test_directives_expand_to_the_formula_and_leave_the_rest():
    text = "before\n\n<!-- formula: params swiglu -->\n\n<!-- a comment -->\nafter"
    out = formulas.expand_directives(text)
    assert out.count("<math ") == 1 and "<!-- a comment -->" in out and "before" in out
    assert formulas.render("params swiglu") in out
    assert mathml(3 * d * h, printer="presentation") in out


@pytest.mark.parametrize("spec", ["params nosuch", "params swiglu fast", "flops relu sideways",
                                  "activation softmax", "match relu", "volume relu"])
def test_unknown_formulas_fail_loudly(spec):
    with pytest.raises(formulas.FormulaError):
        formulas.render(spec)


def test_the_home_page_directives_all_render():
    index = ROOT.joinpath("docs", "index.md").read_text()
    directives = formulas.DIRECTIVE.findall(index)
    assert directives, "the home page should show closed forms"
    out = formulas.expand_directives(index)
    assert [s for s, _ in MATH.findall(out)] == [" ".join(s.split()) for s in directives]


def test_bare_words_print_verbatim():
    body = formulas.render("flops gelu_tanh backward no-input-grad")
    assert '<mi mathvariant="normal">gelu_tanh</mi>' in body
    assert '<mi mathvariant="normal">input_grad=false</mi>' in body
    assert "<msub>" not in body


def test_activation_formulas_are_in_z():
    _lhs, rhs = formulas.equation("derivative silu")
    assert rhs.free_symbols == {z} and sp.simplify(rhs - sp.diff(activations.silu(z), z)) == 0
