"""Mutation testing driver: runs mutmut over the eight areas and scores each one.

    python tests/mutation/run.py [AREA ...] [--all] [--no-fail] [--report-only]

AREA is one of AREAS (all by default). The driver runs mutmut once per area, with
HYPOTHESIS_PROFILE=mutation and that area's own test files (those that exist) as the
selection, written into mutants/mutation-tests.txt, which `[tool.mutmut]` hands pytest as
an argument file. The first area starts with a few mutants (mutmut generates them all
first); then every other mutant of the area but the recorded equivalents is named (an
equivalent would cost its function's whole test set and cannot be killed;
--check-equivalents runs them too). It then prints per area: total, killed, survived,
no tests, timeout, equivalent (tests/mutation/equivalent/<area>.toml), the STALE entries
of those files, and score = killed / (total - equivalent), followed by each survivor and
its mutated line. The results go to build/mutation.json. Exit status 1 if an area scores
below THRESHOLD (not with --no-fail), or if an equivalent entry is stale.

The scoring and selecting functions (status_of, area_of, tally, stale_entries,
first_globs, still_to_run, log_filter) are pure, and tested in
tests/mutation/test_driver.py without mutmut.
"""

import argparse
import hashlib
import json
import math
import os
import re
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EQUIVALENT_DIR = ROOT / "tests" / "mutation" / "equivalent"
THRESHOLD = 0.95

# The share of each area's mutants a default run checks (--all: every one). A run of all
# of them takes more than an hour on 2 cores; these shares, from the measured cost per
# mutant of each area (docs/mutation.md: a decider or explain mutant costs 3 to 5 times a
# derivations one), bring the four areas under 30 minutes. A smaller share's sample is
# part of a larger one's.
# A whole number instead of a share is a fixed count of the area's mutants, not stratified
# by function: the scan has about 490 functions, so one mutant of each would be a sample of
# 490 (40 minutes on a loaded machine); a count keeps its sample small and still fixed.
SAMPLE = {"derivations": 0.2, "decider": 0.05, "tolerances": 0.2, "explain": 0.08,
          "scan": 40, "language": 40, "kit": 40, "model": 0.08}

# The kit's check functions in checks.py that the tolerances area scores.
CONFORMANCE_CHECKS = (
    "compare", "expected_shapes", "check_params", "_bounds", "assert_not_vacuous",
    "check_independence", "_judge", "_compare_all", "check_forward_backward",
    "check_train_mode", "saturated", "check_saturation", "check_flops",
)

