"""Properties of the derivations that a real bug would break, each against an oracle
that does not come from the code under test: the defaults as users call them (the
documented default, written out), published model shapes, Kaplan et al.'s per-token
FLOPs, the matmul shapes against the weight shapes and the saved tensors, and one decoder
layer against transformers' own module on the meta device (where transformers is
installed). Written for the mutation run (docs/mutation.md): each test is cheap."""

import pytest
import sympy as sp
from hypothesis import example, given
from hypothesis import strategies as st

from derivations import attention, gradients, memory, model_costs, transformer, widths
from derivations import flops as F
from derivations.params import params, weight_shapes
from derivations.symbols import d, h, n
from derivations.variants import VARIANTS

GATED = sorted(v for v in VARIANTS if VARIANTS[v].gated)
PLAIN = sorted(v for v in VARIANTS if not VARIANTS[v].gated)
dims = st.integers(1, 64)


def mats(variant):
    return 3 if VARIANTS[variant].gated else 2


# --- defaults, as users call the functions (SPEC: bias false, pass forward, count matmul,
# input_grad true; d, h, n default to the symbols of derivations.symbols) ---

@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_params_defaults_are_symbolic_and_without_bias(variant):
    assert params(variant) == mats(variant) * d * h
    assert params(variant, 8, 12) == mats(variant) * 8 * 12
    shapes = weight_shapes(variant)
    assert all(k.startswith("W_") for k in shapes)
    assert shapes["W_down"] == (h, d) and shapes["W_up"] == (d, h)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_flops_defaults(variant):
    m = mats(variant)
    # forward: 2 FLOPs per multiply-add, m weight matmuls of n·d·h multiply-adds each
    assert F.flops(variant) == 2 * m * n * d * h
    assert F.matmul_flops(variant) == 2 * m * n * d * h
    assert F.macs(variant) == m * n * d * h
    # input_grad defaults to true: backward is dW and dx for every matmul, twice forward
    assert F.flops(variant, pass_="backward") == 4 * m * n * d * h
    assert F.matmul_flops(variant, pass_="backward") == 4 * m * n * d * h
    assert F.macs(variant, pass_="train") == 3 * m * n * d * h
    # count=all without bias adds exactly the elementwise work of the default (no bias)
    extra = F.elementwise_flops(variant)
    assert F.flops(variant, count="all") == 2 * m * n * d * h + extra
    assert F.elementwise_flops(variant, pass_="forward", bias=False) == extra
    assert F.macs(variant, count="all") == (2 * m * n * d * h + extra) / 2


@given(variant=st.sampled_from(sorted(VARIANTS)), dd=dims, hh=dims, nn=dims)
def test_flops_defaults_at_numbers(variant, dd, hh, nn):
    m = mats(variant)
    assert F.flops(variant, dd, hh, nn) == 2 * m * nn * dd * hh
    assert F.flops(variant, dd, hh, nn, pass_="backward", input_grad=False) == (
        2 * m * nn * dd * hh + 2 * nn * dd * hh)  # dW for all, d(hidden) for down only
    assert F.flops(variant, dd, hh, nn, count="all", bias=True) - F.flops(
        variant, dd, hh, nn, count="all") == nn * ((m - 1) * hh + dd)  # one add per bias


