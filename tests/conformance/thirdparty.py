"""Third-party FFN classes beyond the hf env's (issue 24 "Done when"), as kit factories built
from configs on CPU (no weights): transformers' Nemotron, Arcee, Persimmon, OpenAI-GPT,
T5DenseActDense, Jamba, FalconH1, CLIP, SigLIP, Mixtral and Dbrx experts; litgpt; olmo-core;
torchtitan; open_clip's MLP.

Each entry: (name, factory(d, h, bias), variant, bias settings, check_ffn keywords, package).
Imports happen inside the factories, so this module loads without the libraries.
"""

import importlib

HEADS = {"num_attention_heads": 1, "num_key_value_heads": 1, "head_dim": 2}


def _hf(model, cls, cfg, **kw):
    m = importlib.import_module(f"transformers.models.{model}.modeling_{model}")
    c = importlib.import_module(f"transformers.models.{model}.configuration_{model}")
    return getattr(m, cls), getattr(c, cfg)


def nemotron(d, h, bias=False):
    cls, cfg = _hf("nemotron", "NemotronMLP", "NemotronConfig")
    return cls(cfg(hidden_size=d, intermediate_size=h, hidden_act="relu2", mlp_bias=bias,
                   num_attention_heads=1, num_key_value_heads=1, head_dim=2))


def arcee(d, h, bias=False):
    cls, cfg = _hf("arcee", "ArceeMLP", "ArceeConfig")
    return cls(cfg(hidden_size=d, intermediate_size=h, hidden_act="relu2", mlp_bias=bias,
                   **HEADS))


def persimmon(d, h, bias=True):
    cls, cfg = _hf("persimmon", "PersimmonMLP", "PersimmonConfig")
    return cls(cfg(hidden_size=d, intermediate_size=h, hidden_act="relu2",
                   num_attention_heads=1))


def openai_gpt(d, h, bias=True):
    cls, cfg = _hf("openai", "MLP", "OpenAIGPTConfig")
    assert h == 4 * d, "OpenAI-GPT's MLP takes n_state; the config fixes n_embd"
    return cls(h, cfg(n_embd=d, n_head=1, afn="gelu", resid_pdrop=0.1))


def t5_dense(d, h, bias=False):
    cls, cfg = _hf("t5", "T5DenseActDense", "T5Config")
    return cls(cfg(d_model=d, d_ff=h, dense_act_fn="relu", dropout_rate=0.1, num_heads=1,
                   d_kv=2))


def jamba(d, h, bias=False):
    cls, cfg = _hf("jamba", "JambaMLP", "JambaConfig")
    return cls(cfg(hidden_size=d, intermediate_size=h, hidden_act="silu",
                   num_attention_heads=1, num_key_value_heads=1))


def _falcon_h1(d, h, bias, multipliers):
    cls, cfg = _hf("falcon_h1", "FalconH1MLP", "FalconH1Config")
    return cls(cfg(hidden_size=d, intermediate_size=h, hidden_act="silu", mlp_bias=bias,
                   mlp_multipliers=list(multipliers), num_attention_heads=1,
                   num_key_value_heads=1, head_dim=2))


# top-level factories, so that a printed reproducer imports them (a closure renamed to the
# class name would print an import that fails)
def falcon_h1(d, h, bias=False):
    return _falcon_h1(d, h, bias, (1.0, 1.0))


def falcon_h1_scaled(d, h, bias=False):
    """FalconH1MLP with mlp_multipliers (0.5, 2): not plain swiglu (a diagnosed case)."""
    return _falcon_h1(d, h, bias, (0.5, 2.0))


def clip(d, h, bias=True):
    cls, cfg = _hf("clip", "CLIPMLP", "CLIPTextConfig")
    return cls(cfg(hidden_size=d, intermediate_size=h, hidden_act="quick_gelu",
                   num_attention_heads=1))