# area -> (modules scored whole, {module: functions scored}, test files the area needs)
AREAS = {
    "derivations": (
        ["derivations.activations", "derivations.flops", "derivations.gradients",
         "derivations.memory", "derivations.params", "derivations.symbols",
         "derivations.variants", "derivations.widths"],
        {},
        ["tests/derivations/test_params.py", "tests/derivations/test_flops.py",
         "tests/derivations/test_memory.py", "tests/derivations/test_widths.py",
         "tests/derivations/test_activations.py",
         "tests/catalogue/test_transformer_properties.py", "tests/catalogue/test_catalogue.py",
         "tests/derivations/test_derivation_properties.py",
         # the cheap cases of two slow files (the SymPy proofs of the other variants, and
         # the FlopCounterMode runs on drawn shapes, take minutes per surviving mutant)
         "tests/derivations/test_gradients.py::test_closed_forms_are_proved[relu-True]",
         "tests/derivations/test_gradients.py::test_closed_forms_are_proved[reglu-True]",
         "tests/derivations/test_gradients.py::test_derivative_forms_are_proved",
         "tests/derivations/test_gradients.py::test_symbolic_equals_backend[relu-True-numpy]",
         "tests/derivations/test_gradients.py::test_symbolic_equals_backend[reglu-True-numpy]",
         "tests/derivations/test_gradients.py::test_symbolic_equals_backend[bilinear-True-numpy]",
         "tests/catalogue/test_attention_flops_torch.py::test_attention_flops_mutants_are_caught",
         "tests/catalogue/test_attention_flops_torch.py::test_moe_mutants_are_caught",
         "tests/catalogue/test_attention_flops_torch.py::test_one_decoder_layer_matches_flop_counter",
         "tests/catalogue/test_attention_flops_torch.py::test_sdpa_math_backend_counts_the_same"],
    ),
    "decider": (
        ["ffnverify.claims.evaluate", "ffnverify.claims.build", "ffnverify.claims.formulas",
         "ffnverify.claims.stated_precision", "ffnverify.claims.certify",
         "ffnverify.claims.prove", "ffnverify.claims.refute"],
        {},
        ["tests/claims/test_evaluate.py", "tests/claims/test_rounding.py",
         "tests/claims/test_notation.py", "tests/claims/test_soundness.py",
         "tests/claims/test_decider_properties.py", "tests/claims/test_certify_properties.py",
         "tests/claims/test_build_properties.py", "tests/claims/test_prove_properties.py",
         "tests/claims/test_decide_properties.py"],
    ),
    "tolerances": (
        ["ffnverify.testing.tolerances"],
        {"ffnverify.testing.checks": CONFORMANCE_CHECKS},
        ["tests/conformance/test_tolerances.py", "tests/conformance/test_checks.py",
         "tests/conformance/test_tolerance_properties.py",
         "tests/conformance/test_check_properties.py",
         "tests/conformance/test_tolerance_refusals.py",
         # check_flops' two paths that only an outside submodule or a failing counter take
         "tests/conformance/test_experts.py::test_extra_params_flops_are_counted_apart_and_said_so",
         "tests/conformance/test_experts.py::test_a_counter_failing_under_no_grad_is_not_the_modules_failure",
         "tests/conformance/test_experts.py::test_a_counter_that_always_fails_leaves_the_check_out_with_a_note"],
    ),
    "explain": (
        ["ffnverify.testing.explain", "ffnverify.testing.count_target",
         "ffnverify.testing.mistakes", "ffnverify.testing.fitted"],
        {},
        ["tests/counters/test_explanations.py", "tests/counters/test_explain_properties.py"],
    ),
    # the scan of prose (ffnverify/scan/): its own tests but those that run subprocesses or
    # time themselves (no_eval, speed, hostile_files, cli, pytest_plugin: seconds each, and
    # what they check is the process, not a reading) and s2_identity (it measures the
    # modules' size, which mutmut's trampolines multiply: it fails on every mutant)
    "scan": (
        ["ffnverify.scan." + m for m in (
            "anaphora", "arithmetic", "binding", "blocks", "carried", "carried_compute",
            "device_totals", "respectively", "equation_forms", "said_of",
            "chains", "cjk", "compute", "derived", "detect", "doc_html", "doc_ipynb",
            "doc_markdown", "doc_rst", "doc_text", "european", "fields", "figure",
            "format_ratios", "formats",
            "formula_rows", "inline", "kv_tables", "memory", "memory_words", "moe",
            "nesting", "numbers", "optimizer", "parts", "precision", "pytest_scan",
            "quantities", "read", "restated",
            "readers", "recognise", "report", "rows", "scan", "shares", "spelled",
            "structure", "suggest", "symbolic", "tildes", "totals", "units", "variants",
            "weights", "words")],
        {},
        [f"tests/scan/{t}.py" for t in (
            "test_mutation_kills", "test_mutation_survivors", "test_scan_alternatives_hedges",
            "test_scan_anaphora_figures_s3", "test_scan_arith_v3", "test_scan_around",
            "test_scan_attributed_derived", "test_scan_carried",
            "test_scan_carried_compute_s3", "test_scan_citations_nominal",
            "test_scan_context_amount_s3", "test_scan_contrast", "test_scan_coverage",
            "test_scan_detect_families", "test_scan_detect_formula",
            "test_scan_field_symbols_s3", "test_scan_formats_s3", "test_scan_formula_rows_s3",
            "test_scan_header_scale", "test_scan_hostile_s1", "test_scan_hyphen_scale_aside",
            "test_scan_kv_dtype", "test_scan_kv_readings", "test_scan_kv_tables_s3",
            "test_scan_lost_text", "test_scan_memory_moe", "test_scan_moe_subject_s3",
            "test_scan_numbers", "test_scan_other_units", "test_scan_own_noun",
            "test_scan_per_billion_s3", "test_scan_published_as", "test_scan_quantities",
            "test_scan_read", "test_scan_readers", "test_scan_readers_hostile",
            "test_scan_recognise", "test_scan_refuted_imagined",
            "test_scan_requirement_memory", "test_scan_rounded_inputs",
            "test_scan_rounded_results", "test_scan_sentences",
            "test_scan_shared_scale_bits_moe", "test_scan_sized_columns_s3",
            "test_scan_softbreaks", "test_scan_spelled_counts_s3", "test_scan_structure",
            "test_scan_symbol_sides", "test_scan_symbolic_s3", "test_scan_text_tables",
            "test_scan_tildes_s3", "test_scan_times_names_s3", "test_scan_token_rule_s3",
            "test_scan_v3", "test_scan_words", "test_corpus_v3", "test_scan_corpus",
            # the scan tests written since the selection was made (3 s together), and the
            # first scan run's survivors, each killed by a test of its property
            "test_scan_binding_families", "test_scan_compared_subject",
            "test_scan_compute_names", "test_scan_dimensional", "test_scan_families",
            "test_scan_headed_tables", "test_scan_intro_list", "test_scan_kv_heads_factor",
            "test_scan_out_of_memory", "test_scan_published_cards", "test_scan_scale_apart",
            "test_scan_standard_ffn", "test_scan_unread_reasons", "test_scan_worded_links",
            "test_scan_mutants", "test_scan_cjk", "test_scan_optimizer",
            "test_scan_document_subject", "test_scan_listings_and_formats",
            "test_scan_european", "test_scan_restated", "test_scan_count_nouns",
            "test_scan_paragraph_before", "test_scan_rates",
            "test_scan_settings_and_word_formulas", "test_scan_bounds_and_nearness",
            "test_scan_format_ratios", "test_scan_respectively",
            "test_scan_equation_forms", "test_scan_expert_pool", "test_scan_spelled_units",
            "test_scan_width_rule", "test_scan_context_setting", "test_scan_key_lines",
            "test_scan_inline_units", "test_scan_moe_name_size", "test_scan_side_by_side",
            "test_scan_units_and_parts", "test_scan_equation_forms_mutants")],
    ),
    # the claim language: its lexer and parser, the model functions, reading claim files,
    # printing what a file holds (test_hostile_files is left out: it runs the audit from
    # another directory, whose worker processes cannot find mutmut's configuration)
    "language": (
        ["ffnverify.claims.lexer", "ffnverify.claims.parser", "ffnverify.claims.model_functions",
         "ffnverify.claims.files", "ffnverify.claims.printable"],
        {},
        ["tests/claims/test_parser.py", "tests/claims/test_notation.py",
         "tests/claims/test_notation_shared.py", "tests/claims/test_files.py",
         "tests/claims/test_printable.py",
         "tests/claims/test_printable_bytes.py", "tests/claims/test_show_bytes.py",
         "tests/claims/test_dtype_spellings.py", "tests/claims/test_registry.py",
         "tests/catalogue/test_model_functions.py",
         # the first language run's survivors, each killed by a test of its property
         "tests/claims/test_language_mutants.py",
         "tests/claims/test_language_population.py", "tests/claims/test_read_bounded.py",
         # the full population's survivors (ninth session), each killed by a test of its
         # property: every error message and column, literals and node columns, the file
         # error paths, the escapes and the model functions' argument errors
         "tests/claims/test_language_errors.py", "tests/claims/test_language_literals.py",
         "tests/claims/test_language_files.py", "tests/claims/test_language_output.py"],
    ),
    # the kit around the checks: identifying a module's layout, the layout tables, the
    # counter checker, the bench's measurements (test_tool_mechanisms is left out: a
    # minute of real third-party counters, checking the tools more than counters.py; and
    # test_counter_exits: its counters run in spawned processes, which fail to import
    # mutmut's trampolines)
    "kit": (
        ["ffnverify.testing.identify", "ffnverify.testing.layouts", "ffnverify.testing.counters",
         "ffnverify.bench.measure"],
        {},
        ["tests/conformance/test_identify.py", "tests/conformance/test_layouts.py",
         "tests/conformance/test_megatron_layout.py", "tests/conformance/test_auto_layout.py",
         "tests/counters/test_check_counter_api.py", "tests/counters/test_mutants.py", "tests/bench/test_bench_measure.py",
         "tests/bench/test_bench_timer_units.py", "tests/bench/test_bench_profiler_quiet.py",
         # identify's diagnoses (the first run's survivors were there; the reproducer tests
         # run their reproducers in fresh processes, which mutmut's trampolines fail)
         "tests/conformance/test_diagnose.py",
         # the first kit run's survivors, each killed by a test of its property
         "tests/conformance/test_kit_mutants.py", "tests/counters/test_counter_mutants.py",
         "tests/bench/test_measure_mutants.py"],
    ),
    # whole models: the derivations' transformer, attention and model-cost parts, and the
    # catalogue's functions over its rows (the rows are data: mutmut mutates functions only,
    # tests/catalogue/test_published_fields.py pins every field of every row)
    "model": (
        ["derivations.transformer", "derivations.attention", "derivations.model_costs",
         "ffnverify.catalogue"],
        {},
        ["tests/catalogue/test_catalogue.py", "tests/catalogue/test_published_fields.py",
         "tests/catalogue/test_model_survivors.py", "tests/derivations/test_derivation_properties.py",
         "tests/catalogue/test_transformer_properties.py",
         "tests/catalogue/test_model_functions.py", "tests/catalogue/test_catalogue_torch.py",
         # the catalogue's lookup table, layer_parts and params_active (the first run's left)
         "tests/catalogue/test_catalogue_mutants.py", "tests/catalogue/test_catalogue_lookup.py",
         "tests/claims/test_dtype_spellings.py",
         "tests/catalogue/test_attention_flops_torch.py::test_attention_flops_mutants_are_caught",
         "tests/catalogue/test_attention_flops_torch.py::test_moe_mutants_are_caught",
         "tests/catalogue/test_attention_flops_torch.py::test_one_decoder_layer_matches_flop_counter",
         "tests/catalogue/test_attention_flops_torch.py::test_sdpa_math_backend_counts_the_same"],
    ),
}

