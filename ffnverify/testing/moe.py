"""MoE blocks checked whole, through their routing: `check_moe(factory, variant, top_k)`.

The module is a sparse mixture of experts (litgpt's LLaMAMoE, transformers'
MixtralSparseMoeBlock and Qwen3MoeSparseMoeBlock): a router weight Wr (E×d) and E experts,
each an FFN of `variant`. Its reference, computed in float64 NumPy from the module's own
(dtype-rounded) weights, is, for each token x:

    logits l = Wr·x;  S = the top_k experts by l;  y = Σ_{e∈S} g_e · expert_e(x)

with the gate weights g of one of the GATINGS: softmax over the top-k logits
("renormalised": Mixtral, litgpt, Qwen3-MoE with norm_topk_prob) or the softmax over all
experts taken at the top k ("softmax": Qwen2/3-MoE without norm_topk_prob, OLMoE). The
gating is a property the kit identifies (`gating="auto"`, reported), or a statement it
checks (`gating="renormalised"`).

Bounds (rounding-error reasoning, first order, as `tolerances`): each expert's output
error is the kit's FFN bound B_e (`tolerances.bounds`); the logits' error e_l is that of a
length-d inner product accumulated in the dtype's accumulation precision and rounded once;
a gate weight g_i = exp(l_i)/Σ_j exp(l_j) moves by g_i·(e_l_i + Σ_j g_j·e_l_j) under logit
errors, plus gate_roundings(E, k) roundings (each exp, the sums, the divisions of the
longest form: softmax over E, then renormalised over k) at float32's unit roundoff or the
dtype's, whichever is larger (every real router computes its softmax in float32, even in a
float64 block: the float64 check judges the gates at float32 accuracy), and a cast of the
logits to that precision; each product g·expert and
each of the k additions rounds once in the dtype. The float64 reference's own error is
added the same way.

Ties: the module's selection equals the reference's only when the k-th and (k+1)-th
largest logits are further apart than both logits' errors plus the rounding of the
probabilities the selection may compare ((E+2) roundings each); a token closer than that
cannot be judged in that dtype and is left out of the comparison, counted in the report
("tie tokens"). A draw whose every dtype is tied or vacuous (`tolerances.VACUITY_RATIO`)
is discarded. Never a false failure from a tie.

A failure in float64 is diagnosed: the hypotheses a reviewer would try on a router (top-k
off by one, two experts swapped, the gate weight applied twice or never, the other
gating) are checked at every drawn point (the failing draw, and a fresh build at the probe
shape with inputs of scale 3) within the float64 bound, and those that fit are reported.

Gradients (`moe_grad`, whose docstring derives the bound): in every dtype judged, the
gradients of sum(y·gy) for a drawn cotangent gy (zero on the tie tokens) with respect to
the input, the router weight and every expert's weights, from the module's autograd,
against an analytic float64 reference (each expert's J^T and weight gradients by the NumPy
FFN backward at the cotangent g_e·gy; the gating term through the softmax Jacobian of the
gating); a tensor whose bound is not far below its values in a dtype is left out there
(counted). A failure names every wrong tensor (the input, the router, expert i's W_gate).

Checked: parameters (E experts' and the router's, every parameter read), the forward
output per dtype, the gradients (a shared expert's and its gate's too), and the matmul
FLOPs (`moe_costs.check_flops`, at PROBE in float64 on inputs with no top-k tie): one
forward, and one forward + backward, counted under FlopCounterMode, must equal the exact
routed count (the router's 2·E·d per token, each expert's FFN on the tokens routed to it)
as integers; dense compute (every expert on every token) is named. Where FlopCounterMode
itself fails on the block, the FLOPs are not judged and the report says so. Reported: the
router's parameters and matmul FLOPs per token apart from the experts' (`moe_costs.costs`).
Not checked here: train mode (routers add jitter noise there); `check_ffn(...,
experts=i)` checks each expert alone, with its FLOPs.
"""

import copy
import dataclasses
import time
from dataclasses import dataclass, field

import numpy as np
import torch

from ffnverify.backends.variants import lookup
from ffnverify.testing import layouts, moe_costs, moe_grad
from ffnverify.testing.checks import _build, _kit_settings, _to_numpy
from ffnverify.testing.moe_layout import check_params, fill, resolve_layout
from ffnverify.testing.moe_reference import (  # noqa: F401 (ties: re-exported for tests)
    DEFAULT_MAX_EXAMPLES,
    GATINGS,
    MAX_D,
    MAX_H,
    MAX_N,
    MOE_LAYOUTS,
    PROBE_SCALE,
    PROBE_TOKENS,
    SHARED,
    SHARED_WORDS,
    Routing,
    Weights,
    expert_tables,
    read_weights,
    reference,
    shared_table,
    ties,
    vacuity_ratio,
)
from ffnverify.testing.results import DTYPES, Case, ConformanceFailure, ToolFailure, Vacuous


