"""Known public FFN counting formulas, restated as facts in our own code, plus mutants.

Each public formula is reduced to one FFN block (one layer) so that `check_counter` can compare
it with the derivation; the comments say where it comes from and what was kept. The numbers
and structure are facts about those sources; the code is ours.

Mutants at the bottom are deliberately wrong counters that the kit must catch, each by a named
explanation. `reference_*` are hand-written correct counters (plain arithmetic, no import of
`derivations`), used to show the kit raises no false alarm.
"""

from fractions import Fraction
from math import floor

# ---------------------------------------------------------------------------------------------
# Megatron-LM, megatron/training/training.py, num_floating_point_operations(args, batch_size):
#   12 * batch * seq * layers * hidden^2 * ( ... + (ffn_hidden_size / hidden_size)
#                                               * experts_routed_to * gated_linear_multiplier )
# with gated_linear_multiplier = 3/2 if args.swiglu else 1, and 12 = 3 GEMMs per GEMM
# (forward, weight grad, data grad) x 2 GEMMs in the MLP x 2 FLOPs per multiply-add; 4*2*2
# when activations are recomputed. Only `args.swiglu` is consulted: a GEGLU run
# (--quick-geglu, or any other gated unit) is counted as ungated (Megatron-Bridge PR #3947 and
# levanter PR #660 fixed the same bug).
# Restricted here to the MLP term of one dense layer (no MoE, batch * seq = tokens).


def megatron_ffn_flops(batch_size, seq_length, hidden_size, ffn_hidden_size, swiglu=False,
                       quick_geglu=False, recompute=False):
    """Megatron's MLP term, in exact arithmetic (Megatron itself divides in floats)."""
    gated_linear_multiplier = Fraction(3, 2) if swiglu else 1  # quick_geglu is not consulted
    expansion_factor = (4 if recompute else 3) * 2 * 2
    return (expansion_factor * batch_size * seq_length * hidden_size * hidden_size
            * Fraction(ffn_hidden_size, hidden_size) * gated_linear_multiplier)


def megatron_ffn_flops_float(batch_size, seq_length, hidden_size, ffn_hidden_size, swiglu=False):
    """The same term with Megatron's float division, as the real code computes it."""
    gated_linear_multiplier = 3 / 2 if swiglu else 1
    return (12 * batch_size * seq_length * hidden_size * hidden_size
            * ((ffn_hidden_size / hidden_size) * 1 * gated_linear_multiplier))


# ---------------------------------------------------------------------------------------------
# Kaplan et al. 2020, "Scaling Laws for Neural Language Models" (arXiv 2001.08361), Table 1:
# feed-forward parameters 2·n_layer·d_model·d_ff (biases and other sub-leading terms
# excluded), forward FLOPs per token 2N, i.e. 2·n_layer·2·d_model·d_ff; training C ≈ 6N
# (the backward pass is twice the forward). The table is written for the two-matrix FFN.


def kaplan_ffn_params(d_model, d_ff):
    return 2 * d_model * d_ff


def kaplan_ffn_forward_flops(d_model, d_ff, tokens):
    return 2 * kaplan_ffn_params(d_model, d_ff) * tokens


def kaplan_ffn_train_flops(d_model, d_ff, tokens):
    return 6 * kaplan_ffn_params(d_model, d_ff) * tokens


# ---------------------------------------------------------------------------------------------
# Hoffmann et al. 2022, "Training Compute-Optimal Large Language Models" (Chinchilla, arXiv
# 2203.15556), Appendix F, FLOPs of the dense block per sequence:
#   2 × seq_len × (d_model × ffw_size + d_model × ffw_size)
# forward; the backward pass is taken as twice the forward.


def chinchilla_dense_block_flops(seq_len, d_model, ffw_size, train=False):
    forward = 2 * seq_len * (d_model * ffw_size + d_model * ffw_size)
    return 3 * forward if train else forward


# ---------------------------------------------------------------------------------------------
# nanoGPT (Karpathy), model.py, GPT.estimate_mfu: flops_per_token = 6*N + 12*L*H*Q*T with
# N = get_num_params() (the module's parameters, biases included when config.bias, the
# default). The MLP is hard-wired: c_fc n_embd -> 4*n_embd, GELU, c_proj 4*n_embd -> n_embd.
# Restricted to the MLP's share of 6N for one token.


