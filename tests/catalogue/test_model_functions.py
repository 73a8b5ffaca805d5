"""The whole-model claim functions through the claims engine: fields, parts, active
parameters, attention and model FLOPs, memory, name lookup, and the wrong claims (mutants)
that must come out false or as errors with a message that names the rule."""

import pytest
import sympy as sp
from helpers import verdict
from hypothesis import given
from hypothesis import strategies as st

from ffnverify import catalogue
from ffnverify.catalogue import MODELS
from ffnverify.claims.evaluate import evaluate_claim


def result(text, *assume):
    return evaluate_claim(text, assume)


@pytest.mark.parametrize("claim", [
    "heads(llama-3-8b) == 32 and kv_heads(llama-3-8b) == 8 and head_dim(llama-3-8b) == 128",
    "vocab(llama-3-8b) == 128256 and context(llama-3-8b) == 8192",
    "context(llama-3.1-8b) == 131072",
    "experts(mixtral-8x7b) == 8 and active_experts(mixtral-8x7b) == 2",
    "experts(llama-2-7b) == 1 and active_experts(llama-2-7b) == 1",
    "tied(gemma-7b) == 1 and tied(llama-2-7b) == 0",
    "encoder_layers(t5-base) == 12 and layers(t5-base) == 12",
    "d_ff(gemma-7b, fused=true) == 49152 and d_ff(gemma-7b) == 24576",
    "params_total(llama-3.2-1b, part=lm_head) == 0",
    "params_total(gpt2-small, part=positions) == 1024 * 768",
    "params_total(bert-base, part=pooler) == 768**2 + 768",
    "params_layer(llama-2-7b, part=attention) == 4 * 4096**2",
    "params_layer(llama-2-7b, part=norms) == 2 * 4096",
    "params_layer(llama-2-7b) == params_layer(llama-2-7b, part=attention) + "
    "params_layer(llama-2-7b, part=ffn) + params_layer(llama-2-7b, part=norms)",
    "params_active(llama-2-7b) == params_total(llama-2-7b)",
    "params_active(qwen1.5-moe-a2.7b) ≈ 2.7e9",
    "params_total(qwen1.5-moe-a2.7b) ≈ 14.3e9",
    "params_active(mixtral-8x22b) ≈ 39e9",
    "params_attention(d, 32, kv_heads=8) == 5/2*d**2",
    "params_attention(4096, 32, qkv_bias=true) == 4*4096**2 + 3*4096",
    "params_attention(3072, 16, head_dim=256) == 4 * 3072 * 4096",
    "params_embedding(v, d) == v*d",
    "params_norm(d) == d and params_norm(d, kind=layer) == 2*d",
    "flops_attention(d, h, n) == 8*n*d**2 + 4*n**2*d",
    "flops_attention(d, h, n, pass=backward) == 2*flops_attention(d, h, n)",
    "flops_attention(d, h, n, pass=backward, input_grad=false) < "
    "2*flops_attention(d, h, n)",
    "flops_attention(4096, 32, 1, context=c, kv_heads=8) == 2*(2*4096**2 + 2*4096*1024)"
    " + 4*c*4096",
    "flops_model(llama-2-7b, n=n, pass=train) == 3*flops_model(llama-2-7b, n=n)",
    "flops_token(llama-2-7b, context=c) == flops_model(llama-2-7b, n=1, context=c)",
    "bytes(bf16) == 2 and bytes(fp32) == 4 and bytes(int8) == 1 and bytes(int4) == 1/2",
    "bytes(float16) == bytes(fp16) and bytes(bfloat16) == bytes(bf16) and bytes(fp8) == 1",
    "weight_bytes(llama-2-7b) == 2 * params_total(llama-2-7b)",
    "weight_bytes(llama-2-7b, dtype=int4) == params_total(llama-2-7b) / 2",
    "kv_cache_bytes(llama-2-7b, 4096) == 2 * 32 * 32 * 128 * 4096 * 2",
    "kv_cache_bytes(llama-3-8b, c, batch=b) == 131072 * c * b",
    "kv_cache_bytes(llama-2-70b, 4096) * 8 == kv_cache_bytes(llama-2-70b, 4096) * "
    "heads(llama-2-70b) / kv_heads(llama-2-70b)",
    "params_total('meta-llama/Llama-2-7b-hf') == params_total(LLAMA-2-7B)",
])
def test_true_claims(claim):
    r = result(claim)
    assert r["verdict"] == "true", r