def _call(module, x):
    """The block's forward on (1, n, d) (MoE blocks take batch × sequence × d); a tuple
    return (transformers 4's (hidden, router_logits)) is read as its first item."""
    out = module(x.unsqueeze(0))
    if isinstance(out, (tuple, list)):
        out = out[0]
    return out.reshape(x.shape)


def _run(module, x, case, dtype):
    try:
        with torch.no_grad():
            return _to_numpy(_call(module, x))
    except Exception as exc:
        raise ConformanceFailure("moe-forward", f"the module's forward raised "
                                 f"{type(exc).__name__}: {exc} (input (1, {x.shape[0]}, "
                                 f"{x.shape[1]}), {x.dtype})", dtype=dtype, case=case) from exc


# ---------------------------------------------------------------- one case


@dataclass
class Outcome:
    """What one drawn case did: dtypes left out as vacuous, tokens left out as ties."""

    skipped: list = field(default_factory=list)
    tie_tokens: int = 0
    compared: int = 0
    grads: int = 0  # (gradient tensor, dtype) compared
    grads_vacuous: int = 0  # (gradient tensor, dtype) left out as vacuous
    worst: dict = field(default_factory=dict)  # largest error / bound per gradient kind
    tally: dict = field(default_factory=dict)  # [compared, vacuous] per (dtype, kind)


def _compare(y, ref, bound, keep, case, dtype, routing):
    err = np.abs(y - ref)
    err = np.where(np.isfinite(y), err, np.inf)
    excess = err / np.maximum(bound, np.finfo(float).tiny)
    excess[~keep] = 0.0
    excess[np.isnan(excess)] = np.inf
    if not np.any(excess > 1):
        return
    idx = np.unravel_index(int(np.argmax(excess)), err.shape)
    raise ConformanceFailure(
        "moe-forward", f"the routed output (top {routing.top_k}, gates {routing.gating}) "
        "differs from the float64 reference beyond the bound", dtype=dtype, tensor="y",
        index=tuple(int(i) for i in idx), got=float(y[idx]), expected=float(ref[idx]),
        error=float(err[idx]), bound=float(bound[idx]), scale=float(np.max(np.abs(ref))),
        case=case)


def run_case(case, routing, dtypes=DTYPES):
    """Check one drawn case (ConformanceFailure, or Vacuous when nothing could be judged)."""
    rng = np.random.default_rng(case.seed)
    module64 = _build(case)
    router = layouts.resolve(module64, MOE_LAYOUTS[case.layout][0])
    E = int(router.shape[0]) if isinstance(router, torch.Tensor) else 0
    check_params(module64, case, E)
    fill(module64, case, rng)
    x64 = rng.standard_normal((case.n, case.d))
    gy64 = rng.standard_normal((case.n, case.d))  # the cotangent of the gradient check
    out = Outcome()
    judged = False
    try:
        for dtype in dtypes:
            tdt = getattr(torch, dtype)
            module = copy.deepcopy(module64).to(tdt)
            w = read_weights(module, case.layout, case.variant, case.h)
            xt = torch.as_tensor(x64).to(tdt)
            x = _to_numpy(xt)
            ref, bound, tied = reference(case.variant, w, x, routing, dtype, case.device)
            keep = np.broadcast_to(~tied[:, None], ref.shape)
            signal = float(np.max(np.abs(ref[~tied]), initial=0.0))
            worst = float(np.max(bound[~tied], initial=0.0))
            out.tie_tokens += int(tied.sum())
            if not tied.all() and not (0 < signal and worst <= vacuity_ratio(dtype) * signal):
                out.skipped.append(dtype)
                continue
            if tied.all():
                continue
            y = _run(module, xt.to(case.device), case, dtype)
            if y.shape != ref.shape:
                raise ConformanceFailure("moe-forward", f"output shape {y.shape}, expected "
                                         f"{ref.shape}", dtype=dtype, case=case)
            _compare(y, ref, bound, keep, case, dtype, routing)
            judged = True
            out.compared += int((~tied).sum())
            gy = _to_numpy(torch.as_tensor(gy64).to(tdt)) * ~tied[:, None]
            done, left = moe_grad.check_grads(module, _call, case, w, xt.to(case.device), gy,
                                              routing, dtype, out.worst, out.tally)
            out.grads, out.grads_vacuous = out.grads + done, out.grads_vacuous + left
    except ConformanceFailure as failure:
        failure.context = (module64, x64)
        raise
    if not judged:
        raise Vacuous(f"every dtype tied or vacuous for d={case.d} h={case.h} n={case.n}")
    return out


