"""The labelled corpus v3 (tests/scan/corpus_v3) is sound: every label points at real
text, its truth is the independent evaluator's, every document has its source and the
split its URL gives, and the evaluator and the measuring script compute what they say.
"""

import ast
import hashlib
import importlib.util
import json
import re
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

HERE = Path(__file__).parent / "corpus_v3"
FOLDERS = ("dev", "heldout", "hostile", "fresh", "fresh2", "fresh3", "fresh4", "fresh5",
           "fresh6", "fresh7", "fresh8", "fresh9", "fresh10")
HELD_OUT_SETS = ("fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6",
                 "fresh7", "fresh8", "fresh9", "fresh10")  # held out whatever
# sha256(url) gives
DOC_SUFFIXES = (".md", ".txt", ".rst", ".html", ".ipynb")


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"corpus_v3_{name}", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


evaluator = _load("evaluator")
measure = _load("measure")


def _labels(folder: str) -> list:
    path = HERE / folder / "labels.toml"
    if not path.exists():
        return []
    return tomllib.loads(path.read_text(encoding="utf-8"))["s"]


def _all_labels():
    return [(folder, lab) for folder in FOLDERS for lab in _labels(folder)]


def _sources() -> list:
    return tomllib.loads((HERE / "sources.toml").read_text(encoding="utf-8"))["doc"]


def _notebook_line(line: str) -> str:
    m = re.fullmatch(r'\s*("(?:[^"\\]|\\.)*")\s*,?\s*', line)
    return json.loads(m.group(1)) if m else line


def _plain(text: str, name: str) -> str:
    if name.endswith(".ipynb"):
        text = "\n".join(_notebook_line(line) for line in text.split("\n"))
    if name.endswith(".html"):
        text = re.sub(r"<[^>]*>", "", text)
    if name.endswith((".md", ".ipynb")):
        text = text.replace("**", "").replace("`", "")
    return " ".join(text.split())


def _misplaced(folder: str, lab: dict) -> str:
    """Why the label does not point at its statement, or ""."""
    path = HERE / folder / lab["file"]
    if not path.is_file():
        return f"{path} does not exist"
    lines = path.read_text(encoding="utf-8").split("\n")
    if not 1 <= lab["line"] <= len(lines):
        return f"line {lab['line']} is outside {path}"
    here = _plain(lines[lab["line"] - 1], lab["file"])
    rest = _plain("\n".join(lines[lab["line"] - 1:lab["line"] + 40]), lab["file"])
    at = rest.find(_plain(lab["starts"], lab["file"]))
    if not 0 <= at <= len(here):
        return f"{lab['starts']!r} does not start on line {lab['line']} of {path}: {here!r}"
    return ""


def _mislabelled(folder: str, lab: dict) -> str:
    """Why the label's truth is not the evaluator's, or ""."""
    where = f"{folder}/{lab['file']}:{lab['line']} {lab['starts']!r}"
    if lab["truth"] not in ("true", "false", "none"):
        return f"{where}: truth {lab['truth']!r} is none of true, false, none"
    got = evaluator.truth(lab["check"])
    if got != lab["truth"]:
        return (f"{where}: labelled {lab['truth']}, evaluator {got}: "
                f"{evaluator.describe(lab['check'])}")
    if lab["truth"] == "false" and not lab.get("why"):
        return f"{where}: a false label says why (the exact value)"
    return ""


# One test per folder, every label checked and every failure listed (one test per label
# made 6,600 test items of a millisecond each, a fifth of the default env's items; under
# pytest-xdist each item's report costs more than its check).
@pytest.mark.parametrize("folder", FOLDERS)
def test_every_label_points_at_its_statement(folder):
    labels = _labels(folder)
    assert labels or folder not in HELD_OUT_SETS
    bad = [why for why in (_misplaced(folder, lab) for lab in labels) if why]
    assert not bad, f"{len(bad)} of {len(labels)} labels:\n" + "\n".join(bad)


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_labels_truth_is_the_evaluators(folder):
    labels = _labels(folder)
    bad = [why for why in (_mislabelled(folder, lab) for lab in labels) if why]
    assert not bad, f"{len(bad)} of {len(labels)} labels:\n" + "\n".join(bad)


