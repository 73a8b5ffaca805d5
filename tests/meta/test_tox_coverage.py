"""Every test file runs in some tox env, and every file under tests/ in a default one.

tox.ini is read as text (configparser, no tox needed): each env's pytest commands give the
paths it collects (its `{posargs:...}` default), the `--ignore`d ones and its `-m` marker
expression. A default env that stops collecting a file (a narrower path list, an
`--ignore`) without another env taking it fails here, and so does a path that no longer
exists (a renamed test file left in a list).
"""

import configparser
import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _sections() -> tuple[dict[str, configparser.SectionProxy], configparser.ConfigParser]:
    config = configparser.ConfigParser(interpolation=None)
    config.read(ROOT / "tox.ini", encoding="utf-8")
    envs = {}
    for name in config.sections():
        if not name.startswith("testenv:"):
            continue
        spec = name.removeprefix("testenv:")
        brace = re.fullmatch(r"(.*)\{([^}]*)\}(.*)", spec)  # py3{12,13} -> py312, py313
        for factor in brace.group(2).split(",") if brace else [None]:
            env = f"{brace.group(1)}{factor}{brace.group(3)}" if brace else spec
            envs[env] = config[name]
    envs.setdefault("py311", config["testenv"])
    return envs, config


def _env_list(config) -> list[str]:
    return [e.strip() for e in config["tox"]["env_list"].split(",") if e.strip()]


def pytest_runs(section, base) -> list[dict]:
    """One {"paths", "ignored", "marker"} per pytest command of the env."""
    commands = section.get("commands", base.get("commands"))
    commands = commands.replace("\\\n", " ")
    runs = []
    for line in commands.splitlines():
        line = line.strip().lstrip("- ")
        if not line.startswith("pytest"):
            continue
        posargs = re.search(r"\{posargs:(.*)\}", line)
        words = shlex.split(posargs.group(1) if posargs else line.removeprefix("pytest"))
        outside = shlex.split(re.sub(r"\{posargs:.*\}", "", line).removeprefix("pytest"))
        marker = None
        for args in (outside, words):
            if "-m" in args:
                marker = args[args.index("-m") + 1]
        ignored = [w.split("=", 1)[1] for w in words + outside if w.startswith("--ignore=")]
        deselected = [w.split("=", 1)[1] for w in words + outside
                      if w.startswith("--deselect=")]
        paths = [w for w in words if not w.startswith("-") and w != marker
                 and (ROOT / w.split("::")[0]).exists()]
        named = [w for w in words if re.match(r"(tests|docs|examples|benchmarks)/", w)]
        runs.append({"paths": paths, "ignored": ignored, "marker": marker, "named": named,
                     "deselected": deselected})
    return runs


def _selects(run, path: Path) -> bool:
    rel = path.relative_to(ROOT).as_posix()
    inside = any(rel == p.split("::")[0] or rel.startswith(p.rstrip("/") + "/")
                 for p in run["paths"])
    if not inside or any(rel == i or rel.startswith(i.rstrip("/") + "/")
                         for i in run["ignored"]):
        return False
    marker = run["marker"]
    if marker is None or marker.startswith("not "):
        return True
    return re.search(rf"mark\.{re.escape(marker)}\b", path.read_text(encoding="utf-8")) is not None


ENVS, CONFIG = _sections()
BASE = CONFIG["testenv"]
RUNS = {env: pytest_runs(section, BASE) for env, section in ENVS.items()}
TEST_FILES = sorted(ROOT.glob("tests/**/test_*.py"))


def test_the_reader_sees_the_envs_it_should():
    assert set(_env_list(CONFIG)) <= set(ENVS)
    assert RUNS["py311"][0]["paths"] == ["tests", "docs", "examples"]
    assert RUNS["py311"][0]["ignored"] == ["tests/docs_site", "tests/browser"]
    assert "tests/claims/test_audit_cmd.py" in RUNS["py312"][0]["paths"]
    assert RUNS["hf"][0]["marker"] == "hf"
    assert len(TEST_FILES) > 100


