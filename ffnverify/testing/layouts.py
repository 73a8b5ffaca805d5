"""Where an FFN module keeps its weights: layouts that map its parameters to our names.

Our names are those of the NumPy backend (x @ W convention): W_gate, W_up (d×h), W_down (h×d),
b_gate, b_up (h,), b_down (d,). A layout is a mapping {our name: (attribute path, transform)}.
The transform turns the module's tensor into ours; every transform is a selection (transpose,
row slice), so the same transform applied to the tensor's `.grad` gives the gradient of our
named weight. That is how the kit reads both the weights and the gradients of any layout.

`layout="auto"` (the kit's default) is resolved by `candidates`: every built-in table whose
tensors exist with the right shapes and cover every parameter; the kit then ranks them
numerically (conformance.resolve_layout: fused chunk order, Linear vs Conv1D where the
shapes cannot tell).

Transforms by name: "id" (as stored), "T" (nn.Linear's out×in weight), "half0"/"half1"
(first/second half of the rows: packed [gate; up]), "even"/"odd" (rows interleaved one by
one), and the same followed by ".T". A transform may also be a callable `f(tensor) -> tensor`.
"""

# our name -> (module attribute path, transform); one table per (layout, gated?)


def _sep(gate, up, down, t_in="T", t_down="T"):
    """Separate projections (nn.Linear: "T"; Conv1D, stored in×out: "id")."""
    table = {"W_up": (f"{up}.weight", t_in), "b_up": (f"{up}.bias", "id"),
             "W_down": (f"{down}.weight", t_down), "b_down": (f"{down}.bias", "id")}
    if gate is not None:
        table.update({"W_gate": (f"{gate}.weight", t_in), "b_gate": (f"{gate}.bias", "id")})
    return table


def _fused(fused, down, gate_first=True):
    """gate and up stacked along the output dimension of one Linear ([gate; up] when
    gate_first, else [up; gate]), as .chunk(2, dim=-1) splits them."""
    g, u = ("half0", "half1") if gate_first else ("half1", "half0")
    return {"W_gate": (f"{fused}.weight", f"{g}.T"), "b_gate": (f"{fused}.bias", g),
            "W_up": (f"{fused}.weight", f"{u}.T"), "b_up": (f"{fused}.bias", u),
            "W_down": (f"{down}.weight", "T"), "b_down": (f"{down}.bias", "id")}