# mutmut's exit codes (mutmut/stats.py) -> the driver's statuses; anything else is "other"
_STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests",
           36: "timeout", 24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout",
           None: "not checked"}
COLUMNS = ("total", "killed", "survived", "no tests", "timeout", "other", "equivalent")


def status_of(exit_code):
    return _STATUS.get(exit_code, "other")


def split_name(mutant):
    """'pkg.mod.x_fn__mutmut_3' -> ('pkg.mod', 'fn'); methods 'pkg.mod.xǁCǁm__mutmut_1'
    -> ('pkg.mod', 'C.m')."""
    head = mutant.rsplit("__mutmut_", 1)[0]
    module, _, func = head.rpartition(".")
    func = func[2:] if func.startswith("x_") else func.lstrip("x").strip("ǁ").replace("ǁ", ".")
    return module, func


def area_of(mutant, areas=AREAS):
    """The area that scores `mutant`, or None."""
    module, func = split_name(mutant)
    for name, (modules, functions, _tests) in areas.items():
        if module in modules or func in functions.get(module, ()):
            return name
    return None


def globs(area_names, areas=AREAS):
    """mutmut run's name patterns for the areas' mutants."""
    out = []
    for name in area_names:
        modules, functions, _tests = areas[name]
        out += [f"{m}.*" for m in modules]
        out += [f"{m}.x_{f}__mutmut_*" for m, fs in functions.items() for f in fs]
    return out


