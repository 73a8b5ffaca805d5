"""Every dtype spelling the claim language accepts means its element size, in every
function that takes a dtype (`bytes`, `weight_bytes`, `kv_cache_bytes`), through the
claims engine as a claim file's author writes it.

The oracle is the name itself: the bit width a dtype's name states (`float32`, `fp32`:
32; `bfloat16`: 16; `int4`: 4) over 8, and, for the names PyTorch also has, the
element size torch gives. The spellings come from the engine's own error message for an
unknown dtype (what a user is told they may write), so a new spelling is tested too.
"""

import re
from fractions import Fraction

import pytest

from ffnverify.claims.budget import Engine

# Llama 2 7B: 6,738,415,616 parameters (the Hugging Face Hub safetensors count of
# meta-llama/Llama-2-7b-hf, the catalogue's published_total)
LLAMA2_7B = 6_738_415_616
# its KV cache per token: 2 (K and V) x 32 layers x 32 KV heads x 128 head_dim elements
# (meta-llama/Llama-2-7b-hf config.json: num_hidden_layers 32, num_key_value_heads 32,
# hidden_size 4096 / num_attention_heads 32)
LLAMA2_7B_KV_PER_TOKEN = 2 * 32 * 32 * 128


@pytest.fixture(scope="module")
def engine():
    return Engine(isolate=False)


def _spellings(engine):
    res = engine.evaluate("bytes(no-such-dtype) == 1")
    assert res["verdict"] == "error"
    listed = re.search(r"expected one of (.*)$", res["detail"])
    assert listed, res["detail"]
    return [s.strip() for s in listed.group(1).split(",")]


def _bits(name: str) -> int:
    m = re.fullmatch(r"(?:float|fp|bfloat|bf|int)(\d+)", name)
    assert m, f"a dtype spelling without a bit width in its name: {name!r}"
    return int(m.group(1))


def _literal(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def test_the_usual_spellings_are_accepted(engine):
    assert {"float32", "fp32", "bfloat16", "bf16", "float16", "fp16", "fp8", "int8",
            "int4"} <= set(_spellings(engine))


def test_every_spelling_is_its_bit_width_over_eight(engine):
    for name in _spellings(engine):
        size = Fraction(_bits(name), 8)
        assert engine.evaluate(f"bytes({name}) == {_literal(size)}")["verdict"] == "true", name
        # a wrong size is refuted, not just unproved
        assert engine.evaluate(f"bytes({name}) == {_literal(size + 1)}")["verdict"] == "false"


def test_the_sizes_agree_with_torch_where_torch_has_the_dtype(engine):
    torch = pytest.importorskip("torch")
    checked = 0
    for name in _spellings(engine):
        dt = getattr(torch, name, None)
        # torch's int4 is a placeholder with a one-byte itemsize: only whole-byte dtypes
        if isinstance(dt, torch.dtype) and _bits(name) >= 8:
            checked += 1
            assert engine.evaluate(f"bytes({name}) == {dt.itemsize}")["verdict"] == "true", name
    assert checked >= 4  # float32, bfloat16, float16, int8 (fp32 etc. are not torch names)


@pytest.mark.parametrize("fn", ["weight_bytes", "kv_cache_bytes"])
def test_every_spelling_scales_the_memory_functions(engine, fn):
    per = {"weight_bytes": LLAMA2_7B, "kv_cache_bytes": LLAMA2_7B_KV_PER_TOKEN * 4096}[fn]
    call = "weight_bytes(llama-2-7b, dtype={})" if fn == "weight_bytes" else \
        "kv_cache_bytes(llama-2-7b, 4096, dtype={})"
    for name in _spellings(engine):
        want = Fraction(_bits(name), 8) * per
        assert engine.evaluate(f"{call.format(name)} == {_literal(want)}")["verdict"] == "true", (
            fn, name)
        assert engine.evaluate(f"{call.format(name)} == {_literal(want * 5 / 4)}")[
            "verdict"] == "false", (fn, name)


def test_the_default_dtype_is_bf16(engine):
    assert engine.evaluate(f"weight_bytes(llama-2-7b) == {2 * LLAMA2_7B}")["verdict"] == "true"
    assert engine.evaluate("kv_cache_bytes(llama-2-7b, 4096) == "
                           f"{2 * LLAMA2_7B_KV_PER_TOKEN * 4096}")["verdict"] == "true"
