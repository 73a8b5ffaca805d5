"""Statements read as claims and decided by the engine: the examples of the contract,
wrong statements (mutants) that must come out false, and right ones that must hold."""

import pytest

from ffnverify.scan.read import Context, reading
from ffnverify.scan.scan import settle


def decide(engine, text, context=None, **kw):
    """(status, verdict, claim) as the scan gives them: each part's strict and lenient
    readings decided by the engine, then combined by `scan.settle`."""
    r = reading(text, context or Context(), **kw)
    assert r is not None and r.parts, f"not read: {text}"
    texts = {t for p in r.parts for t in (p.strict, p.lenient)} | set(r.other)
    record = {}
    settle(record, r, {t: engine.evaluate(t) for t in texts})
    assert "status" in record, record
    return record["status"], record["verdict"], record["claim"]


CHECKED = [  # (statement, verdict)
    ("3×32 = 96", "true"), ("32+8+32+4=76", "true"), ("8/3 · 4096 = 10922", "false"),
    ("8,192 × 3.5 = 28,672", "true"), ("2.67 × 4096 ≈ 10,936", "true"),
    ("an expansion of 4×: 4096 → 16384", "true"), ("4096 → 16384 is a 3× expansion", "false"),
    ("Llama 2 7B has 32 layers", "true"), ("Mistral 7B's intermediate size is 14,336", "true"),
    ("Llama 3 70B has ~60B parameters", "false"), ("Llama 2 7B has 6.7B parameters", "true"),
    ("Llama 2 70B has 80 layers and a hidden size of 8192", "true"),
    ("11008 is 8/3 × 4096 rounded up to a multiple of 256", "true"),
    ("SwiGLU needs 3 matrix multiplications", "true"),
    ("8/3 × 2048 = 5461.33", "true"), ("two thirds of 16,384 is 10,922.67", "true"),
    ("2048, which is 2/3 of 3072", "true"),
]
MUTANTS = [  # wrong on purpose: each must be read and come out false
    "3×32 = 69", "32+8+32+4=75", "8/3 · 4096 = 10924", "8,192 × 3.5 = 28,762",
    "2.67 × 4096 ≈ 11,923", "Llama 2 7B has 40 layers", "Llama 2 7B has 7.5B parameters",
    "Mistral 7B's intermediate size is 11,008", "Llama 2 13B has a hidden size of 4096",
    "11008 is 8/3 × 4096 rounded up to a multiple of 512", "ReLU needs 3 matrix multiplications",
    "8/3 × 2048 = 5461.34", "2048, which is 2/3 of 4096",
]


@pytest.mark.parametrize("text,verdict", CHECKED)
def test_checked(engine, text, verdict):
    status, got, parts = decide(engine, text)
    assert (status, got) == ("checked", verdict), parts


@pytest.mark.parametrize("text", MUTANTS)
def test_mutants_are_false(engine, text):
    status, got, parts = decide(engine, text)
    assert status == "checked" and got == "false", parts


def test_thirty_three_percent_at_2_67_d_is_false(engine):
    text = ("SwiGLU with intermediate dimension 2.67D achieves same performance as ReLU "
            "with 4D — 33% parameter reduction")
    status, verdict, parts = decide(engine, text)
    assert (status, verdict) == ("suggested", "false")
    assert parts == "1 - params(swiglu, d, 2.67*d) / params(relu, d, 4*d) ≈ 33%"


def test_compute_ratio_despite_the_reduction_is_false_and_equal_width_holds(engine):
    context = Context(gated=None, plain=None)
    text = ("SwiGLU requires 3 matrix multiplications vs 2 for ReLU — ~1.5x compute per "
            "token despite parameter reduction")
    status, verdict, parts = decide(engine, text, context)
    assert status == "suggested" and verdict == "false"
    assert "flops(swiglu, d, (8/3)*d) / flops(relu, d, 4*d) ≈ 1.5" in parts
    r = reading(text, context)
    assert [engine.evaluate(p)["verdict"] for p in r.other] == ["true"]  # at equal width


def test_equal_width_ratio_holds(engine):
    text = "At the same hidden width a SwiGLU FFN costs 1.5× the FLOPs of a ReLU FFN."
    assert decide(engine, text)[:2] == ("suggested", "true")


def test_two_thirds_of_the_parameters(engine):
    text = "The FFN holds about 2/3 of the parameters of a transformer layer."
    status, verdict, _parts = decide(engine, text)
    assert (status, verdict) == ("suggested", "true")


def test_flops_rules(engine):
    text = "Training costs about 6N FLOPs per token for N parameters."
    assert decide(engine, text)[:2] == ("suggested", "true")


@pytest.mark.parametrize("text", [
    "PaLM models using SwiGLU outperform ReLU baselines by 1-2% accuracy",
    "Llama 2 uses SwiGLU", "Figure 3 shows 12 runs", "SwiGLU matches 10B ReLU models downstream",
])
def test_not_read(text):
    assert reading(text, Context()) is None


def test_documents_are_never_code():
    hostile = "__import__('os').system('x') = 3 and 3×32 = 96; exec('1') ≈ 2"
    r = reading(hostile, Context())
    assert r is not None and [p.strict for p in r.parts] == ["3 * 32 == 96"]
