"""Mutants: deliberately wrong implementations that the real checks must catch.

Every check used by the cross-check tests (imported from their modules, not copied) is
run here on a wrong counter, formula or implementation, and must fail with an
AssertionError. A small NumPy FFN with "knobs" (`KnobbedFFN`) builds the numeric mutants:
with every knob off it passes the same check (the control), so each caught mutant is
caught for its one defect, not for some unrelated difference.
"""

from dataclasses import dataclass

import numpy as np
import pytest
import sympy as sp
from test_activations import check_matches_symbolic
from test_flops import check_flops_agree, check_macs_half_flops
from test_memory import cached_elements, check_memory_agree
from test_params import check_params_agree, numpy_count
from test_tables import check_activations_cover, check_tables_agree
from test_widths import check_matched_width, check_width_rule, exact_rule

from derivations import activations as sym_act
from derivations.flops import flops, macs
from derivations.gradients import is_derivative
from derivations.memory import activation_memory
from derivations.params import params
from ffnverify.backends import activations as npa
from ffnverify.backends import numpy_ffn
from ffnverify.backends import variants as backend_variants


def caught(check, *args, **kwargs):
    """The check rejects the mutant (and says why)."""
    with pytest.raises(AssertionError) as info:
        check(*args, **kwargs)
    assert str(info.value), "a caught mutant should come with an explanation"


# ---------- a NumPy FFN with one knob per defect ----------

@dataclass
class KnobbedFFN:
    swap_gate_up: bool = False  # act(x W_up) ⊙ (x W_gate)
    drop_bias: str | None = None  # ignore b_<name>
    activation: str | None = None  # use this activation instead of the variant's
    derivative: object = None  # use this derivative instead of the activation's
    drop_gate_input_grad: bool = False  # dx misses the gate projection's term

    def _linear(self, x, w, p):
        y = x @ w[f"W_{p}"]
        if f"b_{p}" in w and self.drop_bias != p:
            y = y + w[f"b_{p}"]
        return y

    def _parts(self, variant, w, x):
        act_name, gated = backend_variants.lookup(variant)
        fn, dfn = npa.ACTIVATIONS[self.activation or act_name]
        x2 = x.reshape(-1, x.shape[-1])
        z = {p: self._linear(x2, w, p) for p in backend_variants.projections(variant)[:-1]}
        if gated and self.swap_gate_up:
            z = {"gate": z["up"], "up": z["gate"]}
        return fn, self.derivative or dfn, gated, x2, z

    def forward(self, variant, w, x):
        fn, _, gated, _, z = self._parts(variant, w, x)
        hidden = fn(z["gate"]) * z["up"] if gated else fn(z["up"])
        return self._linear(hidden, w, "down").reshape(*x.shape[:-1], -1)

    def grads(self, variant, w, x, dy, input_grad=True):
        fn, dfn, gated, x2, z = self._parts(variant, w, x)
        g = dy.reshape(-1, dy.shape[-1])
        a = fn(z["gate"] if gated else z["up"])
        hidden = a * z["up"] if gated else a
        out = {"W_down": hidden.T @ g}
        dh = g @ w["W_down"].T
        dz = ({"gate": dh * z["up"] * dfn(z["gate"]), "up": dh * a} if gated
              else {"up": dh * dfn(z["up"])})
        for p, gz in dz.items():
            out[f"W_{p}"] = x2.T @ gz
            if f"b_{p}" in w:
                out[f"b_{p}"] = gz.sum(axis=0)
        if "b_down" in w:
            out["b_down"] = g.sum(axis=0)
        if input_grad:
            terms = [gz @ w[f"W_{p}"].T for p, gz in dz.items()
                     if not (self.drop_gate_input_grad and p == "gate")]
            out["x"] = sum(terms).reshape(x.shape)
        return out


def _named(fn, name):
    fn.__name__ = name
    return fn


def forward_of(knobs, name="mutant_forward"):
    return _named(lambda v, w, x: knobs.forward(v, w, x), name)


def grads_of(knobs, name="mutant_grads"):
    return _named(lambda v, w, x, dy, ig=True: knobs.grads(v, w, x, dy, ig), name)


def problem_inputs(variant, bias, dtype=np.float64, seed=0, d=6, h=10, shape=(2, 3)):
    rng = np.random.default_rng(seed)
    w = numpy_ffn.init_weights(variant, d, h, bias, dtype=dtype, rng=rng)
    x = rng.standard_normal((*shape, d)).astype(dtype)
    dy = rng.standard_normal((*shape, d)).astype(dtype)
    return w, x, dy


def _values_checks():
    pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch)")
    import test_values

    return test_values


def _gradient_checks():
    pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch)")
    import test_gradients

    return test_gradients


# ---------- forward values ----------