def test_elementwise_defaults_from_docs_flops_md():
    # docs/flops.md: relu count=all is 4ndh + nh, swiglu 6ndh + 6nh, with bias relu adds
    # n·h + n·d more
    assert F.flops("relu", d, h, n, count="all") == 4 * n * d * h + n * h
    assert F.flops("swiglu", d, h, n, count="all") == 6 * n * d * h + 6 * n * h
    assert F.flops("relu", d, h, n, count="all", bias=True) == 4 * n * d * h + 2 * n * h + n * d
    assert F.elementwise_flops("relu") == n * h
    assert F.elementwise_flops("swiglu") == 6 * n * h


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_matmuls_name_the_weights_and_the_saved_operands(variant):
    """Each forward matmul is `operand@W_proj`: the weight is a parameter of that shape
    (params.weight_shapes) and the operand is a tensor the memory derivation saves for
    backward (that is what dW = operandᵀ dC reads)."""
    shapes = weight_shapes(variant)
    saved = memory.saved_tensors(variant, "store")
    mm = F.forward_matmuls(variant)
    assert [name.split("@")[1] for name, _, _ in mm] == list(shapes)
    for name, left, (rows, k, p) in mm:
        operand, weight = name.split("@")
        assert (k, p) == shapes[weight] and rows == n
        assert operand in saved
        assert (left == "x") == (operand == "x")
    operand = mm[-1][0].split("@")[0]
    assert operand == ("p" if VARIANTS[variant].gated else "a")


def test_memory_defaults_store():
    # store: x (n·d), each pre-activation and the activation output (n·h), the product p
    assert memory.saved_tensors("relu") == ["x", "z_up", "a"]
    assert memory.saved_tensors("swiglu") == ["x", "z_gate", "z_up", "a", "p"]
    assert memory.activation_memory("relu") == n * d + 2 * n * h
    assert memory.activation_memory("swiglu", 4, 8, 2) == 2 * 4 + 4 * 2 * 8
    assert memory.activation_memory("bilinear") == n * d + 3 * n * h  # identity: no a


# --- widths: published configurations ---

def test_llama_width_default_multiple_of_is_metas_256():
    # Llama 2 7B and 13B config.json: intermediate_size 11008 and 13824 (multiple_of 256)
    assert widths.llama_width(4096) == 11008
    assert widths.llama_width(5120) == 13824
    # Llama 2 70B: ffn_dim_multiplier 1.3, multiple_of 4096 -> 28672
    assert widths.llama_width(8192, multiple_of=4096, multiplier=1.3) == 28672


# --- attention: Kaplan et al. 2020, Table 1 (per token, per layer: QKV and projection
# 2·4·d² FLOPs, attention over n_ctx keys 2·2·n_ctx·d) ---

@given(dd=st.integers(1, 16), heads=st.sampled_from([1, 2, 4]), ctx=st.integers(1, 16))
def test_attention_defaults_match_kaplan(dd, heads, ctx):
    dm = dd * heads
    assert attention.attention_params(dm, heads) == 4 * dm * dm  # no biases by default
    assert attention.attention_flops(dm, heads) == 8 * dm * dm + 4 * dm  # n = 1 = context
    assert attention.attention_flops(dm, heads, 1, ctx) == 8 * dm * dm + 4 * ctx * dm
    # context defaults to n (self-attention): n tokens over n keys
    assert attention.attention_flops(dm, heads, ctx) == ctx * (8 * dm * dm + 4 * ctx * dm)
    # backward with input_grad (the default) is twice forward
    assert attention.attention_flops(dm, heads, 1, ctx, pass_="backward") == 2 * (
        8 * dm * dm + 4 * ctx * dm)
    assert attention.projection_matmuls(dm, heads, 1) == [
        ("x@W_q", (1, dm, dm)), ("x@W_k", (1, dm, dm)), ("x@W_v", (1, dm, dm)),
        ("a@W_o", (1, dm, dm))]
    assert attention.norm_params(dm) == dm  # RMSNorm by default: a weight only


def test_attention_input_grad_false_skips_only_the_input_projections():
    # q, k, v read x (the block's input): dx skipped; o reads the block's own a: kept
    full = attention.attention_flops(8, 2, 3, 5, pass_="backward")
    no_dx = attention.attention_flops(8, 2, 3, 5, pass_="backward", input_grad=False)
    assert full - no_dx == 3 * 2 * 3 * 8 * 8


# --- gradients: the defaults are the small problem the docs prove ---

