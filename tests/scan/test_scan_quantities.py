"""The quantity readers (`scan.quantities`): KV cache and weights memory at a dtype, bytes
per number, MoE total/active and routing, the 2N/6N/6ND rules, FLOPs → GPU-hours, time and
cost, multi-step arithmetic, ratios in words. Each reader is fed tokens from
`numbers.normalise`/`numbers.tokens`, and its parts are decided by the claims engine
under both readings.

For each reader: true sentences (TRUE under both readings, or TRUE leniently), mutants of
them (FALSE under every reading), ambiguous ones (strict and lenient differ), binding
(`sure`) and the figures each part reads. Hypothesis siblings: a figure rounded from the
exact value at any precision is never FALSE leniently; one off by more than its
precision is FALSE under both.
"""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ffnverify.scan.detect import models
from ffnverify.scan.numbers import normalise, tokens
from ffnverify.scan.quantities import read_quantities


def parts_of(text):
    clean = normalise(text)
    toks = tokens(clean)
    return read_quantities(toks, clean, models(clean)), toks


def decided(engine, text):
    """[(strict verdict, lenient verdict, part)] for every part read from `text`."""
    parts, _ = parts_of(text)
    assert parts, f"nothing read from {text!r}"
    out = []
    for p in parts:
        s, le = engine.evaluate(p.strict), engine.evaluate(p.lenient)
        assert "error" not in (s["verdict"], le["verdict"]), (p, s, le)
        out.append((s["verdict"], le["verdict"], p))
    return out


def figure_texts(text):
    parts, toks = parts_of(text)
    return [[toks[i].text for i in p.figures] for p in parts]


TRUE = [  # every part TRUE leniently; (statement, whether every part is also TRUE strictly)
    # KV cache
    ("Llama 2 7B's KV cache is 524288 bytes per token in bf16.", True),
    ("For Llama 2 7B each token costs 0.5 MB of KV cache in fp16.", True),
    ("Llama 2 70B's KV cache at 4096 tokens in fp16 is 1.25 GiB.", True),
    ("Mistral 7B's KV cache at 32K context in bf16 is 4 GiB.", True),
    ("For a batch of 16 sequences of 4096 tokens the cache of Llama 2 7B needs 32 GiB.", True),
    # weights
    ("Llama 2 7B in fp16 takes about 13.5 GB.", True),
    ("In fp16 Llama 2 13B takes 26 GB, in int8 13 GB and in int4 6.5 GB.", True),
    ("Llama 2 7B takes 13.5 GB in fp16 and 6.7 GB in int8.", True),
    ("a 7B model needs 28 GB in fp32", True),
    ("A model with 6.74 billion parameters stored in bf16 takes 2 bytes per parameter, so "
     "about 13.5 GB for the weights alone.", True),
    ("With Adam in mixed precision at 16 bytes per parameter, a 7B model needs 112 GB.", True),
    ("Loading a 7B model in float32 requires 28GB+ VRAM.", True),
    ("Llama 2 13B in fp16 fits on a single 40 GB A100.", True),  # a bound: weights <= 40 GB
    ("Llama 2 7B with a 4096-token KV cache in fp16 fits on a 24 GB GPU.", True),
    # bytes per number
    ("A parameter in float32 takes 4 bytes; in int8 it takes 1 byte; in int4 it takes 0.5 "
     "bytes.", True),
    # MoE
    ("Mixtral 8x7B has 46.7B parameters of which 12.9B are active.", True),
    ("Mixtral 8x7B uses 12.9B active parameters out of 46.7B total.", True),
    ("Mixtral 8x7B activates about 13B of its 47B parameters per token.", True),
    ("Mixtral 8x7B routes each token to 2 of its 8 experts.", True),
    ("Mixtral 8x7B uses top-2 routing.", True),
    # rules and throughput
    ("With the 6ND rule, training a 7B model on 2T tokens takes 8.4e22 FLOPs.", True),
    ("Training takes 8.4e22 FLOPs; at 312 TFLOPS and 50% MFU that is 150K GPU-hours.", True),
    ("At $2 per GPU-hour, 150K GPU-hours cost $300K.", True),
    ("For a 7B model, 2N ≈ 14 GFLOPs per token.", True),
    ("Training costs about 6N FLOPs per token, so a 70B model needs 420 GFLOPs per token.", True),
    ("A 175B-parameter model at 6 FLOPs per parameter per token needs 1.05 TFLOPs per token.",
     True),
    # chains
    ("4096 × 11008 = 45.1M, × 3 = 135.3M, × 32 layers = 4.33B", True),
    ("2 × 80 × 8 × 128 × 4,096 × 2 = 1,342,177,280 bytes = 1.34 GB = 1.25 GiB", True),
    ("float32 (7B × 4 = 28GB), int8 (7B × 1 = 7GB), int4 (7B × 0.5 = 3.5GB)", True),
    ("13 billion parameters * 2 trillion tokens * 6 FLOP / token / parameter = 1.6e23 FLOP",
     True),
    ("FLOPs per token = 175B parameters * 2 FLOPs/parameter * 2 passes = 700B FLOPs/token", True),
    ("Total FLOPs = 700B FLOPs/token * 100B tokens = 7 x 10^22 FLOPs", True),
    ("We are over by 28 - 16 = 12GB here.", True),  # a sum's terms share the result's unit
    ("a 7B model might require 14+42+14 = ~70GB of VRAM.", True),
    ("50257 = 256 individual byte tokens + 50000 merged tokens + 1 special end-of-text token.",
     True),
    ("For Llama 3.1 8B, hidden_size is 4,096 but intermediate_size is 14,336 — a ratio of "
     "about 3.5×.", True),
    ("Mixtral 8x7B (2 out of 8 experts) - Total TFLOPs: 287.78", True),
    ("2 — bytes per value in FP16", True),
    # words
    ("Llama 2 70B has eighty layers and sixty-four heads.", True),
    ("Mixtral 8x7B routes each token to two of its eight experts.", True),
    ("16384 is four times 4096, and 8192 is twice 4096.", True),
    ("Half of 4096 is 2048.", True),
    ("In fp32 the 13.5 GB doubles to 27 GB.", True),
    ("A third of 12288 is 4096.", True),
]

