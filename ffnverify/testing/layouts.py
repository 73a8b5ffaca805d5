"""Where an FFN module keeps its weights: layouts that map its parameters to our names.

Our names are those of the NumPy backend (x @ W convention): W_gate, W_up (d×h), W_down (h×d),
b_gate, b_up (h,), b_down (d,). A layout is a mapping {our name: (attribute path, transform)}.
The transform turns the module's tensor into ours; every transform is a selection (transpose,
row slice), so the same transform applied to the tensor's `.grad` gives the gradient of our
named weight. That is how the kit reads both the weights and the gradients of any layout.

Transforms by name: "id" (as stored), "T" (nn.Linear's out×in weight), "half0"/"half1"
(first/second half of the rows: packed [gate; up]), "even"/"odd" (rows interleaved one by
one), and the same followed by ".T". A transform may also be a callable `f(tensor) -> tensor`.
"""

# our name -> (module attribute path, transform); one table per (layout, gated?)
_GATED = {
    "hf": {
        "W_gate": ("gate_proj.weight", "T"), "b_gate": ("gate_proj.bias", "id"),
        "W_up": ("up_proj.weight", "T"), "b_up": ("up_proj.bias", "id"),
        "W_down": ("down_proj.weight", "T"), "b_down": ("down_proj.bias", "id"),
    },
    "torchtune": {
        "W_gate": ("w1.weight", "T"), "b_gate": ("w1.bias", "id"),
        "W_up": ("w3.weight", "T"), "b_up": ("w3.bias", "id"),
        "W_down": ("w2.weight", "T"), "b_down": ("w2.bias", "id"),
    },
    "xformers-packed": {
        "W_gate": ("w12.weight", "half0.T"), "b_gate": ("w12.bias", "half0"),
        "W_up": ("w12.weight", "half1.T"), "b_up": ("w12.bias", "half1"),
        "W_down": ("w3.weight", "T"), "b_down": ("w3.bias", "id"),
    },
    "phi3": {
        "W_gate": ("gate_up_proj.weight", "half0.T"), "b_gate": ("gate_up_proj.bias", "half0"),
        "W_up": ("gate_up_proj.weight", "half1.T"), "b_up": ("gate_up_proj.bias", "half1"),
        "W_down": ("down_proj.weight", "T"), "b_down": ("down_proj.bias", "id"),
    },
    "torchtitan-w13": {
        "W_gate": ("w13.weight", "even.T"), "b_gate": ("w13.bias", "even"),
        "W_up": ("w13.weight", "odd.T"), "b_up": ("w13.bias", "odd"),
        "W_down": ("w2.weight", "T"), "b_down": ("w2.bias", "id"),
    },
}
_PLAIN = {
    "hf": {
        "W_up": ("up_proj.weight", "T"), "b_up": ("up_proj.bias", "id"),
        "W_down": ("down_proj.weight", "T"), "b_down": ("down_proj.bias", "id"),
    },
    "torchtune": {
        "W_up": ("w1.weight", "T"), "b_up": ("w1.bias", "id"),
        "W_down": ("w2.weight", "T"), "b_down": ("w2.bias", "id"),
    },
    "gpt2": {  # transformers' Conv1D stores the weight in×out: already our layout
        "W_up": ("c_fc.weight", "id"), "b_up": ("c_fc.bias", "id"),
        "W_down": ("c_proj.weight", "id"), "b_down": ("c_proj.bias", "id"),
    },
}
LAYOUTS = sorted(set(_GATED) | set(_PLAIN))


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
    if transform == "T":
        return t.T
    base, _, tail = transform.partition(".")
    out = _select(t, base)
    if tail == "T":
        return out.T
    if tail:
        raise ValueError(f"unknown transform {transform!r}")
    return out


def mapping(variant_gated: bool, layout) -> dict:
    """The {our name: (path, transform)} table of a named layout, or `layout` if it is a dict."""
    if isinstance(layout, dict):
        return dict(layout)
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
