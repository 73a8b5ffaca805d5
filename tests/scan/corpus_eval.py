"""Precision and recall of the scan's detection on the labelled corpus (corpus/), and how
often its status (and verdict) agrees with the label.

    .venv/bin/python tests/scan/corpus_eval.py [corpus|heldout]   # prints the figures

A detected statement is a true positive when a label has its file, its line and the start
of its text; every other detection is a false positive, every unmatched label a miss.
"""

import sys
import tomllib
from pathlib import Path

CORPUS = Path(__file__).parent / "corpus"
HELDOUT = Path(__file__).parent / "heldout"


def labels(folder: Path = CORPUS) -> list[dict]:
    return tomllib.loads((folder / "labels.toml").read_text(encoding="utf-8"))["s"]


def _squash(s: str) -> str:
    return " ".join(s.split())


def evaluate(result: dict, marks: list[dict]) -> dict:
    found = result["statements"]
    matched_labels, matched_found = {}, set()
    for k, lab in enumerate(marks):
        for i, st in enumerate(found):
            if i in matched_found:
                continue
            if Path(st["file"]).name == lab["file"] and st["line"] == lab["line"] and \
                    _squash(st["text"]).startswith(_squash(lab["starts"])):
                matched_labels[k] = st
                matched_found.add(i)
                break
    tp = len(matched_found)
    agree = 0
    verdict_total = verdict_agree = 0
    for k, st in matched_labels.items():
        lab = marks[k]
        want = lab.get("verdict", "any")
        same_status = st["status"] == lab["status"]
        same_verdict = want == "any" or st["verdict"] == want
        agree += same_status and same_verdict
        if lab["status"] in ("checked", "suggested") and st["status"] in ("checked",
                                                                          "suggested"):
            if want != "any":
                verdict_total += 1
                verdict_agree += st["verdict"] == want
    return {
        "labelled": len(marks), "detected": len(found), "true_positives": tp,
        "precision": tp / len(found) if found else 1.0,
        "recall": tp / len(marks) if marks else 1.0,
        "status_agreement": agree / len(marks) if marks else 1.0,
        "verdicts_read": verdict_total,
        "verdict_agreement": verdict_agree / verdict_total if verdict_total else 1.0,
        "false_positives": [f"{Path(s['file']).name}:{s['line']}: {s['text'][:60]}"
                            for i, s in enumerate(found) if i not in matched_found],
        "missed": [f"{m['file']}:{m['line']}: {m['starts']}" for k, m in enumerate(marks)
                   if k not in matched_labels],
        "disagree": [f"{m['file']}:{m['line']}: {m['starts']} — want {m['status']} "
                     f"{m.get('verdict', '')}, got {matched_labels[k]['status']} "
                     f"{matched_labels[k]['verdict'] or ''}"
                     for k, m in enumerate(marks) if k in matched_labels and not (
                         matched_labels[k]["status"] == m["status"] and (
                             m.get("verdict", "any") == "any"
                             or matched_labels[k]["verdict"] == m.get("verdict")))],
    }


def figures_for(folder: Path, engine) -> dict:
    from ffnverify.scan.scan import scan

    return evaluate(scan([str(folder)], engine), labels(folder))


def main() -> int:
    from ffnverify.claims.budget import Engine

    folder = {"corpus": CORPUS, "heldout": HELDOUT}[sys.argv[1] if len(sys.argv) > 1
                                                    else "corpus"]
    with Engine() as engine:
        figures = figures_for(folder, engine)
    for key in ("labelled", "detected", "true_positives", "precision", "recall",
                "status_agreement", "verdicts_read", "verdict_agreement"):
        value = figures[key]
        print(f"{key:18s} {value:.3f}" if isinstance(value, float) else f"{key:18s} {value}")
    for key in ("false_positives", "missed", "disagree"):
        for line in figures[key]:
            print(f"{ {'false_positives': 'false positive', 'missed': 'missed', 'disagree': 'disagrees'}[key]}: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
