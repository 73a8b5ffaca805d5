"""Named explanations for a counter that disagrees with the derivation.

Each explanation is a *transformed derivation*: the count our derivation gives after one
specific, common mistake (MACs reported as FLOPs, a gated unit counted as ungated, the bias
dropped, the hidden width ignored, ...). An explanation fits when the user's values equal
the transformed derivation exactly at every point we evaluated, and the transformation
actually changes the count somewhere (so a harmless transformation, like swapping d and h
in a formula symmetric in them, never "explains" anything).

A few explanations carry one constant fitted at the first disagreeing point where it
matters (the width the function silently assumes, the FLOPs it charges per bias
parameter); they are then checked at every other point like the rest.

Each explanation transforms a count function, so two compose: where no single one fits,
every pair is tried (MACs and a bias term, the sequence dimension dropped and a bias term,
backward as 2x forward over a repriced forward), simplest first; where no pair fits, every
pair over the count in the other unit (MACs for FLOPs: pthflops' three mistakes).
`discriminating` picks the extra points where the fitting explanations (and the
derivation) predict different values; the caller evaluates the function there and
explains again, so an explanation that fitted only by a numeric coincidence at the drawn
shapes drops out. Fits that still give the same numbers as the first at every point and at
TIE_SHAPES more of ours (`_mark_ties`) are all kept and say that the numbers cannot tell
them apart (torchprofile's gating product at 1 per element and an activation at 1 per
element, on a gated unit).

Where the user's function computed in floating point, "equal" means within k units of
roundoff (u = 2⁻⁵³, k = FLOAT_OPS roundings, each at most u relative, adding to first
order): the bound of a formula of up to k floating-point operations.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache

import sympy as sp

from derivations import variants
from derivations.flops import BIAS_COST, ELEMENTWISE_COST, GATE_MULTIPLY_COST, flops, macs
from derivations.params import params
from derivations.symbols import d as D
from derivations.symbols import h as H
from derivations.symbols import n as N
from ffnverify.testing.closed_form import evaluator, pretty

QUANTITIES = ("params", "flops", "macs")
UNIT_ROUNDOFF = Fraction(1, 2**53)
FLOAT_OPS = 16
EXACT_FLOAT_LIMIT = 2**53  # every integer up to here is a float; beyond, floats skip integers

# ungated <-> gated with the same activation (docs/architecture.md §2 names)
_GATED_OF = {"relu": "reglu", "gelu": "geglu", "gelu_tanh": "geglu_tanh", "silu": "swiglu"}
_UNGATED_OF = {g: u for u, g in _GATED_OF.items()}


@dataclass(frozen=True)
class Target:
    """What the user's function is supposed to count (docs/architecture.md §3 conventions)."""

    quantity: str
    variant: str
    pass_: str = "forward"
    count: str = "matmul"
    input_grad: bool = True

    def expr(self, bias: bool) -> sp.Expr:
        return _derived(self.quantity, self.variant, self.pass_, self.count, self.input_grad,
                        bool(bias))[0]

    def value(self, point) -> Fraction:
        """The exact count at point {d, h, n, bias}."""
        f = _derived(self.quantity, self.variant, self.pass_, self.count, self.input_grad,
                     bool(point.get("bias", False)))[1]
        return f(point)

    def describe(self) -> str:
        if self.quantity == "params":
            return f"{self.variant} params"
        return (f"{self.variant} {self.quantity} (pass={self.pass_}, count={self.count}, "
                f"input_grad={str(self.input_grad).lower()})")


@lru_cache(maxsize=512)
def _derived(quantity, variant, pass_, count, input_grad, bias):
    if quantity == "params":
        expr = params(variant, D, H, bias)
    elif quantity in ("flops", "macs"):
        fn = flops if quantity == "flops" else macs
        expr = fn(variant, D, H, N, pass_=pass_, count=count, input_grad=input_grad, bias=bias)
    else:
        raise ValueError(f"unknown quantity {quantity!r}; expected one of {', '.join(QUANTITIES)}")
    return expr, evaluator(expr, ("d", "h", "n"))


@dataclass
class Fit:
    """An explanation that fits every evaluated point."""

    key: str
    title: str
    expected: object = field(default=None, repr=False, compare=False)  # point -> Fraction
    ties: bool = False  # the same numbers as the first fit at every shape tried

    def __str__(self):
        return self.title


def close(yours: Fraction, expected: Fraction, floating: bool, float_ops=FLOAT_OPS) -> bool:
    """Exact equality, or (for a float result) agreement within float_ops units of roundoff."""
    if yours == expected:
        return True
    return floating and abs(yours - expected) <= float_ops * UNIT_ROUNDOFF * abs(expected)


