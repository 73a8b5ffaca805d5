"""tox's in-tree plugin for this project (tox loads toxfile.py by itself): a green run must
mean something.

- Under CI (CI=true/1/yes) a missing interpreter fails its env instead of skipping it, as
  `tox --skip-missing-interpreters false` would; a command line choice still wins.
- At the end of the run a closing summary names every env that was skipped (with tox's
  reason) and every group of tests that pytest skipped in each env (read from the
  FFNVERIFY_SKIP_LOG file that tests/skip_policy.py writes), marking the groups an env is
  for (FFNVERIFY_REQUIRE) as WARNING. Nothing skipped: one line says so.
"""

import atexit
import json
import logging
import os
import sys
import threading
from pathlib import Path

from tox.plugin import impl

TRUE = ("1", "true", "yes", "on")
SKIP_LOG = "pytest-skips.jsonl"
_RAN: set[str] = set()
_SKIPS: dict[str, list[dict]] = {}  # env -> pytest's skip groups
_SKIPPED_ENVS: dict[str, str] = {}  # env -> why tox skipped it
_LAST = threading.local()  # the last "skipped because" of this thread (one env per thread)


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in TRUE


class _SkipRecorder(logging.Handler):
    """tox logs `skipped because ...` just before it tears a skipped env down: keep it."""

    def emit(self, record):
        message = record.getMessage()
        if message.startswith("skipped because "):
            _LAST.reason = message.removeprefix("skipped because ")


@impl
def tox_add_core_config(core_conf, state):
    options = state.conf.options
    if in_ci() and getattr(options, "skip_missing_interpreters", "config") == "config":
        options.skip_missing_interpreters = "false"
    logging.getLogger().addHandler(_SkipRecorder(level=logging.WARNING))
    atexit.register(_summary)


@impl
def tox_before_run_commands(tox_env):
    _RAN.add(tox_env.name)
    log = Path(tox_env.conf["env_tmp_dir"]) / SKIP_LOG
    log.unlink(missing_ok=True)  # only this run's skips


@impl
def tox_env_teardown(tox_env):
    name = tox_env.name
    if name.startswith("."):
        return
    reason, _LAST.reason = getattr(_LAST, "reason", None), None
    if name not in _RAN:
        if reason:  # (an env that failed in set-up is tox's own FAIL, not a skip)
            _SKIPPED_ENVS[name] = reason
        return
    log = Path(tox_env.conf["env_tmp_dir"]) / SKIP_LOG
    if log.is_file():
        groups: dict[str, dict] = {}
        for line in log.read_text(encoding="utf-8").splitlines():
            s = json.loads(line)
            g = groups.setdefault(s["reason"], {"count": 0, "required": set(),
                                                "failed": s.get("failed", False)})
            g["count"] += s["count"]
            g["required"] |= set(s["required"])
        _SKIPS[name] = [{"reason": r, **g} for r, g in groups.items()]


def summary_lines() -> list[str]:
    """The closing summary (also used by the tests)."""
    lines = []
    warn = False
    failed_ci = any(g["failed"] for groups in _SKIPS.values() for g in groups)
    for env, why in _SKIPPED_ENVS.items():
        lines.append(f"  {env}: SKIPPED (env): {why}")
        warn = True
    for env, groups in _SKIPS.items():
        for g in sorted(groups, key=lambda g: (not g["required"], -g["count"], g["reason"])):
            mark = ("FAILED (CI) " if g["failed"] else "WARNING ") if g["required"] else ""
            warn |= bool(g["required"])
            lines.append(f"  {env}: {mark}{g['count']} skipped: {g['reason']}")
    if not lines:
        return ["ffnverify: nothing skipped (every env ran, no test skipped)"]
    head = "ffnverify: skipped in this run"
    if failed_ci:
        head += " (FAILED: under CI=true something that should run did not)"
    elif warn:
        head += " (WARNING: something that should run did not; under CI=true it fails)"
    return [head + ":"] + lines


def _summary():
    if not (_RAN or _SKIPPED_ENVS):
        return  # tox -l, --help, config only: no run
    print("\n".join(summary_lines()), file=sys.stdout, flush=True)
