"""The pytest plugin: claims in .md/.toml files are test items with their own ids and
locations; -k, xdist and --junitxml work; files without claims are not collected."""

import textwrap

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
    result.stdout.fnmatch_lines(["claims.toml::wrong-count", "claims.toml::width",
                                 "page.md::line4", "page.md::line5", "page.md::line6",
                                 "5 tests collected*"])


def test_outcomes_and_failure_report(pytester):
    make(pytester)
    result = pytester.runpytest("-rs", "-p", "no:benchmark")
    result.assert_outcomes(passed=3, failed=1, skipped=1)
    result.stdout.fnmatch_lines([
        "claims.toml:3:9: FALSE params(swiglu, d, h) == 2*d*h",
        "  expected: true",
        "  value:    3*d*h vs 2*d*h",
        "*counterexample d=1, h=1*",
        "SKIPPED*empirical: needs training*",
    ])


def test_k_selection_junitxml_and_xdist(pytester):
    make(pytester)
    result = pytester.runpytest("-k", "width or line5", "-p", "no:benchmark")
    result.assert_outcomes(passed=2)
    xml = pytester.path / "junit.xml"
    result = pytester.runpytest_subprocess("-n", "2", f"--junitxml={xml}", "-p", "no:benchmark")
    result.assert_outcomes(passed=3, failed=1, skipped=1)
    text = xml.read_text()
    assert 'name="wrong-count"' in text and 'name="line4"' in text
    assert 'file="claims.toml"' in text or 'classname="claims.toml"' in text


def test_claim_timeout_is_an_ini_option(pytester):
    pytester.makefile(".md", slow="```claim\n(d + h + n + 1)**300 - (d + h + n)**300 >= 1\n```\n")
    pytester.makeini("[pytest]\nffnverify_claim_timeout = 0.2\n")
    result = pytester.runpytest("-p", "no:benchmark")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*not decided within the time budget of 0.2 s*"])