@pytest.mark.parametrize("claim", [
    # mutants: the usual slips
    "params_total(llama-3.2-1b, part=lm_head) == 128256 * 2048",  # a tied head counted
    "params_attention(4096, 32, kv_heads=8) == 4 * 4096**2",  # GQA counted as MHA
    "flops_attention(d, h, n) == 8*n*d**2 + 2*n**2*d",  # causal halving
    "kv_cache_bytes(llama-3-8b, 8192) == 2 * 32 * 32 * 128 * 8192 * 2",  # heads, not kv_heads
    "params_active(mixtral-8x7b) == params_total(mixtral-8x7b)",  # all experts active
    "d_ff(gemma-7b) == 49152",  # the fused width read as d_ff
    "weight_bytes(llama-2-7b) == 4 * params_total(llama-2-7b)",  # bf16 is 2 bytes
    "flops_token(llama-2-7b, context=4096) == 2 * params_total(llama-2-7b)",  # 2N, exact?
])
def test_false_claims(claim):
    r = result(claim)
    assert r["verdict"] == "false", r


@pytest.mark.parametrize("claim,message", [
    ("params_total(llama-2-7, part=ffn) == 1", "did you mean llama-2-7b"),
    ("params_total(llama-2-7b, part=mlp) == 1", "unknown part 'mlp'; expected one of"),
    ("params_layer(llama-2-7b, part=embedding) == 1", "unknown layer part"),
    ("params_norm(8, kind=batch) == 1", "unknown norm kind 'batch'"),
    ("bytes(fp64) == 8", "unknown dtype 'fp64'"),
    ("context(transformer-base) == 1", "not stated by its sources"),
    ("d_ff(gpt2-small, fused=true) == 1", "non-gated FFN"),
    ("flops_model(llama-2-7b, pass=sideways) == 1", "unknown pass"),
])
def test_errors_name_the_rule(claim, message):
    r = result(claim)
    assert r["verdict"] == "error" and message in r["detail"], r


@given(st.sampled_from(sorted(MODELS)),
       st.sampled_from(["embedding", "lm_head", "positions", "attention", "ffn", "norms",
                        "pooler"]))
def test_params_total_part_is_the_catalogue_part(name, part):
    r = result(f"params_total('{name}', part={part}) == {catalogue.parts(name)[part]}")
    assert r["verdict"] == "true", r


@given(st.sampled_from(sorted(n for n in MODELS if MODELS[n].context)))
def test_kv_cache_and_weights_follow_the_row(name):
    m = MODELS[name]
    kv = 2 * m.layers * m.kv_heads * m.head_dim * m.context * 2
    assert verdict(f"kv_cache_bytes('{name}', context('{name}')) == {kv}") == "true"
    assert verdict(f"weight_bytes('{name}', dtype=fp32) == "
                   f"{4 * catalogue.params_total(name)}") == "true"


@given(st.integers(1, 64), st.integers(1, 8), st.integers(1, 8), st.integers(1, 16),
       st.integers(1, 9), st.integers(1, 9), st.booleans(), st.booleans())
def test_params_attention_and_flops_attention_on_drawn_shapes(d, heads, kv, hd, n, c,
                                                              qkv_bias, o_bias):
    """Against a count written out here by hand: q, k, v, o weights and biases; 2 FLOPs per
    multiply-add of the four projections and of QKᵀ and A·V over c keys."""
    q, k = heads * hd, kv * hd
    params = 2 * d * q + 2 * d * k + (q + 2 * k if qkv_bias else 0) + (d if o_bias else 0)
    flops = 2 * n * d * (2 * q + 2 * k) + 2 * 2 * n * c * q
    b = {True: "true", False: "false"}
    assert verdict(f"params_attention({d}, {heads}, kv_heads={kv}, head_dim={hd}, "
                   f"qkv_bias={b[qkv_bias]}, o_bias={b[o_bias]}) == {params}") == "true"
    assert verdict(f"flops_attention({d}, {heads}, {n}, context={c}, kv_heads={kv}, "
                   f"head_dim={hd}) == {flops}") == "true"


def test_six_n_rule_against_the_exact_count():
    """Training FLOPs per token = 6 x (the matmul parameters) + 6 x 2 x layers x context x
    attention width, exactly, for a dense decoder with an untied head."""
    m = MODELS["llama-2-7b"]
    p = catalogue.parts(m.name)
    matmul_params = p["attention"] + p["ffn"] + p["lm_head"]
    c = sp.Symbol("c", positive=True, integer=True)
    from ffnverify.claims import model_functions

    exact = model_functions.flops_token(m.name, c, "train")
    assert sp.expand(exact - (6 * matmul_params + 12 * m.layers * c * m.heads * m.head_dim)) == 0
