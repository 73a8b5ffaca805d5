"""Diagnoses: what a module that fails the forward check (or that identify cannot name)
computes instead.

A diagnosis is a hypothesis "the module computes variant V, read through layout L, with
one transformation T" — gate and up swapped (or, in a fused weight, the other chunk
order), a bias never added or added twice, one of the activation's own constants off, a
scale on the gate, the input or the output, a weight used transposed, the activation of
a neighbouring variant, the residual added inside — checked in float64 against the
module's own weights and outputs.

What a reported diagnosis guarantees: at every drawn point (each token of each input, on
at least two fillings of the weights), the module's float64 output lies within the kit's
derived float64 bound (`tolerances.bounds`, the bound the forward check uses, plus one
rounding per extra operation the transformation adds) of the hypothesis' output, with
the constants exactly as reported. Constants are fitted first (least squares on the
module's outputs, `scipy.optimize.least_squares`), then rounded to the fewest significant
digits that still verify; a fit is never reported unverified. Hypotheses are tried by
the number of fitted constants (none, one, two); the first level at which some verify
is the answer, and when several verify there, all are listed: the numbers cannot tell
them apart. The module must also fail the untransformed hypothesis at some point (a
module that matches V needs no diagnosis).
"""

from dataclasses import dataclass, field

import numpy as np

from ffnverify.backends.activations import GELU_TANH_C, INV_SQRT2, QUICK_GELU_C, SQRT_2_OVER_PI
from ffnverify.testing.results import explain  # noqa: F401 (its home is results)

PROBE_SCALE = 3.0  # probe inputs N(0, 9): pre-activations reach the activations' bends
PROBE_TOKENS = 16
MIN_OUTPUTS = 24  # output elements needed per fitted constant (and for any diagnosis)
U64 = 2.0**-53

# the activations' own constants (name, correct value), in the form the module may
# have gotten wrong; a parameterised NumPy form of each activation below
CONSTANTS = {
    "gelu_tanh": (("c", GELU_TANH_C), ("k", float(SQRT_2_OVER_PI))),
    "gelu": (("1/sqrt2", float(INV_SQRT2)),),
    "quick_gelu": (("alpha", QUICK_GELU_C),),
    "silu": (("beta", 1.0),),
    "relu2": (("p", 2.0),),
}
SCALES = ("input", "gate", "output")  # where a constant factor may sit
SCALE_PAIRS = (("gate", "output"), ("input", "output"))  # e.g. FalconH1's mlp_multipliers
SCALE_WORDS = {"input": "the input", "gate": "the gate's pre-activation",
               "output": "the output"}


def _sigmoid(t):
    from ffnverify.backends.activations import ACTIVATIONS

    return ACTIVATIONS["sigmoid"][0](t)


def _param_act(act_name, values):
    """The activation `act_name` with its constants set to `values` ({name: value})."""
    from scipy import special

    v = dict(CONSTANTS[act_name])
    v.update(values)
    if act_name == "gelu_tanh":
        def f(z):
            zc = np.clip(z, -20, 20)
            return 0.5 * z * (1 + np.tanh(v["k"] * (zc + v["c"] * zc**3)))
    elif act_name == "gelu":
        def f(z):
            return 0.5 * z * (1 + special.erf(z * v["1/sqrt2"]))
    elif act_name in ("quick_gelu", "silu"):
        c = v["alpha"] if act_name == "quick_gelu" else v["beta"]

        def f(z):
            return z * _sigmoid(c * np.clip(z, -1e4, 1e4))
    else:  # relu2
        def f(z):
            return np.maximum(z, 0) ** v["p"]
    return f


@dataclass
class Point:
    """One filling of the module: its weights read through `table`, inputs and outputs."""

    module: object
    table: dict
    x: np.ndarray
    y: np.ndarray
    w: dict | None = None  # read through `table` when first needed


