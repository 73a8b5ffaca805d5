"""The pytest plugin: claims in .md/.toml files are test items whose ids carry the position
and a slug of the claim (so -k selects by content), a failing item shows the claim, its
verdict, the exact values and the counterexample; -k, xdist and --junitxml work; files
without claims are not collected."""

import textwrap

import pytest

from ffnverify.claims.files import Claim
from ffnverify.claims.pytest_items import item_name, slug

pytest_plugins = ["pytester"]

PAGE = textwrap.dedent("""\
    # A page

    ```claim
    params(swiglu, 4, 8) == 96
    8/3*4096 == 10922  # expect: false
    better  # empirical: needs training
    ```
    """)
TOML = textwrap.dedent("""\
    [[claim]]
    id = "wrong-count"
    expr = "params(swiglu, d, h) == 2*d*h"

    [[claim]]
    id = "width"
    expr = "width(llama, 4096) == 11008"
    """)


def make(pytester):
    pytester.makefile(".md", page=PAGE, README="# no claims here\n\n```python\n1 == 1\n```\n")
    pytester.makefile(".toml", claims=TOML, pyproject='[project]\nname = "x"\n')


def test_collects_each_claim_with_its_id(pytester):
    make(pytester)
    result = pytester.runpytest("--collect-only", "-q", "-p", "no:benchmark")
    result.stdout.fnmatch_lines([
        "claims.toml::line:3,column:9:wrong-count:params-swiglu-d-h-2-d-h",
        "claims.toml::line:7,column:9:width:width-llama-4096-11008",
        "page.md::line:4,column:1:params-swiglu-4-8-96",
        "page.md::line:5,column:1:8-3-4096-10922",
        "page.md::line:6,column:1:better",
        "5 tests collected*"])


def test_outcomes_and_failure_report(pytester):
    make(pytester)
    result = pytester.runpytest("-rs", "-p", "no:benchmark")
    result.assert_outcomes(passed=3, failed=1, skipped=1)
    result.stdout.fnmatch_lines([
        "claims.toml:3:9: FALSE params(swiglu, d, h) == 2*d*h",
        "  verdict:        false, expected true",
        "  values:         3*d*h vs 2*d*h",
        "  counterexample: d=1, h=1 (there: 3 vs 2)",
        "SKIPPED*empirical: needs training*",
    ])


def test_a_failure_without_counterexample_shows_the_difference(pytester):
    pytester.makefile(".md", off="```claim\nparams(swiglu, 4, 8) == 97\n```\n")
    result = pytester.runpytest("-p", "no:benchmark")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "off.md:2:1: FALSE params(swiglu, 4, 8) == 97",
        "  verdict:        false, expected true",
        "  values:         96 vs 97",
        "  detail:         differs by -1",
    ])


@pytest.mark.slow
def test_k_selection_junitxml_and_xdist(pytester):
    make(pytester)
    result = pytester.runpytest("-k", "width or line:5", "-p", "no:benchmark")
    result.assert_outcomes(passed=2)  # by content (width) and by position (line:5)
    result = pytester.runpytest("-k", "params", "-p", "no:benchmark")
    result.assert_outcomes(passed=1, failed=1)  # the two claims that count params
    result = pytester.runpytest("-k", "params and not wrong", "-p", "no:benchmark")
    result.assert_outcomes(passed=1)
    xml = pytester.path / "junit.xml"
    # (hypothesis's plugin, which no claim item uses, left out: 1.7 CPU s in each of the
    # three fresh interpreters)
    result = pytester.runpytest_subprocess("-n", "2", f"--junitxml={xml}", "-p", "no:benchmark",
                                           "-p", "no:hypothesispytest")
    result.assert_outcomes(passed=3, failed=1, skipped=1)
    text = xml.read_text()
    assert 'name="line:3,column:9:wrong-count:params-swiglu-d-h-2-d-h"' in text
    assert 'name="line:4,column:1:params-swiglu-4-8-96"' in text
    assert 'file="claims.toml"' in text or 'classname="claims.toml"' in text


def test_claim_timeout_is_an_ini_option(pytester):
    pytester.makefile(".md", slow="```claim\n(d + h + n + 1)**300 - (d + h + n)**300 >= 1\n```\n")
    pytester.makeini("[pytest]\nffnverify_claim_timeout = 0.2\n")
    result = pytester.runpytest("-p", "no:benchmark")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*not decided within the time budget of 0.2 CPU s*--timeout*"])


def test_slug_is_short_readable_and_safe():
    assert slug("params(swiglu, d, 8/3*d) == params(relu, d, 4*d)") == \
        "params-swiglu-d-8-3-d-params-relu-d-4-d"
    assert slug("1 - x ≈ 33%") == "1-x-33"
    assert slug("≥ ≤ ≠") == "claim"  # nothing word-like left
    long = slug("params(swiglu, d, h) + " * 20)
    assert len(long) <= 60 and not long.endswith("-")
    assert slug("\x1b[31mred\x07") == "31mred"  # no control character reaches an id


def test_item_name_without_and_with_an_id():
    plain = Claim(file="a.md", line=4, col=1, expr="width(llama, 4096) == 11008",
                  id="a.md:4")
    assert item_name(plain) == "line:4,column:1:width-llama-4096-11008"
    named = Claim(file="c.toml", line=3, col=9, expr="d_ff(llama-2-7b) == 11008",
                  id="Llama 2 width")
    assert item_name(named) == "line:3,column:9:llama-2-width:d_ff-llama-2-7b-11008"
