"""`identify_ffn(factory)`: what does this FFN module compute? (`ffnverify identify TARGET`
is its command, ffnverify/cli/identify.py.)

The module is built at a probe shape, filled with drawn weights, and run in float64; its
output is compared with the float64 NumPy reference of every row of the variant table
(`derivations.variants.VARIANTS`) read through every built-in layout its parameters fit.
The answer is the (variant, layout) whose reference is closest, with the measured distance
to it and to the runner-up. It is a match only when every output element lies within the
kit's float64 rounding-error bound (`tolerances.bounds`, the same bound the forward check
uses); otherwise the answer is "none of the variants", with the closest, and the
diagnoses (`diagnose`) that fit every drawn point exactly: what the module computes
instead (gate and up swapped, a bias unused, a constant off, a scale, ...).

Inputs are drawn at scale `PROBE_SCALE`, so pre-activations reach the region where the
activations differ most (exact vs tanh GELU differ by up to 5e-4 around |z| = 2; relu
and relu² everywhere above 0; a gate in the first or the second chunk everywhere).
"""

from dataclasses import dataclass, field

import numpy as np

PROBE_SCALE = 3.0  # inputs N(0, 9): pre-activations spread over [-10, 10]
PROBE_TOKENS = 16


@dataclass
class Candidate:
    variant: str
    layout: str
    error: float  # max |module − reference| over the output
    within: bool  # every element within the float64 bound
    activation: str = ""


@dataclass
class Identification:
    """What `identify_ffn` found: `best` (None when nothing matched), the runner-up, all."""

    d: int
    h: int
    bias: dict  # projection -> has a bias (of the best layout)
    best: Candidate | None
    runner_up: Candidate | None
    closest: Candidate | None
    ranked: list = field(default_factory=list)
    diagnoses: list = field(default_factory=list)  # diagnose.Diagnosis, when nothing matched

    @property
    def variant(self):
        return self.best.variant if self.best else None

    @property
    def layout(self):
        return (self.best or self.closest).layout if (self.best or self.closest) else None

    def summary(self):
        bias = ", ".join(p for p, b in self.bias.items() if b) or "none"
        second = ""
        if self.runner_up is not None:
            r = self.runner_up
            second = f"; runner-up {r.variant} ({r.layout}): max error {r.error:.2g}"
        if self.best is None:
            c = self.closest
            if c is None:
                return f"none of the variants: no built-in layout fits (d={self.d}, h={self.h})"
            from ffnverify.testing.results import explain

            return "\n".join([
                f"none of the variants (d={self.d}, h={self.h}); closest {c.variant} "
                f"({c.layout}): max error {c.error:.2g}, beyond the float64 bound{second}",
                *explain(self.diagnoses)])
        b = self.best
        return (f"variant {b.variant} (activation {b.activation}), layout {b.layout}, biases: "
                f"{bias}; max error {b.error:.2g} (within the float64 bound){second}")

    def as_dict(self):
        def cand(c):
            return None if c is None else {"variant": c.variant, "layout": c.layout,
                                           "activation": c.activation, "error": c.error,
                                           "within_bound": c.within}
        return {"d": self.d, "h": self.h, "bias": self.bias, "best": cand(self.best),
                "runner_up": cand(self.runner_up), "closest": cand(self.closest),
                "diagnoses": [{"variant": d.variant, "layout": d.layout, "what": d.what,
                               "kind": d.kind, "error": d.error,
                               "fitted": {k: v[0] for k, v in d.fitted.items()}}
                              for d in self.diagnoses]}


def _bias_pattern(module, table):
    from ffnverify.testing import layouts

    return {p: layouts.resolve(module, table[f"b_{p}"][0]) is not None
            for p in ("gate", "up", "down") if f"b_{p}" in table}


def _fits(module, table, variant, d, h, ignore):
    """The table reads the module: its weights exist with the derived shapes, the biases
    that exist have theirs, and every parameter is read."""
    import torch

    from derivations.params import weight_shapes
    from ffnverify.testing import layouts

    shapes = {k: tuple(int(s) for s in v)
              for k, v in weight_shapes(variant, d, h, True).items()}
    covered = set()
    for name, shape in shapes.items():
        if name not in table:  # an experts layout without biases
            if name.startswith("W_"):
                return False
            continue
        path, transform = table[name]
        t = layouts.resolve(module, path)
        if t is None:
            if name.startswith("W_"):
                return False
            continue
        if not isinstance(t, torch.Tensor):
            return False
        try:
            if tuple(layouts.apply_transform(transform, t.detach()).shape) != shape:
                return False
        except (ValueError, IndexError, RuntimeError):
            return False
        covered.add(path)
    return all(k in covered or ignore(k) for k, _ in module.named_parameters())


