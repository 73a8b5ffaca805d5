"""Factories building real FFN implementations (transformers, torchtune) for width d, h.

Each returns a module in float32 on the CPU; the kit fills in its own weights. Imports are
inside the factories: this module loads without transformers or torchtune installed.
"""

from torch import nn


def llama_mlp(d, h, bias=False):
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaMLP

    return LlamaMLP(LlamaConfig(hidden_size=d, intermediate_size=h, hidden_act="silu",
                                mlp_bias=bias, num_attention_heads=1, num_key_value_heads=1,
                                head_dim=2))


def gemma_mlp(d, h, bias=False):
    from transformers import GemmaConfig
    from transformers.models.gemma.modeling_gemma import GemmaMLP

    assert not bias, "GemmaMLP has no bias option"
    return GemmaMLP(GemmaConfig(hidden_size=d, intermediate_size=h, num_attention_heads=1,
                                num_key_value_heads=1, hidden_activation="gelu_pytorch_tanh"))


def t5_gated_gelu(d, h, bias=False):
    from transformers import T5Config
    from transformers.models.t5.modeling_t5 import T5DenseGatedActDense

    assert not bias, "T5 has no biases"
    cfg = T5Config(d_model=d, d_ff=h, num_heads=1, d_kv=d, feed_forward_proj="gated-gelu",
                   dropout_rate=0.1)
    return T5DenseGatedActDense(cfg)  # dropout: the kit puts the module in eval mode


def gpt2_mlp(d, h, bias=True):
    from transformers import GPT2Config
    from transformers.models.gpt2.modeling_gpt2 import GPT2MLP

    assert bias, "GPT2MLP always has biases"
    return GPT2MLP(h, GPT2Config(n_embd=d, n_head=1, activation_function="gelu_new",
                                 resid_pdrop=0.1))


def phi3_mlp(d, h, bias=False):
    from transformers import Phi3Config
    from transformers.models.phi3.modeling_phi3 import Phi3MLP

    assert not bias, "Phi3MLP has no bias option"
    return Phi3MLP(Phi3Config(hidden_size=d, intermediate_size=h, hidden_act="silu",
                              num_attention_heads=1, num_key_value_heads=1))


def torchtune_feedforward(d, h, bias=False):
    from torchtune.modules import FeedForward

    return FeedForward(gate_proj=nn.Linear(d, h, bias=bias), down_proj=nn.Linear(h, d, bias=bias),
                       up_proj=nn.Linear(d, h, bias=bias))


T5_LAYOUT = {
    "W_gate": ("wi_0.weight", "T"), "W_up": ("wi_1.weight", "T"), "W_down": ("wo.weight", "T"),
}

# (name, factory, variant, layout, bias settings, package it needs)
REAL = [
    ("LlamaMLP", llama_mlp, "swiglu", "hf", (False, True), "transformers"),
    ("GemmaMLP", gemma_mlp, "geglu_tanh", "hf", (False,), "transformers"),
    ("T5DenseGatedActDense", t5_gated_gelu, "geglu_tanh", T5_LAYOUT, (False,), "transformers"),
    # GPT2MLP (gpt2_mlp above, the same module and config as hf_modules.gpt2) is checked
    # once, by tests/conformance/test_hf_classes.py, which asserts its found layout is "gpt2"
    # and checks it with that layout at the same count: a second run here drew the same
    # derandomized examples through the same layout
    ("Phi3MLP", phi3_mlp, "swiglu", "phi3", (False,), "transformers"),
    ("torchtune FeedForward", torchtune_feedforward, "swiglu", "torchtune", (False, True),
     "torchtune"),
]
