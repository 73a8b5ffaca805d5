"""One sentence's verdict as the scan gives it, without a file: the helper the scan's
verdict tests share (test_scan_v3, test_scan_arith_v3)."""

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
