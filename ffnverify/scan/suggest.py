"""`--suggest FILE`: the suggested and unchecked statements as a Markdown claim file to edit.

Each statement becomes a `claim` fence: its position and status, the quoted statement as
a comment, then the claim it was read as (with the verdict it got) or a TODO. The file is
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
        if r.get("claim"):
            out.append(f"# a reading to confirm; the engine says: {r['verdict']}")
            for part in r["claim"].split(" and "):
                out.append(part.strip())
        else:
            if r.get("detail"):
                out.append(f"# {_comment(r['detail'])}")
            out.append("# TODO: the claim this statement makes")
        out.append("```\n")
    return "\n".join(out)