def _open_clip_transformer():
    """open_clip's transformer.py, the installed package's own file, loaded as a private
    package (open_clip/__init__.py, which imports timm and torchvision, is not run). Its
    utils.py imports torchvision.ops.misc.FrozenBatchNorm2d (for freezing vision towers,
    never used by the MLP), and no torchvision loads beside the CPU torch here: while the
    three files load, a stand-in answers that one import where torchvision does not load,
    and it is removed again, so no other test sees it."""
    import importlib.util
    import sys
    import types
    from pathlib import Path

    name = "_open_clip_files"
    if f"{name}.transformer" in sys.modules:
        return sys.modules[f"{name}.transformer"]
    where = Path(importlib.util.find_spec("open_clip").submodule_search_locations[0])
    stand_in = {}
    try:
        import torchvision.ops.misc  # noqa: F401
    except Exception:  # (ImportError, or RuntimeError: operator torchvision::nms)
        for mod in ("torchvision", "torchvision.ops", "torchvision.ops.misc"):
            stand_in[mod] = sys.modules.pop(mod, None)
            sys.modules[mod] = types.ModuleType(mod)
        sys.modules["torchvision.ops.misc"].FrozenBatchNorm2d = type(
            "FrozenBatchNorm2d", (), {})  # a name for utils.py's isinstance checks only
    try:
        package = types.ModuleType(name)
        package.__path__ = [str(where)]
        sys.modules[name] = package
        for sub in ("utils", "pos_embed", "transformer"):
            spec = importlib.util.spec_from_file_location(f"{name}.{sub}", where / f"{sub}.py")
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module
            spec.loader.exec_module(module)
    finally:
        for mod, old in stand_in.items():
            if old is None:
                sys.modules.pop(mod, None)
            else:
                sys.modules[mod] = old
    return sys.modules[f"{name}.transformer"]


def open_clip_mlp(d, h, bias=True):
    """open_clip's ResidualAttentionBlock(d, 1 head, mlp_ratio=h/d).mlp: an nn.Sequential of
    c_fc (Linear d→h), nn.GELU (erf), c_proj (Linear h→d), as open_clip's CLIP towers use."""
    block = _open_clip_transformer().ResidualAttentionBlock(d, 1, mlp_ratio=h / d)
    if block.mlp.c_fc.out_features != h:  # int(d · h/d) rounded below h
        block = _open_clip_transformer().ResidualAttentionBlock(d, 1, mlp_ratio=(h + 0.5) / d)
    assert block.mlp.c_fc.out_features == h
    return block.mlp


def siglip(d, h, bias=True):
    cls, cfg = _hf("siglip", "SiglipMLP", "SiglipTextConfig")
    return cls(cfg(hidden_size=d, intermediate_size=h, hidden_act="gelu_pytorch_tanh",
                   num_attention_heads=1))


def mixtral_experts(d, h, bias=False):
    cls, cfg = _hf("mixtral", "MixtralExperts", "MixtralConfig")
    return cls(cfg(hidden_size=d, intermediate_size=h, num_local_experts=3, **HEADS))


def dbrx_experts(d, h, bias=False):
    cls, cfg = _hf("dbrx", "DbrxExperts", "DbrxConfig")
    # DbrxFFN builds its experts from config.ffn_config (hidden_size = d_model)
    config = cfg(d_model=d, n_heads=1, ffn_config={"ffn_hidden_size": h, "moe_num_experts": 3,
                                                   "ffn_act_fn": {"name": "silu"}})
    return cls(config.ffn_config)


def _litgpt(cls_name, d, h, bias, **kw):
    from litgpt import model
    from litgpt.config import Config

    cfg = Config(n_embd=d, intermediate_size=h, moe_intermediate_size=h, bias=bias,
                 n_head=1, n_query_groups=1, head_size=2, **kw)
    return getattr(model, cls_name)(cfg)


def litgpt_llama_mlp(d, h, bias=False):
    return _litgpt("LLaMAMLP", d, h, bias)


def litgpt_gemma_mlp(d, h, bias=False):
    return _litgpt("GemmaMLP", d, h, bias, gelu_approximate="tanh")


def litgpt_gptneox_mlp(d, h, bias=False):
    return _litgpt("GptNeoxMLP", d, h, bias)


def litgpt_moe_one_expert(d, h, bias=False):
    return _litgpt("LLaMAMoE", d, h, bias, n_expert=1, n_expert_per_token=1)


def olmo_core(d, h, bias=True):
    from olmo_core.nn.feed_forward import FeedForward

    return FeedForward(d_model=d, hidden_size=h, bias=bias, dtype=__import__("torch").float64)


# MoE blocks checked whole through their routing (ffnverify.testing.moe.check_moe): 4
# experts, top 2; top-level factories, so a printed reproducer imports them
def litgpt_moe(d, h, bias=False):
    """litgpt's LLaMAMoE, 4 experts, 2 per token: topk of the logits, then their softmax."""
    return _litgpt("LLaMAMoE", d, h, bias, n_expert=4, n_expert_per_token=2)


def _mixtral_moe(d, h, top_k):
    cls, cfg = _hf("mixtral", "MixtralSparseMoeBlock", "MixtralConfig")
    return cls(cfg(hidden_size=d, intermediate_size=h, num_local_experts=4,
                   num_experts_per_tok=top_k, **HEADS))


