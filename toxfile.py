"""tox's in-tree plugin for this project (tox loads toxfile.py by itself): a green run must
mean something.

- Under CI (CI=true/1/yes) a missing interpreter fails its env instead of skipping it, as
  `tox --skip-missing-interpreters false` would; a command line choice still wins.
- At the end of the run a short closing summary: every env that was skipped (with tox's
  reason), then every skip of what an env is for (FFNVERIFY_REQUIRE: WARNING, or FAILED
  under CI) with its reason, then one line per env counting its other skips (tests that
  belong to another env or need an opt-in), with the largest reasons by their first words.
  The skips come from the FFNVERIFY_SKIP_LOG file that tests/skip_policy.py writes; the
  full list per env stays in that file and in pytest's own summary. Nothing skipped: one
  line says so.
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
_LOGS: dict[str, Path] = {}  # env -> its skip log (the full list)
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
        _LOGS[name] = log
        groups: dict[str, dict] = {}
        for line in log.read_text(encoding="utf-8").splitlines():
            s = json.loads(line)
            g = groups.setdefault(s["reason"], {"count": 0, "required": set(),
                                                "failed": s.get("failed", False)})
            g["count"] += s["count"]
            g["required"] |= set(s["required"])
        _SKIPS[name] = [{"reason": r, **g} for r, g in groups.items()]


TOP_REASONS = 3  # the other skips' largest reasons named on an env's line
HEAD_CHARS = 40  # a reason is named by its words before the first ":" or "(", this long at most


def reason_head(reason: str) -> str:
    """A skip reason's first words: "no CUDA device: GPU tests run in ..." -> "no CUDA
    device" (so 29 reasons "empirical: ..." count as one)."""
    head = reason.split(":", 1)[0].split(" (", 1)[0].strip() or "no reason given"
    if len(head) <= HEAD_CHARS:
        return head
    cut = head[:HEAD_CHARS - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut) + "…"  # at a word's end


def _others_line(env: str, groups: list[dict]) -> str:
    """One env's skips of what it is not for: the count and the largest reasons."""
    heads: dict[str, int] = {}
    for g in groups:
        heads[reason_head(g["reason"])] = heads.get(reason_head(g["reason"]), 0) + g["count"]
    ranked = sorted(heads.items(), key=lambda kv: (-kv[1], kv[0]))
    named = ", ".join(f"{n} {head}" for head, n in ranked[:TOP_REASONS])
    rest = len(ranked) - TOP_REASONS
    more = f", and {rest} more reason{'s' if rest > 1 else ''}" if rest > 0 else ""
    total = sum(heads.values())
    return f"  {env}: {total} skipped, none of them what this env is for: {named}{more}"


def summary_lines() -> list[str]:
    """The closing summary (also used by the tests): what did not run that should have
    comes first and in full; what belongs elsewhere is one counted line per env."""
    lines = [f"  {env}: SKIPPED (env): {why}" for env, why in _SKIPPED_ENVS.items()]
    failed_ci = any(g["failed"] for groups in _SKIPS.values() for g in groups)
    required = [(env, g) for env, groups in _SKIPS.items() for g in groups if g["required"]]
    for env, g in sorted(required, key=lambda eg: (-eg[1]["count"], eg[1]["reason"])):
        mark = "FAILED (CI)" if g["failed"] else "WARNING"
        lines.append(f"  {env}: {mark} {g['count']} skipped: {g['reason']}")
    warn = bool(lines)
    for env, groups in _SKIPS.items():
        others = [g for g in groups if not g["required"]]
        if others:
            lines.append(_others_line(env, others))
    if not lines:
        return ["ffnverify: nothing skipped (every env ran, no test skipped)"]
    head = "ffnverify: skipped in this run"
    if failed_ci:
        head += " (FAILED: under CI=true something that should run did not)"
    elif warn:
        head += " (WARNING: something that should run did not; under CI=true it fails)"
    tail = [f"  (the full lists: each env's pytest summary above, and its {SKIP_LOG}, e.g. "
            f"{_shown(next(iter(_LOGS.values())))})"] if _LOGS else []
    return [head + ":"] + lines + tail


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _summary():
    if not (_RAN or _SKIPPED_ENVS):
        return  # tox -l, --help, config only: no run
    print("\n".join(summary_lines()), file=sys.stdout, flush=True)
