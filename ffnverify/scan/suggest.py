"""`--suggest FILE`: the suggested and unchecked statements as a Markdown claim file to edit.

Each statement becomes a `claim` fence: its position and status, the quoted statement as
a comment, its unread figures, then the claim it was read as — the reading that holds
(the lenient one where only it does), with the verdict it got — or a TODO. The file is
a claim file as it stands, so `ffnverify audit FILE` checks the readings once edited.
"""

from ffnverify.scan.report import safe

HEADER = """# Claims to confirm

Written by `ffnverify scan --suggest`: the numeric statements that no claim checks yet.
Each fence quotes one statement (as a comment) and gives the claim it was read as, or a
TODO. Confirm or correct each claim, then move it next to its statement (a `claim` fence
right after the paragraph) or into a TOML claim file with `quote` and `source`.
"""


def _comment(text: str) -> str:
    return safe(" ".join(text.split())).replace("```", "'''")


def _parts(claim: str) -> list[str]:
    """The claim's parts (joined by a top-level ` and `), one editable line each."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(claim):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and claim.startswith(" and ", i):
            out.append(claim[start:i].strip())
            start = i + 5
    out.append(claim[start:].strip())
    return [p for p in out if p]


def render(result: dict) -> str:
    out = [HEADER]
    for r in result["statements"]:
        if r["status"] not in ("suggested", "unchecked"):
            continue
        where = f"{r['file']}:{r['line']}:{r['col']}"
        out.append(f"## {_comment(where)}\n")
        out.append("```claim")
        out.append(f"# source: {_comment(where)} ({r['status']})")
        out.append(f"# quote: \"{_comment(r['text'])}\"")
        if r.get("unread"):
            out.append(f"# unread figures (no claim below states them): "
                       f"{_comment(', '.join(r['unread']))}")
        if r.get("claim"):
            out.append(f"# a reading to confirm; the engine says: {r['verdict']}")
            for part in _parts(r["claim"]):
                out.append(part)
        else:
            if r.get("detail"):
                out.append(f"# {_comment(r['detail'])}")
            out.append("# TODO: the claim this statement makes")
        out.append("```\n")
    return "\n".join(out)