@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("variant", ["swiglu", "geglu_tanh", "relu", "bilinear"])
def test_control_forward_passes(variant, dtype):
    tv = _values_checks()
    w, x, _ = problem_inputs(variant, True, dtype)
    tv.check_forward_agree(forward_of(KnobbedFFN(), "control"), tv.torch_forward, variant, w, x)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("variant", ["swiglu", "geglu", "glu", "reglu", "tanhglu"])
def test_gate_and_up_swapped_is_caught(variant, dtype):
    tv = _values_checks()
    w, x, _ = problem_inputs(variant, False, dtype)
    caught(tv.check_forward_agree, forward_of(KnobbedFFN(swap_gate_up=True)),
           tv.torch_forward, variant, w, x)


@pytest.mark.parametrize("proj", ["gate", "up", "down"])
def test_dropped_bias_is_caught(proj):
    tv = _values_checks()
    w, x, _ = problem_inputs("swiglu", True)
    caught(tv.check_forward_agree, forward_of(KnobbedFFN(drop_bias=proj)),
           tv.numpy_forward, "swiglu", w, x)


@pytest.mark.parametrize("variant", ["gelu_tanh", "geglu_tanh"])
def test_exact_gelu_where_tanh_expected_is_caught(variant):
    tv = _values_checks()
    w, x, _ = problem_inputs(variant, False)
    caught(tv.check_forward_agree, forward_of(KnobbedFFN(activation="gelu")),
           tv.torch_forward, variant, w, x)
    z = np.linspace(-4, 4, 81)
    caught(check_matches_symbolic, "gelu_tanh", npa.gelu, npa.d_gelu_tanh, z)


# ---------- gradients ----------

@pytest.mark.parametrize("variant", ["swiglu", "silu", "geglu", "glu", "bilinear"])
@pytest.mark.parametrize("input_grad", [True, False])
def test_control_backward_passes(variant, input_grad):
    tg = _gradient_checks()
    w, x, dy = problem_inputs(variant, True)
    tg.check_backward_agree(grads_of(KnobbedFFN(), "control"), tg.torch_grads, variant,
                            w, x, dy, input_grad)


@pytest.mark.parametrize("variant", ["swiglu", "silu"])
def test_wrong_derivative_in_backward_is_caught(variant):
    """silu' = σ (forgetting the product rule)."""
    tg = _gradient_checks()
    w, x, dy = problem_inputs(variant, False)
    caught(tg.check_backward_agree, grads_of(KnobbedFFN(derivative=npa.sigmoid)),
           tg.torch_grads, variant, w, x, dy)


def test_wrong_derivative_is_caught_against_sympy():
    z = np.linspace(-6, 6, 121)
    caught(check_matches_symbolic, "silu", npa.silu, npa.sigmoid, z)
    assert not is_derivative("silu", sym_act.sigmoid(sym_act.z))
    # GELU' without the z·φ(z) term of the product rule
    assert not is_derivative("gelu", (1 + sp.erf(sym_act.z / sp.sqrt(2))) / 2)


def test_wrong_textbook_form_is_caught_by_symbolic_gradients(monkeypatch):
    """A wrong entry in DERIVATIVE_FORMS makes the evaluated closed form disagree."""
    tg = _gradient_checks()
    w, x, dy = problem_inputs("swiglu", False, d=2, h=3, shape=(2,))
    tg._symbolic.cache_clear()
    monkeypatch.setitem(sym_act.DERIVATIVE_FORMS, "silu", sym_act.sigmoid(sym_act.z))
    try:
        caught(tg.check_backward_agree, tg.symbolic_grads, tg.numpy_grads, "swiglu", w, x, dy)
    finally:
        tg._symbolic.cache_clear()


@pytest.mark.parametrize("variant", ["swiglu", "geglu", "bilinear", "glu"])
def test_backward_missing_input_gradient_term_is_caught(variant):
    tg = _gradient_checks()
    w, x, dy = problem_inputs(variant, False)
    caught(tg.check_backward_agree, grads_of(KnobbedFFN(drop_gate_input_grad=True)),
           tg.torch_grads, variant, w, x, dy)


def test_backward_with_swapped_gate_and_up_is_caught():
    tg = _gradient_checks()
    w, x, dy = problem_inputs("swiglu", True)
    caught(tg.check_backward_agree, grads_of(KnobbedFFN(swap_gate_up=True)), tg.numpy_grads,
           "swiglu", w, x, dy)


def test_gradcheck_catches_a_wrong_backward():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")

    class BadSiLU(torch.autograd.Function):
        @staticmethod
        def forward(ctx, z):
            ctx.save_for_backward(z)
            return z * torch.sigmoid(z)

        @staticmethod
        def backward(ctx, g):
            (z,) = ctx.saved_tensors
            return g * torch.sigmoid(z)  # silu' = σ: wrong

    from torch.autograd.gradcheck import GradcheckError

    z = torch.linspace(-3, 3, 7, dtype=torch.float64).add(0.1).requires_grad_(True)
    with pytest.raises(GradcheckError):
        torch.autograd.gradcheck(BadSiLU.apply, (z,))