# ---------------------------------------------------------------- diagnosis


@dataclass
class Point:
    module: object
    weights: Weights
    x: np.ndarray
    y: np.ndarray


def _points(case, module64, x64, fills=2):
    """The failing draw, and fresh builds at the probe shape (inputs of scale 3)."""
    pts = []

    def add(c, module, x):
        try:
            y = _run(module, torch.as_tensor(x), c, "float64")
        except ConformanceFailure:
            return
        pts.append(Point(module, read_weights(module, c.layout, c.variant, c.h), x, y))

    rng = np.random.default_rng([case.seed, 7])
    if module64 is not None:
        add(case, module64, x64)
    probe = dataclasses.replace(case, d=6, h=15)
    for _ in range(fills):
        try:
            module = _build(probe)
            fill(module, probe, rng)
        except Exception:
            break
        add(probe, module, PROBE_SCALE * rng.standard_normal((PROBE_TOKENS, probe.d)))
    return pts


def matches(routing, points, variant):
    """Max |module − reference| / float64 bound over the untied tokens of every point
    (inf where a point has no untied token)."""
    worst = 0.0
    for p in points:
        y, b, tied = reference(variant, p.weights, p.x, routing, "float64")
        if tied.all():
            return np.inf
        e = np.abs(p.y - y)[~tied] / np.maximum(b[~tied], np.finfo(float).tiny)
        worst = max(worst, float(np.max(e, initial=0.0)))
    return worst


def hypotheses(routing, E, gatings, points_shared=False):
    """(words, Routing) a reviewer would try for a block stated to route as `routing`."""
    k = routing.top_k
    out = []
    for other in GATINGS:  # the other gating: always a hypothesis
        if other != routing.gating:
            out.append((f"the gate weights are {GATINGS[other]}, not {GATINGS[routing.gating]}",
                        dataclasses.replace(routing, gating=other)))
    for kk in (k - 1, k + 1):
        if 1 <= kk <= E:
            for gating in gatings:
                out.append((f"top-k off by one: each token goes to {kk} expert"
                            f"{'s' if kk > 1 else ''}, not {k} "
                            f"(gates {gating})", Routing(kk, gating)))
    for power, words in ((2, "the gate weight applied twice (g², not g)"),
                         (0, "the gate weight never applied (each expert's output added "
                             "with weight 1)")):
        for gating in gatings:
            out.append((f"{words} (gates {gating})",
                        dataclasses.replace(routing, gating=gating, power=power)))
    if points_shared:
        for how in ("ungated", "none"):
            for gating in gatings:
                out.append((f"the shared expert {SHARED_WORDS[how]}, not "
                            f"{SHARED_WORDS[routing.shared]} (gates {gating})",
                            dataclasses.replace(routing, gating=gating, shared=how)))
    for i in range(E):
        for j in range(i + 1, E):
            perm = list(range(E))
            perm[i], perm[j] = j, i
            for gating in gatings:
                out.append((f"experts {i} and {j} swapped: the token routed to expert {i} "
                            f"gets expert {j}'s output, and the reverse (gates {gating})",
                            dataclasses.replace(routing, gating=gating, perm=tuple(perm))))
    return out


def diagnose(points, variant, routing, gatings):
    """[words] of every hypothesis that matches at every point (none when the stated
    routing matches in float64: nothing to diagnose there)."""
    if not points or matches(routing, points, variant) <= 1:
        return []
    E = len(points[0].weights.experts)
    shared = points[0].weights.shared is not None
    return [words for words, r in hypotheses(routing, E, gatings, shared)
            if matches(r, points, variant) <= 1]


@dataclass
class RoutingDiagnosis:
    """A routing hypothesis that matched at every drawn point (as diagnose.Diagnosis)."""

    variant: str
    layout: str
    what: str
    kind: str = "routing"
    fitted: dict = field(default_factory=dict)

    def text(self):
        return (f"the block computes {self.what}: it then matches at every drawn point "
                "(untied tokens, within the float64 bound)")


# ---------------------------------------------------------------- the report and driver


