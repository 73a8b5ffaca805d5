"""The wheel and the sdist: built from this checkout, `twine check --strict` clean, with the
metadata an index shows (license expression and file, classifiers, Requires-Python, the
readme as Markdown), py.typed in both packages, and the console script and pytest plugin
entry points. Run by `tox -e package` (about 30 s: one isolated build). Under tox the wheel
is the one tox built from this checkout for every env (TOX_PACKAGE), so only the sdist is
built here; elsewhere both are."""

import email.parser
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytest.importorskip("build", reason="needs `build` and `twine`: tox -e package, or "
                    "pip install -e .[package]")
pytest.importorskip("twine", reason="needs `build` and `twine`: tox -e package, or "
                    "pip install -e .[package]")


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    built = [Path(p) for p in os.environ.get("TOX_PACKAGE", "").split(os.pathsep)
             if p.endswith(".whl")]
    for wheel in built:
        shutil.copy(wheel, out)
    kinds = ["--sdist"] if built else ["--sdist", "--wheel"]
    done = subprocess.run([sys.executable, "-m", "build", *kinds, "--outdir", str(out),
                           str(ROOT)], capture_output=True, text=True, timeout=600,
                          check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def project() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]


def only(folder: Path, pattern: str) -> Path:
    (path,) = folder.glob(pattern)
    return path


def test_twine_check_strict(dist):
    files = sorted(str(p) for p in dist.iterdir())
    assert len(files) == 2, files
    done = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *files],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2, done.stdout


def _metadata(text: str):
    return email.parser.Parser().parsestr(text)


def assert_complete(meta, project):
    assert meta["Name"] == "ffnverify" and meta["Version"] == project["version"]
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    assert meta["Requires-Python"] == project["requires-python"]
    assert meta["Description-Content-Type"] == "text/markdown"
    assert meta["Summary"] == project["description"]
    classifiers = meta.get_all("Classifier")
    assert classifiers == project["classifiers"]
    for c in ("Typing :: Typed", "Programming Language :: Python :: 3.13",
              "Framework :: Pytest"):
        assert c in classifiers
    assert "# ffnverify" in meta.get_payload()  # the README is the long description
    extras = set(meta.get_all("Provides-Extra"))
    assert {"torch", "test", "docs", "lint", "package"} <= extras


def test_wheel_contents_and_metadata(dist, project):
    with zipfile.ZipFile(only(dist, "*.whl")) as whl:
        names = set(whl.namelist())
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        meta = _metadata(whl.read(f"{info}/METADATA").decode())
        entry_points = whl.read(f"{info}/entry_points.txt").decode()
    assert_complete(meta, project)
    assert {"ffnverify/py.typed", "derivations/py.typed", f"{info}/licenses/LICENSE",
            "ffnverify/cli/__init__.py", "ffnverify/cli/audit.py", "ffnverify/catalogue/models.py"} <= names
    assert not [n for n in names if n.startswith(("tests/", "docs_build/", "benchmarks/"))]
    assert "ffnverify = ffnverify.cli:main" in entry_points
    assert "[pytest11]" in entry_points and "ffnverify.pytest_plugin" in entry_points


def test_sdist_contents_and_metadata(dist, project):
    with tarfile.open(only(dist, "*.tar.gz")) as sdist:
        names = set(sdist.getnames())
        (top,) = {n.split("/")[0] for n in names}
        meta = _metadata(sdist.extractfile(f"{top}/PKG-INFO").read().decode())
    assert_complete(meta, project)
    for path in ("LICENSE", "README.md", "pyproject.toml", "ffnverify/py.typed",
                 "derivations/py.typed"):
        assert f"{top}/{path}" in names, path
