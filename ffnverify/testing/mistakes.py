"""The named mistakes a counter makes, each a transformed derivation.

Each entry of NAMED is (key, make): make(t, V) gives (expected(point) -> Fraction, title)
for one specific, common mistake (MACs reported as FLOPs, a gated unit counted as
ungated, the bias dropped, the hidden width off by one, ...), or None where it does not
apply to the target t. COMBINABLE are those affine in the count they transform, which
`explain` also tries in pairs. The guarantee: each expected value is exact rational
arithmetic over the derivation's count, so a fit is an exact identity at the points tried.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache

import sympy as sp

from derivations import variants
from derivations.flops import BIAS_COST, ELEMENTWISE_COST, GATE_MULTIPLY_COST
from ffnverify.testing.count_target import _bias_params, _with

# ungated <-> gated with the same activation (docs/architecture.md §2 names)
_GATED_OF = {"relu": "reglu", "gelu": "geglu", "gelu_tanh": "geglu_tanh", "silu": "swiglu"}
_UNGATED_OF = {g: u for u, g in _GATED_OF.items()}


@lru_cache(maxsize=256)
def _ratio(a, b):
    """a / b as a constant, or None."""
    try:
        r = sp.cancel(a / b)
    except ZeroDivisionError:
        return None
    return r if r.is_number else None


# --- the explanations ----------------------------------------------------------------------
#
# An explanation is make(t, V) -> (expected(point) -> Fraction, title) or None where it does
# not apply to target t. V(target, point) is the count it transforms: the derivation itself
# (`_base`), or another explanation's transformed count when two are combined. A fitted
# explanation is make(t, V, c) with one constant c, affine in c, solved for at one point.


def _base(t, p):
    return t.value(p)



def _macs_flops(t, V):
    if t.quantity == "flops":
        return (lambda p: V(t, p) / 2,
                "factor 2 (MACs vs FLOPs): your function counts multiply-accumulates, ours "
                "counts 2 FLOPs per multiply-add (as FlopCounterMode does); derived / yours = 2 "
                "(a MAC count reported under the name FLOPs)")
    if t.quantity == "macs":
        return (lambda p: V(t, p) * 2,
                "factor 2 (FLOPs vs MACs): your function counts FLOPs (2 per multiply-add) "
                "where multiply-accumulates were asked; yours / derived = 2")
    return None


def _counterpart(t, to):
    v = variants.get(t.variant)
    structural = t.quantity == "params" or t.count == "matmul"
    if to == "ungated":
        if not v.gated:
            return None
        other = _UNGATED_OF.get(t.variant) or ("relu" if structural else None)
    else:
        if v.gated:
            return None
        other = _GATED_OF.get(t.variant)
    return replace(t, variant=other) if other else None


def _gated_as_ungated(t, V):
    other = _counterpart(t, "ungated")
    if other is None:
        return None
    r = _ratio(t.expr(False), other.expr(False))
    ratio = f"; derived / yours = {r}" if r is not None else ""
    return (lambda p: V(other, p),
            f"{t.variant} counted as ungated: your function counts two projections where "
            f"{t.variant} has three (gate, up, down){ratio}")


def _ungated_as_gated(t, V):
    other = _counterpart(t, "gated")
    if other is None:
        return None
    r = _ratio(other.expr(False), t.expr(False))
    ratio = f"; yours / derived = {r}" if r is not None else ""
    return (lambda p: V(other, p),
            f"{t.variant} counted as gated: your function counts three projections where "
            f"{t.variant} has two{ratio}")


def _missing_bias(t, V):
    what = ("the bias adds are not counted" if t.quantity != "params"
            else "your value is ours without the biases")
    return (lambda p: V(t, _with(p, bias=False)),
            f"a missing bias term: where bias=true {what}")


def _extra_bias(t, V):
    return (lambda p: V(t, _with(p, bias=True)),
            "an extra bias term: where bias=false your value still counts biases")


def _input_grad(t, V):
    if t.quantity == "params" or t.pass_ == "forward":
        return None
    other = replace(t, input_grad=not t.input_grad)
    if t.input_grad:
        return (lambda p: V(other, p), "a missing input-gradient term: your backward pass "
                "leaves out the matmul that gives dL/dx (what FlopCounterMode measures when x "
                "does not require grad)")
    return (lambda p: V(other, p), "an extra input-gradient term: your backward pass counts "
            "dL/dx, which input_grad=false leaves out")


def _other_pass(q):
    def make(t, V):
        if t.quantity == "params" or t.pass_ == q:
            return None
        other = replace(t, pass_=q)
        return (lambda p: V(other, p),
                f"a different pass: your function counts the {q} pass, not the {t.pass_} pass")

    return make


def _other_count(t, V):
    if t.quantity == "params":
        return None
    if t.count == "all":
        other = replace(t, count="matmul")
        return (lambda p: V(other, p),
                "matmuls only: your function leaves out the elementwise work (bias adds, "
                "activation, gating product) that count=all includes")
    other = replace(t, count="all")
    return (lambda p: V(other, p),
            "elementwise work counted: your function adds bias adds, the activation and the "
            "gating product, which count=matmul leaves out")


def _recompute(t, V):
    if t.quantity == "params" or t.pass_ != "train":
        return None
    fwd = replace(t, pass_="forward")
    return (lambda p: V(t, p) + V(fwd, p),
            "activation recomputation counted: yours = ours + one more forward pass "
            "(Megatron's 4x and the cookbook's checkpoint-activations default)")


def _backward_as_twice_forward(t, V):
    """calflops' include_backPropagation: the whole forward count, elementwise work included,
    times 1 + compute_bp_factor (2)."""
    if t.quantity == "params" or t.pass_ == "forward":
        return None
    fwd = replace(t, pass_="forward", input_grad=True)
    k = 2 if t.pass_ == "backward" else 3
    return (lambda p: k * V(fwd, p),
            f"backward as 2x forward, elementwise work included: yours = {k} x the forward "
            "count (calflops' include_backPropagation), where the derivation prices the "
            "backward of each elementwise step on its own")


def _unit(t):
    return Fraction(1) if t.quantity == "flops" else Fraction(1, 2)


def _elements(t, p):
    """(activation elements, gating-product elements, bias-add elements) at p."""
    v = variants.get(t.variant)
    n, h = Fraction(p["n"]), Fraction(p["h"])
    bias = (_bias_params(t.variant, p) * n) if p.get("bias") else Fraction(0)
    return n * h, (n * h if v.gated else Fraction(0)), bias


_ACT_TEXT = {1: "the activation priced at 1 FLOP per element (ours: {ours})"}


def _repriced(act, gate, bias):
    """count=all, forward: the elementwise work priced as many profilers price it."""
    def make(t, V):
        if t.quantity == "params" or t.count != "all" or t.pass_ != "forward":
            return None
        v = variants.get(t.variant)
        act_ours = ELEMENTWISE_COST[v.activation][0]
        if (act is not None and act == act_ours) or (gate and not v.gated):
            return None
        d_act = 0 if act is None else act - act_ours
        d_gate = -GATE_MULTIPLY_COST[0] if gate else 0
        unit = _unit(t)

        def expected(p):
            a, g, b = _elements(t, p)
            return V(t, p) + unit * (d_act * a + d_gate * g - (BIAS_COST[0] * b if bias else 0))

        parts = []
        if act is not None:
            parts.append(_ACT_TEXT[act].format(ours=act_ours))
        if gate:
            parts.append("the gating product a*b not counted (a profiler that patches "
                         "torch.mul misses Python's * on tensors)")
        if bias:
            parts.append("the bias adds not counted")
        return expected, "elementwise work priced differently: " + "; ".join(parts)

    return make


def _activation_added(act, gate, priced=False):
    """count=matmul, and your function adds elementwise work: the activation `act` times at
    1 per element (or, `priced`, once at `act` per element: the same numbers), and the
    gating product `gate` times at 1 per element (0: not counted)."""

    def make(t, V):
        if t.quantity == "params" or t.count != "matmul" or t.pass_ != "forward":
            return None
        if gate and not variants.get(t.variant).gated:
            return None

        def expected(p):
            a, g, _ = _elements(t, p)
            return V(t, p) + act * a + gate * g

        parts = []
        if act:
            parts.append("the activation at 1 per element" if act == 1 else
                         f"the activation at {act} per element (e.g. ReLU priced with its "
                         "comparison, as pthflops prices it)" if priced else
                         f"the activation {act} times at 1 per element (e.g. a module hook "
                         "and a patched functional both firing)")
        if gate:
            parts.append("the gating product at 1 per element" if gate == 1 else
                         f"the gating product at {gate} per element (a*b priced once per "
                         "operand, as pthflops prices a mul)")
        if not act:
            parts.append("the activation not counted (as torchprofile and pthflops leave "
                         "SiLU and GELU out)")
        return expected, "elementwise work added to the matmuls: " + " and ".join(parts)

    return make


def _linear_2k_minus_1(t, V):
    """torchscan: each output of a linear with k inputs costs k multiplies and k - 1 adds."""
    if t.quantity != "flops" or t.pass_ != "forward":
        return None

    def expected(p):
        return V(t, p) - Fraction(p["n"]) * _bias_params(t.variant, _with(p, bias=True))

    return (expected, "each linear output priced at 2k - 1 FLOPs (k multiplies and k - 1 "
            "adds, as torchscan counts a linear), not ours at 2k: yours = ours - 1 per "
            "output element of every projection")


def _token_dims(p):
    return p.get("batch") is not None and p.get("seq") is not None


def _seq_dropped(t, V):
    if t.quantity == "params":
        return None

    def expected(p):
        if not _token_dims(p):
            raise ValueError("no batch x seq split")
        return V(t, _with(p, n=p["batch"]))

    return (expected, "token dimension dropped: your value is ours for n = batch tokens, "
            "not batch x seq (the sequence dimension of a (batch, seq, d) input is lost, as "
            "torchinfo multiplies by the batch size only)")


def _per_sample(t, V):
    if t.quantity == "params":
        return None

    def expected(p):
        if not _token_dims(p):
            raise ValueError("no batch x seq split")
        return V(t, p) / Fraction(p["batch"])

    return expected, "per-sample averaging: your value is ours divided by the batch size"


def _per_sample_double_activation(module_hooked):
    """The ptflops pytorch backend: module counts ÷ batch, functional activations not."""

    def make(t, V):
        if t.quantity == "params" or t.count != "matmul" or t.pass_ != "forward":
            return None

        def expected(p):
            if not _token_dims(p):
                raise ValueError("no batch x seq split")
            a, _, b = _elements(t, p)
            return (V(t, p) + b + (a if module_hooked else 0)) / Fraction(p["batch"]) + a

        hooked = ("the activation module's own count (1 per element) and the bias adds are "
                  "divided by the batch size with the matmuls" if module_hooked else
                  "the bias adds are divided by the batch size with the matmuls")
        return expected, ("per-sample averaging plus a double-counted activation: module "
                          f"counts are averaged per sample ({hooked}), while the patched "
                          "functional activation adds 1 per element, not divided (the ptflops "
                          "pytorch backend)")

    return make


def _shift(name, delta):
    def make(t, V):
        return (lambda p: V(t, _with(p, **{name: p[name] + delta})),
                f"an off-by-one width: your value is ours at {name}{delta:+d} "
                f"(the {'hidden' if name == 'h' else 'model'} width is off by one)")

    return make


def _swapped(t, V):
    return (lambda p: V(t, _with(p, d=p["h"], h=p["d"])),
            "swapped d and h: your value is ours with the model width d and the hidden width "
            "h exchanged")


def _truncated_width(rounding, how):
    def make(t, V):
        return (lambda p: V(t, _with(p, h=Fraction(rounding(Fraction(p["h"]))))),
                f"integer truncation of the width: the derivation's hidden width h is "
                f"rational (e.g. 8/3·d) and your function uses {how}(h) (e.g. int(8*d/3))")

    return make


def _truncated_result(rounding, how):
    def make(t, V):
        return (lambda p: Fraction(rounding(V(t, p))),
                f"integer truncation of the result: the exact count is rational here and your "
                f"function returns {how} of it (e.g. // where / is needed)")

    return make


def _int64_overflow(t, V):
    def wrap(p):
        v = V(t, p)
        if v.denominator != 1:
            return v
        return Fraction((v.numerator + 2**63) % 2**64 - 2**63)

    return (wrap, "int64 overflow: your value is the exact count wrapped modulo 2^64, as "
            "NumPy or torch int64 arithmetic wraps past 2^63 - 1")


def _repriced_family():
    out = []
    for act in (None, 1):
        for gate in (False, True):
            for bias in (False, True):
                if act is None and not gate:
                    continue  # the bias adds alone: that is missing_bias
                key = "+".join(k for k, on in (
                    ("activation_one_flop", act == 1),
                    ("gate_not_counted", gate), ("bias_adds_not_counted", bias)) if on)
                out.append((key, _repriced(act, gate, bias), len(key.split("+"))))
    return [(k, m) for k, m, _ in sorted(out, key=lambda e: e[2])]


# (key, make). Order is rank among single explanations; AFFINE ones also combine in pairs.
NAMED = [
    ("macs_vs_flops", _macs_flops),
    ("gated_as_ungated", _gated_as_ungated),
    ("ungated_as_gated", _ungated_as_gated),
    ("missing_bias", _missing_bias),
    ("extra_bias", _extra_bias),
    ("input_grad", _input_grad),
    ("pass_forward", _other_pass("forward")),
    ("pass_backward", _other_pass("backward")),
    ("pass_train", _other_pass("train")),
    ("recompute", _recompute),
    ("backward_as_2x_forward", _backward_as_twice_forward),
    ("count", _other_count),
    *_repriced_family(),
    ("activation_added", _activation_added(1, 0)),
    ("gate_added", _activation_added(0, 1)),
    ("activation_and_gate_added", _activation_added(1, 1)),
    ("activation_added_twice", _activation_added(2, 0)),
    ("activation_two_per_element", _activation_added(2, 0, priced=True)),
    ("gate_added_two_per_element", _activation_added(0, 2)),
    ("linear_2k_minus_1", _linear_2k_minus_1),
    ("seq_dropped", _seq_dropped),
    ("per_sample", _per_sample),
    ("per_sample_double_activation", _per_sample_double_activation(True)),
    ("per_sample_functional_activation", _per_sample_double_activation(False)),
    ("off_by_one_h-1", _shift("h", -1)),
    ("off_by_one_h+1", _shift("h", +1)),
    ("off_by_one_d-1", _shift("d", -1)),
    ("off_by_one_d+1", _shift("d", +1)),
    ("swapped_d_h", _swapped),
    ("truncated_width_floor", _truncated_width(math.floor, "floor")),
    ("truncated_width_ceil", _truncated_width(math.ceil, "ceil")),
    ("truncated_width_round", _truncated_width(round, "round")),
    ("truncated_result_floor", _truncated_result(math.floor, "floor")),
    ("truncated_result_round", _truncated_result(round, "round")),
    ("int64_overflow", _int64_overflow),
]
_NOT_AFFINE = {"truncated_width_floor", "truncated_width_ceil", "truncated_width_round",
               "truncated_result_floor", "truncated_result_round", "int64_overflow",
               "off_by_one_h-1", "off_by_one_h+1", "off_by_one_d-1", "off_by_one_d+1",
               "swapped_d_h", "extra_bias"}
COMBINABLE = [(k, m) for k, m in NAMED if k not in _NOT_AFFINE]
