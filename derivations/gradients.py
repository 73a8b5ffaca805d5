"""Gradients of every variant, derived element by element and proved in matrix form.

The forward pass is written on small matrices of symbols (X: n×d, W_gate/W_up: d×h,
W_down: h×d, biases as rows broadcast over tokens). With an upstream gradient G (n×d)
the scalar loss is L = Σ G ⊙ Y, so ∂L/∂θ is exactly the backward pass for dY = G.

`prove(variant, ...)` differentiates L with respect to every entry of every input and
checks that the closed matrix forms below equal it exactly (the difference expands to
zero). The closed forms are the backward pass every implementation writes:

    dW_down = Pᵀ G           db_down = Σ_tokens G      dP = G W_downᵀ
    gated:  dA = dP ⊙ U      dU = dP ⊙ A               dZ_gate = dA ⊙ act'(Z_gate)
    plain:  dZ_up = dP ⊙ act'(Z_up)
    dW_• = Xᵀ dZ_•           db_• = Σ_tokens dZ_•      dX = Σ_• dZ_• W_•ᵀ

`problem(...)` exports the inputs, the output and the closed-form gradients as SymPy
matrices, so tests can evaluate them numerically against the NumPy and torch backends.
"""

from dataclasses import dataclass

import sympy as sp

from derivations import activations, variants


@dataclass
class GradientProblem:
    variant: str
    inputs: dict  # name -> Matrix of symbols: X, W_*, b_* (1×width), G
    output: sp.Matrix  # Y
    loss: sp.Expr  # Σ G ⊙ Y
    grads: dict  # name -> closed-form Matrix, for every input but G ("X", "W_up", ...)


def _symbols(name, rows, cols):
    return sp.Matrix(rows, cols, lambda i, j: sp.Symbol(f"{name}_{i}_{j}", real=True))


def problem(variant: str, n=2, d=2, h=2, bias=False, exact_derivative=False) -> GradientProblem:
    """The symbolic forward and closed-form backward of `variant` at sizes n, d, h.

    `exact_derivative=False` uses SymPy's own derivative of the activation (what `prove`
    compares against); True uses the textbook form of activations.DERIVATIVE_FORMS
    (ReLU'(0) = 0), the one to evaluate numerically.
    """
    v = variants.get(variant)
    act = activations.ACTIVATIONS[v.activation]
    if exact_derivative:
        dform = activations.DERIVATIVE_FORMS[v.activation]
    else:
        dform = sp.diff(act(activations.z), activations.z)

    def dact(m):
        return m.applyfunc(lambda e: dform.subs(activations.z, e))

    ones = sp.ones(n, 1)
    inputs = {"X": _symbols("x", n, d)}
    for p in v.projections:
        inputs[f"W_{p}"] = _symbols(f"w{p}", h if p == "down" else d, d if p == "down" else h)
        if bias:
            inputs[f"b_{p}"] = _symbols(f"b{p}", 1, d if p == "down" else h)
    inputs["G"] = _symbols("g", n, d)
    X, G = inputs["X"], inputs["G"]

    def proj(p, left):
        out = left * inputs[f"W_{p}"]
        return out + ones * inputs[f"b_{p}"] if bias else out

    Z_up = proj("up", X)
    if v.gated:
        Z_gate = proj("gate", X)
        A = Z_gate.applyfunc(act)
        P = A.multiply_elementwise(Z_up)
    else:
        A = Z_up.applyfunc(act)
        P = A
    Y = proj("down", P)
    loss = sum(G.multiply_elementwise(Y))

    grads = {"W_down": P.T * G}
    dP = G * inputs["W_down"].T
    if v.gated:
        dZ = {"gate": dP.multiply_elementwise(Z_up).multiply_elementwise(dact(Z_gate)),
              "up": dP.multiply_elementwise(A)}
    else:
        dZ = {"up": dP.multiply_elementwise(dact(Z_up))}
    for p, dz in dZ.items():
        grads[f"W_{p}"] = X.T * dz
    grads["X"] = sum((dz * inputs[f"W_{p}"].T for p, dz in dZ.items()), sp.zeros(n, d))
    if bias:
        grads["b_down"] = ones.T * G
        for p, dz in dZ.items():
            grads[f"b_{p}"] = ones.T * dz
    return GradientProblem(variant, inputs, Y, loss, grads)


def prove(variant: str, n=2, d=2, h=2, bias=False) -> dict[str, bool]:
    """{input name: closed form == ∂L/∂input exactly}, checked entry by entry."""
    pb = problem(variant, n, d, h, bias)
    verdict = {}
    for name, closed in pb.grads.items():
        m = pb.inputs[name]
        verdict[name] = all(
            sp.expand(closed[i, j] - sp.diff(pb.loss, m[i, j])) == 0
            for i in range(m.rows)
            for j in range(m.cols)
        )
    return verdict


def is_derivative(activation: str, form) -> bool:
    """True iff `form` equals d act/dz exactly (ReLU: on both sides of its kink)."""
    diff = sp.diff(activations.expr(activation), activations.z) - form
    if activation in ("relu", "relu2"):
        sides = (sp.Symbol("zp", positive=True), sp.Symbol("zn", negative=True))
        return all(sp.simplify(diff.subs(activations.z, s)) == 0 for s in sides)
    return sp.simplify(sp.expand(diff.rewrite(sp.exp))) == 0


def prove_derivative_forms() -> dict[str, bool]:
    """{activation: its textbook derivative form is exact}."""
    return {a: is_derivative(a, f) for a, f in activations.DERIVATIVE_FORMS.items()}