@dataclass
class Hypothesis:
    """'The module computes `variant` with `what`': weights (possibly read through another
    table, transformed by `weights(w, theta)`), activation constants, a residual."""

    what: str
    variant: str
    kind: str  # swap, bias, constant, scale, transposed, activation, residual
    fit: tuple = ()  # names of the fitted constants
    start: tuple = ()  # their starting (correct) values
    retable: object = None  # f(the point's table) -> the table the module reads instead
    weights: object = None  # f(w, theta) -> w
    act: str | None = None  # activation whose constants are `fit` (kind "constant")
    residual: bool = False
    extra_ops: int = 0  # roundings the transformation adds beyond the variant's own


@dataclass
class Diagnosis:
    """A hypothesis that verified: the module matches it at every drawn point."""

    variant: str
    layout: str
    what: str
    kind: str
    error: float  # max |module − hypothesis| over every point
    outputs: int  # output elements compared
    fitted: dict = field(default_factory=dict)  # name -> (value used, correct value)

    def text(self):
        return (f"the module computes {self.variant} (layout {self.layout}) with "
                f"{self.what}: it then matches at every drawn point ({self.outputs} "
                f"output elements, max error {self.error:.2g}, within the float64 bound)")




# ---------------------------------------------------------------- hypotheses


def _fmt(v):
    return f"{v:.12g}"


def _scaled(w, where, s, gated):
    w = dict(w)
    if where == "input":
        for p in ("gate", "up") if gated else ("up",):
            w[f"W_{p}"] = w[f"W_{p}"] * s
    elif where == "gate":
        p = "gate" if gated else "up"
        w[f"W_{p}"] = w[f"W_{p}"] * s
        if f"b_{p}" in w:
            w[f"b_{p}"] = w[f"b_{p}"] * s
    else:
        w["W_down"] = w["W_down"] * s
        if "b_down" in w:
            w["b_down"] = w["b_down"] * s
    return w


def _swapped(table):
    t = dict(table)
    for a, b in (("W_gate", "W_up"), ("b_gate", "b_up")):
        t.pop(a, None), t.pop(b, None)
        if b in table:
            t[a] = table[b]
        if a in table:
            t[b] = table[a]
    return t


def _swap_table(table):
    """(f(table) -> the table with gate and up exchanged, the words for it)."""
    if table["W_gate"][0] == table["W_up"][0]:  # one fused weight: the chunk order
        from ffnverify.testing import layouts

        t = _swapped(table)
        other = next((n for n, tb in layouts._GATED.items() if tb == t), None)
        name = f" (layout {other})" if other else ""
        tr = str(table["W_gate"][1])
        which = "second" if "half0" in tr else "first" if "half1" in tr else "other"
        return _swapped, (f"the other chunk order of {table['W_gate'][0]}: the gate is the "
                          f"{which} chunk{name}")
    g, u = (_module_of(table[k][0]) for k in ("W_gate", "W_up"))
    return _swapped, f"gate and up swapped: act({u}(x)) * {g}(x), not act({g}(x)) * {u}(x)"


def _module_of(path):
    return path.rsplit(".", 1)[0] if path.endswith((".weight", ".bias")) else path


def _toggle(transform):
    if not isinstance(transform, str):
        return None
    if transform in ("T", "id", None):
        return "id" if transform == "T" else "T"
    base, _, tail = transform.partition(".")
    return base if tail == "T" else f"{base}.T"