FALSE = [  # mutants of the sentences above: some part FALSE under both readings
    "Llama 2 7B's KV cache is 262144 bytes per token in bf16.",
    "For Llama 2 7B each token costs 2 MB of KV cache in fp16.",
    "Llama 2 70B's KV cache at 4096 tokens in fp16 is 5 GB.",
    "Mistral 7B's KV cache at 32K context in bf16 is 16 GiB.",
    "For a batch of 16 sequences of 4096 tokens the cache of Llama 2 7B needs 8 GiB.",
    "Llama 2 7B in fp16 takes about 30 GB.",
    "In fp16 Llama 2 13B takes 26 GB, in int8 26 GB and in int4 6.5 GB.",
    "a 7B model needs 14 GB in fp32",
    "A model with 6.74 billion parameters stored in bf16 takes 2 bytes per parameter, so "
    "about 27 GB for the weights alone.",
    "With Adam in mixed precision at 16 bytes per parameter, a 7B model needs 56 GB.",
    "Loading a 7B model in int4 fits in 2GB.",
    "Llama 2 13B in fp16 fits on a single 16 GB card.",
    "A parameter in float32 takes 2 bytes.",
    "Mixtral 8x7B has 45B parameters of which 14B are active.",
    "Mixtral 8x7B uses 6.5B active parameters out of 46.7B total.",
    "Mixtral 8x7B routes each token to 3 of its 8 experts.",
    "Mixtral 8x7B uses top-1 routing.",
    "With the 6ND rule, training a 7B model on 2T tokens takes 8.4e21 FLOPs.",
    "Training takes 8.4e22 FLOPs; at 312 TFLOPS and 50% MFU that is 1.5M GPU-hours.",
    "At $2 per GPU-hour, 150K GPU-hours cost $3M.",
    "For a 7B model, 2N ≈ 28 GFLOPs per token.",
    "A 175B-parameter model at 6 FLOPs per parameter per token needs 350 GFLOPs per token.",
    "Training takes 8.4e22 FLOPs; at 312 TFLOPS and 50% MFU on 1024 GPUs that is 5.5 days.",
    "4096 × 11008 = 45.1M, × 3 = 135.3M, × 32 layers = 5.33B",
    "2 × 80 × 8 × 128 × 4,096 × 2 = 1,342,177,280 bytes = 2.68 GB",
    "float32 (7B × 4 = 14GB)",
    "13 billion parameters * 2 trillion tokens * 6 FLOP / token / parameter = 1.6e22 FLOP",
    "FLOPs per token = 175B parameters * 2 FLOPs/parameter * 2 passes = 350B FLOPs/token",
    "50257 = 256 individual byte tokens + 50000 merged tokens + 2 special tokens.",
    "We are over by 28 - 16 = 14GB here.",
    "a 7B model might require 14+42+14 = ~80GB of VRAM.",
    "For Llama 3.1 8B, hidden_size is 4,096 but intermediate_size is 14,336 — a ratio of 5×.",
    "Mixtral 8x7B (1 out of 8 experts)",
    "4 — bytes per value in FP16",
    "Llama 2 7B has forty layers.",
    "Mixtral 8x7B routes each token to two of its sixteen experts.",
    "16384 is three times 4096.",
    "Half of 4096 is 1024.",
    "In fp32 the 13.5 GB doubles to 54 GB.",
]