def mixtral_moe(d, h, bias=False):
    """MixtralSparseMoeBlock: softmax over every expert in float32, top 2, renormalised."""
    return _mixtral_moe(d, h, 2)


def mixtral_moe_top3(d, h, bias=False):
    """The same block configured for 3 experts per token (checked as top 2: the mutant)."""
    return _mixtral_moe(d, h, 3)


def _qwen3_moe(d, h, norm):
    cls, cfg = _hf("qwen3_moe", "Qwen3MoeSparseMoeBlock", "Qwen3MoeConfig")
    return cls(cfg(hidden_size=d, moe_intermediate_size=h, num_experts=4,
                   num_experts_per_tok=2, norm_topk_prob=norm, **HEADS))


def qwen3_moe(d, h, bias=False):
    """Qwen3MoeSparseMoeBlock with its config's default norm_topk_prob=False: the softmax
    over every expert, taken at the top 2, not renormalised."""
    return _qwen3_moe(d, h, False)


def qwen3_moe_norm(d, h, bias=False):
    """Qwen3MoeSparseMoeBlock with norm_topk_prob=True (Qwen3-30B-A3B's config)."""
    return _qwen3_moe(d, h, True)


def torchtitan_ffn(d, h, bias=False):
    """torchtitan's FeedForward (w1 gate, w3 up, w2 down: SwiGLU), from its Config."""
    from torchtitan.models.common.feed_forward import FeedForward
    from torchtitan.models.common.linear import Linear

    def lin(i, o):
        return Linear.Config(in_features=i, out_features=o, bias=bias)

    return FeedForward.Config(w1=lin(d, h), w2=lin(h, d), w3=lin(d, h)).build()


def qwen2_moe(d, h, bias=False):
    """Qwen2MoeSparseMoeBlock: 4 routed experts (softmax, top 2, not renormalised by
    default) and a shared expert of width h, weighted by sigmoid(shared_expert_gate(x))."""
    cls, cfg = _hf("qwen2_moe", "Qwen2MoeSparseMoeBlock", "Qwen2MoeConfig")
    return cls(cfg(hidden_size=d, moe_intermediate_size=h, shared_expert_intermediate_size=h,
                   num_experts=4, num_experts_per_tok=2, **HEADS))


def olmoe(d, h, bias=False):
    """OlmoeSparseMoeBlock: 4 experts, top 2, norm_topk_prob False by default."""
    cls, cfg = _hf("olmoe", "OlmoeSparseMoeBlock", "OlmoeConfig")
    return cls(cfg(hidden_size=d, intermediate_size=h, num_experts=4, num_experts_per_tok=2,
                   **HEADS))


def _shared_ungated_forward(self, hidden_states):
    """Qwen2MoeSparseMoeBlock.forward with the shared expert's sigmoid gate left out."""
    b, t, c = hidden_states.shape
    flat = hidden_states.view(-1, c)
    _, weights, index = self.gate(flat)
    return (self.experts(flat, index, weights) + self.shared_expert(flat)).reshape(b, t, c)


def qwen2_moe_shared_ungated(d, h, bias=False):
    """The real block, its forward with the shared expert's gate left out (the mutant)."""
    block = qwen2_moe(d, h, bias)
    block.__class__ = type("Qwen2MoeSharedUngated", (type(block),),
                           {"forward": _shared_ungated_forward})
    return block


def _dense_experts_forward(self, hidden_states, top_k_index, top_k_weights):
    """MixtralExperts.forward computing every expert on every token, the weights of the
    experts a token was not routed to zero (dense compute, then masked): right values and
    gradients, E/k times the experts' FLOPs."""
    import torch
    import torch.nn.functional as F

    weights = torch.zeros(hidden_states.shape[0], self.num_experts, dtype=top_k_weights.dtype,
                          device=hidden_states.device).scatter(1, top_k_index, top_k_weights)
    out = torch.zeros_like(hidden_states)
    for e in range(self.num_experts):
        gate, up = F.linear(hidden_states, self.gate_up_proj[e]).chunk(2, dim=-1)
        y = F.linear(self.act_fn(gate) * up, self.down_proj[e])
        out = out + (y * weights[:, e, None]).to(out.dtype)
    return out


def mixtral_moe_dense(d, h, bias=False):
    """The real MixtralSparseMoeBlock, its experts computed dense (the mutant)."""
    block = mixtral_moe(d, h, bias)
    block.experts.__class__ = type("MixtralExpertsDense", (type(block.experts),),
                                   {"forward": _dense_experts_forward})
    return block


