"""Claims as pytest items: `pytest docs/` collects every claim in Markdown (`claim`
fences) and TOML (`[[claim]]`) files as its own test, so `-k`, xdist and `--junitxml`
work on claims. Markdown files without a claim fence and TOML files without a claim
table are not collected.

Item names carry the claim's position and a slug of its text, as Sybil's do:
`line:4,column:1:params-swiglu-d-8-3-d-params-relu-d-4-d` (with the claim's id first
when it has one: `line:2,column:8:wrong-count:params-swiglu-d-h-2-d-h`), so
`pytest docs -k params` selects claims by what they say and `-k line:4` by where they
are. The location is the claim's line. A verdict that misses its expectation fails, and
the report shows the claim, its verdict against the expectation, the exact values
compared and the counterexample (or the difference); an `error` verdict fails too; a
`skipped` verdict (empirical claim) is a pytest skip. One evaluator (budget.Engine) per
pytest process is shared by all items.
"""

import atexit
import re

import pytest

from ffnverify.claims import audit, files
from ffnverify.claims.budget import DEFAULT_TIMEOUT, Engine
from ffnverify.claims.printable import visible

_ENGINES: dict[float, Engine] = {}


def pytest_addoption(parser):
    parser.addini("ffnverify_claim_timeout", default=str(DEFAULT_TIMEOUT),
                  help="CPU seconds per claim (the worker's CPU time, not wall-clock time) before its verdict is `unknown` "
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
    data = files.read_bounded(file_path)  # never blocks on a FIFO, never reads a huge file
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else None
    except UnicodeDecodeError:
        text = None
    if text is not None:
        if file_path.suffix == ".md" and not files.has_claim_fence(text):
            return None
        if file_path.suffix == ".toml" and not re.search(r"(?m)^\s*\[\[\s*claim\s*\]\]", text):
            return None
    return ClaimFile.from_parent(parent, path=file_path)


SLUG_CHARS = 60


def slug(text: str, limit: int = SLUG_CHARS) -> str:
    """Lower-case words and numbers of `text` joined by '-', cut at a word boundary."""
    words = re.findall(r"[a-z0-9_.]+", text.lower().replace("·", " "))
    words = [w.strip(".") for w in words if w.strip(".")]
    out = ""
    for w in words:
        if len(out) + len(w) + (1 if out else 0) > limit:
            break
        out = f"{out}-{w}" if out else w
    return out or "claim"


def item_name(claim) -> str:
    """`line:N,column:M[:id]:slug`: where the claim is, and what it says."""
    given_id = claim.id and claim.id != f"{claim.file}:{claim.line}"
    label = f":{slug(claim.id)}" if given_id else ""
    return f"line:{claim.line},column:{claim.col}{label}:{slug(claim.expr)}"


class ClaimFile(pytest.File):
    def collect(self):
        seen: dict = {}
        for claim in files.load(self.path):
            name = item_name(claim)
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
            return failure_report(excinfo.value.args[0])
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, self.claim.line - 1, f"claim {self.claim.expr[:120]}"


def failure_report(r: dict) -> str:
    """What a failing claim item prints: the claim, its verdict against the expectation,
    the exact values compared, and the counterexample (or what else the evaluator said)."""
    lines = [f"{visible(r['file'])}:{r['line']}:{r['col']}: {r['verdict'].upper()} {visible(r['expr'])}",
             f"  verdict:        {r['verdict']}, expected {r['expect']}"]
    if r["value"]:
        lines.append(f"  values:         {visible(r['value'])}")
    detail = r["detail"]
    found = re.match(r"counterexample (?P<point>[^:]*): (?P<values>.*)", detail or "")
    if found:
        lines.append(f"  counterexample: {visible(found['point'])} (there: {visible(found['values'])})")
    elif detail:
        lines.append(f"  detail:         {visible(detail)}")
    return "\n".join(lines)