def test_gradient_problem_defaults():
    pb = gradients.problem("swiglu")
    assert pb.inputs["X"].shape == (2, 2) and pb.inputs["W_up"].shape == (2, 2)
    assert not any(k.startswith("b_") for k in pb.inputs)
    # exact_derivative=False: SymPy's own derivative, so the closed forms equal ∂L/∂θ
    assert all(gradients.prove("reglu").values())
    assert set(gradients.prove("relu")) == {"W_down", "W_up", "X"}


# --- whole models: a published configuration ---

LLAMA2_7B = transformer.Architecture(d_model=4096, d_ff=11008, variant="swiglu", layers=32,
                                     vocab=32000, heads=32, kv_heads=32, head_dim=128)


def test_llama2_7b_published_total_and_per_token_costs():
    # Llama 2 7B: 6,738,415,616 parameters (the published checkpoint's count)
    assert transformer.params_total(LLAMA2_7B) == 6_738_415_616
    a = LLAMA2_7B
    layer = 4 * 4096**2 + 3 * 4096 * 11008 + 2 * 4096
    assert transformer.layer_params(a) == layer
    # one token (n = 1 = context by default): 2 FLOPs per weight of every matmul, plus
    # QKᵀ and A·V over one key, plus the LM head
    fwd_layer = 2 * (4 * 4096**2 + 3 * 4096 * 11008) + 4 * 4096
    assert model_costs.layer_flops(a) == fwd_layer
    assert model_costs.lm_head_flops(a) == 2 * 4096 * 32000
    assert model_costs.model_flops(a) == 32 * fwd_layer + 2 * 4096 * 32000
    # KV cache: 0.5 MiB per token in bf16 (2 · 32 layers · 4096 · 2 bytes)
    assert model_costs.kv_cache_bytes(a, 1) == 2 * 32 * 4096 * 2 == 512 * 1024
    assert model_costs.kv_cache_elements(a, 4096) == 2 * 32 * 4096 * 4096


@pytest.mark.hf
def test_decoder_layer_against_transformers_meta_device():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    tf = pytest.importorskip("transformers", reason="Hugging Face transformers is not installed")
    from transformers.models.llama.modeling_llama import LlamaDecoderLayer

    cfg = tf.LlamaConfig(hidden_size=64, intermediate_size=176, num_attention_heads=4,
                         num_key_value_heads=2, head_dim=16, vocab_size=100,
                         num_hidden_layers=2)
    with torch.device("meta"):
        layer = LlamaDecoderLayer(cfg, 0)
    a = transformer.Architecture(d_model=64, d_ff=176, variant="swiglu", layers=2, vocab=100,
                                 heads=4, kv_heads=2, head_dim=16)
    assert transformer.layer_params(a) == sum(p.numel() for p in layer.parameters())
    parts = transformer.layer_parts(a)
    assert parts["attention"] == sum(p.numel() for p in layer.self_attn.parameters())
    assert parts["ffn"] == sum(p.numel() for p in layer.mlp.parameters())


# --- a bad argument gets an error that names it and every accepted value ---

@pytest.mark.parametrize("call, named", [
    (lambda: F.flops("relu", pass_="sideways"), ["'sideways'", "forward, backward, train"]),
    (lambda: F.matmul_flops("relu", pass_="up"), ["unknown pass 'up'", "forward, backward, train"]),
    (lambda: F.elementwise_flops("relu", pass_="up"), ["unknown pass", "forward, backward, train"]),
    (lambda: F.flops("relu", count="some"), ["unknown count 'some'", "matmul, all"]),
    (lambda: attention.attention_flops(8, 2, pass_="up"), ["'up'", "forward, backward, train"]),
    (lambda: attention.norm_params(8, "batch"), ["'batch'", "rms or layer"]),
    (lambda: model_costs.model_flops(LLAMA2_7B, pass_="up"), ["'up'", "forward, backward, train"]),
    (lambda: model_costs.dtype_bytes("fp7"), ["'fp7'", "float32, fp32, bfloat16"]),
    (lambda: memory.saved_tensors("relu", "keep"), ["'keep'", "store", "recompute"]),
    (lambda: widths.round_up(5, 0), ["multiple must be positive"]),
    (lambda: widths.round_up(5, -2), ["multiple must be positive"]),
    (lambda: transformer.Architecture(8, 8, "relu", 1, 8, 1, 1, 8, norm="batch"),
     ["norm must be one of", "'batch'"]),
    (lambda: transformer.Architecture(8, 8, "relu", 1, 8, 1, 1, 8, norm_bias=True),
     ["RMSNorm has no bias (norm_bias=True needs norm='layer')"]),
])
def test_errors_name_the_bad_value_and_the_choices(call, named):
    with pytest.raises(ValueError) as e:
        call()
    for text in named:
        assert text in str(e.value)
    if len(named) == 1:  # a fixed message: exactly that
        assert str(e.value) == named[0]