def first_globs(area_names, areas=AREAS):
    """The run's first phase: mutant 1 of each function of the first area's first module
    (mutmut generates every mutant before it runs any, so the rest can then be named)."""
    modules, functions, _tests = areas[area_names[0]]
    if modules:
        return [f"{modules[0]}.*__mutmut_1"]
    module, fs = next(iter(functions.items()))
    return [f"{module}.x_{fs[0]}__mutmut_1"]


def still_to_run(statuses, area_names, equivalent, areas=AREAS):
    """The second phase: the areas' mutants not yet checked, but for the recorded
    equivalents (no input tells them apart, so running one only costs its whole test set)."""
    return sorted(n for n, s in statuses.items()
                  if s == "not checked" and n not in equivalent
                  and area_of(n, areas) in area_names)


def is_count(share):
    """A SAMPLE entry that is a whole number of mutants, not a share."""
    return isinstance(share, int) and not isinstance(share, bool)


def sample(names, share, salt="ffnverify-mutation"):
    """A fixed sample of mutant names, stratified by function: from each function's
    mutants, the ceil(share * n) whose sha256(salt + name) is smallest (so at least one of
    every function). A whole-number `share` is a count instead: the `share` names of the
    whole area whose sha256 is smallest, not stratified. The same name is in or out on
    every run and machine."""
    def key(n):
        return hashlib.sha256((salt + n).encode()).hexdigest()

    if is_count(share):
        return sorted(sorted(names, key=key)[:share])
    by_function = {}
    for n in names:
        by_function.setdefault(split_name(n), []).append(n)
    out = []
    for group in by_function.values():
        group.sort(key=key)
        out += group[:math.ceil(share * len(group))]
    return sorted(out)


