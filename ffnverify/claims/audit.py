"""Claims in, records out: one docs/architecture.md §5 record per claim, and the summary.

A record is the JSON object of docs/architecture.md §5 (id, file, line, col, expr, verdict, expect, ok,
value, detail). Shared by `ffnverify audit` and the pytest plugin.
"""

from ffnverify.claims.budget import Engine
from ffnverify.claims.files import Claim

VERDICTS = ("true", "false", "unknown", "error", "skipped")
MAX_EXPR_CHARS = 2000


def requests(claims: list[Claim]):
    """The (text, assume) pairs to evaluate, None for claims that need no evaluation."""
    return [None if (c.problem or c.empirical is not None) else (c.expr, c.assume)
            for c in claims]


def record(claim: Claim, result: dict | None) -> dict:
    """The docs/architecture.md §5 record for `claim` given the evaluator's result (None: not evaluated)."""
    line, col = claim.line, claim.col
    if claim.problem:
        verdict, value, detail = "error", "", claim.problem
        line, col = claim.problem_at or (line, col)
    elif claim.empirical is not None:
        verdict, value, detail = "skipped", "", f"empirical: {claim.empirical}"
    else:
        if result is None:  # requests() leaves out only problem and empirical claims
            raise ValueError(f"claim {claim.id!r} was not evaluated")
        verdict, value, detail = result["verdict"], result["value"], result["detail"]
        if result.get("col"):
            # the character of the claim the evaluator points at, where it is in the file
            line, col = claim.position(result["col"] - 1)
            detail = f"{line}:{col}: {detail}"
    if verdict == "error" and not detail.startswith(f"{line}:"):
        detail = f"{line}:{col}: {detail}"  # an error always says where
    expr = claim.expr if len(claim.expr) <= MAX_EXPR_CHARS else claim.expr[:MAX_EXPR_CHARS] + "…"
    return {"id": claim.id, "file": claim.file, "line": line, "col": col, "expr": expr,
            "verdict": verdict, "expect": claim.expect, "ok": verdict == claim.expect,
            "value": value, "detail": detail}


def check(claims: list[Claim], engine: Engine, progress=None) -> list[dict]:
    """Evaluate every claim (one bad claim never stops the others)."""
    reqs = requests(claims)
    todo = [r for r in reqs if r is not None]
    results = iter(engine.evaluate_many(todo, progress=progress))
    return [record(c, None if r is None else next(results)) for c, r in zip(claims, reqs)]


def summary(records: list[dict]) -> dict:
    out = {"total": len(records)}
    for v in VERDICTS:
        out[v] = sum(r["verdict"] == v for r in records)
    out["ok"] = sum(r["ok"] for r in records)
    out["failed"] = len(records) - out["ok"]
    return out


def is_input_error(r: dict) -> bool:
    """A record that stands for a file the audit could not read (no such file, not UTF-8,
    a FIFO...), not for a claim: docs/architecture.md §5 counts it in "total" and "error", and the text
    summary says it apart, so no one reads a missing file as a claim."""
    return r["verdict"] == "error" and not r["expr"]


def exit_code(records: list[dict]) -> int:
    """docs/architecture.md §5: 2 if any claim is an error, else 1 if any verdict misses its expectation."""
    if any(r["verdict"] == "error" for r in records):
        return 2
    return 0 if all(r["ok"] for r in records) else 1


def result_dict(records: list[dict]) -> dict:
    """The docs/architecture.md §5 JSON document."""
    return {"version": 1, "claims": records, "summary": summary(records)}