def test_unknown_variant_lists_the_known_ones():
    from derivations import variants

    with pytest.raises(KeyError) as e:
        variants.get("swiglu2")
    assert "'swiglu2'" in str(e.value) and ", ".join(VARIANTS) in str(e.value)


def test_round_up_accepts_every_positive_multiple():
    # the least multiple of m at or above x, m = 1 included (every integer is one)
    for m in (1, 2, 7):
        for x in range(0, 20):
            r = widths.round_up(x, m)
            assert r % m == 0 and x <= r < x + m


def test_layernorm_doubles_the_norm():
    assert attention.norm_params(8, "layer") == 16 and attention.norm_params(8, "rms") == 8


# --- documented defaults: calling without the argument is calling with its documented
# value, which differs from the other value (so the default is observable) ---

def test_gradient_problem_default_uses_sympys_derivative():
    # problem(): "exact_derivative=False uses SymPy's own derivative (what `prove`
    # compares against)"; ReLU is where the two differ (the value at the kink)
    default, sympys = gradients.problem("relu"), gradients.problem("relu", exact_derivative=False)
    textbook = gradients.problem("relu", exact_derivative=True)
    assert default.grads == sympys.grads != textbook.grads


@pytest.mark.parametrize("variant", ["relu", "swiglu"])
def test_matmul_operands_are_the_input_or_the_hidden_activation(variant):
    # forward_matmuls' left operand: "x" for the block input, "hidden" for the tensor the
    # down projection reads (bench.gemm names the gradient matmuls after it)
    lefts = [left for _, left, _ in F.forward_matmuls(variant)]
    assert lefts == ["x"] * (mats(variant) - 1) + ["hidden"]


# --- activations, embeddings, caches: small public functions ---

def test_swish_is_silu_at_beta_one_and_half_the_input_at_zero():
    from derivations import activations as act

    z = act.z
    assert sp.simplify(act.swish(z, 1) - act.silu(z)) == 0  # SPEC: silu = swish with beta 1
    assert sp.simplify(act.swish(z, 0) - z / 2) == 0  # σ(0) = 1/2
    assert sp.simplify(act.swish(z, 2) - z / (1 + sp.exp(-2 * z))) == 0


def test_embedding_table_is_vocab_by_d():
    # Llama 2 7B's embed_tokens: 32000 x 4096
    assert attention.embedding_params(32000, 4096) == 131_072_000
    assert attention.embedding_params(d, n) == d * n


def test_kv_cache_scales_with_batch_context_and_element_size():
    one = model_costs.kv_cache_elements(LLAMA2_7B, 7)
    assert model_costs.kv_cache_elements(LLAMA2_7B, 7, batch=3) == 3 * one
    assert model_costs.kv_cache_bytes(LLAMA2_7B, 7, batch=3, dtype="fp32") == 12 * one
    assert model_costs.kv_cache_bytes(LLAMA2_7B, 7, dtype="int4") == one / 2