def nanogpt_mlp_flops_per_token(n_embd, bias=True):
    hidden = 4 * n_embd
    n_params = n_embd * hidden + hidden * n_embd
    if bias:
        n_params += hidden + n_embd
    return 6 * n_params


# ---------------------------------------------------------------------------------------------
# fvcore (facebookresearch/fvcore, docs/flop_count.md): FlopCountAnalysis counts one "flop"
# per fused multiply-add, so a Linear from a to b on n rows is n·a·b; thop and torchinfo
# report MACs the same way. Elementwise ops are not counted by default.


def fvcore_ffn_flops(tokens, d, h, gated=False):
    projections = 3 if gated else 2
    return projections * tokens * d * h


# ---------------------------------------------------------------------------------------------
# EleutherAI cookbook, calc/calc_transformer_flops.py:
#   ffn_flops = int(iter_factor * 2 * num_mlp_linears * ffn_expansion_factor)
#               * num_layers * tokens * hidden_size * hidden_size
# iter_factor = 3 (forward + backward), 4 with activation checkpointing (the default),
# 1 with --infer. `--ffn-hidden-size` is parsed but never used: the width is always
# ffn_expansion_factor · hidden_size (default 4). For Llama-2-7B (-hs 4096, -l 32, -nl 3,
# --ffn-hidden-size 11008, --infer, one token) it prints 12.88 GFLOPs whatever the hidden
# size, where 2·3·4096·11008·32 ≈ 8.66 GFLOPs is right.


def cookbook_ffn_flops(hidden_size, ffn_hidden_size, tokens, num_layers=1, num_mlp_linears=2,
                       ffn_expansion_factor=4, iter_factor=3):
    del ffn_hidden_size  # accepted and ignored, as in the calculator
    return (int(iter_factor * 2 * num_mlp_linears * ffn_expansion_factor)
            * num_layers * tokens * hidden_size * hidden_size)


# ---------------------------------------------------------------------------------------------
# Hand-written correct counters (first principles, independent of derivations/).


def reference_params(d, h, bias=False, gated=False):
    """Gate (if gated), up and down weights; with bias one vector per projection."""
    weights = (3 if gated else 2) * d * h
    biases = ((2 if gated else 1) * h + d) if bias else 0
    return weights + biases


def reference_flops(d, h, n, gated=False, pass_="forward", input_grad=True):
    """Matmul FLOPs: a (n×k)@(k×m) product is 2nkm; backward doubles every product except
    the input gradient of the first layer(s), which input_grad=False skips."""
    first = (2 if gated else 1) * 2 * n * d * h  # x @ W_gate, x @ W_up
    down = 2 * n * h * d
    forward = first + down
    backward = 2 * down + first * (2 if input_grad else 1)
    return {"forward": forward, "backward": backward, "train": forward + backward}[pass_]


def reference_macs(d, h, n, gated=False, pass_="forward", input_grad=True):
    return Fraction(reference_flops(d, h, n, gated, pass_, input_grad), 2)


# ---------------------------------------------------------------------------------------------
# Mutants: each is wrong in one named way.


def mutant_dropped_bias(d, h, bias, gated):
    """Ignores its bias flag."""
    return reference_params(d, h, False, gated)


def mutant_off_by_one_width(d, h, n, gated):
    """Loops over range(1, h): one hidden unit short."""
    return reference_flops(d, h - 1, n, gated)


def mutant_swapped_d_h(d, h, bias, gated):
    """Builds the biases with d and h exchanged."""
    return reference_params(h, d, bias, gated)


def mutant_truncated_width(d):
    """SwiGLU params at h = 8/3·d, with the width truncated to an integer first."""
    h = int(8 * d / 3)
    return 3 * d * h


def mutant_truncated_width_arg(d, h):
    """Receives the rational width and truncates it."""
    return 3 * d * floor(h)


def mutant_float_round_off(d, h, n):
    """Train FLOPs of a ReLU FFN in double precision: exact until the count passes 2^53."""
    return 12.0 * n * d * h


def mutant_macs_as_flops(d, h, n, gated):
    return reference_flops(d, h, n, gated) // 2


def mutant_missing_input_grad(d, h, n, gated):
    return reference_flops(d, h, n, gated, "train", input_grad=False)
