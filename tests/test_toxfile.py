"""toxfile.py, the tox plugin of this project: under CI a missing interpreter fails, and
the closing summary names every skipped env and every skipped group of tests."""

import importlib.util
import json
import types
from pathlib import Path

import pytest

pytest.importorskip("tox", reason="tox is not installed: `tox -e package` runs this (or pip install tox)")
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def toxfile():
    spec = importlib.util.spec_from_file_location("toxfile_under_test", ROOT / "toxfile.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def state(skip="config"):
    options = types.SimpleNamespace(skip_missing_interpreters=skip)
    return types.SimpleNamespace(conf=types.SimpleNamespace(options=options))


@pytest.mark.parametrize(("ci", "given", "expected"), [
    ("true", "config", "false"), ("1", "config", "false"), ("", "config", "config"),
    ("false", "config", "config"), ("true", "true", "true"),  # the command line wins
])
def test_ci_turns_a_missing_interpreter_into_a_failure(toxfile, monkeypatch, ci, given,
                                                       expected):
    monkeypatch.setenv("CI", ci)
    monkeypatch.setattr(toxfile.atexit, "register", lambda fn: None)
    s = state(given)
    toxfile.tox_add_core_config(None, s)
    assert s.conf.options.skip_missing_interpreters == expected


class Env:
    def __init__(self, name, tmp):
        self.name = name
        self.conf = {"env_tmp_dir": tmp}


def test_summary_names_skipped_envs_and_groups(toxfile, tmp_path):
    assert toxfile.summary_lines() == [
        "ffnverify: nothing skipped (every env ran, no test skipped)"]
    # py312 is skipped by tox: the reason is logged just before its teardown
    toxfile._SkipRecorder().emit(types.SimpleNamespace(
        getMessage=lambda: "skipped because could not find python interpreter with spec(s): py312"))
    toxfile.tox_env_teardown(Env("py312", tmp_path / "py312"))
    # browser runs, and pytest logs its skips there
    env = Env("browser", tmp_path / "browser")
    env.conf["env_tmp_dir"].mkdir()
    toxfile.tox_before_run_commands(env)
    with open(env.conf["env_tmp_dir"] / toxfile.SKIP_LOG, "w") as f:
        f.write(json.dumps({"reason": "no Chromium installed", "count": 5,
                            "required": ["browser"]}) + "\n")
        f.write(json.dumps({"reason": "needs CUDA", "count": 1, "required": []}) + "\n")
    toxfile.tox_env_teardown(env)
    lines = toxfile.summary_lines()
    assert lines[0].startswith("ffnverify: skipped in this run (WARNING: something that "
                               "should run did not; under CI=true it fails)")
    assert lines[1:] == [
        "  py312: SKIPPED (env): could not find python interpreter with spec(s): py312",
        "  browser: WARNING 5 skipped: no Chromium installed",
        "  browser: 1 skipped: needs CUDA",
    ]


def test_a_run_with_optional_skips_only_is_no_warning(toxfile, tmp_path):
    env = Env("py313", tmp_path)
    toxfile.tox_before_run_commands(env)
    (tmp_path / toxfile.SKIP_LOG).write_text(json.dumps(
        {"reason": "PyTorch is not installed (pip install torch)", "count": 40,
         "required": []}) + "\n")
    toxfile.tox_env_teardown(env)
    assert toxfile.summary_lines() == [
        "ffnverify: skipped in this run:",
        "  py313: 40 skipped: PyTorch is not installed (pip install torch)"]


def test_a_required_skip_failed_under_ci_is_named_as_failed(toxfile, tmp_path):
    env = Env("browser", tmp_path)
    toxfile.tox_before_run_commands(env)
    (tmp_path / toxfile.SKIP_LOG).write_text(json.dumps(
        {"reason": "no Chromium installed", "count": 6, "required": ["browser"],
         "failed": True}) + "\n")
    toxfile.tox_env_teardown(env)
    assert toxfile.summary_lines() == [
        "ffnverify: skipped in this run (FAILED: under CI=true something that should run "
        "did not):",
        "  browser: FAILED (CI) 6 skipped: no Chromium installed"]