def test_bias_backward_is_one_add_per_token_per_output():
    # db = Σ over tokens of dL/dy: n·width adds for each biased projection
    for variant in ("relu", "swiglu"):
        m = mats(variant)
        extra = F.elementwise_flops(variant, 4, 6, 5, "backward", True) - F.elementwise_flops(
            variant, 4, 6, 5, "backward")
        assert extra == 5 * ((m - 1) * 6 + 4)


# --- whole models: the parts against each other ---

@st.composite
def architectures(draw):
    heads = draw(st.sampled_from([1, 2, 4]))
    experts = draw(st.sampled_from([1, 1, 2, 4, 8]))
    norm = draw(st.sampled_from(["rms", "layer"]))
    return transformer.Architecture(
        d_model=draw(st.integers(1, 32)), d_ff=draw(st.integers(1, 64)),
        variant=draw(st.sampled_from(sorted(VARIANTS))), layers=draw(st.integers(1, 4)),
        vocab=draw(st.integers(1, 100)), heads=heads,
        kv_heads=draw(st.sampled_from([k for k in (1, 2, 4) if heads % k == 0])),
        head_dim=draw(st.integers(1, 16)), bias=draw(st.booleans()),
        norm=norm, norm_bias=norm == "layer" and draw(st.booleans()),
        norms_per_layer=draw(st.integers(1, 3)), experts=experts,
        active_experts=draw(st.integers(1, experts)),
        shared_d_ff=draw(st.sampled_from([0, 1, 16])), shared_expert_gate=draw(st.booleans()),
        qk_norm=draw(st.booleans()), encoder_layers=draw(st.sampled_from([0, 0, 2])))


# an encoder-decoder mixture of experts with q/k norms and a shared expert: every branch
MOE_ENC_DEC = transformer.Architecture(
    d_model=8, d_ff=12, variant="swiglu", layers=2, vocab=20, heads=2, kv_heads=1, head_dim=4,
    norm="layer", norm_bias=True, experts=4, active_experts=2, shared_d_ff=16,
    shared_expert_gate=True, qk_norm=True, encoder_layers=3)

DECODER_LAYER = ("attention", "cross_attention", "ffn", "norms", "cross_attention_norms",
                 "qk_norms", "cross_attention_qk_norms")


@given(architectures())
@example(MOE_ENC_DEC)
def test_layer_params_is_the_decoder_stack_of_the_breakdown_over_its_layers(a):
    # every per-decoder-layer entry of the breakdown (an encoder-decoder's decoder layers
    # add cross-attention and its norm) is `layers` copies of one layer
    b = transformer.breakdown(a)
    stack = sum(b.get(k, 0) for k in DECODER_LAYER)
    assert a.layers * transformer.layer_params(a) == stack
    parts = transformer.layer_parts(a)
    assert tuple(parts) == transformer.LAYER_PARTS
    assert a.layers * parts["attention"] == b["attention"] + b.get("cross_attention", 0)
    assert a.layers * parts["ffn"] == b["ffn"]


@given(architectures())
@example(MOE_ENC_DEC)
def test_active_params_is_the_total_with_active_experts_in_each_ffn(a):
    # two derivations of the same count: the whole model less the skipped experts, and
    # the whole model with each FFN replaced by what one token uses of it
    stacks_layers = a.layers + a.encoder_layers
    swapped = transformer.params_total(a) - stacks_layers * (
        transformer.ffn_params(a) - transformer.active_ffn_params(a))
    assert transformer.active_params(a) == swapped
    if a.experts == 1:
        assert transformer.active_ffn_params(a) == transformer.ffn_params(a)


def test_a_dense_model_uses_every_parameter_whatever_active_experts_says():
    a = transformer.Architecture(8, 16, "swiglu", 2, 10, 2, 2, 4, active_experts=2)
    assert transformer.active_params(a) == transformer.params_total(a)


