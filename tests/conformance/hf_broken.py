"""Real transformers MLP classes broken the ways issue 24 §1 names, for the hf env
(tests/conformance/test_hf_diagnose.py): each a subclass of the real class whose forward
is the real one with one fault, or the real class misconfigured, and the diagnosis it must
get. Top-level factories, so every printed reproducer imports them; transformers is
imported only when a factory runs.

HF_BROKEN: (name, factory, variant, layout, bias, kind of the diagnosis, words it must say).
"""

import functools
import math

import torch

from .hf_modules import HEADS, _cfg, _cls


@functools.cache
def _broken(model, cls, fault):
    """A subclass of transformers' `cls` whose forward is FORWARDS[fault]."""
    return type(f"{cls}_{fault}", (_cls(model, cls),), {"forward": FORWARDS[fault]})


def _llama_cfg(d, h, bias, act="silu"):
    return _cfg("llama", "LlamaConfig", hidden_size=d, intermediate_size=h, mlp_bias=bias,
                hidden_act=act, **HEADS)


def _gate_up_swapped(self, x):
    return self.down_proj(self.act_fn(self.up_proj(x)) * self.gate_proj(x))


def _down_bias_unused(self, x):
    return (self.act_fn(self.gate_proj(x)) * self.up_proj(x)) @ self.down_proj.weight.T


def _up_bias_twice(self, x):
    up = self.up_proj(x) + self.up_proj.bias
    return self.down_proj(self.act_fn(self.gate_proj(x)) * up)


def _gate_scaled(self, x):
    return self.down_proj(self.act_fn(0.5 * self.gate_proj(x)) * self.up_proj(x))


def _input_scaled(self, x):
    return type(self).__mro__[1].forward(self, 0.125 * x)


def _output_scaled(self, x):
    return 1.001 * type(self).__mro__[1].forward(self, x)


def _residual_inside(self, x):
    return x + type(self).__mro__[1].forward(self, x)


def _gate_transposed(self, x):
    return self.down_proj(self.act_fn(x @ self.gate_proj.weight) * self.up_proj(x))


def _phi3_chunks_swapped(self, hidden_states):
    up_states = self.gate_up_proj(hidden_states)
    up_states, gate = up_states.chunk(2, dim=-1)  # Phi3MLP has gate, up_states = ...
    return self.down_proj(up_states * self.activation_fn(gate))


def _gpt2_gelu_0044(self, hidden_states):
    z = self.c_fc(hidden_states)
    a = 0.5 * z * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (z + 0.044 * z**3)))
    return self.dropout(self.c_proj(a))


FORWARDS = {"gate_up_swapped": _gate_up_swapped, "down_bias_unused": _down_bias_unused,
            "up_bias_twice": _up_bias_twice, "gate_scaled": _gate_scaled,
            "input_scaled": _input_scaled, "output_scaled": _output_scaled,
            "residual_inside": _residual_inside, "gate_transposed": _gate_transposed,
            "phi3_chunks_swapped": _phi3_chunks_swapped, "gpt2_gelu_0044": _gpt2_gelu_0044}


def _llama_broken(fault):
    def factory(d, h, bias=False):
        return _broken("llama", "LlamaMLP", fault)(_llama_cfg(d, h, bias))
    return factory


llama_gate_up_swapped = _llama_broken("gate_up_swapped")
llama_down_bias_unused = _llama_broken("down_bias_unused")
llama_up_bias_twice = _llama_broken("up_bias_twice")
llama_gate_scaled = _llama_broken("gate_scaled")
llama_input_scaled = _llama_broken("input_scaled")
llama_output_scaled = _llama_broken("output_scaled")
llama_residual_inside = _llama_broken("residual_inside")
llama_gate_transposed = _llama_broken("gate_transposed")
for _name, _f in list(globals().items()):
    if _name.startswith("llama_") and callable(_f):
        _f.__qualname__ = _name


def llama_gelu_config(d, h, bias=False):
    """The real LlamaMLP, unmodified, configured with hidden_act="gelu" (checked as
    swiglu): the activation of a neighbouring variant."""
    return _cls("llama", "LlamaMLP")(_llama_cfg(d, h, bias, act="gelu"))


def phi3_chunks_swapped(d, h, bias=False):
    cfg = _cfg("phi3", "Phi3Config", hidden_size=d, intermediate_size=h, hidden_act="silu",
               **HEADS)
    return _broken("phi3", "Phi3MLP", "phi3_chunks_swapped")(cfg)


def gpt2_gelu_0044(d, h, bias=True):
    cfg = _cfg("gpt2", "GPT2Config", n_embd=d, n_head=1, activation_function="gelu_new",
               resid_pdrop=0.1)
    return _broken("gpt2", "GPT2MLP", "gpt2_gelu_0044")(h, cfg)


HF_BROKEN = [
    ("LlamaMLP gate and up swapped", llama_gate_up_swapped, "swiglu", "hf", False, "swap",
     "gate and up swapped: act(up_proj(x)) * gate_proj(x)"),
    ("LlamaMLP down bias never added", llama_down_bias_unused, "swiglu", "hf", True, "bias",
     "the down projection's bias (down_proj.bias) never added"),
    ("LlamaMLP up bias added twice", llama_up_bias_twice, "swiglu", "hf", True, "bias",
     "the up projection's bias (up_proj.bias) added twice"),
    ("GPT2MLP tanh-GELU with 0.044", gpt2_gelu_0044, "gelu_tanh", "gpt2", True, "constant",
     "the gelu_tanh constant c = 0.044 (correct 0.044715)"),
    ("LlamaMLP gate scaled by 0.5", llama_gate_scaled, "swiglu", "hf", True, "scale",
     "the gate's pre-activation scaled by 0.5"),
    ("LlamaMLP input scaled by 0.125", llama_input_scaled, "swiglu", "hf", True, "scale",
     "the input scaled by 0.125"),
    ("LlamaMLP output scaled by 1.001", llama_output_scaled, "swiglu", "hf", True, "scale",
     "the output scaled by 1.001"),
    ("LlamaMLP gate weight transposed", llama_gate_transposed, "swiglu", "hf", False,
     "transposed", "gate_proj.weight used transposed"),
    ("Phi3MLP chunks in the other order", phi3_chunks_swapped, "swiglu", "phi3", False, "swap",
     "the other chunk order of gate_up_proj.weight: the gate is the second chunk"),
    ("LlamaMLP configured gelu, checked swiglu", llama_gelu_config, "swiglu", "hf", False,
     "activation", "the activation gelu (the variant geglu), not silu"),
    ("LlamaMLP residual added inside", llama_residual_inside, "swiglu", "hf", False,
     "residual", "the residual added inside"),
]
