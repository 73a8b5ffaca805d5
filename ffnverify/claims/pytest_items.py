"""Claims as pytest items: `pytest docs/` collects every claim in Markdown (`claim`
fences) and TOML (`[[claim]]`) files as its own test, so `-k`, xdist and `--junitxml`
work on claims. Markdown files without a claim fence and TOML files without a claim
table are not collected.

Item names are the claim's id when one is given, else `line<N>`; the location is the
claim's line. A verdict that misses its expectation fails with the audit line; an
`error` verdict fails too; a `skipped` verdict (empirical claim) is a pytest skip. One
evaluator (budget.Engine) per pytest process is shared by all items.
"""

import atexit
import re

import pytest

from ffnverify.claims import audit, files
from ffnverify.claims.budget import DEFAULT_TIMEOUT, Engine

_ENGINES: dict[float, Engine] = {}


def pytest_addoption(parser):
    parser.addini("ffnverify_claim_timeout", default=str(DEFAULT_TIMEOUT),
                  help="seconds per claim before its verdict is `unknown` "
                       f"(default {DEFAULT_TIMEOUT}, as `ffnverify audit --timeout`)")


def engine(config) -> Engine:
    """The evaluator of this process for the configured timeout (made on first use)."""
    timeout = float(config.getini("ffnverify_claim_timeout"))
    if timeout not in _ENGINES:
        _ENGINES[timeout] = Engine(timeout=timeout)
        atexit.register(_ENGINES[timeout].close)
    return _ENGINES[timeout]


def pytest_collect_file(file_path, parent):
    if file_path.suffix not in (".md", ".toml"):
        return None
    try:
        text = file_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = None
    if text is not None:
        if file_path.suffix == ".md" and not files.has_claim_fence(text):
            return None
        if file_path.suffix == ".toml" and not re.search(r"(?m)^\s*\[\[\s*claim\s*\]\]", text):
            return None
    return ClaimFile.from_parent(parent, path=file_path)


class ClaimFile(pytest.File):
    def collect(self):
        seen = {}
        for claim in files.load(self.path):
            name = claim.id if claim.id != f"{claim.file}:{claim.line}" else f"line{claim.line}"
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                name = f"{name}#{seen[name]}"
            yield ClaimItem.from_parent(self, name=name, claim=claim)


class ClaimFailure(Exception):
    """A claim whose verdict misses its expectation."""


class ClaimItem(pytest.Item):
    def __init__(self, *, claim, **kwargs):
        super().__init__(**kwargs)
        self.claim = claim

    def runtest(self):
        (req,) = audit.requests([self.claim])
        result = None if req is None else engine(self.config).evaluate(*req)
        rec = audit.record(self.claim, result)
        self.user_properties.append(("verdict", rec["verdict"]))
        if rec["verdict"] == "skipped" and rec["ok"]:
            # reported at the claim's line, not at this line of the plugin
            raise pytest.skip.Exception(rec["detail"], _use_item_location=True)
        if not rec["ok"]:
            raise ClaimFailure(rec)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ClaimFailure):
            r = excinfo.value.args[0]
            lines = [f"{r['file']}:{r['line']}:{r['col']}: {r['verdict'].upper()} {r['expr']}",
                     f"  expected: {r['expect']}"]
            if r["value"]:
                lines.append(f"  value:    {r['value']}")
            if r["detail"]:
                lines.append(f"  detail:   {r['detail']}")
            return "\n".join(lines)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, self.claim.line - 1, f"claim {self.claim.expr[:120]}"