PROBE = (6, 15, PROBE_TOKENS)  # (d, h, n) of the report's costs and FLOPs counted


@dataclass
class MoEReport:
    """What a passing `check_moe` run did."""

    variant: str
    layout: str
    top_k: int
    experts: int
    gating: str
    gating_note: str = ""
    examples: int = 0
    discarded: int = 0  # draws with nothing to judge (every dtype tied or vacuous)
    skipped: int = 0  # (draw, dtype) runs left out as vacuous
    tie_tokens: int = 0  # (token, dtype) left out as top-k ties
    compared: int = 0  # (token, dtype) compared
    dtypes: tuple = ()
    seconds: float = 0.0
    grads: int = 0  # (gradient tensor, dtype) compared: x, the router, each expert weight
    grads_vacuous: int = 0  # (gradient tensor, dtype) left out as vacuous
    grad_worst: float = 0.0  # the largest gradient error / bound seen
    shared: bool = False  # a shared expert (its costs counted with the experts')
    counted: tuple = ()  # (router, the rest) matmul FLOPs of one forward at PROBE (d, h, n)
    counted_train: tuple = ()  # the same of one forward + backward
    flops_note: str = ""  # why the routed FLOPs were not judged (empty: judged, exact)
    grad_tally: dict = field(default_factory=dict)  # [compared, vacuous] per (dtype, kind)

    def not_checkable(self):
        """{dtype: [gradient kind]} never compared in that dtype (moe_grad.not_checkable):
        the summary names them; a pass says nothing of them."""
        return moe_grad.not_checkable(self.grad_tally)

    def costs(self, d, h):
        """{name: exact int}: the router's and the experts' parameters and FLOPs."""
        return moe_costs.costs(self.variant, self.experts, self.top_k, d, h,
                               shared=self.shared)

    def summary(self):
        d, h, n = PROBE
        c = self.costs(d, h)
        unchecked = moe_grad.not_checkable_text(self.grad_tally)
        grads = (f"moe-backward ({self.grads} tensor-dtype gradients compared, largest "
                 f"error {self.grad_worst:.2g} of the bound, {self.grads_vacuous} vacuous"
                 f"{'; ' + unchecked if unchecked else ''})")
        return (f"conformant MoE block: {self.experts} experts of {self.variant}, layout "
                f"{self.layout}, top {self.top_k}, gate weights {self.gating} "
                f"({GATINGS[self.gating]}{'; ' + self.gating_note if self.gating_note else ''}"
                f"); checks params, moe-forward, {grads}; dtypes {', '.join(self.dtypes)}; "
                f"{self.examples} examples, {self.compared} token-dtype outputs compared, "
                f"{self.tie_tokens} left out as top-k ties, {self.skipped} example-dtype runs "
                f"vacuous, {self.discarded} draws discarded; at d={d}, h={h}: router "
                f"{c['router params']} parameters, {c['router FLOPs per token']} matmul FLOPs "
                f"per token; experts {c['expert params']} parameters, "
                f"{c['expert FLOPs per token']} matmul FLOPs per token ({self.top_k} routed"
                f"{' and the shared one' if self.shared else ''})"
                + (f"; moe-flops: counted over {n} tokens, exactly the routed count: "
                   f"router {self.counted[0]}, the rest {self.counted[1]} (forward), router "
                   f"{self.counted_train[0]}, the rest {self.counted_train[1]} (forward + "
                   f"backward)" if self.counted else f"; {self.flops_note}")
                + f"; {self.seconds:.1f} s")


def _case(factory, variant, layout, bias, d, h, n, seed, device, target, extra, routing):
    c = Case(factory, variant, layout, bias, d, h, n, seed, device, target,
             extra=tuple(extra), shapes={})
    c.command = _reproducer(c, routing)
    return c


def _reproducer(c, routing, dtype=None):
    from ffnverify.testing.results import _importable

    where = _importable(c.factory)
    imports = ["from ffnverify.testing.moe import check_moe_example"]
    name = getattr(c.factory, "__qualname__", "factory")
    if where:
        mod, _, name = where.partition(":")
        imports.append(f"from {mod} import {name.split('.')[0]}")
    extra = f", extra_params={c.extra!r}" if c.extra else ""
    return (f"python -c \"{'; '.join(imports)}; check_moe_example({name}, {c.variant!r}, "
            f"top_k={routing.top_k}, gating={routing.gating!r}, layout={c.layout!r}, "
            f"bias={c.bias!r}, d={c.d}, h={c.h}, n={c.n}, seed={c.seed}{extra})\"")


