"""The conformance kit: point it at any FFN module and compare it with an independent reference.

`check_ffn(factory, variant, layout="auto")` builds modules with `factory(d, h, bias)` for
Hypothesis-drawn shapes, fills their parameters with drawn values, reads them back through
the layout, and compares the module with the float64 NumPy reference
(`ffnverify.backends.numpy_ffn`) computed from those very weights. Checks, in the order they
run (the first failure is reported):

0. factory/layout  the factory returns an nn.Module; layout="auto" (`resolve_layout`) finds
                 the built-in layout its parameters fit (ambiguities decided numerically)
1. params        parameter count and shapes against `derivations.params` (every parameter
                 of the module must be read by the layout: no extra ones, no missing bias)
2. independence  an FFN does not mix tokens: perturbing one token leaves the others alone,
                 a token alone gives what it gives in the batch, (n, d) == (1, n, d) ==
                 (b, s, d)
3. forward       the output, per dtype (float64 first)
4. backward      the gradient of every weight, every bias and the input
5. train-mode    module.train() with every dropout at 0 computes the same (float64 or the
                 first dtype run)
6. saturation    forward and backward again with inputs scaled so |pre-activation| reaches
                 SATURATION[dtype] (sigmoid/SiLU/GELU tails, overflow of naive exp)
7. flops         matmul FLOPs of forward and of forward+backward under
                 torch.utils.flop_counter.FlopCounterMode against `derivations.flops`

Shapes: the two smallest cases run first (a module wrong at every shape fails at once),
then Hypothesis draws; a failure is shrunk by `shrink` (smaller n, h, d, seed 0), bounded
in time (SHRINK_SECONDS), and the reported failure is diagnosed (`diagnose`: what the
module computes instead, reported only when it matches at every drawn point).
Experts of MoE layers: `experts=i` and the experts layouts read expert i (every token
routed to it); a router's parameters and matmul FLOPs are counted apart.

Bounds come from `tolerances.bounds` (unit roundoff, shapes, and the error of the same
computation done plainly in the dtype); `act_eval` says how the activation may be evaluated
in a low precision (fused, op by op, or auto: the fused bound and, where it fails, the
op-by-op one, named in the Report). Draws whose bounds are not far below the signal
(anti-vacuity, `tolerances.VACUITY_RATIO`) leave that dtype out of that draw, and a draw
vacuous in every dtype is discarded; both are counted in the Report. Every failure, an
exception of the module's own included, raises `ConformanceFailure` naming the check, dtype,
tensor, worst element, error, bound, the drawn shapes and a runnable reproducer; several at
once (a Hypothesis ExceptionGroup) are one failure listing the others.
"""

import time

import numpy as np
import torch  # noqa: F401 (re-exported)

from ffnverify.backends import numpy_ffn  # noqa: F401 (re-exported)
from ffnverify.backends.variants import lookup  # re-exported
from ffnverify.testing import layouts, tolerances  # noqa: F401 (re-exported)
from ffnverify.testing.auto_layout import (  # noqa: F401 (re-exported)
    _probe_error,
    probe_shapes,
    resolve_layout,
)
from ffnverify.testing.checks import (  # noqa: F401 (re-exported)
    BIAS_SCALE,
    MAX_INPUT_SCALE,
    SATURATION,
    Prepared,
    _alone,
    _apart,
    _bias_key,
    _bounds,
    _build,
    _call,
    _compare_all,
    _copy,
    _counted,
    _forward_backward,
    _judge,
    _kit_settings,
    _layout_call,
    _norm_bias,
    _output,
    _outside,
    _outside_modules,
    _reference,
    _run,
    _table,
    _tensor,
    _to_numpy,
    assert_not_vacuous,
    check_flops,
    check_forward_backward,
    check_independence,
    check_params,
    check_saturation,
    check_train_mode,
    compare,
    expected_shapes,
    fill,
    megatron_call,
    prepare,
    routed_call,
    saturated,
    sequence_call,
)
from ffnverify.testing.results import (  # noqa: F401 (re-exported)
    CHECKS,
    DTYPES,
    Case,
    ConformanceFailure,
    Report,
    ToolFailure,
    Vacuous,
    _cli_layout,
    _importable,
    _target_of,
    explain,
)

