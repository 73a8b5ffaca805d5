"""The pre-commit hooks run what `tox -e lint` runs: the same ruff release, on the same
folders, with the one configuration in pyproject.toml ([tool.ruff]; no hook passes its own
rules), and the import contracts."""

import configparser
import re
import shlex
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _lint_env() -> configparser.SectionProxy:
    tox = configparser.ConfigParser(interpolation=None)
    tox.read(ROOT / "tox.ini")
    return tox["testenv:lint"]


def _hooks() -> dict:
    yaml = pytest.importorskip("yaml", reason="PyYAML reads .pre-commit-config.yaml")
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    return {hook["id"]: (repo, hook) for repo in config["repos"] for hook in repo["hooks"]}


def test_the_ruff_hook_is_the_ruff_release_tox_pins():
    repo, _ = _hooks()["ruff"]
    pinned = re.search(r"^ruff==(\S+)", _lint_env()["deps"], re.MULTILINE)
    assert pinned, "tox -e lint pins no ruff release"
    assert repo["rev"] == f"v{pinned.group(1)}"


def test_the_ruff_hook_checks_the_folders_tox_checks_with_pyprojects_rules():
    _, hook = _hooks()["ruff"]
    command = next(shlex.split(line) for line in _lint_env()["commands"].splitlines()
                   if line.strip().startswith("ruff check"))
    assert hook["args"] == command[2:] and hook["pass_filenames"] is False
    assert not any(a.startswith(("--select", "--ignore", "--extend", "--config"))
                   for a in hook["args"])  # the rules are pyproject's, nowhere else
    lint = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]
    assert {"RUF", "B"} <= set(lint["lint"]["select"])


def test_the_import_contracts_hook_runs_lint_imports():
    _, hook = _hooks()["import-contracts"]
    assert hook["entry"] == "lint-imports" and "lint-imports" in _lint_env()["commands"]