AMBIGUOUS = [  # strict FALSE, lenient TRUE: the report names the reading that holds
    # GiB read as GB strictly: 1,342,177,280 B is 1.34 GB, 1.25 GiB
    "Llama 2 70B's KV cache at 4096 tokens in fp16 is 1.25 GB.",
    # the nominal 7B × 4 bytes: 28 GB; the real 6.74B × 4 = 26.95 GB
    "Llama 2 7B needs 28 GB in fp32.",
    # a rounded carry: 45.1M × 3 = 135.3M, the exact 135,266,304 is 135.3M, not 135.4M
    "4096 × 11008 = 45.1M, × 3 = 135.4M",
    # a unit elided on the factors of a product: 7 (billion) × 4 (bytes) = 28 GB
    "float32: 7 × 4 = 28GB",
    # the real count: 6 · 6.74B · 2T = 8.09e22; the nominal 7B: 8.4e22
    "Training Llama 2 7B on 2T tokens takes 6ND ≈ 8.4e22 FLOPs.",
    # 2.7 at its precision (roughly: 2.6..2.8) covers 11008/4096 = 2.6875
    "The FFN width 11008 is roughly 2.7 times 4096.",
    # 8.4e22 / (312e12 · 0.5 · 1024) s = 6.09 days: the inputs at their precision reach 6.0
    "Training takes 8.4e22 FLOPs; at 312 TFLOPS and 50% MFU on 1024 GPUs that is 6.0 days.",
]


@pytest.mark.parametrize("text,strictly", TRUE)
def test_true_statements_hold(engine, text, strictly):
    for s, le, p in decided(engine, text):
        assert le == "true", (text, p)
        if strictly:
            assert s == "true", (text, p)


@pytest.mark.parametrize("text", FALSE)
def test_mutants_are_false_under_every_reading(engine, text):
    got = decided(engine, text)
    assert any(s == le == "false" for s, le, _ in got), (text, got)


@pytest.mark.parametrize("text", AMBIGUOUS)
def test_ambiguous_readings_differ(engine, text):
    got = decided(engine, text)
    assert all(le == "true" for _, le, _ in got), got
    assert any(s == "false" for s, _, _ in got), got


# ---- binding ------------------------------------------------------------------------

@pytest.mark.parametrize("text,sure", [
    ("Llama 2 70B's KV cache at 4096 tokens in fp16 is 1.25 GiB.", True),
    ("For Llama 2 7B each token costs 0.5 MB of KV cache.", False),  # no dtype: 16 bits
    ("Llama 2 7B and Llama 2 13B: the KV cache at 4096 tokens in fp16 is 2 GB.", False),
    ("Mixtral 8x7B has 46.7B parameters of which 12.9B are active.", True),
])
def test_sure_only_when_every_input_is_bound(text, sure):
    parts, _ = parts_of(text)
    assert parts and all(p.sure == sure for p in parts), parts


