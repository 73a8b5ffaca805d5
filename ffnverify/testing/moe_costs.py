"""An MoE block's parameters and matmul FLOPs, the router's apart from the experts'
(`check_moe` reports them), and the judgment of the FLOPs a block's forward and backward
perform, counted under torch's FlopCounterMode, against the exact routed count.

Per token, forward, 2 FLOPs per multiply-add: the router's matmul is E·d multiply-adds
(2·E·d FLOPs) and its weight E·d parameters; expert e, given the n_e tokens routed to it,
costs flops(variant, d, h, n_e) (the derivation; matmul FLOPs are linear in the tokens),
so a routed block costs 2·E·d·n + Σ_e flops(variant, d, h, n_e), and Σ_e n_e = k·n (each
token picks k distinct experts): the total is fixed by k whatever the data, while which
expert does how much depends on the routing. A shared expert adds its FFN on all n tokens
and its gate's 2·d·n. The backward ("train": forward + backward, the input's gradient
included) of each matmul is the derivation's: flops(variant, d, h, n_e, "train") per
expert, 3 × 2·E·d·n for the router (its output, the input's gradient, the weight's).

A block that runs every expert on every token and masks afterwards (dense compute) has
the right outputs and gradients; only its FLOPs, 2·E·d·n + E·flops(variant, d, h, n),
tell it apart: `check_flops` names it.
"""

from dataclasses import dataclass

import numpy as np

from derivations.flops import flops as derived_flops
from derivations.params import params as derived_params
from ffnverify.testing.checks import expected_shapes
from ffnverify.testing.results import ConformanceFailure, ToolFailure


def costs(variant, E, k, d, h, bias=False, shared=False):
    """{name: exact int} of an MoE block of E experts of `variant` (d, h), top k."""
    ffn = int(derived_params(variant, d, h, False)) + sum(
        int(np.prod(shape)) for name, shape in expected_shapes(variant, d, h, bias).items()
        if name.startswith("b_"))
    ffn_flops = int(derived_flops(variant, d, h, 1, "forward"))
    out = {"router params": E * d, "router FLOPs per token": 2 * E * d,
           "expert params": E * ffn, "expert FLOPs per token": k * ffn_flops}
    if shared:
        out["router params"] += d  # the shared expert's gate (1×d)
        out["router FLOPs per token"] += 2 * d
        out["expert params"] += ffn
        out["expert FLOPs per token"] += ffn_flops
    return out


def routed(variant, E, d, h, tokens, shared=False, pass_="forward"):
    """(router FLOPs, the rest) of one pass, exact ints: tokens = {"n": the tokens,
    "experts": [the tokens routed to expert e]} (summing to k·n)."""
    n = tokens["n"]
    per_matmul = 1 if pass_ == "forward" else 3
    router = per_matmul * 2 * E * d * n
    rest = sum(int(derived_flops(variant, d, h, t, pass_)) for t in tokens["experts"])
    if shared:
        rest += int(derived_flops(variant, d, h, n, pass_)) + per_matmul * 2 * d * n
    return router, rest


def dense(variant, E, d, h, n, shared=False, pass_="forward"):
    """(router, the rest) when every expert runs on every token (module doc)."""
    return routed(variant, E, d, h, {"n": n, "experts": [n] * E}, shared, pass_)


def counted(module, router_path, x, backward=False):
    """(router FLOPs, the rest) of one forward (and backward, of sum(y·1)) of `module` (a
    torch block) on x (1, n, d), under FlopCounterMode; the router's are its own calls,
    counted again alone. ToolFailure when the counter fails where the plain call does not
    (torch's counter fails under no_grad on some modules: the forward is then counted with
    grad enabled)."""
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    router = module.get_submodule(router_path.rsplit(".", 1)[0])
    calls = []

    x = x.detach().clone().requires_grad_(backward)  # backward: the input's gradient too

    def once():
        calls.clear()
        out = module(x)
        out = out[0] if isinstance(out, (tuple, list)) else out
        if backward:
            out.backward(torch.ones_like(out))

    hook = router.register_forward_hook(lambda m, args, out: calls.append(args))
    try:
        modes = ([torch.enable_grad] if backward else [torch.no_grad, torch.enable_grad])
        for i, mode in enumerate(modes):
            try:
                with mode(), FlopCounterMode(display=False) as total:
                    once()
                break
            except Exception as exc:
                try:
                    with mode():
                        once()  # the same call without the counter: the module's failure?
                except Exception:
                    raise exc from None
                if i == len(modes) - 1:
                    raise ToolFailure(f"{type(exc).__name__}: {exc}") from exc
    finally:
        hook.remove()
        for param in module.parameters():
            param.grad = None
    with FlopCounterMode(display=False) as alone:
        for args in calls:
            inputs = tuple(a.detach().requires_grad_(a.requires_grad)
                           if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                           for a in args)
            out = router(*inputs)
            outs = [t for t in (out if isinstance(out, (tuple, list)) else (out,))
                    if isinstance(t, torch.Tensor) and t.requires_grad]
            if backward and outs:  # (a router may return logits, scores and indices)
                torch.autograd.backward(outs, [torch.ones_like(t) for t in outs])
    for param in router.parameters():
        param.grad = None
    return alone.get_total_flops(), total.get_total_flops() - alone.get_total_flops()


@dataclass
class FlopsDiagnosis:
    """What the counted FLOPs are exactly (as diagnose.Diagnosis: `what`, `text()`)."""

    what: str
    kind: str = "flops"

    def text(self):
        return f"the counted FLOPs are exactly those of {self.what}"


def check_flops(module, router_path, x, variant, E, d, h, tokens, shared, case):
    """Judge the block's counted matmul FLOPs (forward, then forward + backward) against
    the routed count for `tokens` (module doc); raise ConformanceFailure('moe-flops'), with
    the dense-compute diagnosis where it fits exactly, or return ((router, rest) forward,
    (router, rest) forward + backward). ToolFailure propagates (the caller notes it)."""
    out = []
    for pass_, backward in (("forward", False), ("train", True)):
        got = counted(module, router_path, x, backward)
        want = routed(variant, E, d, h, tokens, shared, pass_)
        if sum(got) != sum(want):
            n = tokens["n"]
            what = "forward" if pass_ == "forward" else "forward + backward"
            failure = ConformanceFailure(
                "moe-flops", f"{what} counted {sum(got)} matmul FLOPs (router {got[0]}, the "
                f"rest {got[1]}); routed: {sum(want)} = router {want[0]} + experts "
                f"{want[1]} (the {n} tokens' routing gives experts "
                f"{', '.join(f'{e}: {t}' for e, t in enumerate(tokens['experts']))} tokens"
                f"{', and the shared expert every token' if shared else ''}; "
                f"flops({variant}, {d}, {h}, tokens, {pass_}) each)", case=case)
            if sum(got) == sum(dense(variant, E, d, h, n, shared, pass_)):
                failure.diagnoses = [FlopsDiagnosis(
                    f"every expert run on every token (dense compute, then masked): {E} × "
                    f"flops({variant}, {d}, {h}, {n}, {pass_}) + the router")]
            failure.args = (failure.report(),)
            raise failure
        out.append(got)
    return tuple(out)