def _with(point, **changes):
    p = dict(point)
    p.update(changes)
    return p


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


# --- fitted explanations: one constant c, solved for at the first disagreeing point ---------


def _bias_params(variant, p):
    """Bias parameters of `variant` at p (the sum of its projections' output widths)."""
    on = _derived("params", variant, "forward", "matmul", True, True)[1]
    off = _derived("params", variant, "forward", "matmul", True, False)[1]
    return on(p) - off(p)


def _fit_width(t, V, c):
    note = " (the GPT default 4·d)" if c == 4 else ""
    return (lambda q: V(t, _with(q, h=c * Fraction(q["d"])))), (
        f"the hidden width is ignored: your value is ours at h = {c}·d{note} whatever h is "
        "passed")


def _fit_bias_term(t, V, c):
    tokens = 1 if t.quantity == "params" else None

    def expected(q):
        if not q.get("bias"):
            return V(t, q)
        return V(t, q) + c * _bias_params(t.variant, q) * (tokens or Fraction(q["n"]))

    per = "per bias parameter" + ("" if t.quantity == "params" else " per token")
    return expected, (f"a different bias term: yours = ours {'+' if c > 0 else '-'} {abs(c)} "
                      f"{per} (e.g. a 6N rule whose N includes the biases, or a bias add "
                      "counted as a multiply-accumulate)")


def _fit_bias_per_call(t, V, c):
    if t.quantity == "params":
        return None  # the same as a bias term there

    def expected(q):
        if not q.get("bias"):
            return V(t, q)
        return V(t, q) + c * _bias_params(t.variant, q)

    return expected, (f"a bias term once per call, not per token: yours = ours "
                      f"{'+' if c > 0 else '-'} {abs(c)} per bias parameter, whatever the "
                      "token count (as pthflops adds a linear's out_features once)")


def _fit_factor(t, V, c):
    return (lambda q: c * V(t, q)), f"off by a constant factor: derived / yours = {1 / c}"


FITTED = [("width_ignored", _fit_width), ("bias_term", _fit_bias_term),
          ("bias_per_call", _fit_bias_per_call), ("constant_factor", _fit_factor)]
_VALID = {"width_ignored": lambda c: c > 0, "bias_term": lambda c: c != 0,
          "bias_per_call": lambda c: c != 0, "constant_factor": lambda c: c not in (0, 1)}


def _solve_constant(build, points):
    """c such that build(c)(p) == p['yours'] at the first of `points` where c matters
    (build(c) is affine in c); or None."""
    f0, f1 = build(Fraction(0)), build(Fraction(1))
    for p in points:
        try:
            e0, e1 = f0(p), f1(p)
        except (ZeroDivisionError, ValueError, KeyError):
            return None
        if e1 != e0:
            return (p["yours"] - e0) / (e1 - e0)
    return None


def _compose(inner_make, V):
    """V transformed by `inner_make` wherever it applies (a cache per target)."""
    cache = {}

    def W(t, p):
        if t not in cache:
            cache[t] = inner_make(t, V)
        made = cache[t]
        return made[0](p) if made is not None else V(t, p)

    return W


@dataclass
class _Candidate:
    key: str
    expected: object
    title: str
    rank: int  # lower is simpler


def _candidates(target, first, singles_only, base=_base):  # first: the first disagreeing points
    """Every explanation (and, unless singles_only, every pair) as a candidate, each
    transforming `base` (the derivation, or the derivation in another unit)."""
    out = []

    def fitted(key, fit, V, prefix_key="", prefix_title="", rank=0, wrap=None):
        def build(c):
            made = fit(target, V, c) if wrap is None else None
            if wrap is not None:
                inner = _compose(lambda t, W: fit(t, W, c), base)
                made = wrap(target, inner)
            return made[0] if made is not None else (lambda p: V(target, p))
        c = _solve_constant(build, first) if first else None
        if c is None or not _VALID[key.split("+")[0]](c):
            return
        if wrap is None:
            made = fit(target, V, c)
        else:
            made = wrap(target, _compose(lambda t, W: fit(t, W, c), base))
            inner_title = fit(target, _base, c)
            if made is None or inner_title is None:
                return
            made = (made[0], f"{made[1]}; and {inner_title[1]}")
        if made is not None:
            out.append(_Candidate(prefix_key + key, made[0], prefix_title + made[1], rank))

    for i, (key, make) in enumerate(NAMED):
        made = make(target, base)
        if made is not None:
            out.append(_Candidate(key, made[0], made[1], i))
    for j, (key, fit) in enumerate(FITTED[:-1]):
        fitted(key, fit, base, rank=1000 + j)
    if singles_only:
        return out
    for i, (outer, outer_make) in enumerate(COMBINABLE):
        for j, (inner, inner_make) in enumerate(COMBINABLE):
            if outer == inner:
                continue
            inner_alone = inner_make(target, _base)
            V = _compose(inner_make, base)
            made = outer_make(target, V)
            if made is None:
                continue
            inner_text = inner_alone[1] if inner_alone is not None else _applied_title(
                inner_make, target)
            if inner_text is None:
                continue
            out.append(_Candidate(f"{outer}+{inner}", made[0], f"{made[1]}; and {inner_text}",
                                  2000 + i + j))
        for j, (key, fit) in enumerate(FITTED[:-1]):
            # fitted outside, so the constant is in your unit: e.g. MACs vs FLOPs, then a
            # bias term on top
            inner_V = _compose(outer_make, base)
            alone = outer_make(target, _base)
            if alone is not None:
                fitted(f"{key}+{outer}", fit, inner_V, rank=3000 + i + j,
                       prefix_title=f"{alone[1]}; and ")
            # fitted inside: e.g. a bias term, then the sequence dimension dropped
            fitted(key, fit, base, prefix_key=f"{outer}+", rank=3000 + i + j,
                   wrap=outer_make)
    return out