def hypotheses(variant, table, w, gated_variants, shapes_square):
    """Every hypothesis for `variant` read through `table` ({our name: (path, transform)});
    `w` the weights it reads (which biases exist)."""
    from ffnverify.backends.variants import lookup

    act_name, gated = lookup(variant)
    out = []
    if gated:
        t, words = _swap_table(table)
        out.append(Hypothesis(words, variant, "swap", retable=t))
    for b in sorted(k for k in w if k.startswith("b_")):
        p = b[2:]
        out.append(Hypothesis(f"the {p} projection's bias ({table[b][0]}) never added",
                              variant, "bias",
                              weights=lambda w, th, b=b: {k: v for k, v in w.items() if k != b}))
        out.append(Hypothesis(f"the {p} projection's bias ({table[b][0]}) added twice",
                              variant, "bias", extra_ops=1,
                              weights=lambda w, th, b=b: {**w, b: 2 * w[b]}))
    for name in ("W_gate", "W_up", "W_down"):
        if name not in w or not shapes_square:
            continue
        path, tr = table[name]
        flipped = _toggle(tr)
        if flipped is not None:
            out.append(Hypothesis(
                f"{path} used transposed", variant, "transposed",
                retable=lambda t, name=name: {**t, name: (t[name][0], _toggle(t[name][1]))}))
    for other in gated_variants:
        if other != variant and lookup(other)[1] == gated:
            out.append(Hypothesis(f"the activation {lookup(other)[0]} (the variant {other}), "
                                  f"not {act_name}", other, "activation"))
    out.append(Hypothesis("the residual added inside: it returns x + FFN(x)", variant,
                          "residual", residual=True, extra_ops=1))
    consts = dict(CONSTANTS.get(act_name, ()))
    for name, value in consts.items():
        out.append(Hypothesis(f"the {act_name} constant", variant, "constant",
                              fit=(name,), start=(value,), act=act_name))
    for where in SCALES:
        out.append(Hypothesis(f"a scale on the {where}", variant, "scale", fit=(where,),
                              start=(1.0,), extra_ops=1))
    if len(consts) > 1:
        names = tuple(consts)
        out.append(Hypothesis(f"the {act_name} constants", variant,
                              "constant", fit=names, start=tuple(consts.values()),
                              act=act_name))
    for pair in SCALE_PAIRS:
        out.append(Hypothesis(f"scales on the {pair[0]} and the {pair[1]}", variant,
                              "scale", fit=pair, start=(1.0, 1.0), extra_ops=2))
    return out


# ---------------------------------------------------------------- evaluation


def _weights(h, point, theta):
    from ffnverify.backends.variants import lookup
    from ffnverify.testing import layouts

    w = point.w if h.retable is None else layouts.read(point.module, h.retable(point.table))
    if h.weights is not None:
        w = h.weights(w, theta)
    if h.kind == "scale":
        gated = lookup(h.variant)[1]
        for where, s in zip(h.fit, theta):
            w = _scaled(w, where, s, gated)
    return w


def _forward_with(act, gated, w, x):
    def lin(p, inp):
        out = inp @ w[f"W_{p}"]
        return out + w[f"b_{p}"] if f"b_{p}" in w else out

    hidden = act(lin("gate", x)) * lin("up", x) if gated else act(lin("up", x))
    return lin("down", hidden)


def predict(h, point, theta, w=None):
    """The hypothesis' float64 output at `point`."""
    from ffnverify.backends import numpy_ffn
    from ffnverify.backends.variants import lookup

    w = _weights(h, point, theta) if w is None else w
    if h.kind == "constant":
        act = _param_act(h.act, dict(zip(h.fit, theta)))
        y = _forward_with(act, lookup(h.variant)[1], w, point.x)
    else:
        y = numpy_ffn.forward(h.variant, w, point.x)[0]
    return y + point.x if h.residual else y


def bound(h, point, theta, y_pred, w=None):
    """The float64 bound on |module − hypothesis| at `point`: the forward check's bound for
    the variant at the hypothesis' weights, plus one rounding of the result per added
    operation."""
    from ffnverify.backends import numpy_ffn
    from ffnverify.testing import tolerances

    w = _weights(h, point, theta) if w is None else w
    dy = np.zeros_like(point.x)
    ref = {"y": numpy_ffn.forward(h.variant, w, point.x)[0]}
    plain = tolerances.plain_errors(h.variant, w, point.x, dy, "float64", "cpu", ref)
    b = tolerances.bounds(h.variant, w, point.x, dy, "float64", plain)["y"]
    extra = h.extra_ops + (1 if h.residual else 0)
    return b + extra * U64 * (np.abs(y_pred) + np.abs(point.x))


