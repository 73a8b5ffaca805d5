"""Every entry of the elementwise cost table is the length of a program that computes it.

`derivations.flops.ELEMENTWISE_COST` prices act(z) and g·act'(z) per element, counting each
add, multiply, divide, max, select, exp, erf and tanh as one FLOP (constants are free).
Here each entry is written out as a straight-line program, one operation per step, in the
order the table's comment gives. The test runs each program at many points in 60-digit
mpmath and requires (1) that it computes the activation (forward) or g times its
derivative (backward), as SymPy gives them from `derivations.activations`, and (2) that
its number of steps is the table's price. So a price that is off by one fails (2), and a
breakdown that does not compute the function fails (1): the table cannot drift from a
derivation of its own numbers.
"""

import mpmath
import pytest
import sympy as sp

from derivations import activations
from derivations.flops import BIAS_COST, ELEMENTWISE_COST, GATE_MULTIPLY_COST

mpmath.mp.dps = 60
R2 = mpmath.sqrt(2)
K1 = mpmath.sqrt(2 / mpmath.pi)  # tanh-GELU: u = K1·(z + C·z³) = z·(K1 + K2·z²)
C = mpmath.mpf(44715) / 10**6
K2, K3 = K1 * C, 3 * K1 * C
QG = mpmath.mpf(1702) / 1000
INV_SQRT_2PI = 1 / mpmath.sqrt(2 * mpmath.pi)

OPS = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b, "neg": lambda a: -a, "max": lambda a, b: max(a, b),
    "exp": mpmath.exp, "erf": mpmath.erf, "tanh": mpmath.tanh,
    "select": lambda c, a, b: a if c > 0 else b,  # a where c > 0, else b
}

# the sigmoid in four steps, from z: neg, exp, add, div
SIGMOID = [("m", "neg", "z"), ("e", "exp", "m"), ("q", "add", 1, "e"), ("s", "div", 1, "q")]

# activation -> (forward program, backward program); inputs z (and g for the backward);
# the last step's name is the result
PROGRAMS = {
    "identity": ([], []),
    "relu": ([("y", "max", 0, "z")],
             [("y", "select", "z", "g", 0)]),
    "sigmoid": (SIGMOID,
                SIGMOID + [("c", "sub", 1, "s"), ("t", "mul", "c", "s"), ("y", "mul", "t", "g")]),
    "tanh": ([("y", "tanh", "z")],
             [("t", "tanh", "z"), ("t2", "mul", "t", "t"), ("c", "sub", 1, "t2"),
              ("y", "mul", "c", "g")]),
    "silu": (SIGMOID + [("y", "mul", "s", "z")],
             SIGMOID + [("c", "sub", 1, "s"), ("a", "mul", "c", "z"), ("b", "add", 1, "a"),
                        ("t", "mul", "b", "s"), ("y", "mul", "t", "g")]),
    "gelu": ([("a", "div", "z", R2), ("e", "erf", "a"), ("b", "add", 1, "e"),
              ("c", "mul", "b", "z"), ("y", "mul", "c", mpmath.mpf(1) / 2)],
             [("a", "div", "z", R2), ("e", "erf", "a"), ("b", "add", 1, "e"),
              ("P", "mul", "b", mpmath.mpf(1) / 2),  # Φ(z) in four
              ("z2", "mul", "z", "z"), ("h", "mul", "z2", mpmath.mpf(-1) / 2),
              ("x", "exp", "h"), ("p", "mul", "x", INV_SQRT_2PI),  # φ(z)
              ("q", "mul", "p", "z"), ("s", "add", "P", "q"), ("y", "mul", "s", "g")]),
    "gelu_tanh": ([("z2", "mul", "z", "z"), ("z3", "mul", "z2", "z"), ("c", "mul", "z3", C),
                   ("a", "add", "c", "z"), ("u", "mul", "a", K1), ("t", "tanh", "u"),
                   ("b", "add", 1, "t"), ("w", "mul", "b", "z"),
                   ("y", "mul", "w", mpmath.mpf(1) / 2)],
                  [("z2", "mul", "z", "z"), ("k", "mul", "z2", K2), ("l", "add", "k", K1),
                   ("u", "mul", "l", "z"), ("t", "tanh", "u"), ("b", "add", 1, "t"),
                   ("t2", "mul", "t", "t"), ("c", "sub", 1, "t2"),
                   ("m", "mul", "z2", K3), ("du", "add", "m", K1),  # u' = K1 + 3·K2·z²
                   ("q", "mul", "z", "c"), ("r", "mul", "q", "du"), ("s", "add", "r", "b"),
                   ("v", "mul", "s", mpmath.mpf(1) / 2), ("y", "mul", "v", "g")]),
    "relu2": ([("r", "max", 0, "z"), ("y", "mul", "r", "r")],
              [("r", "max", 0, "z"), ("a", "mul", "r", 2), ("y", "mul", "a", "g")]),
    "quick_gelu": ([("w", "mul", "z", QG)] + [(n, o, *(("w" if a == "z" else a) for a in args))
                                              for n, o, *args in SIGMOID]
                   + [("y", "mul", "s", "z")],
                   [("w", "mul", "z", QG)] + [(n, o, *(("w" if a == "z" else a) for a in args))
                                              for n, o, *args in SIGMOID]
                   + [("c", "sub", 1, "s"), ("a", "mul", "c", "w"), ("b", "add", 1, "a"),
                      ("t", "mul", "b", "s"), ("y", "mul", "t", "g")]),
}