def _applied_title(make, target):
    """The title of an explanation that applies only to a related target (e.g. the forward
    count inside a training count, or the training count inside a forward one)."""
    for t in (replace(target, pass_="forward", input_grad=True),
              replace(target, count="all"), replace(target, pass_="forward", count="all",
                                                     input_grad=True),
              replace(target, pass_="train")):
        made = make(t, _base)
        if made is not None:
            return made[1]
    return None


def explain(target: Target, points, float_ops=FLOAT_OPS) -> list[Fit]:
    """The explanations that fit every point in `points`, simplest first.

    Each point is {d, h, n, bias, yours (Fraction), float (bool)} and, where the tokens are a
    batch x seq split, batch and seq. Single explanations come first; only where none fits
    are pairs of explanations tried, ranked by how simply they fit. A constant factor is
    offered only where nothing more specific fits. Returns [] when the points all agree with
    the derivation or nothing fits.
    """
    derived = [target.value(p) for p in points]
    mismatched = [p for p, v in zip(points, derived)
                  if not close(p["yours"], v, p.get("float", False), float_ops)]
    exact_mismatch = [p for p, v in zip(points, derived) if p["yours"] != v]
    if not exact_mismatch:
        return []
    if not mismatched:  # every difference is within float round-off
        return [_round_off(target, exact_mismatch)]

    def fits_all(expected):
        """None if it does not fit; else whether float round-off was needed for the fit."""
        changes = rounded = False
        for p, v in zip(points, derived):
            try:
                e = expected(p)
            except (ZeroDivisionError, ValueError, KeyError):
                return None
            if not close(p["yours"], e, p.get("float", False), float_ops):
                return None
            changes = changes or e != v
            rounded = rounded or p["yours"] != e
        return rounded if changes else None

    first = mismatched[0]
    fits = []
    some = mismatched  # the constant is solved at the first one where it matters
    for singles_only, unit in _ROUNDS:
        base, prefix = (_base, None) if not unit else _in_other_unit(target)
        if base is None:
            continue
        for cand in sorted(_candidates(target, some, singles_only, base), key=lambda c: c.rank):
            if not singles_only and cand.rank < 2000:
                continue  # the singles did not fit in the first round
            if prefix is not None:
                cand = _Candidate(f"{prefix[0]}+{cand.key}", cand.expected,
                                  f"{prefix[1]}; and {cand.title}", cand.rank)
            if any(_parts(f.key) == _parts(cand.key) for f in fits):
                continue  # the same mistakes composed in another order
            if (rounded := fits_all(cand.expected)) is not None:
                fits.append(Fit(cand.key, cand.title + (" (up to float round-off)"
                                                        if rounded else ""), cand.expected))
        if fits:
            break
    _mark_ties(fits, points)
    c = first["yours"] / target.value(first) if target.value(first) else Fraction(0)
    if not fits and _VALID["constant_factor"](c):
        fit = _fit_factor(target, _base, c)
        if (rounded := fits_all(fit[0])) is not None:
            fits.append(Fit("constant_factor", fit[1] + (" (up to float round-off)"
                                                         if rounded else ""), fit[0]))
    return fits


def _parts(key):
    return frozenset(key.split("+"))


# (singles only, in the other unit): singles, then pairs, then pairs over the count in the
# other unit (MACs for FLOPs, FLOPs for MACs): three mistakes, one of them the unit
_ROUNDS = ((True, False), (False, False), (False, True))