def sampled_to_run(statuses, area, equivalent, share, areas=AREAS):
    """The second phase with a sample: the area's unchecked mutants (still_to_run) that are
    in the `share` sample of its non-equivalent mutants (share 1.0: all of them; a whole
    number: that many)."""
    todo = still_to_run(statuses, [area], equivalent, areas)
    if not is_count(share) and share >= 1:
        return todo
    chosen = set(sample([n for n in statuses if area_of(n, areas) == area
                         and n not in equivalent], share))
    return [n for n in todo if n in chosen]


def describe(share):
    """How a SAMPLE entry reads in the log."""
    return f"a sample of {share}" if is_count(share) else f"a {share:.0%} sample by function"


def wilson(k, n, z=1.96):
    """The Wilson score interval of a proportion k/n at z (1.96: 95%); a report, not a count."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def plus_lines(diff):
    """The added lines of a unified diff, without their '+'."""
    return [ln[1:] for ln in diff.splitlines() if ln.startswith("+") and not ln.startswith("+++")]


def stale_entries(entries, statuses, diffs):
    """[(entry, why)] for equivalent entries that no longer hold: the mutant is gone, its
    mutated line differs from the entry's `line`, or the tests kill it."""
    out = []
    for e in entries:
        name = e.get("mutant", "")
        if name not in statuses:
            out.append((e, "no such mutant"))
            continue
        lines = [ln.strip() for ln in plus_lines(diffs.get(name, ""))]
        if not lines or str(e.get("line", "")).strip() not in lines + ["\n".join(lines)]:
            out.append((e, f"line is now {' / '.join(lines) or '(none)'!r}"))
        elif statuses[name] == "killed":
            out.append((e, "killed by the tests, so not equivalent"))
        elif not str(e.get("reason", "")).strip():
            out.append((e, "no reason given"))
    return out


def tally(statuses, entries, diffs):
    """One area's counts, score, survivors and stale entries. `statuses`: {mutant: status}
    of the area's mutants; `entries`: its equivalent entries; `diffs`: {mutant: diff}."""
    stale = stale_entries(entries, statuses, diffs)
    stale_names = {e.get("mutant") for e, _ in stale}
    equivalent = {e["mutant"] for e in entries if e.get("mutant") not in stale_names}
    counts = dict.fromkeys(COLUMNS, 0)
    survivors = []
    for name, status in sorted(statuses.items()):
        if status == "not checked" and name not in equivalent:
            continue
        counts["total"] += 1
        if name in equivalent:
            counts["equivalent"] += 1
        elif status in counts:
            counts[status] += 1
        else:
            counts["other"] += 1
        if status != "killed" and name not in equivalent:
            survivors.append({"mutant": name, "status": status,
                              "line": " / ".join(ln.strip() for ln in plus_lines(diffs.get(name, "")))})
    scored = counts["total"] - counts["equivalent"]
    score = counts["killed"] / scored if scored else 1.0
    return {**counts, "score": score, "interval": wilson(counts["killed"], scored),
            "scored": scored, "survivors": survivors,
            "stale": [{"mutant": e.get("mutant"), "why": why} for e, why in stale]}


def load_equivalents(area):
    path = EQUIVALENT_DIR / f"{area}.toml"
    if not path.exists():
        return []
    return tomllib.loads(path.read_text("utf-8")).get("equivalent", [])


def read_statuses():
    """{mutant: status} from mutmut's mutants/**/*.py.meta files."""
    out = {}
    for meta in (ROOT / "mutants").rglob("*.py.meta"):
        for name, code in json.loads(meta.read_text("utf-8"))["exit_code_by_key"].items():
            out[name] = status_of(code)
    return out


def read_diffs(names):
    """{mutant: diff} as `mutmut show` prints it (mutmut imported here only)."""
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    return {n: get_diff_for_mutant(n) for n in names}


_SPINNER = re.compile(r"^[\u2800-\u28ff]\s*")  # mutmut's braille spinner frames
# one line per named mutant after a run on explicit names (the driver's report says it all)
_RESULT = re.compile(r"^\S{1,2} \S+__mutmut_\d+$")