DEFAULT_MAX_EXAMPLES = 100  # per bias setting
# how the module evaluates its activation (tolerances.ACT_EVALS), or "auto": either
ACT_EVALS = ("auto", "fused", "op-by-op")
# drawn shapes: d (model width), h (hidden width), n (tokens)
MAX_D, MAX_H, MAX_N = 64, 128, 8
MAX_H_BIG, MAX_N_BIG, BIG_EVERY = 256, 64, 10  # one draw in BIG_EVERY: larger h and n


# ---------------------------------------------------------------- one example


def run_case(case, dtypes=DTYPES):
    """Run every check on one drawn case; return the dtypes skipped as vacuous.

    Raises ConformanceFailure (an unexpected exception fails the check that was running),
    or Vacuous when no dtype can discriminate on this draw."""
    try:
        return _run_case(case, dtypes)
    except (ConformanceFailure, Vacuous):
        raise
    except Exception as exc:
        raise ConformanceFailure(case.stage, f"{type(exc).__name__}: {exc}",
                                 case=case) from exc


def _run_case(case, dtypes):
    rng = np.random.default_rng(case.seed)
    case.stage = "factory"
    module64 = _build(case)
    case.stage = "params"
    check_params(module64, case)
    fill(module64, case, rng)
    case.stage = "forward"
    x64 = rng.standard_normal((case.n, case.d))
    dy64 = rng.standard_normal((case.n, case.d))
    try:
        return _run_checks(case, dtypes, module64, rng, x64, dy64)
    except ConformanceFailure as failure:
        failure.context = (module64, x64)  # diagnosed once, on the failure reported
        raise


def _run_checks(case, dtypes, module64, rng, x64, dy64):
    row, j = rng.standard_normal(case.d), int(rng.integers(case.n))
    prepared, sats, skipped = [], [], []
    for dt in dtypes:  # a dtype whose bounds cannot discriminate sits this draw out
        try:
            p = prepare(module64, case, dt, x64, dy64)
            sats.append(saturated(p, case))
            prepared.append(p)
        except Vacuous:
            skipped.append(dt)
    if not prepared:
        raise Vacuous(f"every dtype is vacuous for d={case.d} h={case.h} n={case.n}")
    for p in prepared:
        case.stage = "independence"
        check_independence(p, case, row, j)
        case.stage = "forward"
        check_forward_backward(p, case)
    case.stage = "train-mode"
    check_train_mode(prepared[0], case)
    case.stage = "saturation"
    for p, sat in zip(prepared, sats):
        check_saturation(p, case, sat)
    case.stage = "flops"
    check_flops(module64, case, x64, dy64)
    return skipped


DIAGNOSED = ("forward", "independence", "saturation", "train-mode")  # output checks


def finish(failure):
    """The failure as reported: diagnosed (what the module computes instead, when a
    hypothesis of `diagnose` fits at every drawn point), without its internal traceback,
    Hypothesis' notes or chained exceptions."""
    from ffnverify.testing import diagnose

    ctx, case, failure.context = failure.context, failure.case, None
    if case is not None and failure.check in DIAGNOSED:
        module64, x64 = ctx or (None, None)
        raised = failure.error is None and "raised" in failure.message
        try:
            with _kit_settings(case.device):
                points = diagnose.points_for(module64, case, x64, square=raised)
                found = diagnose.diagnose(points, case.variant, case.layout_name, _table(case))
        except Exception:  # a diagnosis is a courtesy: never mask the failure itself
            found = []
        failure.diagnoses = found
        act = [d for d in found if d.kind == "activation"]
        if len(found) == 1 and act:
            failure.message = (f"this computes {act[0].variant}, not {case.variant} (max "
                               f"error {act[0].error:.2g} against {act[0].variant}); "
                               + failure.message)
    failure.args = (failure.report(),)
    if hasattr(failure, "__notes__"):
        del failure.__notes__
    failure.__cause__, failure.__suppress_context__ = None, True
    return failure.with_traceback(None)