_GATED = {
    "hf": _sep("gate_proj", "up_proj", "down_proj"),  # Llama, Qwen, Mistral, Gemma, ...
    "torchtune": _sep("w1", "w3", "w2"),  # also Mixtral experts, Meta's llama
    "t5": _sep("wi_0", "wi_1", "wo"),  # T5 v1.1 / MT5 gated-gelu
    "timm-swiglu": _sep("fc1_g", "fc1_x", "fc2"),  # timm SwiGLU
    "litgpt": _sep("fc_1", "fc_2", "proj"),  # litgpt LLaMAMLP, GemmaMLP
    "xformers-packed": _fused("w12", "w3"),
    "xformers-packed-gate-second": _fused("w12", "w3", False),
    "phi3": _fused("gate_up_proj", "down_proj"),  # Phi-3, GLM
    "phi3-gate-second": _fused("gate_up_proj", "down_proj", False),
    "modernbert": _fused("Wi", "Wo"),  # act(first chunk) * second
    "modernbert-gate-second": _fused("Wi", "Wo", False),
    "timm-glu": _fused("fc1", "fc2", False),  # timm GluMlp (gate_last) / SwiGLUPacked
    "timm-glu-gate-first": _fused("fc1", "fc2"),
    "x-transformers": _fused("ff.0.proj", "ff.2", False),  # x * act(gate)
    "x-transformers-gate-first": _fused("ff.0.proj", "ff.2"),
    "x-transformers-ff3": _fused("ff.0.proj", "ff.3", False),  # with post_act_ln
    "x-transformers-ff3-gate-first": _fused("ff.0.proj", "ff.3"),
    "megatron": _fused("linear_fc1", "linear_fc2"),  # megatron-core MLP, gated_linear_unit
    "megatron-gate-second": _fused("linear_fc1", "linear_fc2", False),
    "torchtitan-w13": {
        "W_gate": ("w13.weight", "even.T"), "b_gate": ("w13.bias", "even"),
        "W_up": ("w13.weight", "odd.T"), "b_up": ("w13.bias", "odd"),
        "W_down": ("w2.weight", "T"), "b_down": ("w2.bias", "id"),
    },
}
_PLAIN = {
    "hf": _sep(None, "up_proj", "down_proj"),
    "torchtune": _sep(None, "w1", "w2"),
    "gpt2": _sep(None, "c_fc", "c_proj", "id", "id"),  # transformers' Conv1D: in×out
    "starcoder2": _sep(None, "c_fc", "c_proj"),  # the same names, nn.Linear
    "fc": _sep(None, "fc1", "fc2"),  # timm Mlp, Phi, CLIP, OPT-style
    "gptj": _sep(None, "fc_in", "fc_out"),  # GPT-J, CodeGen
    "neox": _sep(None, "dense_h_to_4h", "dense_4h_to_h"),  # GPT-NeoX, Falcon, Bloom
    "t5": _sep(None, "wi", "wo"),  # T5 DenseReluDense
    "sequential": _sep(None, "0", "2"),  # nn.Sequential(Linear, act, Linear): mlp.0/mlp.2
    "torchvision": _sep(None, "0", "3"),  # torchvision.ops.MLP: Linear, act, Dropout, Linear
    "x-transformers": _sep(None, "ff.0.0", "ff.2"),
    "x-transformers-ff3": _sep(None, "ff.0.0", "ff.3"),  # with post_act_ln
    "megatron": _sep(None, "linear_fc1", "linear_fc2"),
    "litgpt": _sep(None, "fc", "proj"),  # litgpt GptNeoxMLP
}
# The experts of MoE layers, one expert at a time: templates formatted with the expert's
# index {e} (and its row block {lo}:{hi} = e·h:(e+1)·h of a weight stacking every
# expert's rows); `experts=i` picks expert i (see `mapping`).
_EXPERTS = {
    # transformers' MixtralExperts, Qwen2/3-MoE, OLMoE...: gate_up_proj (E, 2h, d) =
    # [gate; up] per expert, down_proj (E, d, h), forward(x, top_k_index, top_k_weights)
    "mixtral-experts": {"W_gate": ("gate_up_proj", "[{e}].half0.T"),
                        "W_up": ("gate_up_proj", "[{e}].half1.T"),
                        "W_down": ("down_proj", "[{e}].T")},
    # transformers' DbrxExperts: mlp.w1, mlp.v1 (E·h, d) and mlp.w2 (E·h, d), used as
    # x @ w1[e].T, x @ v1[e].T and hidden @ w2[e] (w2 is stored h×d, not transposed)
    "dbrx-experts": {"W_gate": ("mlp.w1", "[{lo}:{hi}].T"), "W_up": ("mlp.v1", "[{lo}:{hi}].T"),
                     "W_down": ("mlp.w2", "[{lo}:{hi}]")},
    # litgpt's LLaMAMoE: a router `gate` and experts.{e} (LLaMAMLP: fc_1, fc_2, proj)
    "litgpt-moe": {k: (f"experts.{{e}}.{p}", t)
                   for k, (p, t) in _sep("fc_1", "fc_2", "proj").items()},
}
# parameters of an experts layout outside the expert (a router): not counted as the FFN's,
# and the matmul FLOPs of the submodules holding them counted apart
ROUTERS = {"litgpt-moe": ("gate.*",)}
LAYOUTS = sorted(set(_GATED) | set(_PLAIN) | set(_EXPERTS))


def routed(layout, path):
    """Whether `path` is a parameter of the router of experts layout `layout`."""
    import fnmatch

    return isinstance(layout, str) and any(fnmatch.fnmatchcase(path, pat)
                                           for pat in ROUTERS.get(layout, ()))


def expert_table(name, expert=0, h=None):
    """The table of experts layout `name` for expert `expert` (rows of width h)."""
    e = int(expert)
    lo, hi = (e * h, (e + 1) * h) if h is not None else (0, 0)
    return {k: (p.format(e=e), t.format(e=e, lo=lo, hi=hi))
            for k, (p, t) in _EXPERTS[name].items()}


def _index(t, step):
    """t[i] for step "[i]", t[a:b] for step "[a:b]"."""
    inner = step[1:-1]
    if ":" in inner:
        a, b = (int(v) for v in inner.split(":"))
        if not 0 <= a < b <= t.shape[0]:
            raise ValueError(f"rows {a}:{b} out of range for {tuple(t.shape)}")
        return t[a:b]
    i = int(inner)
    if not 0 <= i < t.shape[0]:
        raise ValueError(f"index {i} out of range for {tuple(t.shape)}")
    return t[i]


