"""The points `check_counter` evaluates: the smallest shapes first (the lattice that
determines a closed form of the given degree), the Hypothesis search and its
fallback, spread shapes, and the recovery of the user's closed form from the lattice."""


from __future__ import annotations

import math
import random
from fractions import Fraction

import sympy as sp

from derivations.symbols import n as N
from ffnverify.testing.closed_form import (
    ClosedForm,
    NotANumber,
    _lattice,
    recover,
)
from ffnverify.testing.counter_args import _exception_text
from ffnverify.testing.explain import (
    close,
)

LATTICE_FIRST_MAX = 126  # the most shapes evaluated first (4 variables at degree 5)


def _lattice_values(names, degree, max_dim, step):
    """The recovery lattice (closed_form's), smallest shapes first; [] where recovery would
    not use it (a value past max_dim) or it is larger than LATTICE_FIRST_MAX."""
    top = max_dim if step == 1 else max(4, max_dim // step)
    if 1 + degree > top or math.comb(len(names) + degree, degree) > LATTICE_FIRST_MAX:
        return []
    return [dict(zip(names, p)) for p in sorted(_lattice(len(names), degree),
                                                key=lambda p: (sum(p), p))]


def _smallest_first(evaluate, complete, names, degree, biases, max_dim, step, split, done):
    """Evaluate the recovery lattice (every coordinate at most degree + 1) before anything
    is drawn, once per bias flag until one disagrees: (the first mismatch in it, smallest
    first, or a user error, or None; how), and done[bias] = the keys evaluated. The
    closed form then needs no more calls than its confirming points, and the
    counterexample is already among the smallest shapes."""
    lattice = _lattice_values(names, degree, max_dim, step)
    for b in biases:
        first = None
        for values in lattice:
            d, h = values["d"], values.get("h", 1)
            point = (complete(d, h, values.get("batch", 1), values.get("seq", 1), b) if split
                     else complete(d, h, values.get("n", 1), 1, b))
            try:
                rec = evaluate(point, strict=False, phase="smallest")
            except _UserError as e:
                return e, _lattice_text(names, degree, done)
            done.setdefault(b, set()).add(_key(point))
            if first is None and not close(rec["yours"], rec["derived"], False):
                first = rec
        if first is not None:
            return _Mismatch(first), (f"{_lattice_text(names, degree, done)}, the first that "
                                      "disagrees reported")
    return None, _lattice_text(names, degree, done)


def _lattice_text(names, degree, done):
    count = sum(len(v) for v in done.values())
    if not count:
        return ""
    return (f"first the {count} smallest shapes, the degree-{degree} recovery lattice in "
            f"{', '.join(names)}")


def _recovery_calls(m, k):
    """Numeric calls of one recovery: the lattice plus the confirming points."""
    return math.comb(m + k, k) + 8


def _recover(evaluate, call, complete, names, flags_bias, degree, float_ops, max_dim, step,
             split, ratio):
    """The user's closed form, with every numeric call inside max_dim and the token
    constraints, and each one counted against the post-failure budget."""

    def call_closed(values):
        d, h = values["d"], values.get("h", 1)
        if any(isinstance(v, sp.Basic) for v in values.values()):  # the symbolic call
            batch, seq = values.get("batch", 1), values.get("seq", 1)
            n = batch * seq if split else step * values.get("n", 1)
            p = {"d": d, "h": ratio * d if ratio is not None else h, "n": n, "bias": flags_bias,
                 "batch": batch, "seq": seq}
            return call(p)
        if split:
            p = complete(d, h, values.get("batch", 1), values.get("seq", 1), flags_bias)
        else:
            p = complete(d, h, values.get("n", 1), 1, flags_bias)
        rec = evaluate(p, strict=False, phase="recovering")
        if rec is None:
            raise _Budget()
        return float(rec["yours"]) if rec["float"] else rec["yours"]

    def tolerance(exact):
        return float_ops * Fraction(1, 2**53) * abs(exact)

    def allowed(values):
        return values.get("batch", 1) * values.get("seq", 1) <= max_dim

    try:
        form = recover(call_closed, names, degree=degree, tolerance=tolerance,
                       max_value=max_dim if step == 1 else max(4, max_dim // step),
                       allowed=allowed if split else None)
    except _Budget:
        return ClosedForm(None, "none", "not recovered: the --max-examples calls are used up")
    except _UserError:
        return ClosedForm(None, "none", "not recovered: your function raised")
    except (NotANumber, ZeroDivisionError, ArithmeticError) as e:
        return ClosedForm(None, "none", f"could not recover it: {e}")
    if step != 1 and form.expr is not None:
        form.expr = sp.expand(form.expr.subs(N, N / step))
    return form


# --- drawing --------------------------------------------------------------------------------


def _search(evaluate, complete, bias_drawn, bias, max_examples, max_dim, seed, split, state):
    """Run Hypothesis over the shapes; return (first failure or None, description)."""
    try:
        import hypothesis
        from hypothesis import HealthCheck, Phase, Verbosity, given, settings
        from hypothesis import seed as hyp_seed
        from hypothesis import strategies as st
    except ImportError:
        return _search_without_hypothesis(evaluate, complete, bias_drawn, bias, max_examples,
                                          max_dim, seed, "Hypothesis not installed")
    if hypothesis.currently_in_test_context():  # inside the user's own @given: no nesting
        return _search_without_hypothesis(evaluate, complete, bias_drawn, bias, max_examples,
                                          max_dim, seed, "inside a Hypothesis test")

    dims = st.integers(1, max_dim)
    first = {}

    @settings(max_examples=max_examples, deadline=None, database=None,
              derandomize=seed is None, verbosity=Verbosity.quiet, print_blob=False,
              suppress_health_check=list(HealthCheck),
              phases=[Phase.explicit, Phase.generate, Phase.shrink])
    @given(st.data())
    def run(data):
        d = data.draw(dims, label="d")
        h = data.draw(dims, label="h")
        n = data.draw(dims, label="batch" if split else "n")
        s = data.draw(dims, label="seq") if split else 1
        b = data.draw(st.booleans(), label="bias") if bias_drawn else bias
        try:
            evaluate(complete(d, h, n, s, b))
        except _Mismatch as e:
            first.setdefault("mismatch", e)
            raise

    if seed is not None:
        run = hyp_seed(seed)(run)
    how = (f"Hypothesis, {max_examples} examples{' (derandomized)' if seed is None else ''}, "
           f"d, h, {'batch, seq' if split else 'n'} in 1..{max_dim}"
           f"{', bias drawn' if bias_drawn else ''}")
    try:
        run()
    except (_Mismatch, _UserError) as e:
        return (state["error"] or e), how
    except BaseExceptionGroup as group:  # several distinct failures: report a mismatch first
        found = [e for e in _leaves(group) if isinstance(e, (_Mismatch, _UserError))]
        if state["error"] is not None:
            return state["error"], how
        if not found:
            if "mismatch" in first:
                return first["mismatch"], how
            raise
        return sorted(found, key=lambda e: isinstance(e, _UserError))[0], how
    except Exception:  # a Hypothesis error (e.g. flaky): the user's failure is what we saw
        if state["error"] is not None:
            return state["error"], how
        if "mismatch" in first:
            return first["mismatch"], how
        raise
    if state["error"] is not None:
        return state["error"], how
    return None, how


def _spread(count, max_dim, seed):
    """`count` seeded pseudo-random shapes (d, h, tokens, seq), small, model-sized and large."""
    rng = random.Random(seed or 0)
    tops = (16, 4096, max_dim)
    return [tuple(rng.randint(1, min(rng.choice(tops), max_dim)) for _ in range(4))
            for _ in range(count)]


def _search_without_hypothesis(evaluate, complete, bias_drawn, bias, max_examples, max_dim,
                               seed, why):
    """Seeded pseudo-random shapes (no shrinking) where Hypothesis cannot run."""
    rng = random.Random(seed or 0)
    how = (f"{why}: {max_examples} seeded random draw{'' if max_examples == 1 else 's'}, "
           f"d, h, n in 1..{max_dim}")
    for d, h, n, s in _spread(max_examples, max_dim, seed):
        b = rng.random() < 0.5 if bias_drawn else bias
        try:
            evaluate(complete(d, h, n, s, b))
        except (_Mismatch, _UserError) as e:
            return e, how
    return None, how


def _leaves(group):
    for e in group.exceptions:
        if isinstance(e, BaseExceptionGroup):
            yield from _leaves(e)
        else:
            yield e


class _Mismatch(Exception):
    def __init__(self, point):
        super().__init__(point)
        self.point = point


class _UserError(Exception):
    def __init__(self, point, error, call_text=""):
        super().__init__(error if isinstance(error, str) else _exception_text(error))
        self.point, self.error, self.call_text = point, error, call_text


class _Budget(Exception):
    pass


def _key(p):
    return tuple(p.get(k) for k in ("d", "h", "n", "bias", "batch", "seq"))
