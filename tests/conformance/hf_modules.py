"""The third-party MLP classes people ship, as kit factories with valid configs.

Each entry: (class name, factory(d, h, bias), variant, bias settings, check_ffn keyword
arguments (shape constraints, adapters), package). Imports happen inside the factories,
so this module loads without the libraries. Configs are built valid by construction: one
attention head of an even head_dim (transformers 5.x rejects odd head_dim and widths that
are not a multiple of the heads); the kit is told the shapes a config accepts.
"""

import importlib

import torch


def _cls(model, name):
    return getattr(importlib.import_module(f"transformers.models.{model}.modeling_{model}"), name)


def _cfg(model, name, **kw):
    cfg_mod = importlib.import_module(f"transformers.models.{model}.configuration_{model}")
    return getattr(cfg_mod, name)(**kw)


HEADS = {"num_attention_heads": 1, "num_key_value_heads": 1, "head_dim": 2}


def llama_like(model, cls, cfg, act="silu", bias_key=None, **extra):
    def factory(d, h, bias=False):
        kw = dict(hidden_size=d, intermediate_size=h, hidden_act=act, **HEADS, **extra)
        if bias_key:
            kw[bias_key] = bias
        else:
            assert not bias, f"{cls} has no bias option"
        return _cls(model, cls)(_cfg(model, cfg, **kw))
    factory.__qualname__ = cls
    return factory


def gemma(model, cls, cfg):
    def factory(d, h, bias=False):
        assert not bias, f"{cls} has no bias option"
        return _cls(model, cls)(_cfg(model, cfg, hidden_size=d, intermediate_size=h,
                                     hidden_activation="gelu_pytorch_tanh", **HEADS))
    factory.__qualname__ = cls
    return factory


def modernbert(d, h, bias=False):
    cfg = _cfg("modernbert", "ModernBertConfig", hidden_size=d, intermediate_size=h,
               hidden_activation="gelu", mlp_bias=bias, num_attention_heads=1,
               mlp_dropout=0.1)
    return _cls("modernbert", "ModernBertMLP")(cfg)


def starcoder2(d, h, bias=True):
    cfg = _cfg("starcoder2", "Starcoder2Config", hidden_size=d, intermediate_size=h,
               hidden_act="gelu_pytorch_tanh", use_bias=bias, residual_dropout=0.1, **HEADS)
    return _cls("starcoder2", "Starcoder2MLP")(cfg)


def gpt_neox(d, h, bias=True):
    assert bias, "GPTNeoXMLP always has biases"
    cfg = _cfg("gpt_neox", "GPTNeoXConfig", hidden_size=d, intermediate_size=h,
               hidden_act="gelu", num_attention_heads=1, rotary_pct=1.0)
    return _cls("gpt_neox", "GPTNeoXMLP")(cfg)


def falcon(d, h, bias=False):
    cfg = _cfg("falcon", "FalconConfig", hidden_size=d, ffn_hidden_size=h, bias=bias,
               num_attention_heads=1, activation="gelu")
    return _cls("falcon", "FalconMLP")(cfg)


def gptj(d, h, bias=True):
    assert bias, "GPTJMLP always has biases"
    cfg = _cfg("gptj", "GPTJConfig", n_embd=d, n_head=1, rotary_dim=2,
               activation_function="gelu_new", resid_pdrop=0.1)
    return _cls("gptj", "GPTJMLP")(h, cfg)


def codegen(d, h, bias=True):
    assert bias, "CodeGenMLP always has biases"
    cfg = _cfg("codegen", "CodeGenConfig", n_embd=d, n_head=1, rotary_dim=2,
               activation_function="gelu_new", resid_pdrop=0.1)
    return _cls("codegen", "CodeGenMLP")(h, cfg)


def phi(d, h, bias=True):
    assert bias, "PhiMLP always has biases"
    cfg = _cfg("phi", "PhiConfig", hidden_size=d, intermediate_size=h, hidden_act="gelu_new",
               num_attention_heads=1, num_key_value_heads=1)
    return _cls("phi", "PhiMLP")(cfg)