FAR = 1e-6  # |module − hypothesis| above FAR·(1 + max|y|): far beyond any float64 bound
# at the probe shapes (those are ~1e-13 relative): rejected before the bound is computed


def _max_excess(h, points, theta):
    """(max |module − hypothesis| / bound, max |module − hypothesis|) over every point."""
    worst, err = 0.0, 0.0
    computed = []
    for p in points:  # first the outputs alone: most hypotheses are far off
        w = _weights(h, p, theta)
        y = predict(h, p, theta, w)
        if y.shape != p.y.shape:
            return np.inf, np.inf
        e = np.abs(p.y - y)
        if not np.all(np.isfinite(e)) or np.max(e, initial=0) > FAR * (1 + np.max(
                np.abs(p.y), initial=0)):
            return np.inf, float(np.max(e, initial=0))
        computed.append((p, w, y, e))
    for p, w, y, e in computed:
        b = bound(h, p, theta, y, w)
        worst = max(worst, float(np.max(e / np.maximum(b, np.finfo(float).tiny), initial=0)))
        err = max(err, float(np.max(e, initial=0.0)))
    return worst, err


def _residuals(h, points, theta):
    out = []
    for p in points:
        with np.errstate(all="ignore"):
            r = predict(h, p, theta) - p.y
        out.append(np.nan_to_num(r.ravel(), nan=1e300, posinf=1e300, neginf=-1e300))
    return np.concatenate(out)


def _fit(h, points):
    """Least-squares constants, or None when the fit is not near an exact match."""
    from scipy.optimize import least_squares

    try:
        sol = least_squares(lambda th: _residuals(h, points, th), np.array(h.start, float),
                            method="lm", xtol=1e-15, ftol=1e-15, gtol=1e-15,
                            max_nfev=400 * len(h.start))
    except (ValueError, FloatingPointError):
        return None
    theta = sol.x
    if not np.all(np.isfinite(theta)):
        return None
    scale = max(float(np.max(np.abs(p.y), initial=0.0)) for p in points) or 1.0
    if float(np.max(np.abs(_residuals(h, points, theta)), initial=0.0)) > 1e-8 * scale:
        return None
    return theta


def _shortest(h, points, theta):
    """The fewest significant digits of `theta` that still verify: (theta, error), or None."""
    for digits in range(1, 18):
        t = np.array([float(f"{v:.{digits}g}") for v in theta])
        excess, err = _max_excess(h, points, t)
        if excess <= 1:
            return t, err
    return None


def verify(h, points):
    """(theta, max error) when the hypothesis matches at every point, else None."""
    if not h.fit:
        excess, err = _max_excess(h, points, ())
        return ((), err) if excess <= 1 else None
    if sum(p.y.size for p in points) < MIN_OUTPUTS * (len(h.fit) + 1):
        return None  # too few numbers to pin the constants down
    theta = _fit(h, points)
    if theta is None:
        return None
    return _shortest(h, points, theta)


def _words(h, theta):
    if not h.fit:
        return h.what, {}
    fitted = {n: (float(v), float(s)) for n, v, s in zip(h.fit, theta, h.start)}
    if h.kind == "constant":
        parts = [f"{n} = {_fmt(v)} (correct {_fmt(s)})" for n, (v, s) in fitted.items()]
        return f"{h.what} {' and '.join(parts)}", fitted
    parts = [f"{SCALE_WORDS[n]} scaled by {_fmt(v)}" for n, (v, _) in fitted.items()]
    return " and ".join(parts), fitted


def _neutral(h, theta):
    """Whether a fitted constant sits at its untransformed value (a scale of 1): the
    hypothesis is then a simpler one in disguise."""
    return any(float(v) == float(s) for v, s in zip(theta, h.start))


def _digits(v):
    """Significant digits of a reported constant (as printed)."""
    mantissa = f"{float(v):.12g}".lstrip("-").split("e")[0].replace(".", "")
    return len(mantissa.strip("0")) or 1


