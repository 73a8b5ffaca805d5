"""toxfile.py, the tox plugin of this project: under CI a missing interpreter fails, and
the closing summary names every skipped env and every skipped group of tests."""

import importlib.util
import json
import types
from pathlib import Path

import pytest

pytest.importorskip("tox", reason="tox is not installed: `tox -e package` runs this (or pip install tox)")
ROOT = Path(__file__).resolve().parents[2]


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
    assert lines[1:-1] == [
        "  py312: SKIPPED (env): could not find python interpreter with spec(s): py312",
        "  browser: WARNING 5 skipped: no Chromium installed",
        "  browser: 1 skipped, none of them what this env is for: 1 needs CUDA",
    ]
    assert lines[-1].startswith("  (the full lists: each env's pytest summary above, and its "
                                "pytest-skips.jsonl, e.g. ") and "browser" in lines[-1]


def test_a_run_with_optional_skips_only_is_no_warning(toxfile, tmp_path):
    env = Env("py313", tmp_path)
    toxfile.tox_before_run_commands(env)
    (tmp_path / toxfile.SKIP_LOG).write_text(json.dumps(
        {"reason": "PyTorch is not installed (pip install torch)", "count": 40,
         "required": []}) + "\n")
    toxfile.tox_env_teardown(env)
    assert toxfile.summary_lines()[:2] == [
        "ffnverify: skipped in this run:",
        "  py313: 40 skipped, none of them what this env is for: 40 PyTorch is not installed"]


def test_a_required_skip_failed_under_ci_is_named_as_failed(toxfile, tmp_path):
    env = Env("browser", tmp_path)
    toxfile.tox_before_run_commands(env)
    (tmp_path / toxfile.SKIP_LOG).write_text(json.dumps(
        {"reason": "no Chromium installed", "count": 6, "required": ["browser"],
         "failed": True}) + "\n")
    toxfile.tox_env_teardown(env)
    assert toxfile.summary_lines()[:2] == [
        "ffnverify: skipped in this run (FAILED: under CI=true something that should run "
        "did not):",
        "  browser: FAILED (CI) 6 skipped: no Chromium installed"]


def write_log(toxfile, env, skips):
    toxfile.tox_before_run_commands(env)
    with open(env.conf["env_tmp_dir"] / toxfile.SKIP_LOG, "w") as f:
        for reason, count, required in skips:
            f.write(json.dumps({"reason": reason, "count": count, "required": required}) + "\n")
    toxfile.tox_env_teardown(env)


def test_the_summary_is_short_and_leads_with_what_should_have_run(toxfile, tmp_path):
    """A default run's shape: three envs each skip ~50 reasons of tests that belong to other
    envs (Playwright, CUDA, hf, 29 distinct "empirical: ..." claims), and one env skips what
    it is for. The summary is one line per env plus the required skip, and that comes first."""
    elsewhere = [("Playwright is not installed (pip install playwright; the browser tox env "
                  "has it)", 1, []),
                 ("no CUDA device: GPU tests run in `tox -e gpu` on a GPU machine", 52, []),
                 ("no CUDA device: GPU tests run in `tox -e gpu` on a GPU machine", 26, []),
                 ("long run: set FFNVERIFY_SLOW=1 (about 1,000 examples)", 60, []),
                 ("long run: set FFNVERIFY_SLOW=1 (1,000 examples per seed)", 9, []),
                 ("transformers is not installed (tox -e hf installs it)", 19, [])]
    elsewhere += [(f"empirical: setting number {i} is a setting, not a count", 1, [])
                  for i in range(29)]
    for name in ("py311", "py312", "py313"):
        (tmp_path / name).mkdir()
        write_log(toxfile, Env(name, tmp_path / name), elsewhere)
    (tmp_path / "browser").mkdir()
    write_log(toxfile, Env("browser", tmp_path / "browser"),
              [("no Chromium installed", 6, ["browser"])])
    lines = toxfile.summary_lines()
    assert len(lines) == 1 + 1 + 3 + 1, "\n".join(lines)  # head, required, 3 envs, where
    assert lines[1] == "  browser: WARNING 6 skipped: no Chromium installed"
    assert lines[2] == ("  py311: 196 skipped, none of them what this env is for: 78 no CUDA "
                        "device, 69 long run, 29 empirical, and 2 more reasons")
    assert not any("Playwright" in line for line in lines)  # counted, not named
    assert all(len(line) <= 130 for line in lines[:-1]), max(lines[:-1], key=len)
    assert "py311" in lines[-1] and lines[-1].endswith("pytest-skips.jsonl)")


@pytest.mark.parametrize(("reason", "head"), [
    ("no CUDA device: GPU tests run in `tox -e gpu`", "no CUDA device"),
    ("PyTorch is not installed (pip install torch)", "PyTorch is not installed"),
    ("fvcore is not installed or does not import (the counters tox env installs it)",
     "fvcore is not installed or does not…"),
    ("", "no reason given"),
    ("x" * 60, "x" * 39 + "…"),
])
def test_a_reason_is_named_by_its_first_words(toxfile, reason, head):
    assert toxfile.reason_head(reason) == head
    assert len(toxfile.reason_head(reason)) <= toxfile.HEAD_CHARS
