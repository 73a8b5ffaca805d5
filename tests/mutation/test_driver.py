"""The mutation driver's scoring, stale-entry and log-filter logic (tests/mutation/run.py),
on hand-made mutmut results: needs neither mutmut nor a mutation run."""

import importlib.util
import itertools
import tomllib
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("mutation_run", Path(__file__).with_name("run.py"))
run = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run)


def diff(old, new):
    return f"--- a.py\n+++ a.py\n@@ -1,2 +1,2 @@\n def f(a, b):\n-{old}\n+{new}"


A, B, C, D = (f"derivations.params.x_params__mutmut_{k}" for k in range(1, 5))
STATUSES = {A: "killed", B: "survived", C: "survived", D: "no tests"}
DIFFS = {B: diff("    return a + b", "    return a - b"), C: diff("    x = 1", "    x = 2"),
         D: diff("    y = 1", "    y = None")}


def test_score_is_killed_over_the_non_equivalent():
    entry = {"mutant": C, "line": "    x = 2", "reason": "x is never read"}
    r = run.tally(STATUSES, [entry], DIFFS)
    assert (r["total"], r["killed"], r["survived"], r["no tests"], r["equivalent"]) == (4, 1, 1, 1, 1)
    assert r["score"] == pytest.approx(1 / 3)
    assert [s["mutant"] for s in r["survivors"]] == [B, D]
    assert r["survivors"][0]["line"] == "return a - b"
    assert r["stale"] == []


def test_not_checked_mutants_are_not_counted():
    r = run.tally({A: "killed", B: "not checked"}, [], {})
    assert (r["total"], r["score"]) == (1, 1.0)


def test_timeouts_and_odd_statuses_are_counted_but_not_killed():
    r = run.tally({A: "timeout", B: "other", C: "killed"}, [], {})
    assert (r["total"], r["timeout"], r["other"], r["killed"]) == (3, 1, 1, 1)
    assert r["score"] == pytest.approx(1 / 3)


@pytest.mark.parametrize("entry, why", [
    ({"mutant": "derivations.params.x_params__mutmut_99", "line": "x", "reason": "r"},
     "no such mutant"),
    ({"mutant": C, "line": "    x = 3", "reason": "r"}, "line is now"),
    ({"mutant": A, "line": "", "reason": "r"}, "line is now"),
    ({"mutant": C, "line": "    x = 2", "reason": " "}, "no reason"),
])
def test_stale_entries_are_flagged_and_not_subtracted(entry, why):
    r = run.tally(STATUSES, [entry], DIFFS)
    assert len(r["stale"]) == 1 and why in r["stale"][0]["why"]
    assert r["equivalent"] == 0
    assert r["score"] == pytest.approx(1 / 4)


def test_an_equivalent_entry_the_tests_kill_is_stale():
    entry = {"mutant": A, "line": "    return 1", "reason": "r"}
    r = run.tally(STATUSES, [entry], {**DIFFS, A: diff("    return 0", "    return 1")})
    assert "killed" in r["stale"][0]["why"] and r["equivalent"] == 0


def test_the_line_matches_whatever_its_indentation():
    entry = {"mutant": B, "line": "return a - b", "reason": "r"}
    assert run.stale_entries([entry], STATUSES, DIFFS) == []


@pytest.mark.parametrize("name, area", [
    ("derivations.flops.x_flops__mutmut_3", "derivations"),
    ("ffnverify.claims.prove.x_sign__mutmut_12", "decider"),
    ("ffnverify.testing.tolerances.xǁBoundǁwiden__mutmut_1", "tolerances"),
    ("ffnverify.testing.checks.x__bounds__mutmut_2", "tolerances"),
    ("ffnverify.testing.checks.x_check_flops__mutmut_7", "tolerances"),
    ("ffnverify.testing.checks.x_run_case__mutmut_1", None),  # not a check function
    ("ffnverify.testing.explain.x_explain__mutmut_1", "explain"),
    ("ffnverify.claims.parser.x_parse__mutmut_1", "language"),
    ("ffnverify.claims.lexer.xǁLexerǁnext__mutmut_2", "language"),
    ("ffnverify.claims.printable.x_visible__mutmut_1", "language"),
    ("ffnverify.claims.registry.x_register__mutmut_1", None),
    ("ffnverify.scan.arithmetic.x_evaluate__mutmut_5", "scan"),
    ("ffnverify.testing.layouts.x_parse__mutmut_1", "kit"),
    ("ffnverify.bench.measure.x__timer__mutmut_9", "kit"),
    ("ffnverify.bench.gemm.x_gemm__mutmut_1", None),
    # whole models: their own area, not the derivations'
    ("derivations.transformer.x_breakdown__mutmut_1", "model"),
    ("derivations.model_costs.x_dtype_bytes__mutmut_2", "model"),
    # catalogue/__init__.py: mutmut drops the __init__ from the name
    ("ffnverify.catalogue.x_architecture__mutmut_1", "model"),
])
def test_area_of(name, area):
    assert run.area_of(name) == area


