"""The independence rule, checked from the source (import-linter checks it too, in `tox -e lint`).

`derivations` may import only sympy, the standard library and itself; the numeric backends
may not import `derivations` (nor sympy, which would let formulas leak in). The scanner is
also run on deliberately violating sources to prove it can fail.
"""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BACKENDS = ["backends/variants.py", "backends/activations.py", "backends/numpy_ffn.py",
            "backends/torch_ffn.py", "backends/__init__.py"]


def imported_roots(source: str) -> set[str]:
    """Top-level package names a module's source imports (absolute imports)."""
    roots = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module":
            if node.args and isinstance(node.args[0], ast.Constant):
                roots.add(str(node.args[0].value).split(".")[0])
    return roots


def derivation_violations(source: str) -> set[str]:
    allowed = {"sympy", "derivations"} | set(sys.stdlib_module_names)
    return imported_roots(source) - allowed


def backend_violations(source: str) -> set[str]:
    return imported_roots(source) & {"derivations", "sympy"}


@pytest.mark.parametrize("path", sorted((ROOT / "derivations").glob("*.py")), ids=lambda p: p.name)
def test_derivations_import_only_sympy(path):
    bad = derivation_violations(path.read_text())
    assert not bad, f"{path.name} imports {sorted(bad)}: derivations may import sympy and the stdlib only"


@pytest.mark.parametrize("name", BACKENDS)
def test_backends_never_import_derivations(name):
    bad = backend_violations((ROOT / "ffnverify" / name).read_text())
    assert not bad, f"ffnverify/{name} imports {sorted(bad)}: the backends must stay independent"


@pytest.mark.parametrize(
    "source",
    ["import numpy as np", "from torch import nn", "import ffnverify.backends.numpy_ffn",
     "from scipy import special", "import importlib\nimportlib.import_module('numpy')"],
)
def test_mutant_derivation_sources_are_flagged(source):
    assert derivation_violations(source), f"scanner missed a forbidden import in {source!r}"


@pytest.mark.parametrize(
    "source",
    ["from derivations.params import params", "import derivations", "import sympy as sp",
     "def f():\n    from derivations import flops\n"],
)
def test_mutant_backend_sources_are_flagged(source):
    assert backend_violations(source), f"scanner missed a forbidden import in {source!r}"