T, L, OLMO, TITAN = "transformers", "litgpt", "olmo_core", "torchtitan"
FOUR = {"h_of": lambda d: 4 * d}
ENTRIES = [
    ("NemotronMLP", nemotron, "relu2", (False, True), {}, T),
    ("ArceeMLP", arcee, "relu2", (False, True), {}, T),
    ("PersimmonMLP", persimmon, "relu2", (True,), {}, T),
    # OpenAI-GPT's afn "gelu" is its own ACT_FNS' gelu_new: tanh-GELU
    ("OpenAI-GPT MLP", openai_gpt, "gelu_tanh", (True,), FOUR, T),
    ("T5DenseActDense", t5_dense, "relu", (False,), {}, T),
    ("JambaMLP", jamba, "swiglu", (False,), {}, T),
    ("FalconH1MLP", falcon_h1, "swiglu", (False, True), {}, T),
    ("CLIPMLP", clip, "quick_gelu", (True,), {}, T),
    ("SiglipMLP", siglip, "gelu_tanh", (True,), {}, T),
    ("MixtralExperts[1]", mixtral_experts, "swiglu", (False,), {"experts": 1}, T),
    ("DbrxExperts[2]", dbrx_experts, "swiglu", (False,), {"experts": 2}, T),
    ("litgpt LLaMAMLP", litgpt_llama_mlp, "swiglu", (False, True), {}, L),
    ("litgpt GemmaMLP", litgpt_gemma_mlp, "geglu_tanh",
     (False, True), {}, L),
    ("litgpt GptNeoxMLP", litgpt_gptneox_mlp, "gelu", (False, True), {}, L),
    ("litgpt LLaMAMoE(1 expert)", litgpt_moe_one_expert,
     "swiglu", (False,), {"experts": 0}, L),
    ("olmo-core FeedForward", olmo_core, "swiglu", (False, True), {}, OLMO),
    ("torchtitan FeedForward", torchtitan_ffn, "swiglu", (False, True), {}, TITAN),
    ("open_clip MLP", open_clip_mlp, "gelu", (True,), {}, "open_clip"),
]
# libraries issue 24 names that the thirdparty env cannot hold, each with its reason:
# (name, the module its FFN lives in, why it is left out). None now: open_clip, left out
# before because its package imports torchvision, is loaded by file (open_clip_mlp).
REJECTED = []
# broken the way issue 24 §1 names: FalconH1 with real (non-unit) mlp_multipliers
BROKEN = [("FalconH1MLP(mlp_multipliers)", falcon_h1_scaled, "swiglu", (False,), {}, T)]

# (name, factory, variant, top_k, the gating the class computes, bias settings, package)
MOE = [
    ("litgpt LLaMAMoE(4 experts, top 2)", litgpt_moe, "swiglu", 2, "renormalised",
     (False, True), L),
    ("MixtralSparseMoeBlock(4, top 2)", mixtral_moe, "swiglu", 2, "renormalised", (False,), T),
    ("Qwen3MoeSparseMoeBlock(norm_topk_prob=False)", qwen3_moe, "swiglu", 2, "softmax",
     (False,), T),
    ("Qwen3MoeSparseMoeBlock(norm_topk_prob=True)", qwen3_moe_norm, "swiglu", 2,
     "renormalised", (False,), T),
    ("Qwen2MoeSparseMoeBlock(shared expert)", qwen2_moe, "swiglu", 2, "softmax", (False,), T),
    ("OlmoeSparseMoeBlock", olmoe, "swiglu", 2, "softmax", (False,), T),
]
# real blocks checked against a statement they do not meet: (name, factory, variant, top_k
# stated, gating stated, words the diagnosis must say, package)
MOE_BROKEN = [
    ("MixtralSparseMoeBlock routing 3, stated top 2", mixtral_moe_top3, "swiglu", 2, "auto",
     "top-k off by one: each token goes to 3 experts, not 2", T),
    ("Qwen3MoeSparseMoeBlock(norm_topk_prob=False), stated renormalised", qwen3_moe, "swiglu",
     2, "renormalised", "the gate weights are the softmax over every expert, taken at the "
     "top k (not renormalised)", T),
    ("Qwen2MoeSparseMoeBlock, shared expert's gate left out", qwen2_moe_shared_ungated,
     "swiglu", 2, "auto", "the shared expert with weight 1, not weighted by sigmoid", T),
]
# real blocks whose values and gradients are right and whose compute is not routed: (name,
# factory, variant, top_k, the words the moe-flops diagnosis must say, package)
MOE_DENSE = [
    ("MixtralSparseMoeBlock, experts computed dense", mixtral_moe_dense, "swiglu", 2,
     "every expert run on every token (dense compute, then masked)", T),
]