def test_the_exact_count_of_a_rule_of_thumb_is_only_suggested(engine):
    got = decided(engine, "A forward pass of Llama 2 7B costs about 2N ≈ 13.5 GFLOPs per token.")
    rule = [p for _, _, p in got if "params_total" in p.strict]
    exact = [p for _, _, p in got if "flops_token" in p.strict]
    assert rule and rule[0].sure and exact and not exact[0].sure, got
    assert all(le == "true" for le, _, p in ((x[1], x[0], x[2]) for x in got) if p in rule)


@pytest.mark.parametrize("text", [
    "The KV cache at 4096 tokens in fp16 is 2 GB.",  # which model? none named: not read
    "In fp32 it doubles to about 27 GB.",  # "it": no figure to double
    "Llama 2 7B at 4096 tokens is 2 GB.",  # no cache, no weights: memory of what?
    "Each token is routed to the top-1 expert for accuracy.",  # no model named
    "A forward pass costs about 2N FLOPs per token.",  # a rule, no figure
    "We ran the tests on 8 GPUs in 3 days.",  # no rate, no FLOPs
    "one key and one value per layer",  # "one" is no cardinal
    "The total is 3 layers and 4 heads = 12",  # "and" is no operator
    "3 × 32 = 96",  # one step, no units: the plain arithmetic reader's
    "SwiGLU at 8d/3 keeps 4·(8d/3) = 32d/3 elements per token",  # symbols, not units
    # figures of different kinds are no pair for "a factor of"
    "With LoRA on a 7B model, P_trainable might be 0.01 % of P, so the gradient columns "
    "shrink by a factor of roughly 10,000.",
    # a model named as a part of another: the figures are the whole's, not Mistral 7B's
    "The architecture is eight Mistral 7B experts behind a router that activates two per "
    "token, giving 47B total parameters but only ~13B active per forward pass.",
    # what a device holds is no requirement of the model
    "If your GPU has 24GB VRAM and you need to fit a 7B model, 4-bit quantization helps.",
    "Llama 2 7B's KV cache at 4096 tokens in fp16 would overflow an 80GB A100 at batch 64.",
])
def test_nothing_is_guessed(text):
    parts, _ = parts_of(text)
    assert parts == [], parts


def test_kv_reading_names_the_assumed_dtype():
    parts, _ = parts_of("For Llama 2 7B each token costs 0.5 MB of KV cache.")
    assert "assumed" in parts[0].reading and "bf16" in parts[0].strict


@pytest.mark.parametrize("text,figures", [
    ("Llama 2 70B's KV cache at 4096 tokens in fp16 is 1.25 GB.", [["4096", "1.25 GB"]]),
    ("For a batch of 16 sequences of 4096 tokens in fp16 the cache of Llama 2 7B needs 32 GiB.",
     [["16", "4096", "32 GiB"]]),
    ("Loading a 7B model in 4-bit quantization fits in 4GB.", [["7B", "4", "4GB"]]),
    ("Training takes 8.4e22 FLOPs; at 312 TFLOPS and 50% MFU that is 150K GPU-hours.",
     [["8.4e22 FLOPs", "312 TFLOPS", "50%", "150K"]]),
    ("4096 × 11008 = 45.1M, × 3 = 135.3M", [["4096", "11008", "45.1M"], ["45.1M", "3", "135.3M"]]),
])
def test_figures_name_every_number_read(text, figures):
    assert figure_texts(text) == figures


# ---- properties ---------------------------------------------------------------------

KV_PER_TOKEN = {"llama-2-7b": ("Llama 2 7B", 524288), "llama-2-70b": ("Llama 2 70B", 327680),
                "mistral-7b": ("Mistral 7B", 131072)}
_UNITS = [("KB", 10**3), ("MB", 10**6), ("GB", 10**9), ("KiB", 2**10), ("MiB", 2**20),
          ("GiB", 2**30)]


def _fixed(n: int, digits: int) -> str:
    """The integer n / 10**digits written with exactly `digits` decimals."""
    if not digits:
        return str(n)
    body = str(abs(n)).rjust(digits + 1, "0")
    return ("-" if n < 0 else "") + body[:-digits] + "." + body[-digits:]


def _rounded(value: Fraction, scale: int, digits: int) -> str:
    """`value / scale` written with `digits` decimals, rounded half up."""
    return _fixed(int(value / scale * 10**digits + Fraction(1, 2)), digits)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(sorted(KV_PER_TOKEN)), st.integers(1, 131072), st.integers(0, 3),
       st.sampled_from(_UNITS))
