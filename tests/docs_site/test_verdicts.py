"""Claim fences get the audit's verdicts underneath, escaped; other code is left alone."""

from docs_build import verdicts

PAGE = """# Page

```claim
params(relu, d, 4*d) == 8*d**2
# a comment
1 == <b>2</b>
```

```python
x = 1
```
"""


def test_annotates_the_fence_with_its_lines_verdicts():
    found = {4: {"line": 4, "verdict": "true", "ok": True, "value": "8*d**2"},
             6: {"line": 6, "verdict": "false", "ok": False, "expect": "true",
                 "value": "<script>x</script>"},
             5: {"line": 5, "verdict": "false", "ok": True, "expect": "false", "value": "1"},
             10: {"line": 10, "verdict": "true", "ok": True, "value": "not a claim fence"}}
    out = verdicts.annotate(PAGE, found)
    table = out.split("```\n\n", 1)[1].split("\n")[0]
    assert table.startswith('<div class="claim-verdicts">')
    assert "line 4" in table and "line 6" in table and "line 10" not in out
    assert "&lt;script&gt;x&lt;/script&gt;" in table and "<script>" not in out
    assert "✗ expected true" in table and "as expected (false)" in table
    assert out.count("<div") == 1


def test_no_verdicts_leaves_the_page_alone():
    assert verdicts.annotate(PAGE, {}) == PAGE


def test_audit_can_be_switched_off(monkeypatch, tmp_path):
    monkeypatch.setenv("FFNVERIFY_DOCS_VERDICTS", "0")
    assert verdicts.run_audit(tmp_path) == ({}, "verdicts off (FFNVERIFY_DOCS_VERDICTS=0)")