def bloom(d, h, bias=True):
    assert bias, "BloomMLP always has biases"
    assert h == 4 * d, "BloomMLP's width is 4·d"
    cfg = _cfg("bloom", "BloomConfig", hidden_size=d, n_head=1, hidden_dropout=0.0)
    return _cls("bloom", "BloomMLP")(cfg)


def bloom_call(module, x):
    """BloomMLP.forward(hidden_states, residual) adds the residual: pass zeros."""
    return module(x, torch.zeros_like(x))


def mt5(d, h, bias=False):
    assert not bias, "MT5 has no biases"
    cfg = _cfg("mt5", "MT5Config", d_model=d, d_ff=h, num_heads=1, d_kv=2,
               feed_forward_proj="gated-gelu", dropout_rate=0.1)
    return _cls("mt5", "MT5DenseGatedActDense")(cfg)


def gpt2(d, h, bias=True):
    assert bias, "GPT2MLP always has biases"
    cfg = _cfg("gpt2", "GPT2Config", n_embd=d, n_head=1, activation_function="gelu_new",
               resid_pdrop=0.1)
    return _cls("gpt2", "GPT2MLP")(h, cfg)


def x_ff(**kw):
    """x-transformers' FeedForward(d, mult=2, ...): h = 2·d (inner_dim = int(d·mult))."""
    def factory(d, h, bias=False):
        from x_transformers.x_transformers import FeedForward

        assert h == 2 * d, "mult=2"
        down = bias["down"] if isinstance(bias, dict) else bias  # the GLU's proj: always
        return FeedForward(d, mult=2, no_bias=not down, **kw)
    factory.__qualname__ = "FeedForward"
    return factory


T = "transformers"
XT = "x_transformers"
TWICE = {"h_of": lambda d: 2 * d}
# x-transformers' GLU projection always has a bias; no_bias drops only the output's
GLU_BIAS = ({"gate": True, "up": True, "down": False}, True)
EVEN = {"d_multiple_of": 2}
# (class, factory, variant, bias settings, check_ffn keywords, package)
HF_CLASSES = [
    ("Qwen2MLP", llama_like("qwen2", "Qwen2MLP", "Qwen2Config"), "swiglu", (False,), {}, T),
    ("Qwen3MLP", llama_like("qwen3", "Qwen3MLP", "Qwen3Config"), "swiglu", (False,), {}, T),
    ("MistralMLP", llama_like("mistral", "MistralMLP", "MistralConfig"), "swiglu", (False,),
     {}, T),
    ("Olmo2MLP", llama_like("olmo2", "Olmo2MLP", "Olmo2Config"), "swiglu", (False,), {}, T),
    ("GraniteMLP", llama_like("granite", "GraniteMLP", "GraniteConfig", bias_key="mlp_bias"),
     "swiglu", (False, True), {}, T),
    ("Gemma2MLP", gemma("gemma2", "Gemma2MLP", "Gemma2Config"), "geglu_tanh", (False,), {}, T),
    ("Gemma3MLP", gemma("gemma3", "Gemma3MLP", "Gemma3TextConfig"), "geglu_tanh", (False,),
     {}, T),
    ("GlmMLP", llama_like("glm", "GlmMLP", "GlmConfig"), "swiglu", (False,), {}, T),
    ("ModernBertMLP", modernbert, "geglu", (False, True), {}, T),
    ("Starcoder2MLP", starcoder2, "gelu_tanh", (False, True), {}, T),
    ("GPTNeoXMLP", gpt_neox, "gelu", (True,), {}, T),
    ("FalconMLP", falcon, "gelu", (False, True), EVEN, T),  # head_dim = d: even
    ("GPTJMLP", gptj, "gelu_tanh", (True,), {}, T),
    ("CodeGenMLP", codegen, "gelu_tanh", (True,), {}, T),
    ("PhiMLP", phi, "gelu_tanh", (True,), {}, T),
    ("BloomMLP", bloom, "gelu_tanh", (True,), {"h_of": lambda d: 4 * d, "call": bloom_call}, T),
    ("MT5DenseGatedActDense", mt5, "geglu_tanh", (False,), {}, T),
    ("GPT2MLP", gpt2, "gelu_tanh", (True,), {}, T),
    ("x-transformers FeedForward", x_ff(), "gelu", (False, True), TWICE, XT),
    ("x-transformers FeedForward(glu)", x_ff(glu=True), "geglu", GLU_BIAS, TWICE, XT),
    ("x-transformers FeedForward(glu, swish)", x_ff(glu=True, swish=True), "swiglu",
     GLU_BIAS, TWICE, XT),
    ("x-transformers FeedForward(relu_squared)", x_ff(relu_squared=True), "relu2",
     (False, True), TWICE, XT),
]