def _diagnosed(failure, routing, gatings):
    ctx, failure.context = failure.context, None
    case = failure.case
    if case is not None and failure.check == "moe-forward":
        module64, x64 = ctx or (None, None)
        try:
            with _kit_settings(case.device):
                found = diagnose(_points(case, module64, x64), case.variant, routing, gatings)
        except Exception:  # a diagnosis never masks the failure
            found = []
        failure.diagnoses = [RoutingDiagnosis(case.variant, case.layout, w) for w in found]
    failure.args = (failure.report(),)
    return failure.with_traceback(None)


def resolve_gating(factory, variant, top_k, layout, bias, device, extra, target, gating):
    """(layout, gating, note): the layout, and the gating under which a float64 probe
    matches (gating "auto"; both match only when top_k = E, where they agree)."""
    probe = Case(factory, variant, "litgpt-moe", bias, 6, 15, PROBE_TOKENS, 0, device, target,
                 extra=tuple(extra), shapes={})
    module = _build(probe)
    if layout == "auto":
        layout = resolve_layout(module, variant, 6, 15, bias, extra)
    probe.layout = layout
    if gating != "auto":
        if gating not in GATINGS:
            raise ValueError(f"unknown gating {gating!r}; choose from auto, "
                             f"{', '.join(GATINGS)}")
        return layout, gating, ""
    fill(module, probe, np.random.default_rng(0))
    x = PROBE_SCALE * np.random.default_rng(1).standard_normal((PROBE_TOKENS, 6))
    point = Point(module, read_weights(module, layout, variant, 15), x,
                  _run(module, torch.as_tensor(x), probe, "float64"))
    fit = [g for g in GATINGS if matches(Routing(top_k, g), [point], variant) <= 1]
    E = len(point.weights.experts)
    if fit:
        note = ("identified (a float64 probe)" if len(fit) == 1 else
                f"top_k = E = {E}: every gating gives the same weights")
        return layout, fit[0], note
    return layout, None, ""


def _drawn(hsettings, given, st, reject, one_case, counts, b):
    """The Hypothesis test of one bias setting: d, h, n and the values' seed drawn."""
    @hsettings
    @given(st.integers(1, MAX_D), st.integers(1, MAX_H), st.integers(1, MAX_N),
           st.integers(0, 2**32 - 1))
    def drawn(d, h, n, s):
        try:
            one_case(b, d, h, n, s)
        except Vacuous:
            counts["vacuous"] += 1
            reject()

    return drawn


def check_moe(factory, variant, top_k, gating="auto", layout="auto", bias=False,
              device="cpu", dtypes=DTYPES, max_examples=DEFAULT_MAX_EXAMPLES, seed=None,
              extra_params=(), target=None):
    """Check an MoE block `factory(d, h, bias)` whole against the routed float64 reference
    (module docstring); return an MoEReport, or raise ConformanceFailure (diagnosed)."""
    __tracebackhide__ = True
    from hypothesis import HealthCheck, Phase, given, reject, settings
    from hypothesis import seed as hseed
    from hypothesis import strategies as st

    from ffnverify.testing.results import _target_of

    lookup(variant)
    target = target or _target_of(factory)
    biases = (bias,) if isinstance(bias, bool) else tuple(bias)
    start = time.perf_counter()
    with _kit_settings(device):
        layout, found, note = resolve_gating(factory, variant, top_k, layout, biases[0],
                                             device, extra_params, target, gating)
    gatings = tuple(GATINGS) if gating == "auto" else (gating,)
    routing = Routing(int(top_k), found or "renormalised")
    if found is None:  # no gating fits in float64: the first case fails and is diagnosed
        note = "no gating matched a float64 probe"
    counts = {"run": 0, "vacuous": 0, "skipped": 0, "ties": 0, "compared": 0, "grads": 0,
              "grads_vacuous": 0, "worst": 0.0}
    tally = {}
    E = 0

    def one_case(b, d, h, n, s):
        nonlocal E
        case = _case(factory, variant, layout, b, d, h, n, s, device, target, extra_params,
                     routing)
        out = run_case(case, routing, tuple(dtypes))
        counts["run"] += 1
        counts["skipped"] += len(out.skipped)
        counts["ties"] += out.tie_tokens
        counts["compared"] += out.compared
        counts["grads"] += out.grads
        counts["grads_vacuous"] += out.grads_vacuous
        counts["worst"] = max([counts["worst"], *out.worst.values()])
        for key, (c, v) in out.tally.items():
            t = tally.setdefault(key, [0, 0])
            t[0], t[1] = t[0] + c, t[1] + v
        E = E or len(read_weights(_build(case), layout, variant, h).experts)

    hsettings = settings(max_examples=max_examples, deadline=None, database=None,
                         derandomize=seed is None, print_blob=False,
                         phases=[ph for ph in Phase if ph != Phase.shrink],
                         suppress_health_check=list(HealthCheck))
    try:
        with _kit_settings(device):
            for b in biases:
                for n, s in ((1, 0), (2, 1)):  # the smallest shapes first
                    try:
                        one_case(b, 1, 1, n, s)
                    except Vacuous:
                        pass

                drawn = _drawn(hsettings, given, st, reject, one_case, counts, b)
                if seed is not None:
                    drawn = hseed(seed)(drawn)
                drawn()
            counted, counted_train, flops_note = routed_flops(
                _case(factory, variant, layout, biases[0], *PROBE, 0, device, target,
                      extra_params, routing), routing)
    except ConformanceFailure as failure:
        raise _diagnosed(failure, routing, gatings) from None
    report = MoEReport(variant, layout, int(top_k), E, routing.gating, note, counts["run"],
                     counts["vacuous"], counts["skipped"], counts["ties"], counts["compared"],
                     tuple(dtypes), time.perf_counter() - start, counts["grads"],
                     counts["grads_vacuous"], counts["worst"], layout in SHARED, counted,
                     counted_train, flops_note, tally)
    unchecked = moe_grad.not_checkable_text(tally)
    if unchecked:  # a pass must not hide it
        import warnings

        warnings.warn(f"check_moe({getattr(factory, '__qualname__', factory)}): {unchecked}",
                      moe_grad.NotCheckable, stacklevel=2)
    return report


