"""One sentence's verdict as the scan gives it: the helpers the scan's verdict tests share
(`decide`/`case` without a file: test_scan_v3, test_scan_arith_v3; `only`/`judged` through
the `scan_text` fixture: the hostile-prose tests)."""

from ffnverify.scan.read import Context, reading
from ffnverify.scan.scan import settle


def decide(engine, text):
    """(status, verdict, claim, record) of one sentence read alone."""
    r = reading(text, Context())
    record = {"status": "unchecked", "verdict": None, "claim": None, "detail": "",
              "unread": []}
    if r is None or not r.parts:
        if r is not None:
            record["detail"] = " — ".join(r.notes)
        return record["status"], None, None, record
    texts = {t for p in r.parts for t in (p.strict, p.lenient)} | set(r.other)
    settle(record, r, {t: engine.evaluate(t) for t in texts})
    return record["status"], record["verdict"], record["claim"], record


def case(engine, text, status, verdict):
    """The record of `text`, asserting its status and verdict (the record explains a miss)."""
    got = decide(engine, text)
    assert got[:2] == (status, verdict), f"{text!r}: {got[3]}"
    return got[3]


TRUE, FALSE, UNCLEAR = "true", "false", "unclear"


def only(scan_text, text):
    """The one statement the scan lists in `text`."""
    got = scan_text(text + "\n")["statements"]
    assert len(got) == 1, got
    return got[0]


def judged(scan_text, text, expect):
    """What a careful reader may expect of the scan on `text`: TRUE (some reading holds),
    never a FALSE verdict; FALSE (no reading holds), some statement FALSE; UNCLEAR, nothing
    CHECKED."""
    got = scan_text(text + "\n")["statements"]
    if expect == TRUE:
        assert all(s["verdict"] != "false" for s in got), got
    elif expect == FALSE:
        assert got and any(s["verdict"] == "false" for s in got), got
    else:
        assert all(s["status"] != "checked" for s in got), got