POINTS = [mpmath.mpf(v) / 8 for v in (-29, -11, -5, -1, 1, 3, 7, 13, 22)]
G = mpmath.mpf(7) / 5


def run(program, z, g, result):
    env = {"z": z, "g": g}
    for name, op, *args in program:
        env[name] = OPS[op](*(env[a] if isinstance(a, str) else mpmath.mpf(a) for a in args))
    return env[program[-1][0]] if program else env[result]


def test_every_activation_has_a_program():
    assert set(PROGRAMS) == set(ELEMENTWISE_COST)


@pytest.mark.parametrize("act", sorted(ELEMENTWISE_COST))
def test_the_price_is_the_length_of_a_program_that_computes_it(act):
    forward, backward = PROGRAMS[act]
    assert (len(forward), len(backward)) == ELEMENTWISE_COST[act], \
        f"{act}: the written programs take {len(forward)} and {len(backward)} steps; the " \
        f"table says {ELEMENTWISE_COST[act]}"
    f = activations.expr(act if act != "identity" else "relu")
    z = next(iter(f.free_symbols))
    if act == "identity":
        f, df = z, sp.Integer(1)
    else:
        df = activations.derivative(act)
    for p in POINTS:
        at = sp.Rational(str(p))
        want_f = mpmath.mpf(sp.N(f.subs(z, at), 60))
        want_b = G * mpmath.mpf(sp.N(df.subs(z, at), 60))
        got_f, got_b = run(forward, p, G, "z"), run(backward, p, G, "g")
        assert mpmath.almosteq(got_f, want_f, rel_eps=mpmath.mpf(10) ** -40), \
            f"{act} forward program at z={p}: {got_f} vs {want_f}"
        assert mpmath.almosteq(got_b, want_b, rel_eps=mpmath.mpf(10) ** -40), \
            f"{act} backward program at z={p}: {got_b} vs g·act'(z) = {want_b}"


def test_a_program_one_step_short_is_caught():
    """The check is not vacuous: dropping the final ·g of silu's backward breaks (1)."""
    short = PROGRAMS["silu"][1][:-1]
    df = activations.derivative("silu")
    want = G * mpmath.mpf(sp.N(df.subs(next(iter(df.free_symbols)), 1), 60))
    assert not mpmath.almosteq(run(short, mpmath.mpf(1), G, "g"), want, rel_eps=1e-30)


def test_gate_and_bias_prices():
    # p = a·u is one multiply; its backward da = dp·u and du = dp·a two
    assert GATE_MULTIPLY_COST == (1, 2)
    # y + b is one add per element; db sums dL/dy over tokens: one add per element
    assert BIAS_COST == (1, 1)
