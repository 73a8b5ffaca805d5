"""The real FLOP counters, run through check_counter: each gets the right named explanation.

Every tool installed here is run on real tensors (the `counters` tox env installs them all;
elsewhere the ones missing skip with a reason; FlopCounterMode ships with torch). The
expected explanation per tool, variant, bias and input rank is `real_tools.expected`, read
off each tool's documented or measured behaviour; the committed table in docs/counters.md
must be what the tools give.
"""

import os

import pytest

pytest.importorskip("torch")
import real_tools as R  # a sibling module: pytest puts tests/counters/ on sys.path (tests/conftest.py)

CELLS = [(t.name, v, b, r) for t in R.TOOLS for v in R.VARIANTS for b in (False, True)
         for r in (2, 3)]


def _need(tool):
    if not R.BY_NAME[tool].installed():
        why = f"{tool} is not installed or does not import"
        if os.environ.get("FFNVERIFY_REQUIRE_COUNTERS"):  # the counters tox env
            pytest.fail(f"{why}: {R.import_error(tool)}")
        pytest.skip(f"{why} (the counters tox env installs it)")


@pytest.mark.parametrize("tool, variant, bias, rank", CELLS,
                         ids=[f"{t}-{v}-{'bias' if b else 'nobias'}-{r}d" for t, v, b, r in CELLS])
def test_tool_gets_the_right_explanation(tool, variant, bias, rank):
    _need(tool)
    result = R.cached_check(tool, variant, rank, bias)
    report = result.report()
    want = R.expected(tool, variant, bias, rank)
    if want == "error":  # the tool gives no total (a module it has no formula for)
        assert result.error is not None and "Unsupported" in result.error, report
        return
    assert result.error is None, report
    if want == "exact":
        assert result.ok, report
        return
    assert not result.ok, report
    if want == "none":  # no named mechanism fits, and the closed form is recovered
        assert not result.explanations, report
        assert result.yours is not None and result.yours.expr is not None, report
        return
    assert result.explanation is not None, report
    assert result.explanation.key == want, report


@pytest.mark.parametrize("tool", ["calflops", "deepspeed"])
def test_gating_product_python_star_versus_torch_mul(tool):
    _need(tool)
    star = R.check(tool, "swiglu", 2, False, mul="python")
    mul = R.check(tool, "swiglu", 2, False, mul="torch")
    assert star.explanation.key == "activation_one_flop+gate_not_counted", star.report()
    assert "Python's * on tensors" in star.explanation.title
    assert mul.explanation.key == "activation_one_flop", mul.report()
    assert "priced at 1 FLOP per element (ours: 5)" in mul.explanation.title


def test_explanation_texts_carry_their_factor_or_term():
    _need("torchinfo")
    r = R.cached_check("torchinfo", "swiglu", 3, True)
    assert "n = batch tokens" in r.explanation.title
    assert "+ 1 per bias parameter" in r.explanation.title
    assert "fvcore, thop and torchinfo" not in r.report()


def test_recovery_stays_inside_max_dim_on_a_real_tool():
    _need("torchinfo")
    seen = []

    def spy(d, h, batch, seq):
        if all(isinstance(v, int) for v in (d, h, batch, seq)):  # not the symbolic call
            seen.append((d, h, batch, seq))
        return R.count("torchinfo", "relu", d, h, batch, seq)

    from ffnverify.testing.counters import check_counter
    result = check_counter(spy, "macs", "relu", max_examples=60, max_dim=16, degree=3)
    assert not result.ok and result.explanation.key == "seq_dropped", result.report()
    assert result.yours.expr is not None, result.report()
    assert all(max(d, h) <= 16 and b * s <= 16 for d, h, b, s in seen), max(seen)


def test_committed_table_is_what_the_tools_give():
    missing = [t.name for t in R.TOOLS if not t.installed()]
    if missing and os.environ.get("FFNVERIFY_REQUIRE_COUNTERS"):
        pytest.fail(f"not installed or not importable: {', '.join(missing)}")
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)} (the counters tox env has them all)")
    assert R.committed() == R.table(R.rows()), (
        "docs/counters.md is stale: run `python tests/counters/real_tools.py` in the counters "
        "env")


@pytest.mark.parametrize("rank", [2, 3])
def test_torchprofile_gate_and_activation_are_both_listed_as_indistinguishable(rank):
    _need("torchprofile")
    result = R.cached_check("torchprofile", "swiglu", rank, False)
    keys = [f.key for f in result.explanations]
    assert keys[:2] == ["activation_added", "gate_added"], result.report()
    assert "cannot tell them apart" in result.explanations[0].title, result.report()
    assert result.explanations[1].ties, result.report()


def test_torchscan_with_bias_lists_the_2k_minus_1_linear_beside_the_bias_adds():
    _need("torchscan")
    result = R.cached_check("torchscan", "relu", 2, True)
    keys = [f.key for f in result.explanations]
    assert "linear_2k_minus_1" in keys and "cannot tell them apart" in result.report(), \
        result.report()


@pytest.mark.parametrize("rank", [2, 3])
def test_the_recovered_closed_forms_at_max_examples_16(rank):
    """Every tool that disagrees gets its closed form at the docs' --max-examples 16."""
    for tool in ("torchprofile", "pthflops", "torch-operation-counter", "torchinfo"):
        if not R.BY_NAME[tool].installed():
            continue
        result = R.cached_check(tool, "swiglu", rank, True)
        assert result.yours is not None and result.yours.expr is not None, result.report()