def _timm_bias(bias):
    """The kit's bias setting as timm's `bias=(fc1, fc2)` per-projection flags (fc1 packs
    gate and up, or SwiGLU's fc1_g and fc1_x share the first flag)."""
    if isinstance(bias, dict):
        first = {bias[k] for k in ("gate", "up") if k in bias}
        assert len(first) == 1, "timm's gate and up projections share one bias flag"
        return (first.pop(), bias["down"])
    return bias


def timm_mlp(cls, act=None, packed=False, **kw):
    """timm.layers' `cls(d, hidden_features, act_layer=act, bias=(fc1, fc2))`. A packed GLU
    (GluMlp, SwiGLUPacked) takes hidden_features = 2·h: fc1 holds both halves."""
    def factory(d, h, bias=True):
        import timm.layers

        extra = dict(kw) if act is None else {**kw, "act_layer": _timm_act(act)}
        return getattr(timm.layers, cls)(d, hidden_features=2 * h if packed else h,
                                         bias=_timm_bias(bias), drop=0.1, **extra)
    factory.__qualname__ = cls
    return factory


def torchvision_mlp(act):
    """torchvision.ops.MLP(d, [h, d]): Sequential(Linear, act, Dropout, Linear, Dropout),
    one bias flag for both Linears. It needs the same torchvision as timm (tox -e timm)."""
    def factory(d, h, bias=True):
        import torchvision.ops
        from torch import nn

        return torchvision.ops.MLP(d, [h, d], activation_layer=getattr(nn, act), bias=bias,
                                   dropout=0.1)
    factory.__qualname__ = f"torchvision_mlp_{act}"
    return factory


def _timm_act(name):
    import timm.layers
    from torch import nn

    return {"GELUTanh": timm.layers.activations.GELUTanh,
            "QuickGELU": timm.layers.activations.QuickGELU,
            "ReLU": nn.ReLU, "SiLU": nn.SiLU, "GELU": nn.GELU, "Tanh": nn.Tanh}[name]