def _tables(gated, layout, experts=None, h=None):
    """{layout name: table} to try: every built-in one (layout None; the experts layouts
    for expert `experts` where given), the named one, or a mapping (where its gate entry
    says it is gated or not)."""
    from ffnverify.testing import layouts

    builtin = dict(layouts._GATED if gated else layouts._PLAIN)
    if gated and (experts is not None
                  or (isinstance(layout, str) and layout in layouts._EXPERTS)):
        builtin.update({n: layouts.expert_table(n, experts or 0, h)
                        for n in layouts._EXPERTS})
    if layout is None or layout == "auto":
        return builtin
    if isinstance(layout, str):
        layout = layouts.parse(layout)
    if isinstance(layout, dict):
        return {"mapping": dict(layout)} if ("W_gate" in layout) == gated else {}
    return {layout: builtin[layout]} if layout in builtin else {}


def rank(module_factory, d, h, bias, call=None, extra_params=(), seed=0, variants=None,
         target=None, command=None, layout=None, experts=None):
    """[Candidate] over every variant × fitting layout, closest first."""
    import torch

    from derivations.variants import VARIANTS
    from ffnverify.backends.variants import lookup
    from ffnverify.testing import checks as C
    from ffnverify.testing import layouts, tolerances
    from ffnverify.testing import results as R

    out = []
    names = list(variants or VARIANTS)
    for variant in names:
        gated = lookup(variant)[1]
        case = R.Case(module_factory, variant, "hf", bool(bias), d, h, PROBE_TOKENS, seed,
                      "cpu", target, call=call, extra=tuple(extra_params), command=command,
                      expert=experts)
        module = C._build(case)
        for lname, table in _tables(gated, layout, experts, h).items():
            case.layout = table if lname == "mapping" else lname
            if not _fits(module, table, variant, d, h, lambda p, c=case: C._outside(p, c)):
                continue
            rng = np.random.default_rng(seed)
            C.fill(module, case, rng)
            w = layouts.read(module, table)
            x = PROBE_SCALE * rng.standard_normal((PROBE_TOKENS, d))
            dy = rng.standard_normal((PROBE_TOKENS, d))
            with torch.no_grad():
                y = C._to_numpy(C._call(module, torch.as_tensor(x), case, "identify"))
            ref = C._reference(variant, w, x, dy)
            if y.shape != ref["y"].shape:
                continue
            plain = tolerances.plain_errors(variant, w, x, dy, "float64", "cpu", ref)
            bound = tolerances.bounds(variant, w, x, dy, "float64", plain)["y"]
            err = np.abs(y - ref["y"])
            out.append(Candidate(variant, lname, float(np.max(err, initial=0.0)),
                                 bool(np.all(err <= bound)), VARIANTS[variant].activation))
    out.sort(key=lambda c: (not c.within, c.error))
    return out, module


def identify_ffn(factory, d=None, h=None, bias=None, call=None, extra_params=(),
                 d_multiple_of=None, h_of=None, seed=0, target=None, layout=None,
                 experts=None):
    """What `factory(d, h, bias)` computes: an Identification (`.summary()` says it).

    `bias` None tries bias=True first (a module without a bias option ignores it), then
    False; shapes as in check_ffn (`d_multiple_of`, `h_of(d)`, fixed `d`, `h`); `layout`
    None tries every built-in layout, else only the one named (or the mapping given)."""
    if layout is not None and not isinstance(layout, (str, dict)):
        raise ValueError(f"layout must be a name or a mapping, not {type(layout).__name__}")
    from ffnverify.testing import auto_layout
    from ffnverify.testing import checks as C
    from ffnverify.testing import results as R

    pd, ph = auto_layout.probe_shapes({"d": d, "h": h, "d_multiple_of": d_multiple_of, "h_of": h_of})
    settings = (True, False) if bias is None else (bool(bias),)
    target = target or R._target_of(factory)
    last = None
    for b in settings:
        try:
            ranked, module = rank(factory, pd, ph, b, call, extra_params, seed,
                                  target=target, layout=layout, experts=experts,
                                  command=reproducer(
                                      factory, target, pd, ph, b, call, extra_params,
                                      layout))
        except R.ConformanceFailure as exc:
            last = exc
            continue
        if not ranked:
            continue
        best = ranked[0] if ranked[0].within else None
        others = [c for c in ranked if best is None or (c.variant, c.layout) != (
            best.variant, best.layout)]
        # the runner-up: the closest *other variant* (another chunk order of the same
        # variant, e.g. a symmetric bilinear, is no competitor)
        runner = next((c for c in others if best is None or c.variant != best.variant), None)
        top = best or ranked[0]
        table = _tables(C.lookup(top.variant)[1], layout, experts, ph)[top.layout]
        found = Identification(pd, ph, _bias_pattern(module, table), best,
                               runner if best else (ranked[1] if len(ranked) > 1 else None),
                               None if best else ranked[0], ranked)
        if best is None:
            found.diagnoses = _diagnose(factory, ranked, pd, ph, b, call, extra_params,
                                        seed, target, layout, experts)
        return found
    if last is not None:
        if "forward raised" in last.message and pd != ph and h is None and h_of is None:
            _square_diagnosis(last, factory, pd, settings[-1], call, extra_params, seed,
                              target, layout, experts)
        raise last
    return Identification(pd, ph, {}, None, None, None, [])