def log_filter(lines, clock=time.monotonic, every=60.0):
    """The lines worth logging from mutmut's output: spinner frames (a braille character
    first; each \\r frame arrives as a line) at most one per `every` seconds, unless the
    text after the spinner changed to a new stage; other lines once each (no repeats),
    but for mutmut's closing list of one result per named mutant."""
    last_text, last_line, shown = None, None, None
    for raw in lines:
        line = raw.rstrip()
        if not line or line == last_line or _RESULT.match(line):
            continue
        last_line = line
        m = _SPINNER.match(line)
        if m:
            text = line[m.end():]
            stage = re.sub(r"[\d/]+", "", text)
            now = clock()
            if stage == last_text and shown is not None and now - shown < every:
                continue
            last_text, shown = stage, now
            line = text
        yield line


def run_mutmut(patterns, max_children, log_path):
    """`mutmut run`, its output filtered by log_filter into the log and the terminal."""
    cmd = [str(Path(sys.executable).with_name("mutmut")), "run",
           f"--max-children={max_children}", *patterns]
    # one BLAS/torch thread per mutant: --max-children of them share the cores
    env = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
           **os.environ, "HYPOTHESIS_PROFILE": os.environ.get("HYPOTHESIS_PROFILE", "mutation")}
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "a", encoding="utf-8") as log, subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, encoding="utf-8", errors="replace") as proc:
        t0 = time.monotonic()
        for line in log_filter(proc.stdout):  # universal newlines: each \r frame is a line
            line = f"{time.monotonic() - t0:6.0f}s {line}"
            log.write(line + "\n")
            print(line, flush=True)
    return proc.returncode


def run_area(area, first, args, log):
    """mutmut on one area, with that area's own test files as the selection (mutmut drops
    the other areas' tests from its test-to-function map and times the new ones). The
    first area starts with a few mutants, so that mutmut generates them all; the rest are
    then named. Returns (mutmut's exit code, wall seconds)."""
    t0 = time.monotonic()
    tests = [t for t in AREAS[area][2]
             if (ROOT / t.split("::")[0]).exists() and t not in args.without]
    (ROOT / "mutants" / "mutation-tests.txt").write_text("\n".join(tests) + "\n")
    print(f"[{area}] test selection: {' '.join(tests)}", flush=True)
    if args.rerun_survivors:
        phases = [sorted(m for m, s in read_statuses().items()
                         if s not in ("killed", "not checked") and area_of(m) == area)]
        print(f"[{area}] rerunning {len(phases[0])} mutants not killed last time", flush=True)
    elif args.check_equivalents:
        phases = [globs([area])]
    else:
        phases = ([first_globs([area])] if first else []) + [None]  # None: named below
    code = 0
    for patterns in phases:
        if patterns is None:
            equivalent = {e.get("mutant") for e in load_equivalents(area)}
            share = 1.0 if args.all else SAMPLE[area]
            patterns = sampled_to_run(read_statuses(), area, equivalent, share)
            print(f"[{area}] {len(patterns)} mutants to run ({describe(share)}; "
                  f"{len(equivalent)} recorded equivalents left out; --all runs every "
                  "mutant, --check-equivalents the equivalents too)", flush=True)
        code = run_mutmut(patterns, args.max_children, log) if patterns else 0
        if code != 0:
            break
    wall = time.monotonic() - t0
    print(f"[{area}] {wall / 60:.1f} min", flush=True)
    return code, wall


def render(results):
    head = (f"{'area':<12}" + "".join(f"{c:>11}" for c in COLUMNS)
            + f"{'score':>9}{'95% interval':>15}{'of all':>16}{'min':>7}")
    rows = [head]
    for area, r in results.items():
        lo, hi = r["interval"]
        rows.append(f"{area:<12}" + "".join(f"{r[c]:>11}" for c in COLUMNS)
                    + f"{r['score']:>9.1%}{f'{lo:.1%}-{hi:.1%}':>15}"
                    + f"{_of_all(r):>16}{r.get('wall_s', 0) / 60:>7.1f}")
    for area, r in results.items():
        for s in r["survivors"]:
            rows.append(f"  {area}: {s['status']}: {s['mutant']}: {s['line']}")
        for s in r["stale"]:
            rows.append(f"  {area}: STALE equivalent {s['mutant']}: {s['why']}")
    return "\n".join(rows)


def _of_all(r):
    """'scored/population' of an area's non-equivalent mutants (the sample's size)."""
    return f"{r['scored']}/{r.get('population', r['scored'])}"