def routed_flops(case, routing):
    """Judge the block's matmul FLOPs at `case` (float64; the values filled from its seed,
    inputs of scale PROBE_SCALE, redrawn up to 5 times until no token is a top-k tie, so the
    routing is the reference's): `moe_costs.check_flops`. Returns ((router, rest) forward,
    (router, rest) forward + backward, a note), or raises ConformanceFailure('moe-flops');
    a failure of torch's FlopCounterMode itself is a note, never the module's failure."""
    module = _build(case)
    rng = np.random.default_rng([case.seed, 11])
    fill(module, case, rng)
    w = read_weights(module, case.layout, case.variant, case.h)
    E = len(w.experts)
    for _ in range(5):
        x = PROBE_SCALE * rng.standard_normal((case.n, case.d))
        _, _, tied = reference(case.variant, w, x, routing, "float64", case.device)
        if not tied.any():
            break
    else:
        return (), (), "routed FLOPs not judged: every probe input had a top-k tie"
    from ffnverify.testing.moe_reference import route

    top = route(x @ w.router.T, routing)[0]
    tokens = {"n": case.n, "experts": [int((top == e).any(axis=1).sum()) for e in range(E)]}
    xt = torch.as_tensor(x[None], device=case.device)
    try:
        fwd, train = moe_costs.check_flops(module, MOE_LAYOUTS[case.layout][0], xt,
                                           case.variant, E, case.d, case.h, tokens,
                                           w.shared is not None, case)
    except ToolFailure as exc:
        return (), (), (f"routed FLOPs not judged: torch's FlopCounterMode failed on this "
                        f"block ({exc}), which runs without it")
    return fwd, train, ""


def check_moe_example(factory, variant, top_k, gating="renormalised", layout="auto",
                      bias=False, d=6, h=15, n=5, seed=0, dtypes=DTYPES, device="cpu",
                      extra_params=()):
    """One case (what a failure's reproducer runs): the drawn case, then the routed FLOPs
    at the same shape and seed (`routed_flops`, as check_moe judges them at PROBE);
    returns the Outcome."""
    __tracebackhide__ = True
    from ffnverify.testing.results import _target_of

    target = _target_of(factory)
    with _kit_settings(device):
        layout, found, _ = resolve_gating(factory, variant, top_k, layout, bias, device,
                                          extra_params, target, gating)
        routing = Routing(int(top_k), found or "renormalised")
        case = _case(factory, variant, layout, bias, d, h, n, seed, device, target,
                     extra_params, routing)
        try:
            out = run_case(case, routing, tuple(dtypes))
            routed_flops(case, routing)
            return out
        except ConformanceFailure as failure:
            raise _diagnosed(failure, routing, (routing.gating,)) from None
