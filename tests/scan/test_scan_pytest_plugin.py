"""`pytest --ffnverify-scan`: one item per document, failing on a false checked
statement (and, strict, on an unchecked one); off by default.

The runs are in-process (pytester.runpytest: a fresh Config that loads the entry-point
plugins as a new interpreter does); the plugin loaded through its entry point in a fresh
interpreter, under xdist, is tests/claims/test_pytest_plugin.py's
test_k_selection_junitxml_and_xdist (the same `ffnverify` entry point registers this one)."""

import pytest

pytest_plugins = ["pytester"]

GOOD = "Llama 2 7B has 32 layers and 3×32 = 96.\n"
BAD = "Llama 2 7B has 40 layers.\n"
UNREAD = "SwiGLU models need 10-15% fewer training tokens.\n"


@pytest.mark.slow
def test_scan_items(pytester):
    pytester.makefile(".md", good=GOOD, bad=BAD)
    pytester.makefile(".txt", notes=UNREAD)
    off = pytester.runpytest("-p", "no:cacheprovider")
    assert "collected 0 items" in off.stdout.str()
    on = pytester.runpytest("-p", "no:cacheprovider", "--ffnverify-scan", "-rA")
    on.assert_outcomes(passed=2, failed=1)
    out = on.stdout.str()
    assert "bad.md:1:1: checked false" in out and "layers(llama-2-7b) == 40" in out
    strict = pytester.runpytest("-p", "no:cacheprovider", "--ffnverify-scan",
                                "--ffnverify-scan-strict")
    strict.assert_outcomes(passed=1, failed=2)