def test_split_name_of_a_method():
    assert run.split_name("pkg.mod.xǁCaseǁreproducer__mutmut_4") == ("pkg.mod", "Case.reproducer")


def test_globs_select_every_scored_mutant_and_no_other():
    from fnmatch import fnmatch

    patterns = run.globs(list(run.AREAS))
    names = ["derivations.widths.x_exact__mutmut_1", "ffnverify.testing.checks.x_compare__mutmut_2",
             "ffnverify.testing.checks.x_compare_all__mutmut_1",
             "ffnverify.testing.checks.x_run_case__mutmut_1"]
    chosen = [n for n in names if any(fnmatch(n, p) for p in patterns)]
    assert chosen == names[:2]
    assert [n for n in names if run.area_of(n)] == chosen


def module_path(m):
    """The source file of a scored module: pkg/mod.py, or pkg/mod/__init__.py (mutmut names
    a package's __init__ mutants after the package)."""
    root = Path(run.ROOT)
    plain = m.replace(".", "/") + ".py"
    return plain if (root / plain).exists() else m.replace(".", "/") + "/__init__.py"


def test_every_area_has_tests_and_an_existing_module_file():
    root = Path(run.ROOT)
    for name, (modules, functions, tests) in run.AREAS.items():
        assert tests, name
        for m in [*modules, *functions]:
            assert (root / module_path(m)).exists(), m


def test_no_module_is_scored_by_two_areas():
    seen = {}
    for name, (modules, _functions, _tests) in run.AREAS.items():
        for m in modules:
            assert m not in seen, (m, seen.get(m), name)
            seen[m] = name


def _defines_functions(path):
    import ast

    return any(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
               for n in ast.walk(ast.parse(path.read_text("utf-8"))))


@pytest.mark.parametrize("area, package", [("scan", "ffnverify/scan")])
def test_an_area_over_a_package_scores_every_module_of_it(area, package):
    # a module added to the scan later would otherwise be left out without a word
    root = Path(run.ROOT)
    modules = run.AREAS[area][0]
    for path in sorted((root / package).glob("*.py")):
        if _defines_functions(path):
            dotted = str(path.relative_to(root).with_suffix("")).replace("/", ".")
            assert dotted.removesuffix(".__init__") in modules, path


@pytest.mark.parametrize("area, modules", [
    ("language", ["ffnverify/claims/parser.py", "ffnverify/claims/model_functions.py",
                  "ffnverify/claims/files.py", "ffnverify/claims/printable.py"]),
    ("kit", ["ffnverify/testing/identify.py", "ffnverify/testing/layouts.py",
             "ffnverify/testing/counters.py", "ffnverify/bench/measure.py"]),
    ("model", ["derivations/transformer.py", "derivations/model_costs.py",
               "derivations/attention.py", "ffnverify/catalogue/__init__.py"]),
])
def test_the_areas_of_issue_26_score_the_code_it_names(area, modules):
    # issue 26 names these by file: each must still be where its area looks for it
    scored = {module_path(m) for m in run.AREAS[area][0]}
    assert set(modules) <= scored, set(modules) - scored


def test_every_selected_test_file_exists():
    # the driver skips a missing file, so a misspelt one would silently shrink the selection
    root = Path(run.ROOT)
    for name, (_modules, _functions, tests) in run.AREAS.items():
        for t in tests:
            assert (root / t.split("::")[0]).is_file(), (name, t)


def test_equivalent_files_are_well_formed():
    for path in sorted(run.EQUIVALENT_DIR.glob("*.toml")):
        assert path.stem in run.AREAS, path.name
        for e in tomllib.loads(path.read_text("utf-8")).get("equivalent", []):
            assert set(e) == {"mutant", "line", "reason"}, (path.name, e)
            assert run.area_of(e["mutant"]) == path.stem, (path.name, e["mutant"])