def _square_diagnosis(failure, factory, d, bias, call, extra_params, seed, target, layout,
                      experts):
    """A forward that raises at d != h may run at d = h (a weight used transposed): the
    diagnoses found there, attached to the failure."""
    try:
        ranked, _ = rank(factory, d, d, bias, call, extra_params, seed, target=target,
                         layout=layout, experts=experts)
    except Exception:
        return
    if ranked and not ranked[0].within:
        failure.diagnoses = _diagnose(factory, ranked, d, d, bias, call, extra_params, seed,
                                      target, layout, experts)
        if failure.diagnoses:
            failure.message += f" (it runs at d = h = {d}, where:)"
        failure.args = (failure.report(),)


def reproducer(factory, target, d, h, bias, call=None, extra_params=(), layout=None):
    """The identify run of one probe build, as a command that runs as printed."""
    import shlex

    from ffnverify.testing.results import _cli_layout, _importable

    where = _importable(call)
    cli_layout = None if layout is None else _cli_layout(layout)
    if target and (call is None or where) and (layout is None or cli_layout):
        more = f" --call {where}" if where else ""
        if cli_layout:
            more += f" --layout {cli_layout}"
        if extra_params:
            more += " --extra-params " + " ".join(shlex.quote(e) for e in extra_params)
        return (f"ffnverify identify {target} --d {d} --h {h} --bias {str(bias).lower()}"
                f"{more}")
    imports = ["from ffnverify.testing import identify_ffn"]
    name = getattr(factory, "__qualname__", "factory")
    args = []
    if target:
        mod, _, name = target.partition(":")
        imports.append(f"from {mod} import {name.split('.')[0]}")
    if call is not None:
        if where:
            mod, _, qual = where.partition(":")
            imports.append(f"from {mod} import {qual.split('.')[0]}")
        args.append(f"call={(where or '').partition(':')[2] or getattr(call, '__qualname__', 'call')}")
    if extra_params:
        args.append(f"extra_params={tuple(extra_params)!r}")
    if layout is not None:
        args.append(f"layout={layout!r}")
    more = "".join(", " + a for a in args)
    return (f"python -c \"{'; '.join(imports)}; print(identify_ffn({name}, d={d}, h={h}, "
            f"bias={bias}{more}).summary())\"")


def _diagnose(factory, ranked, d, h, bias, call, extra_params, seed, target, layout,
              experts=None):
    """The simplest diagnoses over every (variant, layout) that reads the module (a
    neighbouring activation is the ranking's business, not a diagnosis here)."""
    from ffnverify.testing import checks as C
    from ffnverify.testing import diagnose
    from ffnverify.testing import results as R

    prepared = []
    for c in ranked:
        lay = _tables(C.lookup(c.variant)[1], layout, experts, h)[c.layout]
        case = R.Case(factory, c.variant, lay if c.layout == "mapping" else c.layout,
                      bool(bias), d, h, PROBE_TOKENS, seed,
                      "cpu", target, call=call, extra=tuple(extra_params),
                      shapes={"d": d, "h": h}, expert=experts)
        try:
            with C._kit_settings("cpu"):
                prepared.append((c, case, diagnose.points_for(None, case, None, fills=2)))
        except Exception:  # a diagnosis never masks the answer
            continue
    for level in (0, 1, 2):  # every candidate at one level before any at the next
        found = []
        for c, case, points in prepared:
            try:
                with C._kit_settings("cpu"):
                    found += diagnose.diagnose(points, c.variant, c.layout, C._table(case),
                                               variants=[c.variant], levels=(level,))
            except Exception:
                continue
        if found:
            return found
    return []

