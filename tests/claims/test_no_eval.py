"""Claim text never reaches eval, exec, sympify or parse_expr.

Dynamic proof: every bundled claim (and a few hostile ones) is audited in this process
while builtins.eval/exec and SymPy's string parser raise. Static proof: no module of the
claims package calls them, and no ffnverify module calls the eval/exec builtins.
"""

import ast
import builtins
import importlib
from pathlib import Path

import pytest
import sympy
import sympy.parsing.sympy_parser as sympy_parser

import ffnverify
from ffnverify.claims import audit
from ffnverify.claims.budget import Engine
from ffnverify.claims.files import collect

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ["__import__('os').system('echo pwned') == 0", "exec('1') == 1",
           "eval('1') == 1", "().__class__.__bases__[0] == 1", "lambda: 1", "[1] == 1",
           "x.__class__ == 1", "sympify('1') == 1", "params(relu, d, h)['x'] == 1"]
FORBIDDEN = {"eval", "exec", "sympify", "parse_expr", "compile", "__import__"}


@pytest.mark.slow
def test_auditing_never_evaluates_text(monkeypatch):
    calls = []

    def refuse(name):
        def fn(*args, **kwargs):
            calls.append((name, args[:1]))
            raise AssertionError(f"{name} called during an audit")
        return fn

    sympify_module = importlib.import_module("sympy.core.sympify")
    original_sympify = sympify_module.sympify

    def sympify_no_strings(a, *args, **kwargs):
        if isinstance(a, str):
            calls.append(("sympify", a))
            raise AssertionError("sympify called on text during an audit")
        return original_sympify(a, *args, **kwargs)

    claims = collect([ROOT / "docs", ROOT / "examples"])
    claims += [type(claims[0])("hostile", 1, 1, h) for h in HOSTILE]
    with Engine(isolate=False) as engine:  # first run: lazy imports happen here
        audit.check(claims, engine)
    monkeypatch.setattr(builtins, "eval", refuse("eval"))
    monkeypatch.setattr(builtins, "exec", refuse("exec"))
    monkeypatch.setattr(sympy_parser, "parse_expr", refuse("parse_expr"))
    monkeypatch.setattr(sympify_module, "sympify", sympify_no_strings)
    monkeypatch.setattr(sympy, "sympify", sympify_no_strings)
    with Engine(isolate=False) as engine:  # in this process, where the patches apply
        records = audit.check(claims, engine)
    assert calls == []
    hostile = records[-len(HOSTILE):]
    assert all(r["verdict"] == "error" for r in hostile), hostile
    assert sum(r["ok"] for r in records[:-len(HOSTILE)]) == len(records) - len(HOSTILE)


def _called_names(path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) \
                else None
            yield name, isinstance(f, ast.Name), node.lineno


def test_claims_package_source_calls_no_evaluator():
    pkg = Path(ffnverify.__file__).parent
    for path in sorted((pkg / "claims").glob("*.py")):
        for name, bare, line in _called_names(path):
            bad = name in FORBIDDEN and (bare or name != "compile")  # re.compile is fine
            assert not bad, f"{path.name}:{line} calls {name}()"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] + [getattr(node, "module", "") or ""]
                assert not any("parsing" in n or n in FORBIDDEN for n in names), \
                    f"{path.name}:{node.lineno} imports {names}"


def test_no_ffnverify_module_calls_the_eval_or_exec_builtins():
    pkg = Path(ffnverify.__file__).parent
    for path in sorted(pkg.rglob("*.py")):
        for name, bare, line in _called_names(path):
            assert not (bare and name in {"eval", "exec", "compile"}), \
                f"{path.relative_to(pkg)}:{line} calls {name}()"


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_is_a_syntax_error(text):
    from ffnverify.claims.evaluate import evaluate_claim

    assert evaluate_claim(text)["verdict"] == "error"
