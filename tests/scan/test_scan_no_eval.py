"""A scanned document is never executed: every hostile document is scanned (claims
decided in this process) while eval, exec and SymPy's string parsers raise, and
no module of the scan package names them."""

import ast
import builtins
import importlib
from pathlib import Path

import pytest
import sympy.parsing.sympy_parser as sympy_parser

import ffnverify.scan
from ffnverify.scan.scan import scan

HOSTILE = [
    "__import__('os').system('touch /tmp/pwned') = 3 and 3×32 = 96.",
    "Llama 2 7B has exec('import os') layers and 32 layers.",
    "`eval('1')` = 1 and 8/3·4096 = 10922; ().__class__.__bases__[0] has 12 heads.",
    "10^10^10 = 1 parameters and 9" + "9" * 5000 + " FLOPs; 4096" + "²" * 300 + " weights.",
    "(" * 500 + "3×32 = 96" + ")" * 500 + " layers",
]


@pytest.mark.slow
def test_scanning_never_evaluates_text(tmp_path, monkeypatch, engine):
    calls = []
    for i, text in enumerate(HOSTILE):
        for suffix in (".md", ".txt", ".rst", ".html"):
            (tmp_path / f"h{i}{suffix}").write_text(text, encoding="utf-8")
    scan([str(tmp_path)], engine)  # first, so that lazy imports (which exec) are done

    def refuse(name):
        def fn(*a, **kw):
            calls.append(name)
            raise AssertionError(f"{name} called while scanning")
        return fn

    for name in ("eval", "exec"):
        monkeypatch.setattr(builtins, name, refuse(name))
    monkeypatch.setattr(sympy_parser, "parse_expr", refuse("parse_expr"))
    sympify_module = importlib.import_module("sympy.core.sympify")
    original = sympify_module.sympify
    monkeypatch.setattr(sympify_module, "sympify", lambda a, *x, **k: original(a, *x, **k)
                        if not isinstance(a, str) else refuse("sympify")())
    result = scan([str(tmp_path)], engine)
    assert not calls
    assert not Path("/tmp/pwned").exists()
    assert result["statements"]  # the hostile text was read, as text


def test_no_scan_module_names_eval():
    builtin = {"eval", "exec", "compile", "__import__"}  # as bare names (re.compile is fine)
    sympy_parsers = {"sympify", "parse_expr"}
    for path in Path(ffnverify.scan.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                if isinstance(node.func, ast.Name):
                    assert node.func.id not in builtin | sympy_parsers, (path.name, node.lineno)
                elif isinstance(node.func, ast.Attribute):
                    assert node.func.attr not in sympy_parsers, (path.name, node.lineno)