def markdown(results):
    """The per-area table and the survivors, as Markdown (for a closing note)."""
    rows = ["| area | " + " | ".join(COLUMNS)
            + " | score | 95% interval | scored of all | minutes |",
            "|---" * (len(COLUMNS) + 5) + "|"]
    for area, r in results.items():
        lo, hi = r["interval"]
        rows.append(f"| {area} | " + " | ".join(str(r[c]) for c in COLUMNS)
                    + f" | {r['score']:.1%} | {lo:.1%}-{hi:.1%} | {_of_all(r)}"
                    + f" | {r.get('wall_s', 0) / 60:.1f} |")
    for area, r in results.items():
        rows += ["", f"{area}: {len(r['survivors'])} not killed"]
        rows += [f"- `{s['mutant']}` ({s['status']}): `{s['line']}`" for s in r["survivors"]]
        rows += [f"- STALE `{s['mutant']}`: {s['why']}" for s in r["stale"]]
    return "\n".join(rows) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("areas", nargs="*", metavar="AREA",
                    help=f"areas to run (default: all of {', '.join(AREAS)})")
    ap.add_argument("--no-fail", action="store_true", help="exit 0 below the threshold (baseline)")
    ap.add_argument("--report-only", action="store_true", help="score the last run, run nothing")
    ap.add_argument("--rerun-survivors", action="store_true",
                    help="run only the mutants the last run did not kill (after adding tests)")
    ap.add_argument("--check-equivalents", action="store_true",
                    help="run the recorded equivalent mutants too (a killed one is STALE)")
    ap.add_argument("--without", action="append", default=[], metavar="TEST_FILE",
                    help="leave this test file out of the selection (a baseline before it)")
    ap.add_argument("--all", action="store_true",
                    help="run every mutant, not the SAMPLE share of each area (over an hour)")
    ap.add_argument("--max-children", type=int, default=2)
    ap.add_argument("--json", type=Path, default=ROOT / "build" / "mutation.json")
    ap.add_argument("--markdown", type=Path, help="also write the table and survivors here")
    args = ap.parse_args(argv)
    areas = args.areas or list(AREAS)
    if set(areas) - set(AREAS):
        ap.error(f"unknown area(s) {sorted(set(areas) - set(AREAS))}; known: {', '.join(AREAS)}")
    os.chdir(ROOT)
    start = time.monotonic()
    area_wall = {}
    if not args.report_only:
        log = ROOT / "build" / "mutation.log"
        log.unlink(missing_ok=True)
        (ROOT / "mutants").mkdir(exist_ok=True)
        for i, area in enumerate(areas):
            code, area_wall[area] = run_area(area, i == 0, args, log)
            if code != 0:
                print(f"mutmut run failed (exit {code}); see {log}", file=sys.stderr)
                return code
    statuses = read_statuses()
    by_area = {a: {} for a in areas}
    for name, status in statuses.items():
        area = area_of(name)
        if area in by_area:
            by_area[area][name] = status
    results = {}
    for area in areas:
        entries = load_equivalents(area)
        # diffs of the mutants run and not killed (and of the equivalents): never of the
        # unsampled ones, which the report leaves out (a diff costs a parse of its module:
        # the scan's 23,000 unsampled mutants took longer than its run)
        wanted = {n for n, s in by_area[area].items() if s not in ("killed", "not checked")}
        wanted |= {e.get("mutant") for e in entries if e.get("mutant") in by_area[area]}
        results[area] = tally(by_area[area], entries, read_diffs(sorted(wanted)))
        results[area]["population"] = len(by_area[area]) - results[area]["equivalent"]
        if area in area_wall:
            results[area]["wall_s"] = round(area_wall[area])
    print(render(results))
    wall = time.monotonic() - start
    print(f"wall time: {wall / 60:.1f} min")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"wall_s": round(wall), "threshold": THRESHOLD,
                                     "areas": results}, indent=2) + "\n")
    if args.markdown:
        args.markdown.write_text(markdown(results))
    low = [a for a, r in results.items() if r["score"] < THRESHOLD]
    stale = [a for a, r in results.items() if r["stale"]]
    if low and not args.no_fail:
        print(f"below {THRESHOLD:.0%}: {', '.join(low)}", file=sys.stderr)
    if stale:
        print(f"stale equivalent entries in: {', '.join(stale)}", file=sys.stderr)
    return 1 if (low and not args.no_fail) or stale else 0


if __name__ == "__main__":
    sys.exit(main())
