"""One claim-fence predicate (markdown_claims.is_claim_fence) serves the audit, pytest
collection, the scan's Markdown reader and the docs build (issue 25 §1): a fence is a claim
fence exactly when the audit reads claims from it, and every user agrees on each case."""

from docs_build import verdicts
from ffnverify.claims import files
from ffnverify.scan import readers

CASES = {
    # name: (Markdown, is it a claim fence?)
    "plain": ("```claim\n1 == 1\n```\n", True),
    "tilde": ("~~~ claim\n1 == 1\n~~~\n", True),
    "info after the word": ("```claim expect-true\n1 == 1\n```\n", True),
    "other language word": ("```claim-x\n1 == 1\n```\n", False),
    "word later in the info": ("```python claim\n1 == 1\n```\n", False),
    "inside another fence": ("````md\n```claim\n1 == 1\n```\n````\n", False),
    "in a list item": ("- item\n\n  ```claim\n  1 == 1\n  ```\n", True),
    "in a quote": ("> A quote.\n>\n> ```claim\n> 1 == 1\n> ```\n", True),
    "indented code": ("    ```claim\n    1 == 1\n    ```\n", False),
}


def _audit_reads_claims(text):
    return bool(files.markdown_claims(text, "t.md"))


def test_every_user_agrees_with_the_audit():
    for name, (text, want) in CASES.items():
        assert _audit_reads_claims(text) is want, name
        assert files.has_claim_fence(text) is want, name
        assert bool(files.claim_fence_spans(text)) is want, name


def test_the_scan_covers_the_paragraph_before_a_claim_fence_only():
    # a fence covers the block closed just before it at its own nesting level (each case
    # has one: the paragraph before it, or the item's or quote's own)
    for name, (text, want) in CASES.items():
        doc = readers.read_markdown("Llama 2 7B has 32 layers.\n\n" + text)
        assert bool(doc.covered_groups) is want, name


def test_the_docs_build_annotates_exactly_the_claim_fences():
    for name, (text, want) in CASES.items():
        lines = text.count("\n")
        verdict = {"line": 2, "claim": "1 == 1", "verdict": "true", "ok": True}
        out = verdicts.annotate(text, {n: verdict for n in range(1, lines + 1)})
        assert (out != text) is want, name
        if want:  # the table comes after the closing fence, never inside it
            assert out.startswith(text.rstrip("\n")), name