def test_log_filter_thins_the_spinner_and_keeps_the_rest():
    ticks = itertools.count(0, 10)  # 10 s between lines
    frames = [f"{s} 3/9  🎉 {k}" for s, k in zip("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏" * 2, range(20))]
    lines = ["⠋ Generating mutants", "⠙ Generating mutants", "    done in 5ms",
             "    done in 5ms", *frames, "1.2 mutations/second"]
    out = list(run.log_filter(lines, clock=lambda: next(ticks), every=60))
    assert out[:2] == ["Generating mutants", "    done in 5ms"]
    assert out[-1] == "1.2 mutations/second"
    progress = out[2:-1]
    assert progress[0] == "3/9  🎉 0" and 2 <= len(progress) <= 4
    assert all(not line.startswith("⠙") for line in out)


def test_markdown_lists_every_area_and_survivor():
    r = run.tally(STATUSES, [], DIFFS)
    text = run.markdown({"derivations": r})
    assert "| derivations | 4 | 1 | 2 | 1 | 0 | 0 | 0 | 25.0% |" in text
    assert f"- `{B}` (survived): `return a - b`" in text and f"`{D}` (no tests)" in text


def test_an_equivalent_left_unrun_still_counts_as_equivalent():
    entry = {"mutant": C, "line": "    x = 2", "reason": "x is never read"}
    r = run.tally({A: "killed", B: "survived", C: "not checked"}, [entry], DIFFS)
    assert (r["total"], r["killed"], r["survived"], r["equivalent"]) == (3, 1, 1, 1)
    assert r["score"] == pytest.approx(1 / 2) and r["stale"] == []
    # a mutant that is no recorded equivalent and was not run is not counted at all
    r = run.tally({A: "killed", B: "not checked"}, [entry], DIFFS)
    assert r["total"] == 1 and r["stale"][0]["why"] == "no such mutant"


def test_the_second_phase_runs_every_unchecked_mutant_but_the_equivalents():
    statuses = {A: "killed", B: "not checked", C: "not checked", D: "not checked",
                "derivations.params.x_f__mutmut_1": "not checked",
                "ffnverify.testing.explain.x_explain__mutmut_1": "not checked",
                "ffnverify.testing.checks.x_run_kit__mutmut_1": "not checked"}
    assert run.still_to_run(statuses, ["derivations"], {C}) == sorted(
        [B, D, "derivations.params.x_f__mutmut_1"])
    assert run.still_to_run(statuses, ["explain", "derivations"], {B, C, D}) == [
        "derivations.params.x_f__mutmut_1", "ffnverify.testing.explain.x_explain__mutmut_1"]


def test_the_first_phase_names_a_few_mutants_of_the_first_area():
    import fnmatch
    for area, (modules, functions, _tests) in run.AREAS.items():
        (pattern,) = run.first_globs([area])
        mine = [f"{m}.x_f__mutmut_1" for m in modules] + [
            f"{m}.x_{f}__mutmut_1" for m, fs in functions.items() for f in fs]
        hits = [n for n in mine if fnmatch.fnmatch(n, pattern)]
        assert hits and all(run.area_of(n) == area for n in hits), (area, pattern)
        assert not fnmatch.fnmatch(mine[0].replace("__mutmut_1", "__mutmut_2"), pattern)


def test_mutmuts_per_mutant_result_list_is_not_logged():
    lines = ["Mutant results", "--------------", "🎉 derivations.params.x_params__mutmut_1",
             "🙁 ffnverify.claims.build.xǁBuilderǁv_Call__mutmut_12", "done in 3s"]
    assert list(run.log_filter(lines)) == ["Mutant results", "--------------", "done in 3s"]


def names_of(func, n, module="derivations.params"):
    return [f"{module}.x_{func}__mutmut_{k}" for k in range(1, n + 1)]


def test_the_sample_takes_a_share_of_every_function_and_is_fixed():
    names = names_of("params", 40) + names_of("flops", 3) + names_of("kv", 1)
    picked = run.sample(names, 0.25)
    by_func = {f: [n for n in picked if f"x_{f}__" in n] for f in ("params", "flops", "kv")}
    # ceil(share * n) of each function: 10 of 40, 1 of 3, and the one mutant of kv
    assert [len(v) for v in by_func.values()] == [10, 1, 1]
    assert set(picked) <= set(names) and picked == sorted(picked)
    # fixed: the same names whatever the order, and a function's pick does not depend on
    # which other functions are in the run
    assert run.sample(list(reversed(names)), 0.25) == picked
    assert run.sample(names_of("params", 40), 0.25) == by_func["params"]
    assert run.sample(names, 1.0) == sorted(names)
    # a spread over the function, not its first mutants
    numbers = sorted(int(n.rsplit("_", 1)[1]) for n in by_func["params"])
    assert numbers != list(range(1, 11)) and numbers[-1] > 20


