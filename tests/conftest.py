"""Shared test set-up: Hypothesis profiles, skips for optional back ends, and the skip
policy (skip_policy: under CI a skip of what an env is for fails; every skip is logged for
tox's closing summary)."""

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings
from skip_policy import (  # noqa: F401  (pytest hooks)
    pytest_make_collect_report,
    pytest_runtest_makereport,
    pytest_terminal_summary,
)

# Imports, one mode for the whole suite: pytest's default (prepend, rootdir-based). A test
# folder without __init__.py puts itself on sys.path, so its files import their siblings by
# name (`import real_tools`, `from tolerance import ...` from tests/); conformance/, bench/
# and catalogue/ are packages and import theirs relatively (`from .zoo import ...`). The
# folders named like the project's own packages (derivations/, testing/, backends/) must
# never get an __init__.py: they would shadow them. The repository root is put on the path
# here, once, for the folders that are never installed (docs_build/, benchmarks/,
# examples/): appended, not prepended, so the installed ffnverify still wins over the source
# tree. No test file edits sys.path itself (tests/meta/test_import_mode.py).
ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.append(ROOT)

# `ci`, the default tox envs: half the examples of `full` (tox -e full, with the py311
# env's tests). Most properties draw integer shapes through one code path, so the second 25
# examples re-test the paths of the first; the named env keeps the 50 (tests/example_counts.py
# scales the tests that state their own count the same way)
settings.register_profile(
    "ci", max_examples=25, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "full", max_examples=50, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=20, deadline=None)
settings.register_profile("thorough", max_examples=1000, deadline=None)
# `tox -e mutation` runs the selected tests once per mutant: few, fixed examples, no
# database, and no shrinking (a killed mutant needs the failure, not the minimal example)
settings.register_profile(
    "mutation", max_examples=10, deadline=None, derandomize=True, database=None,
    phases=[Phase.explicit, Phase.generate], report_multiple_bugs=False,
    suppress_health_check=list(HealthCheck),
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_collection_modifyitems(config, items):
    try:
        import torch
    except ImportError:
        torch = None
    no_torch = pytest.mark.skip(reason="PyTorch is not installed (pip install torch)")
    no_cuda = pytest.mark.skip(reason="no CUDA device: GPU tests run in `tox -e gpu` on a GPU machine")
    for item in items:
        if torch is None and ("torch" in item.keywords or "gpu" in item.keywords):
            item.add_marker(no_torch)
        elif "gpu" in item.keywords and not torch.cuda.is_available():
            item.add_marker(no_cuda)