def check_example(factory, variant, layout="auto", bias=False, seed=0, d=8, h=12, n=5,
                  device="cpu", dtypes=DTYPES, target=None, act_eval="auto", call=None,
                  extra_params=(), d_multiple_of=None, h_of=None, experts=None):
    """One case with given shapes and seed (what a failure report's reproducer runs).

    `layout="auto"` is resolved as `check_ffn` resolves it (at the probe shape that
    `d_multiple_of` and `h_of` give), so a reproducer of an auto run is the same run.
    Returns the dtypes skipped because their bounds could not discriminate (anti-vacuity)."""
    __tracebackhide__ = True
    _check_act_eval(act_eval)
    shapes = {"d_multiple_of": d_multiple_of, "h_of": h_of}
    target = target or _target_of(factory)
    layout_arg = layout
    try:
        if layout == "auto":
            try:
                layout, _ = resolve_layout(factory, variant, bias, device, call,
                                           extra_params, shapes, target, experts)
            except ConformanceFailure as failure:  # the probe shape is not buildable:
                if failure.check != "factory":  # resolve at the case's own shape
                    raise
                layout, _ = resolve_layout(factory, variant, bias, device, call,
                                           extra_params, {"d": d, "h": h}, target, experts)
        case = Case(factory, variant, layout, _norm_bias(bias), int(d), int(h), int(n),
                    int(seed), device, target, act_eval, call=call,
                    extra=tuple(extra_params), layout_arg=layout_arg, shapes=shapes,
                    expert=experts)
        with _kit_settings(device):
            return run_case(case, tuple(dtypes))
    except ConformanceFailure as failure:
        raise finish(failure) from None


# ---------------------------------------------------------------- Hypothesis driver