def _select(t, which):
    if which == "half0":
        return t[: t.shape[0] // 2]
    if which == "half1":
        return t[t.shape[0] // 2:]
    if which == "even":
        return t[0::2]
    if which == "odd":
        return t[1::2]
    raise ValueError(f"unknown transform step {which!r}")


def apply_transform(transform, t):
    """The module's tensor `t` seen in our layout (works alike on a weight and its .grad)."""
    if callable(transform):
        return transform(t)
    if transform in (None, "id"):
        return t
    if transform.startswith("["):  # an expert: "[i].rest" or "[a:b].rest"
        step, _, rest = transform.partition("]")
        return apply_transform(rest.lstrip(".") or "id", _index(t, step + "]"))
    if transform == "T":
        return t.T
    base, _, tail = transform.partition(".")
    out = _select(t, base)
    if tail == "T":
        return out.T
    if tail:
        raise ValueError(f"unknown transform {transform!r}")
    return out


OUR_NAMES = ("W_gate", "W_up", "W_down", "b_gate", "b_up", "b_down")


def parse(text):
    """A layout from the command line: a built-in name, or a JSON mapping
    {our name: [attribute path, transform]} (transform "id" when left out). ValueError
    names what is wrong."""
    import json

    if not text.lstrip().startswith("{"):
        return text
    try:
        table = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"--layout is not valid JSON: {exc}") from None
    out = {}
    for k, v in table.items():
        if k not in OUR_NAMES:
            raise ValueError(f"layout key {k!r} is not one of {', '.join(OUR_NAMES)}")
        v = [v] if isinstance(v, str) else v
        if not (isinstance(v, list) and 1 <= len(v) <= 2 and all(isinstance(e, str)
                                                                 for e in v)):
            raise ValueError(f"layout entry {k!r} must be [attribute path, transform]")
        out[k] = (v[0], v[1] if len(v) > 1 else "id")
    return out


def mapping(variant_gated: bool, layout, expert=None, h=None) -> dict:
    """The {our name: (path, transform)} table of a named layout, or `layout` if it is a dict
    (or a JSON mapping: `parse`); an experts layout for expert `expert` (default 0)."""
    if isinstance(layout, str):
        layout = parse(layout)
    if isinstance(layout, dict):
        return dict(layout)
    if layout in _EXPERTS and variant_gated:
        return expert_table(layout, expert or 0, h)
    table = _GATED if variant_gated else _PLAIN
    if layout not in table:
        kind = "gated" if variant_gated else "non-gated"
        known = ", ".join(sorted(table))
        raise ValueError(f"layout {layout!r} has no {kind} form; {kind} layouts: {known}")
    return dict(table[layout])


def resolve(module, path):
    """module.a.b.c for path 'a.b.c'; None where an attribute is missing or None."""
    obj = module
    for part in path.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def read(module, table, grads=False):
    """{our name: float64 NumPy array} from the module's parameters (or their .grad).

    A name whose tensor is absent is left out (a missing bias); a parameter without a
    gradient reads as zeros, so a detached branch shows up as a wrong gradient.
    """
    import torch

    out = {}
    for name, (path, transform) in table.items():
        param = resolve(module, path)
        if param is None:
            continue
        t = param
        if grads:
            t = param.grad if param.grad is not None else torch.zeros_like(param)
        t = apply_transform(transform, t.detach())
        out[name] = t.to("cpu", torch.float64).numpy().copy()
    return out


def paths(module, table) -> dict:
    """{attribute path: [our names]} for the tensors of `table` present in the module."""
    out = {}
    for name, (path, _) in table.items():
        if resolve(module, path) is not None:
            out.setdefault(path, []).append(name)
    return out


def _shape_ok(module, table, expected):
    import torch

    for name, want in expected.items():
        path, transform = table[name]
        t = resolve(module, path)
        if not isinstance(t, torch.Tensor):
            return False
        try:
            got = tuple(apply_transform(transform, t.detach()).shape)
        except (ValueError, IndexError, RuntimeError):
            return False
        if got != want:
            return False
    return True


def read_sizes(module, table):
    """{attribute path: elements of the FFN it holds}: a tensor read whole counts whole; one
    read by an expert's index or row block counts what the reads select."""
    import torch

    out = {}
    for path, transform in table.values():
        t = resolve(module, path)
        if not isinstance(t, torch.Tensor):
            continue
        if isinstance(transform, str) and transform.startswith("["):
            out[path] = out.get(path, 0) + apply_transform(transform, t.detach()).numel()
        else:
            out[path] = t.numel()
    return out


def candidates(module, gated, expected, ignore=lambda path: False, expert=None):
    """(fits, near): the built-in layouts whose weights all exist (and biases, where they
    exist) with the `expected` shapes ({our name: shape}) and read every parameter (but those `ignore` says lie
    outside the FFN); and, when none fits, [(score, name)] of the closest, best first."""
    table_of = _GATED if gated else _PLAIN
    if gated and expert is not None:  # the experts layouts, for expert `expert`
        h = next((v[0] for k, v in expected.items() if k == "W_down"), None)
        table_of = {**table_of, **{n: expert_table(n, expert, h) for n in _EXPERTS}}
    params = [k for k, _ in module.named_parameters() if not ignore(k)]
    fits, near = [], []
    for name, table in table_of.items():
        # the weights must exist; a bias may be missing (the params check then says so)
        want = {k: table[k][0] for k in expected if k.startswith("W_")}
        found = sum(resolve(module, p) is not None for p in want.values())
        covered = {p for p, _ in table.values() if resolve(module, p) is not None}
        present = {k: v for k, v in expected.items()
                   if k in want or (k in table and resolve(module, table[k][0]) is not None)}
        mine = {p for p in params if not routed(name, p)}  # a router is not the FFN's
        if (found == len(want) and all(k in table for k in present) and mine <= covered
                and _shape_ok(module, table, present)):
            fits.append(name)
        else:
            near.append((found / max(len(want), 1), name))
    near.sort(key=lambda t: (-t[0], t[1]))
    return fits, [n for score, n in near if score > 0][:3]