def _in_other_unit(target):
    """(the derivation in the other unit, (key, title)), or (None, None) for params."""
    made = _macs_flops(target, _base)
    if made is None:
        return None, None
    return _compose(_macs_flops, _base), ("macs_vs_flops", made[1])


TIE_SHAPES = 48  # shapes of ours (no call of your function) on which two fits are compared


def _mark_ties(fits, points):
    """Say so where fits give the same numbers at every point: the user's, and TIE_SHAPES
    more of ours in the same form. Those the numbers cannot tell apart (e.g. the gating
    product at 1 per element and the activation at 1 per element, where both act on the
    n·h elements of a gated unit); the first is kept first, and every one is listed."""
    if len(fits) < 2:
        return
    shapes = list(points) + _tie_shapes(points)

    def same(f, g):
        for q in shapes:
            try:
                if f.expected(q) != g.expected(q):
                    return False
            except (ZeroDivisionError, ValueError, KeyError):
                return False
        return True

    lead = fits[0]
    tied = [f for f in fits[1:] if same(lead, f)]
    if not tied:
        return
    count = f"{len(shapes)} shapes ({len(points)} of yours, {len(shapes) - len(points)} more)"
    lead.title += (f"; {len(tied)} other explanation{'s' if len(tied) > 1 else ''} below "
                   f"give{'s' if len(tied) == 1 else ''} the same numbers at all {count}: the "
                   "numbers cannot tell them apart")
    for f in tied:
        f.title += " (the same numbers as the first at every shape: the numbers cannot tell " \
                   "them apart)"
        f.ties = True
    lead.ties = True


def _tie_shapes(points):
    """TIE_SHAPES seeded shapes in the form of `points` (a batch x seq split where they have
    one; each bias flag they use)."""
    import random

    rng = random.Random(20240)
    split = all(p.get("batch") is not None and p.get("seq") is not None for p in points)
    biases = sorted({bool(p.get("bias", False)) for p in points})
    out = []
    for i in range(TIE_SHAPES):
        d, h, t1, t2 = (rng.randint(1, rng.choice((7, 97, 4099))) for _ in range(4))
        q = {"d": d, "h": h, "bias": biases[i % len(biases)]}
        if split:
            q.update(batch=t1, seq=t2, n=t1 * t2)
        else:
            q["n"] = t1
        out.append(q)
    return out


def _round_off(target, exact_mismatch):
    def rel(p):
        return abs(p["yours"] - target.value(p)) / abs(target.value(p))

    ulps = max(rel(p) for p in exact_mismatch) / UNIT_ROUNDOFF
    smallest = min(exact_mismatch, key=lambda p: abs(target.value(p)))
    exact = target.value(smallest)
    where = (", above 2^53, beyond which floats skip integers"
             if abs(exact) > EXACT_FLOAT_LIMIT else "")
    return Fit("float_round_off",
               "float round-off: your function computes in floating point and differs "
               f"from the exact count by rounding only (relative error at most "
               f"{float(ulps):.3g}·u, u = 2^-53); the smallest count that differs is "
               f"{exact} at {_fmt(smallest)}{where}")


def discriminating(fits, target, candidates, seen, limit=8):
    """Points among `candidates` (dicts without 'yours') where two of `fits`, or a fit and
    the derivation, predict different values: evaluating the function there tells a real
    explanation from one that fits only by coincidence at the points drawn so far."""
    predictors = [f.expected for f in fits if f.expected is not None] + [target.value]
    table = []
    for q in candidates:
        if _point_key(q) in seen:
            continue
        row = []
        for e in predictors:
            try:
                row.append(e(q))
            except (ZeroDivisionError, ValueError, KeyError):
                row.append(None)
        table.append((q, row))
    out = []
    for i in range(len(predictors)):
        for j in range(i + 1, len(predictors)):
            for q, row in table:
                if row[i] != row[j]:
                    if _point_key(q) not in seen:
                        seen.add(_point_key(q))
                        out.append(q)
                    break
            if len(out) >= limit:
                return out
    return out


def _point_key(p):
    return tuple(p.get(k) for k in ("d", "h", "n", "bias", "batch", "seq"))


def _fmt(p):
    keys = [k for k in ("d", "h", "n") if k in p] + (["bias"] if "bias" in p else [])
    return ", ".join(f"{k}={_num(p[k])}" for k in keys)


def _num(v):
    if isinstance(v, bool):
        return str(v).lower()
    return str(v)


__all__ = ["Target", "Fit", "explain", "discriminating", "close", "NAMED", "FITTED", "pretty"]
