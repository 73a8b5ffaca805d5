"""An MoE block's parameters and matmul FLOPs, the router's apart from the experts'
(`check_moe` reports them): exact integers from the derivations, and the FLOPs a block's
forward performs, counted under torch's FlopCounterMode at one shape.

Per token, forward, 2 FLOPs per multiply-add: the router's matmul is E·d multiply-adds
(2·E·d FLOPs) and its weight E·d parameters; each token's k experts cost
k·flops(variant, d, h, 1) (the derivation) whatever the data, while which expert does how
much depends on the routing (data-dependent, so not a per-expert figure). A shared
expert adds its FFN's FLOPs and its gate's 2·d.
"""

import numpy as np

from derivations.flops import flops as derived_flops
from derivations.params import params as derived_params
from ffnverify.testing.checks import expected_shapes


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


def counted(module, router_path, x):
    """(router FLOPs, the rest) of one forward of `module` (a torch block) on x (1, n, d),
    under FlopCounterMode; the router's are its own calls, counted again alone."""
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    router = module.get_submodule(router_path.rsplit(".", 1)[0])
    calls = []
    hook = router.register_forward_hook(lambda m, args, out: calls.append(args))
    try:
        with torch.no_grad(), FlopCounterMode(display=False) as total:
            module(x)
    finally:
        hook.remove()
    with torch.no_grad(), FlopCounterMode(display=False) as alone:
        for args in calls:
            router(*args)
    return alone.get_total_flops(), total.get_total_flops() - alone.get_total_flops()
