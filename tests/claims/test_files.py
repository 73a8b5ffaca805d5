"""Claim files: TOML and Markdown positions, unknown keys, malformed files, walking."""

import textwrap

from ffnverify.claims.files import collect, load, markdown_claims, toml_claims

TOML = textwrap.dedent('''\
    # a comment
    [[claim]]
    id = "first"
    expr = "params(swiglu, d, 8/3*d) == params(relu, d, 4*d)"
    quote = """a multi-line
    expr = "not a key"
    quote"""

    [[claim]]
      expr = 'width(llama, 4096) == 11008'
      colour = "red"
      assume = ["d >= 2", "h >= 1"]
      expect = false

    [[claim]]
    expr = "swiglu is better"
    empirical = "needs training"
    ''')


def test_toml_claims_and_positions():
    claims = toml_claims(TOML, "c.toml")
    first, second, third = claims  # one record per claim, the one with a bad key included
    assert (first.id, first.line, first.col) == ("first", 4, 9)
    assert first.quote.startswith("a multi-line")
    assert second.problem_at == (11, 3)
    assert "unknown key 'colour'" in second.problem
    assert (second.line, second.col, second.expect) == (10, 11, "false")
    assert second.assume == ("d >= 2", "h >= 1")
    assert second.id == "c.toml:10"
    assert (third.empirical, third.expect) == ("needs training", "skipped")


def test_toml_syntax_error_has_its_position():
    (claim,) = toml_claims('[[claim]]\nexpr = "1 == 1"\nexpect = \n', "bad.toml")
    assert claim.problem.startswith("TOML syntax error")
    assert (claim.line, claim.col) == (3, 10)


def test_toml_bad_values_and_top_level_keys():
    text = 'title = "x"\n[[claim]]\nexpr = 3\nexpect = "maybe"\nassume = 5\n'
    top, claim = toml_claims(text, "v.toml")
    assert (top.line, "unknown top-level key 'title'" in top.problem) == (1, True)
    for fragment in ("expr must be a string", "expect must be one of", "assume must be"):
        assert fragment in claim.problem


MD = textwrap.dedent('''\
    # Page

    Some prose with `inline code`.

    ```python
    x == 1
    ```

    ```claim
    # a comment line
    params(swiglu, 4, 8) == 96

      8/3*4096 == 10922   # expect: false
    d**2 >= 2*d  # assume: d >= 2 # id: square
    better_quality  # empirical: needs training
    1 + "a # b" == 2
    ```

    ~~~~claim
    1 == 1
    ~~~~
    ''')


def test_markdown_claims_and_trailers():
    claims = markdown_claims(MD, "p.md")
    assert [(c.line, c.col) for c in claims] == [(11, 1), (13, 3), (14, 1), (15, 1), (16, 1),
                                                 (20, 1)]
    assert claims[1].expr == "8/3*4096 == 10922" and claims[1].expect == "false"
    assert claims[2].assume == ("d >= 2",) and claims[2].id == "square"
    assert claims[3].empirical == "needs training" and claims[3].expect == "skipped"
    assert claims[4].expr == '1 + "a # b" == 2'  # '#' inside quotes is not a comment


def test_unclosed_fence_is_reported():
    claims = markdown_claims("```claim\n1 == 1\n", "u.md")
    assert claims[0].expr == "1 == 1"
    assert "never closed" in claims[1].problem


def test_unreadable_and_missing_files(tmp_path):
    bad = tmp_path / "bytes.md"
    bad.write_bytes(b"ok line\n\xff\xfe broken\n")
    (claim,) = load(bad)
    assert "not UTF-8" in claim.problem and (claim.line, claim.col) == (2, 1)
    (missing,) = collect([tmp_path / "nope.md"])
    assert "no such file" in missing.problem


def test_folders_are_walked_and_non_claim_toml_skipped(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.md").write_text("```claim\n1 == 1\n```\n")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    (tmp_path / "b.toml").write_text('[[claim]]\nexpr = "2 == 2"\n')
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "c.md").write_text("```claim\n3 == 3\n```\n")
    (tmp_path / "notes.txt").write_text("```claim\n4 == 4\n```\n")
    assert [c.expr for c in collect([tmp_path])] == ["2 == 2", "1 == 1"]
    # named explicitly, a non-claim TOML file is read and its keys are errors
    (claim,) = collect([tmp_path / "pyproject.toml"])
    assert "unknown top-level key 'project'" in claim.problem


def test_the_example_file_uses_every_claim_function():
    from pathlib import Path

    from ffnverify.claims import parser as P
    from ffnverify.claims.signatures import SIGNATURES

    root = Path(__file__).resolve().parents[2]
    used = set()

    def walk(node):
        if isinstance(node, P.Call):
            used.add(node.func)
        if isinstance(node, P.Name):
            used.add(node.id)
        for value in vars(node).values():
            for child in value if isinstance(value, tuple) else (value,):
                if isinstance(child, tuple):  # keyword arguments: (name, node, col)
                    child = child[1]
                if hasattr(child, "col"):
                    walk(child)

    for claim in collect([root / "examples" / "claims.toml"]):
        if claim.empirical is None:
            walk(P.parse(claim.expr))
    missing = (set(SIGNATURES) | {"oo"}) - used
    assert not missing, f"examples/claims.toml does not use {sorted(missing)}"


def test_byte_order_mark_is_ignored(tmp_path):
    f = tmp_path / "bom.toml"
    f.write_bytes('\ufeff[[claim]]\nexpr = "1 == 1"\n'.encode())
    (claim,) = load(f)
    assert claim.problem is None and claim.line == 2