@pytest.mark.parametrize("env", sorted(RUNS), ids=lambda env: f"env-{env}")  # "gpu" alone
# would be read as the gpu marker by conftest.py
def test_every_path_an_env_names_exists(env):
    for run in RUNS[env]:
        missing = [w for w in run["named"] if not (ROOT / w.split("::")[0]).exists()]
        assert not missing, f"{env} names paths that do not exist: {missing}"


def test_every_deselected_test_exists_and_runs_in_py311():
    """A `--deselect=FILE::TEST` (py312/py313 leave a few to py311) names a test function
    that exists (pytest ignores one that does not, so a renamed test would silently run
    everywhere again, or a typo deselect nothing), and py311 collects its file unfiltered."""
    found = 0
    for env, runs in RUNS.items():
        for run in runs:
            for test_id in run["deselected"]:
                found += 1
                path, _, name = test_id.partition("::")
                assert (ROOT / path).is_file(), f"{env}: no file {path}"
                text = (ROOT / path).read_text(encoding="utf-8")
                assert re.search(rf"^def {re.escape(name)}\(", text, re.M), \
                    f"{env} deselects {test_id}: no such test function"
                assert _selects(RUNS["py311"][0], ROOT / path)
                assert not RUNS["py311"][0]["deselected"]
    assert found, "the reader sees no --deselect (py312/py313 have three)"


def _marks(path: Path) -> set[str]:
    """The markers a test file applies (`pytest.mark.NAME` in its code, not in its strings)."""
    import ast

    return {node.attr for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
            and node.value.attr == "mark"}


@pytest.mark.parametrize("env", ["hf", "timm", "thirdparty"])
def test_an_env_for_a_marker_collects_every_file_marked_so(env):
    """An env that runs `-m NAME` over a list of folders (the hf env: not all of tests/)
    takes in every file that marks tests NAME: a new hf test in another folder would
    otherwise run nowhere (py311 skips it, without transformers)."""
    marker = RUNS[env][0]["marker"]
    marked = [p for p in TEST_FILES if marker in _marks(p)]
    assert marked, f"no file marks tests {marker}"
    left = [p.relative_to(ROOT).as_posix() for p in marked
            if not any(_selects(run, p) for run in RUNS[env])]
    assert not left, f"{env} (-m {marker}) does not collect {left}"


def test_no_test_file_is_left_out_of_every_default_env():
    default = _env_list(CONFIG)
    left = [p.relative_to(ROOT).as_posix() for p in TEST_FILES
            if not any(_selects(run, p) for env in default for run in RUNS[env])]
    assert not left, f"run by no default tox env: {left}"


def test_no_test_file_is_left_out_of_every_env():
    files = TEST_FILES + sorted(ROOT.glob("benchmarks/**/test_*.py"))
    left = [p.relative_to(ROOT).as_posix() for p in files
            if not any(_selects(run, p) for runs in RUNS.values() for run in runs)]
    assert not left, f"run by no tox env: {left}"


def test_the_check_sees_a_file_dropped_from_every_env(tmp_path):
    """The check can fail: py311 without tests/claims, and nothing else collecting it."""
    narrowed = {**RUNS["py311"][0], "ignored": ["tests/claims"]}
    path = ROOT / "tests/claims/test_wrong_trues.py"
    assert _selects(RUNS["py311"][0], path)
    assert not _selects(narrowed, path)
    others = [run for env in _env_list(CONFIG) if env != "py311" for run in RUNS[env]]
    assert not any(_selects(run, path) for run in others)


def test_no_test_file_sits_loose_in_tests():
    """Each test file lives in the folder of what it tests (README's layout table); only
    the shared helpers (conftest.py, strategies.py, tolerance.py, ...) sit in tests/."""
    loose = sorted(p.name for p in (ROOT / "tests").glob("test_*.py"))
    assert not loose, f"move these into their area's folder under tests/: {loose}"