def _longest(diagnoses):
    return max((_digits(v) for d in diagnoses for v, _ in d.fitted.values()), default=0)


def diagnose(points, variant, layout, table, variants=None, levels=(0, 1, 2),
             beside=(1, 2)):
    """[Diagnosis] for a module failing `variant` read through `table`: every hypothesis of
    the fewest fitted constants (among `levels`) that matches at every point (empty: no
    diagnosis fits); and beside them, the scale hypotheses with more constants (among
    `beside`) that match too with every scale away from 1 and written in no more digits
    than the simplest answer's: the same function reached as a config reaches it
    (FalconH1's mlp_multipliers (0.5, 2) are silu's beta = 0.5), which the numbers cannot
    tell apart (quick-GELU's 1.7 is also a gate scale 0.998824911868: longer, not listed)."""
    from derivations.variants import VARIANTS

    points = [p for p in points if p.y.size]
    if not points or sum(p.y.size for p in points) < MIN_OUTPUTS:
        return []
    from ffnverify.testing import layouts

    for p in points:
        if p.w is None:
            p.w = layouts.read(p.module, p.table)
    base = Hypothesis("nothing changed", variant, "none")
    if _max_excess(base, points, ())[0] <= 1:
        return []  # it computes `variant`: nothing to diagnose in float64
    square = all(p.x.shape[1] == p.w["W_up"].shape[1] for p in points)
    found = {}
    alike = []
    for h in hypotheses(variant, table, points[0].w, list(variants or VARIANTS),
                        square):
        simpler = found and min(found) < len(h.fit)
        if simpler and not (h.kind == "scale" and len(h.fit) in beside
                            and _longest(found[min(found)])):
            continue  # a simpler explanation already fits
        if not simpler and len(h.fit) not in levels:
            continue
        try:
            got = verify(h, points)
        except (KeyError, ValueError, IndexError, RuntimeError):
            got = None
        if got is None or (simpler and (_neutral(h, got[0]) or max(
                map(_digits, got[0])) > _longest(found[min(found)]))):
            continue
        theta, err = got
        what, fitted = _words(h, theta)
        d = Diagnosis(h.variant, layout, what, h.kind, err,
                      sum(p.y.size for p in points), fitted)
        (alike if simpler else found.setdefault(len(h.fit), [])).append(d)
    return found[min(found)] + alike if found else []


# ---------------------------------------------------------------- points from the kit


def points_for(module64, case, x64, square=False, fills=1):
    """Points for a failing case: the failing input and probe-scale inputs on the module
    itself, and a fresh build at the probe shape (square when `square` or the case is:
    a transposed weight shows only there), filled from another seed."""
    import dataclasses

    import torch

    from ffnverify.testing import auto_layout
    from ffnverify.testing import checks as C

    pts = []

    def add(c, module, x):
        try:
            with torch.no_grad():
                y = C._call(module, torch.as_tensor(x, device=c.device), c, "diagnosis")
        except Exception:  # a diagnosis never masks the failure it explains
            return
        pts.append(Point(module, C._table(c), x, C._to_numpy(y)))

    rng = np.random.default_rng([case.seed, 7])
    if module64 is not None:
        add(case, module64, x64)
        add(case, module64, PROBE_SCALE * rng.standard_normal((PROBE_TOKENS, case.d)))
    d, h = auto_layout.probe_shapes(case.shapes)
    if square or case.d == case.h:
        h = d
    probe = dataclasses.replace(case, d=d, h=h, notes=set())
    for _ in range(fills):
        try:
            module = C._build(probe)
            C.fill(module, probe, rng)
        except Exception:
            return pts
        add(probe, module, PROBE_SCALE * rng.standard_normal((PROBE_TOKENS, d)))
    return pts


def level(diagnoses):
    """How many constants the diagnoses fitted (the fewer, the simpler)."""
    return min((len(d.fitted) for d in diagnoses), default=None)