@given(architectures())
def test_attention_width_is_the_q_projection_width(a):
    (_, (_, _, q_width)), *_ = attention.projection_matmuls(
        a.d_model, a.heads, 1, a.kv_heads, a.head_dim)
    assert transformer.attention_width(a) == q_width == a.heads * a.head_dim


# --- activations' derivatives at the kinks; the derivative check on other spellings ---

def test_relu_derivatives_at_and_around_the_kink():
    from derivations import activations as act

    relu_d, relu2_d = act.derivative("relu"), act.derivative("relu2")
    # ReLU'(0) = 0, as frameworks' backward gives (torch: grad of relu at 0 is 0)
    assert [relu_d.subs(act.z, v) for v in (-2, 0, 3)] == [0, 0, 1]
    # (relu(z)²)' = 2·max(0, z): 0 left of the kink, 2z right of it, continuous
    assert [relu2_d.subs(act.z, v) for v in (-2, 0, 3)] == [0, 0, 6]
    assert not relu2_d.has(sp.Heaviside)  # "continuous: no kink to decide"


def test_is_derivative_accepts_other_spellings_and_rejects_wrong_forms():
    from derivations import activations as act

    z = act.z
    # tanh' = sech² z = 4 / (e^z + e^-z)², written with exponentials
    assert gradients.is_derivative("tanh", 4 / (sp.exp(z) + sp.exp(-z)) ** 2)
    assert not gradients.is_derivative("tanh", 1 - sp.tanh(z))
    # ReLU: checked on both sides of the kink
    assert not gradients.is_derivative("relu", sp.Integer(1))
    assert not gradients.is_derivative("relu", sp.Integer(0))


# --- widths: a float is the decimal it prints as ---

def test_round_up_reads_a_float_as_its_decimal():
    # 1e300 as written is 10**300; its binary value is larger by about 5e283
    assert widths.round_up(1e300, 7) == (10**300 + 6) // 7 * 7
    assert widths.round_up("8/3", 1) == 3
    assert widths.round_up(d, 1) == d  # a symbol (an integer) passes through


# --- whole-model FLOPs: the encoder, the passes, the defaults ---

T5_LIKE = transformer.Architecture(d_model=16, d_ff=40, variant="relu", layers=3, vocab=50,
                                   heads=2, kv_heads=2, head_dim=8, norm="layer",
                                   norm_bias=True, encoder_layers=2, qk_norm=True)


@pytest.mark.parametrize("a", [LLAMA2_7B, T5_LIKE], ids=["decoder", "encoder-decoder"])
def test_model_flops_compose_from_the_blocks(a):
    # decoder layers: self-attention (+ cross-attention) and the FFN; encoder layers:
    # self-attention and the FFN; plus the LM head. Backward twice, train three times.
    nn, ctx = 3, 5
    attn = attention.attention_flops(a.d_model, a.heads, nn, ctx, a.kv_heads, a.head_dim)
    ffn = F.flops(a.variant, a.d_model, a.d_ff, nn)
    cross = 1 if a.encoder_layers else 0
    fwd = a.layers * ((1 + cross) * attn + ffn) + a.encoder_layers * (attn + ffn)
    fwd += 2 * nn * a.d_model * a.vocab
    assert model_costs.model_flops(a, nn, ctx) == fwd
    assert model_costs.model_flops(a, nn, ctx, "backward") == 2 * fwd
    assert model_costs.model_flops(a, nn, ctx, "train") == 3 * fwd
    assert model_costs.model_flops(a, nn) == model_costs.model_flops(a, nn, nn)  # context = n
    assert model_costs.model_flops(a) == model_costs.model_flops(a, 1, 1)  # n = 1
    assert model_costs.layer_flops(a, nn, ctx) == (1 + cross) * attn + ffn
    assert model_costs.layer_flops(a) == model_costs.layer_flops(a, 1, 1)