def _hypothesis_test(case_args, dtypes, counts, hsettings):
    """A Hypothesis test drawing d, h, n and the values' seed for one bias setting."""
    from hypothesis import given, reject
    from hypothesis import strategies as st

    factory, variant, layout, b, device, target, act_eval, opts = case_args
    shapes = opts.get("shapes") or {}
    k = int(shapes.get("d_multiple_of") or 1)

    @hsettings
    @given(st.data())
    def one(data):
        # about one draw in BIG_EVERY reaches n up to MAX_N_BIG and h above MAX_H (bugs that
        # only show at larger sizes): class 0, which Hypothesis' generator favours a little
        # (the shrinking is `shrink`'s, by shapes, so nothing heads for class 0)
        big = data.draw(st.integers(0, BIG_EVERY - 1), label="size class") == 0
        if shapes.get("d") is not None:
            d = int(shapes["d"])
        else:
            d = k * data.draw(st.integers(1, max(1, MAX_D // k)), label="d / d_multiple_of")
        if shapes.get("h") is not None:
            h = int(shapes["h"])
        elif shapes.get("h_of") is not None:
            h = int(shapes["h_of"](d))
        else:
            h = data.draw(st.integers(MAX_H + 1, MAX_H_BIG) if big else st.integers(1, MAX_H),
                          label="h")
        n = data.draw(st.integers(MAX_N + 1, MAX_N_BIG) if big else st.integers(1, MAX_N),
                      label="n")
        s = data.draw(st.integers(0, 2**32 - 1), label="seed (values)")
        case = Case(factory, variant, layout, b, d, h, n, s, device, target, act_eval,
                    call=opts.get("call"), extra=tuple(opts.get("extra_params") or ()),
                    layout_arg=opts.get("layout_arg"), shapes=shapes,
                    expert=opts.get("experts"))
        try:
            skipped = run_case(case, dtypes)
        except Vacuous:
            counts["vacuous"] += 1
            reject()
        counts["run"] += 1
        counts["skipped"] += len(skipped)
        counts["op_by_op"] |= case.notes
        counts["tools"] |= case.tool_notes
        if opts.get("progress") is not None:
            opts["progress"](b, counts["run"], hsettings.max_examples)

    return one


def _leaves(group):
    for exc in group.exceptions:
        if isinstance(exc, BaseExceptionGroup):
            yield from _leaves(exc)
        else:
            yield exc


def _as_failure(exc, variant, layout, bias):
    if isinstance(exc, ConformanceFailure):
        return exc
    return ConformanceFailure("kit", f"{type(exc).__name__}: {exc} (variant {variant}, "
                              f"layout {layout!r}, bias={bias})")


def _run_hypothesis(test, variant, layout, bias):
    """Run the Hypothesis test; whatever it raises becomes one ConformanceFailure (several
    distinct failures: the first, listing the others)."""
    from hypothesis.errors import HypothesisException

    try:
        test()
    except ConformanceFailure:
        raise
    except BaseExceptionGroup as group:  # several distinct failures at once
        failures = [_as_failure(e, variant, layout, bias) for e in _leaves(group)]
        raise failures[0].with_others(failures[1:]) from group
    except HypothesisException as exc:  # e.g. every draw vacuous: Unsatisfiable
        raise ConformanceFailure("anti-vacuity", f"{type(exc).__name__}: {exc}") from exc


def _check_act_eval(act_eval):
    if act_eval not in ACT_EVALS:
        raise ValueError(f"unknown act_eval {act_eval!r}; choose from {', '.join(ACT_EVALS)}")


SHRINK_SECONDS = 20.0  # the shrink phase's time bound (the smallest failing case so far)


def _smallest(shapes):
    """(d, h) of the smallest case the shape options allow."""
    k = int(shapes.get("d_multiple_of") or 1)
    d = int(shapes["d"]) if shapes.get("d") is not None else k
    if shapes.get("h") is not None:
        return d, int(shapes["h"])
    return d, int(shapes["h_of"](d)) if shapes.get("h_of") is not None else 1


def _smaller(case):
    """Cases smaller than `case` in one of n, h, d (smallest first), within its shapes."""
    import dataclasses

    shapes = case.shapes
    k = int(shapes.get("d_multiple_of") or 1)
    out = []

    def steps(v, low, unit=1):
        return sorted({low, max(low, (v // 2) // unit * unit), v - unit} - {v},
                      key=lambda t: t) if v > low else []

    for n in steps(case.n, 1):
        out.append(dataclasses.replace(case, n=n, notes=set()))
    if shapes.get("h") is None and shapes.get("h_of") is None:
        for h in steps(case.h, 1):
            out.append(dataclasses.replace(case, h=h, notes=set()))
    if shapes.get("d") is None:
        for d in steps(case.d, k, k):
            h = int(shapes["h_of"](d)) if shapes.get("h_of") is not None else case.h
            out.append(dataclasses.replace(case, d=d, h=h, notes=set()))
    if case.seed != 0:
        out.append(dataclasses.replace(case, seed=0, notes=set()))
    return [c for c in out if c.d >= 1 and c.h >= 1 and c.n >= 1]


def _fails_alike(case, check, dtypes):
    """The ConformanceFailure `case` raises in `check`, or None."""
    try:
        run_case(case, dtypes)
    except ConformanceFailure as failure:
        return failure if failure.check == check else None
    except Vacuous:
        return None
    return None


def shrink(failure, dtypes, seconds=SHRINK_SECONDS, progress=None):
    """The smallest case failing the same check found within `seconds`: greedy steps down
    in n, h and d (to the smallest, to half, by one) and to seed 0; `progress(case,
    elapsed)` after each smaller failure."""
    case = failure.case
    if case is None:
        return failure
    start = time.monotonic()
    improved = True
    while improved:
        improved = False
        for smaller in _smaller(failure.case):
            if time.monotonic() - start > seconds:
                return failure
            found = _fails_alike(smaller, failure.check, dtypes)
            if found is not None:
                failure = found.with_others(failure.others)
                improved = True
                if progress is not None:
                    progress(found.case, time.monotonic() - start)
                break
    return failure


def _first_smallest(args, dtypes, counts):
    """The smallest cases first (a module wrong at every shape fails here, at once):
    the smallest d and h with one token and with two."""
    factory, variant, layout, b, device, target, act_eval, opts = args
    shapes = opts["shapes"]
    d, h = _smallest(shapes)
    for n, seed in ((1, 0), (2, 1)):
        case = Case(factory, variant, layout, b, d, h, n, seed, device, target, act_eval,
                    call=opts.get("call"), extra=tuple(opts.get("extra_params") or ()),
                    layout_arg=opts.get("layout_arg"), shapes=shapes,
                    expert=opts.get("experts"))
        try:
            run_case(case, dtypes)
        except Vacuous:
            continue
        counts["first"] += 1
        counts["tools"] |= case.tool_notes


def check_ffn(factory, variant, layout="auto", bias=(False, True), device="cpu", dtypes=DTYPES,
              max_examples=DEFAULT_MAX_EXAMPLES, seed=None, shrink=True, target=None,
              act_eval="auto", call=None, extra_params=(), d_multiple_of=None, h_of=None,
              d=None, h=None, progress=None, shrink_seconds=SHRINK_SECONDS, experts=None):
    """Check `factory(d, h, bias) -> nn.Module` against the reference; return a Report.

    `bias` is a bool or a tuple of bools (each setting gets `max_examples` Hypothesis
    examples, after two runs at the smallest shapes). `seed` None runs derandomized (the
    same draws every time). Raises ConformanceFailure on the first non-conformance, shrunk
    (when `shrink`) for at most `shrink_seconds` to the smallest failing case found, and
    diagnosed (`diagnose`: what the module computes instead, where one explanation fits).

    `act_eval` says how the module may evaluate its activation in a low precision:
    "fused" (in float32, rounded once: F.gelu, F.silu), "op-by-op" (an expression of
    tensor operations each rounded to the dtype: transformers' gelu_new, x*sigmoid(x)),
    or "auto" (default): judged by the fused bound, and where that fails by the op-by-op
    one; the Report names the dtypes that needed it.

    Real modules: `call(module, x) -> y` adapts other forwards (extra arguments, tuple
    returns: `megatron_call`); `extra_params` are fnmatch patterns of parameters outside
    the FFN (not counted, not filled); shapes a config accepts: `d_multiple_of`, `h_of(d)`
    or fixed `d`, `h`. `progress(bias, examples run, max_examples)` is called after each
    example, and `progress.shrinking(case, seconds)` (where it exists) while shrinking.
    """
    __tracebackhide__ = True
    try:
        return _check_ffn(factory, variant, layout, bias, device, dtypes, max_examples, seed,
                          shrink, target, act_eval, call, extra_params, d_multiple_of, h_of,
                          d, h, progress, shrink_seconds, experts)
    except ConformanceFailure as failure:
        raise finish(failure) from None


def _check_ffn(factory, variant, layout, bias, device, dtypes, max_examples, seed, do_shrink,
               target, act_eval, call, extra_params, d_multiple_of, h_of, d, h, progress,
               shrink_seconds, experts):
    _check_act_eval(act_eval)
    from hypothesis import HealthCheck, Phase, settings
    from hypothesis import seed as hseed

    lookup(variant)
    biases = (bias,) if isinstance(bias, (bool, dict)) else tuple(bias)
    target = target or _target_of(factory)
    shapes = {"d_multiple_of": d_multiple_of, "h_of": h_of, "d": d, "h": h}
    note, layout_arg = None, layout
    if layout == "auto":
        layout, note = resolve_layout(factory, variant, biases[0], device, call, extra_params,
                                      shapes, target, experts)
    layouts.mapping(lookup(variant)[1], layout)  # unknown layout: ValueError now
    report = Report(variant, layout if isinstance(layout, str) else "mapping",
                    dtypes=tuple(dtypes), act_eval=act_eval, layout_note=note)
    needed, tools = set(), set()
    # shrinking is ours (`shrink`: bounded in time, smallest shapes first), not Hypothesis'
    hsettings = settings(
        max_examples=max_examples, deadline=None, database=None, derandomize=seed is None,
        phases=[ph for ph in Phase if ph != Phase.shrink], print_blob=False,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    start = time.perf_counter()
    watch = getattr(progress, "shrinking", None)
    for b in biases:
        counts = {"run": 0, "vacuous": 0, "skipped": 0, "op_by_op": set(), "first": 0,
                  "tools": set()}
        opts = {"call": call, "extra_params": extra_params, "shapes": shapes,
                "progress": progress, "layout_arg": layout_arg, "experts": experts}
        args = (factory, variant, layout, _norm_bias(b), device, target, act_eval, opts)
        one = _hypothesis_test(args, tuple(dtypes), counts, hsettings)
        if seed is not None:
            one = hseed(seed)(one)
        with _kit_settings(device):
            _first_smallest(args, tuple(dtypes), counts)
            try:
                _run_hypothesis(one, variant, layout, b)
            except ConformanceFailure as failure:
                if not do_shrink:
                    raise
                raise shrink(failure, tuple(dtypes), shrink_seconds, watch) from None
        key = _bias_key(_norm_bias(b))
        report.examples[key] = counts["run"]
        report.discarded[key] = counts["vacuous"]
        report.skipped[key] = counts["skipped"]
        report.first[key] = counts["first"]
        needed |= counts["op_by_op"]
        tools |= counts["tools"]
    report.op_by_op = tuple(dt for dt in dtypes if dt in needed)
    report.tool_notes = tuple(sorted(tools))
    report.seconds = time.perf_counter() - start
    return report