# ---------- counts ----------

def test_wrong_param_formula_is_caught():
    """2dh for swiglu (forgetting the third projection)."""
    def two_dh(variant, d, h, bias):
        return 2 * d * h + ((h + d) if bias else 0)

    for bias in (False, True):
        caught(check_params_agree, numpy_count, "swiglu", 8, 12, bias, formula=two_dh)


def test_counter_dropping_the_bias_is_caught():
    def no_bias_count(variant, d, h, bias):
        return numpy_count(variant, d, h, False)

    caught(check_params_agree, no_bias_count, "swiglu", 8, 12, True)
    check_params_agree(no_bias_count, "swiglu", 8, 12, False)  # control: agrees without


def test_macs_reported_as_flops_is_caught():
    pytest.importorskip("torch", reason="PyTorch is not installed")
    from test_flops import measure_flops

    caught(check_flops_agree, measure_flops, "swiglu", 4, 6, (2, 3), False, True, formula=macs)
    caught(check_macs_half_flops, "swiglu", 4, 6, 2, "forward", "matmul", True, False,
           mac_fn=flops)


def test_flops_formula_ignoring_input_grad_is_caught():
    pytest.importorskip("torch", reason="PyTorch is not installed")
    from test_flops import measure_flops

    def always_input_grad(variant, d, h, n, pass_, input_grad, bias):
        return flops(variant, d, h, n, pass_=pass_, input_grad=True, bias=bias)

    check_flops_agree(measure_flops, "geglu", 4, 6, (3,), False, True, formula=always_input_grad)
    caught(check_flops_agree, measure_flops, "geglu", 4, 6, (3,), False, False,
           formula=always_input_grad)


def test_module_with_an_extra_matmul_is_caught():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    from test_flops import measure_flops

    from ffnverify.backends.torch_ffn import FFN

    class Doubled(FFN):
        def forward(self, x):
            self.up_proj(x)  # computed twice
            return super().forward(x)

    def factory(v, d, h, b):
        return Doubled(v, d, h, bias=b, dtype=torch.float32)

    def measure(*args):
        return measure_flops(*args, module_factory=factory)

    caught(check_flops_agree, measure, "swiglu", 4, 6, (3,), False, True)


def test_memory_recompute_formula_is_caught():
    def recompute(variant, d, h, n, convention):
        return activation_memory(variant, d, h, n, "recompute")

    caught(check_memory_agree, cached_elements, "swiglu", 4, 6, (3,), False, formula=recompute)


def test_memory_counting_the_identity_gate_twice_is_caught():
    def by_key(variant, d, h, shape, bias):
        w = numpy_ffn.init_weights(variant, d, h, bias, rng=0)
        _, cache = numpy_ffn.forward(variant, w, np.ones((*shape, d)))
        return sum(a.size for k, a in cache.items() if k != "shape")  # a and z_gate twice

    caught(check_memory_agree, by_key, "bilinear", 4, 6, (3,), False)


# ---------- widths ----------

def test_floor_instead_of_ceil_width_rule_is_caught():
    def floor_rule(d, m):
        return (8 * d // 3) // m * m

    check_width_rule(exact_rule, 4096, 256)  # control
    caught(check_width_rule, floor_rule, 4096, 256)
    assert floor_rule(4096, 256) == 10752 != 11008


def test_ceil_of_unfloored_ratio_is_caught():
    def ceil_plus_one(d, m):  # off by one multiple whenever floor(8d/3) is a multiple
        return (8 * d // 3) // m * m + m

    caught(check_width_rule, ceil_plus_one, 3 * 256, 256)


D = sp.Symbol("d", positive=True, integer=True)


@pytest.mark.parametrize("width", [lambda d: 2.6666 * d, lambda d: 8 / 3 * d,
                                   lambda d: sp.Float(2.6666) * d])
@pytest.mark.parametrize("d", [D, 3, 4096])
def test_float_ratio_entering_a_count_is_caught(width, d):
    caught(check_matched_width, width, d)


# ---------- tables ----------

def test_table_mutants_are_caught():
    table = dict(backend_variants.BACKEND_VARIANTS)
    caught(check_tables_agree, {**table, "tanhglu": ("sigmoid", True)})
    caught(check_tables_agree, {**table, "glu": ("sigmoid", False)})
    caught(check_tables_agree, {k: v for k, v in table.items() if k != "reglu"})
    caught(check_tables_agree, {**table, "swiglu2": ("silu", True)})
    caught(check_activations_cover,
           {k: v for k, v in npa.ACTIVATIONS.items() if k != "gelu_tanh"})


def test_params_checks_also_reject_a_wrong_derivation_with_bias():
    def no_bias_formula(variant, d, h, bias):
        return params(variant, d, h, False)

    caught(check_params_agree, numpy_count, "relu", 5, 7, True, formula=no_bias_formula)