def test_the_sample_of_a_larger_share_contains_the_smaller():
    names = names_of("params", 50) + names_of("flops", 7)
    assert set(run.sample(names, 0.1)) <= set(run.sample(names, 0.3)) <= set(names)


def test_every_area_has_a_sample_share():
    assert set(run.SAMPLE) == set(run.AREAS)
    assert all(share >= 1 if run.is_count(share) else 0 < share <= 1
               for share in run.SAMPLE.values())


def test_a_whole_number_sample_is_a_fixed_count_over_the_area():
    names = names_of("params", 40) + names_of("flops", 30) + names_of("kv", 5)
    picked = run.sample(names, 12)
    assert len(picked) == 12 and set(picked) <= set(names) and picked == sorted(picked)
    assert run.sample(list(reversed(names)), 12) == picked
    # not stratified: a function may have none (a share gives every function one)
    assert set(run.sample(names, 4)) <= set(picked)
    assert run.sample(names, 1000) == sorted(names)
    assert run.describe(12) == "a sample of 12"
    assert run.describe(0.05) == "a 5% sample by function"
    # the second phase with a count: that many, less what ran and the equivalents
    statuses = dict.fromkeys(names, "not checked")
    statuses[picked[0]] = "killed"
    todo = run.sampled_to_run(statuses, "derivations", set(), 12)
    assert set(todo) == set(picked) - {picked[0]}


@pytest.mark.parametrize("k, n, lo, hi", [
    (95, 100, 0.8882, 0.9785),  # the textbook case: 95 of 100 at 95%
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
])
def test_wilson_interval(k, n, lo, hi):
    a, b = run.wilson(k, n)
    assert (a, b) == (pytest.approx(lo, abs=1e-4), pytest.approx(hi, abs=1e-4))
    assert a <= k / n <= b


def test_the_interval_narrows_with_the_sample():
    widths = [run.wilson(int(0.96 * n), n) for n in (100, 400, 1600)]
    assert [b - a for a, b in widths] == sorted((b - a for a, b in widths), reverse=True)


def test_the_report_shows_the_interval_and_the_sample_size():
    r = run.tally(STATUSES, [], DIFFS)
    r["population"] = 40
    text = run.render({"derivations": r})
    assert "25.0%" in text and "4/40" in text and "95% interval" in text
    lo, hi = r["interval"]
    assert f"{lo:.1%}-{hi:.1%}" in text and f"{lo:.1%}-{hi:.1%}" in run.markdown({"derivations": r})


def test_the_sampled_second_phase_is_the_sample_less_what_ran_and_the_equivalents():
    names = names_of("params", 40)
    statuses = dict.fromkeys(names, "not checked")
    ran, eq = names[0], names[1]
    statuses[ran] = "killed"
    picked = run.sampled_to_run(statuses, "derivations", {eq}, 0.25)
    want = set(run.sample([n for n in names if n != eq], 0.25)) - {ran}
    assert set(picked) == want and eq not in picked and ran not in picked
    assert run.sampled_to_run(statuses, "derivations", {eq}, 1.0) == sorted(
        set(names) - {ran, eq})
    assert run.sampled_to_run(statuses, "explain", {eq}, 0.25) == []


def test_every_scored_function_is_defined_in_its_module():
    # a name that no longer resolves (a function moved to another module) scores nothing:
    # the tolerances area scored no check from the day conformance.py was split until this
    import ast

    root = Path(run.ROOT)
    for name, (_modules, functions, _tests) in run.AREAS.items():
        for module, names in functions.items():
            tree = ast.parse((root / (module.replace(".", "/") + ".py")).read_text())
            defined = {n.name for n in ast.walk(tree)
                       if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
            assert not set(names) - defined, (name, module, set(names) - defined)


def test_only_mutate_covers_every_scored_module():
    import fnmatch
    import tomllib

    globs = tomllib.loads((Path(run.ROOT) / "pyproject.toml").read_text())["tool"]["mutmut"][
        "only_mutate"]
    for name, (modules, functions, _tests) in run.AREAS.items():
        for m in [*modules, *functions]:
            path = module_path(m)
            assert any(fnmatch.fnmatch(path, g) for g in globs), (name, path)