TM = "timm"
# per-projection flags: timm's bias=(True, False) is fc1 with a bias, fc2 without
TIMM_PLAIN_BIAS = (False, True, {"up": True, "down": False})
TIMM_GLU_BIAS = (False, True, {"gate": True, "up": True, "down": False})
# (class, factory, variant, bias settings, check_ffn keywords, package): timm.layers' MLPs.
# GatedMlp is gMLP's block: with its default gate_layer=None a plain MLP; with
# SpatialGatingUnit it mixes tokens (a LayerNorm and a projection across the sequence), no
# FFN the variant table describes. ConvMlp and use_conv=True take NCHW images.
TIMM_CLASSES = [
    ("timm Mlp", timm_mlp("Mlp"), "gelu", TIMM_PLAIN_BIAS, {}, TM),
    ("timm Mlp(GELUTanh)", timm_mlp("Mlp", "GELUTanh"), "gelu_tanh", TIMM_PLAIN_BIAS, {}, TM),
    ("timm Mlp(QuickGELU)", timm_mlp("Mlp", "QuickGELU"), "quick_gelu", TIMM_PLAIN_BIAS, {},
     TM),
    ("timm Mlp(ReLU)", timm_mlp("Mlp", "ReLU"), "relu", TIMM_PLAIN_BIAS, {}, TM),
    ("timm GluMlp", timm_mlp("GluMlp", packed=True), "glu", TIMM_GLU_BIAS, {}, TM),
    ("timm GluMlp(GELU)", timm_mlp("GluMlp", "GELU", packed=True), "geglu", TIMM_GLU_BIAS,
     {}, TM),
    ("timm SwiGLUPacked", timm_mlp("SwiGLUPacked", packed=True), "swiglu", TIMM_GLU_BIAS, {},
     TM),
    ("timm SwiGLU", timm_mlp("SwiGLU"), "swiglu", TIMM_GLU_BIAS, {}, TM),
    ("timm GatedMlp", timm_mlp("GatedMlp"), "gelu", TIMM_PLAIN_BIAS, {}, TM),
    ("torchvision MLP", torchvision_mlp("ReLU"), "relu", (False, True), {}, "torchvision"),
    ("torchvision MLP(GELU)", torchvision_mlp("GELU"), "gelu", (False, True), {},
     "torchvision"),
]


def _megatron_parallel_state():
    """megatron-core's layers need a model-parallel state: one CPU process, a gloo group
    (a file rendezvous, so no port is taken), tensor and pipeline parallel size 1."""
    import tempfile

    import torch.distributed as dist
    from megatron.core import parallel_state

    if not dist.is_initialized():
        store = tempfile.NamedTemporaryFile(prefix="ffnverify-gloo-", delete=False)
        store.close()
        dist.init_process_group("gloo", init_method=f"file://{store.name}", rank=0,
                                world_size=1)
    if not parallel_state.model_parallel_is_initialized():
        parallel_state.initialize_model_parallel(1, 1)


def megatron_mlp(act="gelu", gated=False, fused=False):
    """megatron.core.transformer.mlp.MLP with its local (non-Transformer-Engine) parallel
    linears, on the CPU; forward returns (output, fc2's bias): the kit's megatron_call."""
    def factory(d, h, bias=True):
        import torch.nn.functional as F
        from megatron.core.tensor_parallel import ColumnParallelLinear, RowParallelLinear
        from megatron.core.transformer.mlp import MLP, MLPSubmodules
        from megatron.core.transformer.transformer_config import TransformerConfig

        _megatron_parallel_state()
        cfg = TransformerConfig(num_layers=1, hidden_size=d, ffn_hidden_size=h,
                                num_attention_heads=1, add_bias_linear=bias,
                                gated_linear_unit=gated, activation_func=getattr(F, act),
                                bias_activation_fusion=fused, use_cpu_initialization=True,
                                hidden_dropout=0.1)
        return MLP(cfg, MLPSubmodules(linear_fc1=ColumnParallelLinear,
                                      linear_fc2=RowParallelLinear), ffn_hidden_size=h)
    factory.__qualname__ = "MLP"
    return factory


def _megatron_call(module, x):
    from ffnverify.testing.conformance import megatron_call

    return megatron_call(module, x)


MC = "megatron"
MCALL = {"call": _megatron_call}
# (class, factory, variant, bias settings, check_ffn keywords, package): megatron-core's MLP
# unfused (bias_activation_fusion=False). Its fused bias-GELU (bias_gelu_impl) computes
# tanh-GELU with the constant 0.79788456 while the config says F.gelu: test_megatron.
MEGATRON_CLASSES = [
    ("megatron-core MLP", megatron_mlp(), "gelu", (False, True), MCALL, MC),
    ("megatron-core MLP(swiglu)", megatron_mlp("silu", gated=True), "swiglu", (False, True),
     MCALL, MC),
    ("megatron-core MLP(geglu)", megatron_mlp("gelu", gated=True), "geglu", (False, True),
     MCALL, MC),
]