def test_a_rounded_kv_figure_is_never_false_leniently(engine, model, context, digits, unit):
    name, per_token = KV_PER_TOKEN[model]
    exact = Fraction(per_token * context)
    figure = _rounded(exact, unit[1], digits)
    if Fraction(figure) == 0:
        return
    text = f"{name}'s KV cache at {context} tokens in fp16 is {figure} {unit[0]}."
    for _, le, p in decided(engine, text):
        assert le == "true", (text, p)


@settings(max_examples=25, deadline=None)
@given(st.integers(100, 99_999), st.integers(100, 99_999), st.integers(1, 3),
       st.sampled_from([("M", 10**6), ("K", 10**3)]),
       st.sampled_from([2, 3, -2, -3, 9, -9, 12, -12]))
def test_a_chain_step_off_by_more_than_its_precision_is_false(engine, a, b, digits, scale, off):
    """The step × 7 stated `off` units of its last digit away from the rounded exact value:
    strictly (the exact carry, ±0.5 unit) FALSE from 2 units on; leniently (also the first
    result as stated, ±0.5 unit, times 7: ±3.5 units, and ±0.5 for the step) FALSE once
    the first result's rounding (≤3.5 units after ×7) and both tolerances are passed."""
    first = _rounded(Fraction(a * b), scale[1], digits)
    right = int(Fraction(a * b * 7, scale[1]) * 10**digits + Fraction(1, 2))
    if right + off <= 0 or Fraction(first) == 0:
        return
    good = f"{a} × {b} = {first}{scale[0]}, × 7 = {_fixed(right, digits)}{scale[0]}"
    bad = f"{a} × {b} = {first}{scale[0]}, × 7 = {_fixed(right + off, digits)}{scale[0]}"
    assert all(le == "true" for _, le, _ in decided(engine, good)), good
    step = decided(engine, bad)[-1]
    assert step[0] == "false", (bad, step)
    if abs(off) >= 9:
        assert step[1] == "false", (bad, step)


@pytest.mark.parametrize("text,subject,about,verdict", [
    ("4K tokens | 0.5 GB", "llama-3-8b", "Context | KV cache", "true"),
    ("4K tokens | 5 GB", "llama-3-70b", "Context | KV cache", "false"),  # 1.34 GB
    ("Active Parameters per Forward Pass: 12.9 billion (2 of 8 experts)", "mixtral-8x7b", "",
     "true"),
    ("Total Parameters: 45 billion", "mixtral-8x7b", "Mixture of experts, 2 active", "false"),
])
def test_a_model_named_around_the_unit_is_only_assumed(engine, text, subject, about, verdict):
    clean = normalise(text)
    parts = read_quantities(tokens(clean), clean, models(clean), subject=subject, about=about)
    assert parts and all(not p.sure and "assumed" in p.reading for p in parts), parts
    got = [(engine.evaluate(p.strict)["verdict"], engine.evaluate(p.lenient)["verdict"])
           for p in parts]
    if verdict == "true":
        assert all(le == "true" for _, le in got), (parts, got)
    else:
        assert any(s == le == "false" for s, le in got), (parts, got)


def test_without_a_subject_a_unit_naming_no_model_is_not_read():
    clean = normalise("4K tokens | 0.5 GB")
    assert read_quantities(tokens(clean), clean, (), about="Context | KV cache") == []


WEIGHTS = {"llama-2-7b": ("Llama 2 7B", 6738415616), "llama-2-13b": ("Llama 2 13B", 13015864320),
           "mistral-7b": ("Mistral 7B", 7241732096)}
DTYPE_BYTES = {"fp32": Fraction(4), "fp16": Fraction(2), "bf16": Fraction(2),
               "int8": Fraction(1), "int4": Fraction(1, 2)}


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(sorted(WEIGHTS)), st.sampled_from(sorted(DTYPE_BYTES)),
       st.integers(0, 3), st.sampled_from([("GB", 10**9), ("GiB", 2**30), ("MB", 10**6)]),
       st.booleans())
