"""SARIF 2.1.0: the one writer of the audit's and the scan's code-scanning reports.

Each report builds its own rules and results (what failed, and why); this module holds
what a SARIF log is, the same for both: `artifact(file)` the location of a file (a
relative URI under %SRCROOT%, percent-encoded, or an absolute file URI where no relative
form exists), and `log(tool, rules, results)` the document: one run, the schema and
version, %SRCROOT% as the working directory, columns counted in Unicode code points. The
text goes through `printable.json_text`, so every string from an untrusted file (a name,
a claim, a sentence) is lossless JSON with no control, bidirectional or lone-surrogate
character printed raw.
"""

from pathlib import Path
from urllib.parse import quote

from ffnverify import __version__
from ffnverify.claims.printable import json_text

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
VERSION = "2.1.0"
LEVELS = ("error", "warning", "note", "none")  # SARIF's result.level values


def artifact(file: str) -> dict:
    """The artifactLocation of `file`: relative under %SRCROOT%, or an absolute URI."""
    p = Path(file)
    if p.is_absolute():  # outside the working directory: no relative form exists
        return {"uri": p.as_uri()}
    return {"uri": quote(p.as_posix(), safe="/", errors="backslashreplace"),
            "uriBaseId": "%SRCROOT%"}


def log(tool: str, rules: list[dict], results: list[dict]) -> str:
    """The SARIF document of one run of `tool`, as text (ends with a newline)."""
    doc = {
        "$schema": SCHEMA,
        "version": VERSION,
        "runs": [{
            "tool": {"driver": {"name": tool, "version": __version__, "rules": rules}},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": Path.cwd().resolve().as_uri() + "/"}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
    return json_text(doc) + "\n"