def test_encoder_decoder_layer_parts():
    # a decoder layer of an encoder-decoder: self- and cross-attention, 2 + 1 LayerNorms
    # (weight and bias of width d), and RMSNorms of width head_dim on q and k of both
    p = transformer.layer_parts(T5_LIKE)
    assert p["attention"] == 2 * attention.attention_params(16, 2, 2, 8)
    assert p["norms"] == 3 * (16 + 16) + 2 * (8 + 8)
    assert p["ffn"] == params("relu", 16, 40)


def test_gradient_problem_shapes_fields_and_real_symbols():
    n_, d_, h_ = 2, 3, 4  # all different: a transposed shape shows
    pb = gradients.problem("swiglu", n_, d_, h_, bias=True)
    shapes = {k: m.shape for k, m in pb.inputs.items()}
    assert shapes == {"X": (2, 3), "W_gate": (3, 4), "b_gate": (1, 4), "W_up": (3, 4),
                      "b_up": (1, 4), "W_down": (4, 3), "b_down": (1, 3), "G": (2, 3)}
    assert all(s.is_real for m in pb.inputs.values() for s in m)  # the derivation is real
    assert pb.variant == "swiglu" and pb.output.shape == (2, 3)
    G = pb.inputs["G"]
    assert sp.expand(pb.loss - sum(G.multiply_elementwise(pb.output))) == 0
    assert {k: g.shape for k, g in pb.grads.items()} == {k: v for k, v in shapes.items() if k != "G"}


def test_attention_with_its_own_head_width():
    # head_dim need not be d/heads (Gemma 7B): the projections cost 2 FLOPs per weight per
    # token, QKᵀ and A·V 2·2·heads·head_dim per key
    dm, heads, hd, ctx = 8, 2, 8, 3
    weights = attention.attention_params(dm, heads, head_dim=hd)
    assert weights == 4 * dm * heads * hd
    fwd = attention.attention_flops(dm, heads, 1, ctx, head_dim=hd)
    assert fwd == 2 * weights + 4 * heads * hd * ctx
    assert attention.attention_flops(dm, heads, 1, ctx, head_dim=hd, pass_="train") == 3 * fwd


def test_active_ffn_of_a_dense_model_is_the_ffn():
    a = transformer.Architecture(8, 16, "swiglu", 2, 10, 2, 2, 4, active_experts=2)
    assert transformer.active_ffn_params(a) == transformer.ffn_params(a)
    moe = transformer.Architecture(8, 16, "swiglu", 2, 10, 2, 2, 4, experts=2)
    assert transformer.active_ffn_params(moe) == params("swiglu", 8, 16) + 8 * 2  # + router


def test_moe_model_flops_from_the_blocks():
    a = transformer.Architecture(8, 12, "swiglu", 2, 20, 2, 1, 4, experts=4, active_experts=2,
                                 shared_d_ff=1, shared_expert_gate=True)
    nn = 3
    attn = attention.attention_flops(8, 2, nn, nn, 1, 4)
    # two experts, the router (d x 4), the shared expert of width 1 and its d x 1 gate
    ffn = 2 * F.flops("swiglu", 8, 12, nn) + 2 * nn * 8 * 4 + F.flops("swiglu", 8, 1, nn)
    ffn += 2 * nn * 8
    assert model_costs.model_flops(a, nn) == 2 * (attn + ffn) + 2 * nn * 8 * 20


def test_model_flops_with_one_encoder_layer_and_a_wide_head():
    # heads·head_dim ≠ d (as in Gemma 7B) and a single encoder layer
    a = transformer.Architecture(8, 12, "relu", 2, 20, 2, 2, 6, encoder_layers=1)
    nn = 2
    attn = attention.attention_flops(8, 2, nn, nn, 2, 6)
    ffn = F.flops("relu", 8, 12, nn)
    assert attn == 2 * attention.attention_params(8, 2, 2, 6) * nn + 4 * 2 * 6 * nn * nn
    assert model_costs.model_flops(a, nn) == 2 * (2 * attn + ffn) + (attn + ffn) + 2 * nn * 8 * 20