def test_a_wrong_label_is_reported_with_its_place_and_the_evaluators_truth():
    lab = {"file": "x.md", "line": 1, "starts": "Llama 2 7B has 40 layers",
           "truth": "true", "check": {"q": "layers", "model": "llama-2-7b", "op": "==",
                                      "stated": "40"}}
    assert "labelled true, evaluator false" in _mislabelled("dev", lab)
    assert "says why" in _mislabelled("dev", {**lab, "truth": "false"})
    assert _mislabelled("dev", {**lab, "truth": "false", "why": "32"}) == ""
    assert "does not exist" in _misplaced("dev", lab)
    real = _labels("dev")[0]
    assert _misplaced("dev", real) == ""
    assert "does not start on line" in _misplaced("dev", {**real, "starts": "no such words"})


def test_labels_are_unique_per_position():
    for folder in FOLDERS:
        seen = [(lab["file"], lab["line"], " ".join(lab["starts"].split()))
                for lab in _labels(folder)]
        assert len(seen) == len(set(seen)), f"{folder}: a label is repeated"


def test_every_document_has_its_source_and_the_split_its_url_gives():
    docs = {d["file"]: d for d in _sources()}
    for folder in FOLDERS:
        for path in sorted((HERE / folder).glob("*")):
            if path.suffix in DOC_SUFFIXES:
                assert f"{folder}/{path.name}" in docs, f"{folder}/{path.name}: no source"
    for name, doc in docs.items():
        assert (HERE / name).is_file(), f"sources.toml names a missing file {name}"
        folder = name.split("/")[0]
        assert doc["split"] == folder
        if folder == "hostile":
            assert doc["url"].startswith("synthetic:"), "hostile documents are synthetic"
        elif folder in HELD_OUT_SETS:  # a later held-out set: held out whatever its hash
            assert doc["url"].startswith(("https://", "http://")), f"{name}: not real"
            elsewhere = {d["url"] for d in docs.values() if d["split"] != folder}
            assert doc["url"] not in elsewhere, f"{name}: also listed outside {folder}/"
        else:
            digit = int(hashlib.sha256(doc["url"].encode()).hexdigest()[0], 16)
            assert folder == ("dev" if digit % 2 == 0 else "heldout"), (
                f"{name}: sha256(url) puts it in the other half")


def test_every_labelled_file_is_in_its_folder_and_every_document_is_labelled():
    for folder in FOLDERS:
        labelled = {lab["file"] for lab in _labels(folder)}
        docs = {p.name for p in (HERE / folder).glob("*") if p.suffix in DOC_SUFFIXES}
        assert labelled == docs, f"{folder}: {labelled ^ docs}"


@pytest.mark.parametrize("folder, least_docs, least_labels",
                         [("fresh", 20, 180), ("fresh2", 35, 280), ("fresh3", 38, 260),
                          ("fresh4", 38, 250), ("fresh5", 38, 250),
                          ("fresh6", 38, 250), ("fresh7", 38, 250),
                          ("fresh8", 38, 250), ("fresh9", 38, 250),
                          ("fresh10", 38, 250)])
def test_each_later_held_out_folder_is_of_its_stated_size(folder, least_docs, least_labels):
    docs = [d for d in _sources() if d["split"] == folder]
    labels = _labels(folder)
    assert len(docs) >= least_docs and len(labels) >= least_labels, (len(docs), len(labels))
    assert {lab["truth"] for lab in labels} == {"true", "false", "none"}
    assert len({d["file"] for d in docs}) == len(docs)