def test_weights_rounded_are_never_false_and_a_wrong_dtype_is(engine, model, dtype, digits,
                                                              unit, wrong):
    """The weights of a named model at a dtype, rounded at any precision, hold leniently;
    the same figure for twice the bytes (the dtype mistaken) is FALSE under every reading
    once the figure states two significant digits (the nominal size and GB/GiB differ from
    the real count by under 8%, a factor of 2 by 100%)."""
    name, count = WEIGHTS[model]
    exact = count * DTYPE_BYTES[dtype] * (2 if wrong else 1)
    figure = _rounded(exact, unit[1], digits)
    if Fraction(figure) < 10:
        return  # one significant digit: too coarse to refute a factor of two
    text = f"{name} in {dtype} takes {figure} {unit[0]}."
    got = decided(engine, text)
    if wrong:
        assert any(s == le == "false" for s, le, _ in got), (text, got)
    else:
        assert all(le == "true" for _, le, _ in got), (text, got)


# ---- end to end: `ffnverify scan` (read.reading calls read_quantities) ----------------

END_TO_END = [  # (statement, status, verdict)
    ("Llama 2 70B's KV cache at 4096 tokens in fp16 is 1.25 GiB.", "checked", "true"),
    ("Llama 2 70B's KV cache at 4096 tokens in fp16 is 5 GB.", "checked", "false"),
    ("Llama 2 70B's KV cache at 4096 tokens in fp16 is 1.25 GB.", "suggested", "true"),  # GiB
    ("For Llama 2 7B each token costs 0.5 MB of KV cache.", "suggested", "true"),  # no dtype
    ("Mixtral 8x7B has 46.7B parameters of which 12.9B are active.", "checked", "true"),
    ("Training takes 8.4e22 FLOPs; at 312 TFLOPS and 50% MFU that is 150K GPU-hours.",
     "checked", "true"),
    ("Training takes 8.4e22 FLOPs; at 312 TFLOPS and 50% MFU that is 1.5M GPU-hours.",
     "checked", "false"),
    ("Llama 2 7B in fp16 takes about 13.5 GB.", "checked", "true"),
    ("Llama 2 7B needs 28 GB in fp32.", "suggested", "true"),  # only at its nominal 7B
]


@pytest.mark.parametrize("text,status,verdict", END_TO_END)
def test_scan_reads_the_quantities(scan_text, text, status, verdict):
    (st,) = scan_text(text + "\n")["statements"]
    assert (st["status"], st["verdict"]) == (status, verdict), st


_PIECES = ["Llama 2 7B", "Mixtral 8x7B", "Mistral 7B", "KV cache", "weights", "in fp16", "in int4",
           "at", "4096 tokens", "32K context", "per token", "is", "=", "≈", "~", "×", "/", "+",
           "-", "(", ")", ",", "0", "0 GB", "1.25 GB", "13.5 GiB", "7B", "12.9B", "active",
           "parameters", "of which", "are", "2 of its 8 experts", "6ND", "2N", "8.4e22 FLOPs",
           "312 TFLOPS", "50% MFU", "1024 GPUs", "days", "GPU-hours", "$2 per GPU-hour", "$3M",
           "twice", "half of", "a ratio of", "3.5×", "bytes per parameter", "16", "eighty",
           "layers", "fits in", "at least", "batch of 16 sequences", "1e-3", "0.0"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=14))
def test_every_part_is_a_well_formed_claim(engine, pieces):
    """Whatever the sentence, each part the readers build is a claim the engine decides
    (true, false or unknown), never a malformed one (an `error`)."""
    text = " ".join(pieces)
    parts, _ = parts_of(text)
    for p in parts:
        for claim in (p.strict, p.lenient):
            got = engine.evaluate(claim)
            assert got["verdict"] != "error", (text, claim, got)


def test_a_division_by_a_written_zero_builds_no_claim(engine):
    """"Llama 2 7B / 0 = 0 GB" (a draw of the property above): a divisor written as 0
    states nothing, so no part divides by it (the engine would answer `error`)."""
    for text in ("Llama 2 7B / 0 = 0 GB", "4096 / 0 = 0", "7B / (0) = 0"):
        parts, _ = parts_of(text)
        for p in parts:
            for claim in (p.strict, p.lenient):
                assert engine.evaluate(claim)["verdict"] != "error", (text, claim)