@pytest.mark.parametrize("folder, earlier_sets", [
    ("fresh2", ("dev", "heldout", "fresh")),
    ("fresh3", ("dev", "heldout", "fresh", "fresh2")),
    ("fresh4", ("dev", "heldout", "fresh", "fresh2", "fresh3")),
    ("fresh5", ("dev", "heldout", "fresh", "fresh2", "fresh3", "fresh4")),
    ("fresh6", ("dev", "heldout", "fresh", "fresh2", "fresh3", "fresh4", "fresh5")),
    ("fresh7", ("dev", "heldout", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6")),
    ("fresh8", ("dev", "heldout", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6",
                "fresh7")),
    ("fresh9", ("dev", "heldout", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6",
                "fresh7", "fresh8")),
    ("fresh10", ("dev", "heldout", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6",
                 "fresh7", "fresh8", "fresh9")),
])
def test_a_later_held_out_folder_shares_no_site_thread_or_title_with_the_others(
        folder, earlier_sets):
    docs = _sources()

    def thread(url):  # a site, or a repository's issue/PR thread or file
        host = url.split("/")[2].removeprefix("www.")
        if host == "github.com":
            return "/".join(url.split("/")[3:7])
        return host

    earlier = [d for d in docs if d["split"] in earlier_sets]
    for doc in (d for d in docs if d["split"] == folder):
        assert thread(doc["url"]) not in {thread(d["url"]) for d in earlier}, doc["file"]
        assert doc["title"] not in {d["title"] for d in earlier}, doc["file"]


# --- the evaluator ------------------------------------------------------------------

def test_the_formulas_reproduce_the_published_totals():
    for name, total in evaluator.PUBLISHED_TOTALS.items():
        assert evaluator.params(name) == total, name


def test_the_shared_expert_formula_gives_qwen_moes_published_figures():
    # The Qwen1.5-MoE blog and model card: 14.3B in total, 2.7B activated; Qwen1.5-7B:
    # 6.5B non-embedding parameters. Each is published to one decimal, in billions.
    def tenths(n):
        return round(Fraction(n, 10**8))
    assert tenths(evaluator.params("qwen1.5-moe-a2.7b")) == 143
    assert tenths(evaluator.params("qwen1.5-moe-a2.7b", "active")) == 27
    assert tenths(evaluator.params("qwen1.5-7b", "body")) == 65
    dense = evaluator.params("qwen1.5-7b")
    assert evaluator.params("qwen1.5-7b", "active_body") == evaluator.params("qwen1.5-7b", "body")
    assert dense - evaluator.params("qwen1.5-7b", "body") == 2 * 151936 * 4096  # embed + head


def test_the_evaluator_is_independent_and_evaluates_nothing():
    tree = ast.parse((HERE / "evaluator.py").read_text(encoding="utf-8"))
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
                for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree)
                 if isinstance(n, ast.ImportFrom)}
    assert imported <= {"fractions"}, imported
    called = {n.func.id for n in ast.walk(tree)
              if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert not called & {"eval", "exec", "compile", "__import__"}


@pytest.mark.parametrize("bad", ["__import__('os')", "2**99999", "1e999", "(1+2", "a*b"])
def test_the_arithmetic_parser_rejects_what_is_not_arithmetic(bad):
    with pytest.raises((ValueError, ZeroDivisionError)):
        evaluator.arith(bad)


def test_the_arithmetic_parser_is_exact():
    assert evaluator.arith("8/3*4096") == Fraction(32768, 3)
    assert evaluator.arith("2*(3+4)^2") == 98
    assert evaluator.arith("1.5B * 2") == 3 * 10**9
    assert evaluator.arith("8,192 × 8,192") == 8192 * 8192


def _one(lhs, op, stated, q="arith"):
    return evaluator.truth({"q": q, "lhs": lhs, "op": op, "stated": stated}
                           if q == "arith" else {"q": q, "model": lhs, "op": op,
                                                 "stated": stated})


def test_a_rounded_figure_is_read_at_its_precision():
    assert _one("8192*8192", "==", "67.1M") == "true"
    assert _one("8192*8192", "==", "67.2M") == "false"
    assert _one("8192*8192", "==", "67,108,864") == "true"
    assert _one("8192*8192", "==", "67,108,865") == "false"


def test_hedges_bounds_ranges_and_negation():
    assert _one("6738415616", "≈", "7B") == "true"
    assert _one("6738415616", "≈", "7.5B") == "false"
    assert _one("32", ">=", "32") == "true" and _one("31", ">=", "32") == "false"
    assert _one("30", "<=", "30") == "true" and _one("31", "<=", "30") == "false"
    assert _one("33", "range", "32-40") == "true" and _one("41", "range", "32-40") == "false"
    assert _one("7.2e9", "range", "7–9B") == "true" and _one("6e9", "range", "7-9B") == "false"
    assert _one("32", "!=", "32") == "false" and _one("40", "!=", "32") == "true"


def test_a_ratio_scales_each_of_its_parts():
    per_head = {"q": "head_dim", "model": "bert-base", "scale": "768"}  # one head's Q: 768 x 64
    ratio = {"q": "ratio", "num": {"q": "arith", "lhs": "768*64"}, "den": per_head, "op": "==",
             "stated": "1"}
    assert evaluator.truth(ratio) == "true"
    assert evaluator.truth(dict(ratio, num={"q": "arith", "lhs": "768*768"})) == "false"


def test_binary_and_decimal_readings_of_memory_and_context():
    assert _one("llama-3-8b", "==", "8K", q="context") == "true"
    assert _one("2^30", "==", "1 GiB") == "true"
    assert _one("2^30", "==", "1.07 GB") == "true"
    assert _one("10^9", "==", "1 GiB") == "true"  # 1 GiB at its precision: [0.5, 1.5] GiB
    assert _one("10^9", "==", "1.00 GiB") == "false"


@given(st.integers(min_value=1, max_value=10**15))
def test_an_integer_is_exact_and_its_neighbour_is_not(n):
    assert _one(str(n), "==", f"{n:,}") == "true"
    assert _one(str(n + 1), "==", str(n)) == "false"


@given(st.integers(min_value=1, max_value=10**6), st.integers(min_value=1, max_value=10**6))
def test_kv_cache_is_linear_in_context(a, b):
    def kv(ctx):
        return evaluator.exact_value({"q": "kv_cache_bytes", "model": "llama-2-70b",
                                      "context": ctx, "dtype": "bf16"})
    assert kv(a + b) == kv(a) + kv(b)
    assert kv(1) == 2 * 80 * 8 * 128 * 2


# --- the measuring script -----------------------------------------------------------

def _statement(file, line, text, status, verdict):
    return {"file": file, "line": line, "text": text, "status": status, "verdict": verdict}


def test_the_figures_count_what_they_say():
    marks = [
        {"file": "a.md", "line": 1, "starts": "A is 32", "truth": "true"},
        {"file": "a.md", "line": 2, "starts": "B is 40", "truth": "false"},
        {"file": "a.md", "line": 3, "starts": "C is good", "truth": "none"},
        {"file": "a.md", "line": 4, "starts": "D is 8", "truth": "false"},
        {"file": "a.md", "line": 5, "starts": "E is 9", "truth": "true"},
    ]
    found = [
        _statement("x/a.md", 1, "A is 32 layers", "checked", "true"),
        _statement("x/a.md", 2, "B is 40 layers", "checked", "true"),    # wrong
        _statement("x/a.md", 3, "C is good at 7B", "checked", "true"),   # none: wrong
        _statement("x/a.md", 4, "D is 8 heads", "suggested", "false"),   # flagged
        _statement("x/a.md", 9, "E is 9", "checked", "true"),            # wrong line
    ]
    out = measure.figures({"statements": found}, marks)
    assert out["detected"] == 4 and out["prose_recall"] == 4 / 5
    assert out["checked"] == 3 and out["checked_right"] == 1 and out["wrong_checked"] == 2
    assert out["suggested_false"] == 1 and out["suggested_false_right"] == 1.0
    assert out["false_flagged"] == 1 / 2 and out["read_share"] == 4 / 5
    assert len(out["lists"]["missed"]) == 1 and len(out["lists"]["wrong_checked"]) == 2


# --- the atlas ----------------------------------------------------------------------

def test_the_atlas_lists_false_statements_with_their_exact_values(tmp_path):
    import shutil

    spec = importlib.util.spec_from_file_location(
        "docs_build_atlas", HERE.parents[2] / "docs_build" / "atlas.py")
    atlas = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(atlas)

    small = tmp_path / "corpus"
    (small / "dev").mkdir(parents=True)
    for name in ("evaluator.py", "measure.py"):
        shutil.copy(HERE / name, small / name)
    picked = ("kvdirect_issue_2.md", "kv_cache_sample_calculation.md")
    for name in picked:
        shutil.copy(HERE / "dev" / name, small / "dev" / name)
    text = (HERE / "dev" / "labels.toml").read_text(encoding="utf-8")
    blocks = [b for b in text.split("[[s]]")[1:] if any(f'file = "{n}"' in b for n in picked)]
    (small / "dev" / "labels.toml").write_text("".join("[[s]]" + b for b in blocks))
    docs = [d for d in _sources() if d["file"] in {f"dev/{n}" for n in picked}]
    (small / "sources.toml").write_text("".join(
        f'[[doc]]\nfile = "{d["file"]}"\nurl = "{d["url"]}"\ntitle = "{d["title"]}"\n'
        f'kind = "{d["kind"]}"\nsplit = "dev"\n\n' for d in docs))
    page = atlas.render(small, with_scan=True)
    assert "1 of 2 documents (50%)" in page, page
    assert "16*128*2 = 4096 (stated == 8192)" in page, page
    assert "| dev | " in page and "prose recall" in page
    assert "kv_cache_sample_calculation.md" in page.split("Documents without a wrong count")[1]
    out = tmp_path / "atlas.md"
    assert atlas.main(["--corpus", str(small), "--output", str(out), "--no-scan"]) == 0
    assert "## The scan against the labels" not in out.read_text()


# --- mutants: the evaluator catches a label whose figure is changed -----------------

def _exact_integer_checks():
    for folder, lab in _all_labels():
        for part in lab["check"] if isinstance(lab["check"], list) else [lab["check"]]:
            stated = str(part.get("stated", "")).replace(",", "")
            if part.get("op") == "==" and stated.isdigit() and \
                    evaluator.truth(part) == "true":
                yield folder, lab, part


def test_every_exact_figure_is_checked_to_the_unit():
    seen = 0
    for folder, lab, part in _exact_integer_checks():
        wrong = dict(part, stated=str(int(str(part["stated"]).replace(",", "")) + 1))
        assert evaluator.truth(wrong) == "false", (
            f"{folder}/{lab['file']}:{lab['line']}: {wrong} is not caught")
        seen += 1
    assert seen >= 200, seen


@given(st.integers(min_value=10**3, max_value=10**12), st.integers(min_value=2, max_value=4),
       st.sampled_from(["K", "M", "B"]))
def test_a_figure_rounded_to_its_precision_is_true_and_one_step_off_is_false(n, digits, unit):
    scale = {"K": 10**3, "M": 10**6, "B": 10**9}[unit]
    value = Fraction(n, scale)
    if value < 1:
        return
    shown = f"{float(value):.{digits}f}"
    assert _one(str(n), "==", shown + unit) == "true", (n, shown + unit)
    step = Fraction(1, 10**digits)
    off = f"{float(Fraction(shown) + 2 * step):.{digits}f}"
    assert _one(str(n), "==", off + unit) == "false", (n, off + unit)
