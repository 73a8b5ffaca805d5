"""The docs site's figures, drawn with matplotlib (Agg, no display) from the derivations.

Every number plotted comes from `derivations` (or the catalogue) and is turned into a float
only at the last step, for drawing. Each figure is FIGSIZE at DPI, so every PNG is
WIDTH × HEIGHT pixels. `python -m docs_build.plots FOLDER` writes them all.
"""

import importlib
import io
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import sympy as sp  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from derivations import activations, flops, params, variants, widths  # noqa: E402
from derivations.symbols import d, h, z  # noqa: E402

FIGSIZE = (9.0, 5.0)
DPI = 100
WIDTH, HEIGHT = int(FIGSIZE[0] * DPI), int(FIGSIZE[1] * DPI)
D_EXAMPLE = 4096  # the model width where a concrete d is needed (Llama-2-7B's)
PLOTTED_ACTIVATIONS = ("relu", "gelu", "gelu_tanh", "silu", "sigmoid", "tanh")


def _figure(ncols: int = 1) -> tuple[Figure, list]:
    fig = Figure(figsize=FIGSIZE, dpi=DPI, layout="constrained")
    axes = fig.subplots(1, ncols, squeeze=False)[0]
    return fig, list(axes)


def matched_width(variant: str, dim=None):
    """h giving `variant` the parameters of the ReLU FFN at h = 4d (4d itself if non-gated).

    Solved for symbolic d, then evaluated at `dim`: the core's match_width declares h an
    integer, so at a concrete d whose matched h is fractional (8/3·4096) it finds none.
    """
    h_of_d = widths.match_width("relu", 4 * d, variant, d)
    return h_of_d if dim is None else h_of_d.subs(d, dim)


def _tex(expr) -> str:
    return sp.latex(expr, fold_short_frac=True)


def params_vs_width() -> Figure:
    """Parameters/d² against h/d for every variant (no bias), with the matched widths."""
    fig, (ax,) = _figure()
    ratio = np.linspace(0, 6, 200)
    groups: dict[sp.Expr, list[str]] = {}
    for name in variants.VARIANTS:
        groups.setdefault(params.params(name), []).append(name)
    for expr, names in groups.items():
        per_d2 = sp.lambdify(h, sp.expand(expr.subs(h, h * d) / d**2), "numpy")
        label = f"${sp.latex(expr)}$: " + ", ".join(names)
        ax.plot(ratio, np.broadcast_to(per_d2(ratio), ratio.shape), label=label)
    baseline = params.params("relu", d, 4 * d) / d**2
    ax.axhline(float(baseline), color="grey", lw=0.8, ls=":")
    ax.annotate(f"ReLU at h = 4d: {baseline}·d²", (0.1, float(baseline)), va="bottom",
                color="grey")
    gated = next(n for n in variants.VARIANTS if variants.VARIANTS[n].gated)
    marks = [  # (h, label, colour, text height, text side)
        (4 * d, "4d (ReLU/GELU convention)", "C0", 0.4, "right"),
        (matched_width(gated), f"$h = {_tex(matched_width(gated))}$: gated, matched", "C1", 0.4,
         "right"),
    ]
    llama = widths.llama_width(D_EXAMPLE)
    marks.append((llama * d / D_EXAMPLE,
                  f"Llama rule: {llama} at d = {D_EXAMPLE}", "C2", 9.0, "left"))
    for width, label, colour, y, side in marks:
        x = float(width / d)
        ax.axvline(x, color=colour, ls="--", lw=1)
        ax.annotate(label, (x + (0.03 if side == "left" else -0.03), y), rotation=90,
                    ha=side, va="bottom", color=colour, fontsize=8)
    ax.plot([float(matched_width(gated) / d)], [float(baseline)], "o", color="C1")
    ax.set(xlabel="hidden width h / d", ylabel="parameters / d²  (no bias)",
           title="Parameters against hidden width", xlim=(0, 6), ylim=(0, 18))
    ax.legend(loc="upper left", fontsize=8)
    ax.grid(alpha=0.3)
    return fig


def activation_curves() -> Figure:
    """The activations and their SymPy derivatives on [-4, 4]."""
    fig, (left, right) = _figure(2)
    x = np.linspace(-4, 4, 401)
    for name in PLOTTED_ACTIVATIONS:
        for ax, e in ((left, activations.expr(name)), (right, activations.derivative(name))):
            f = sp.lambdify(z, e, modules=["scipy", "numpy"])
            style = "--" if name == "gelu_tanh" else "-"
            ax.plot(x, np.broadcast_to(f(x), x.shape), style, label=name, lw=1.4)
    left.set(title="act(z)", xlabel="z", ylim=(-1.5, 4))
    right.set(title="act′(z)  (SymPy's derivative)", xlabel="z", ylim=(-0.3, 1.3))
    for ax in (left, right):
        ax.grid(alpha=0.3)
        ax.axhline(0, color="black", lw=0.5)
    left.legend(fontsize=8)
    return fig


# The bands of the FLOP-split figure, bottom to top: (key, legend label). Each backward
# band is one kind of matmul of derivations.flops: dW = leftᵀ·dC for every weight, the
# gradient into the hidden activation through W_down, and the input gradient dL/dx
# through the input projections (the part that `input_grad=False` leaves out).
FLOP_BANDS = [
    ("forward", "forward matmuls (x·W_in, hidden·W_down)"),
    ("weights", "backward: weight gradients dW, one per weight matrix"),
    ("hidden", "backward: gradient into the hidden activation (dY·W_downᵀ)"),
    ("input", "backward: input gradient dL/dx (left out with input_grad=false)"),
    ("elementwise", "elementwise work, forward + backward (activation, gating)"),
]


def flop_parts(name: str, dim: int = D_EXAMPLE) -> dict[str, sp.Expr]:
    """A training step's FLOPs per token at the parameter-matched width, by FLOP_BANDS key,
    from the matmul shapes of derivations.flops (their sum is its train total)."""
    hh = matched_width(name, sp.Integer(dim))
    parts = dict.fromkeys(k for k, _ in FLOP_BANDS)
    parts.update(forward=sp.Integer(0), weights=sp.Integer(0), hidden=sp.Integer(0),
                 input=sp.Integer(0))
    for _name, left, (m, k, p) in flops.forward_matmuls(name, dim, hh, 1):
        cost = 2 * m * k * p
        parts["forward"] += cost
        parts["weights"] += cost
        parts["input" if left == "x" else "hidden"] += cost
    parts["elementwise"] = flops.elementwise_flops(name, dim, hh, 1, "train")
    return parts


def flop_split(dim: int = D_EXAMPLE) -> Figure:
    """Training FLOPs per token at parameter-matched widths, one band per kind of work."""
    fig, (ax,) = _figure()
    names = list(variants.VARIANTS)
    per_variant = [flop_parts(name, dim) for name in names]
    bottom = np.zeros(len(names))
    totals = [float(sum(p.values())) for p in per_variant]
    for key, label in FLOP_BANDS:
        values = np.array([float(p[key] / dim**2) for p in per_variant])
        if key == "elementwise":
            share = max(float(p[key]) / t for p, t in zip(per_variant, totals))
            label = f"{label}: at most {share:.2%} of the total, too thin to see"
        ax.bar(names, values, bottom=bottom, label=label)
        if key != "elementwise":  # name the band in the first bar too
            ax.text(0, bottom[0] + values[0] / 2, key if key != "weights" else "dW",
                    ha="center", va="center", fontsize=7, color="white")
        bottom += values
    for i, p in enumerate(per_variant):
        backward = p["weights"] + p["hidden"] + p["input"]
        ax.annotate(f"1 : {float(backward / p['forward']):.0f}", (i, bottom[i]), ha="center",
                    va="bottom", fontsize=8)
    ax.set(ylabel="FLOPs per token / d²",
           title=f"Training FLOPs by kind at parameter-matched widths, d = {dim} "
                 "(top: forward : backward)")
    ax.tick_params(axis="x", rotation=30, labelsize=8)
    fig.legend(fontsize=7.5, loc="outside lower center", ncols=2, frameon=False)
    ax.set_ylim(0, max(bottom) * 1.12)
    return fig


def _field(row, key):
    return row.get(key) if isinstance(row, dict) else getattr(row, key, None)


def load_catalogue() -> dict | None:
    """ffnverify.catalogue.MODELS, or None while the catalogue is not there."""
    try:
        module = importlib.import_module("ffnverify.catalogue")
    except ImportError:
        return None
    models = getattr(module, "MODELS", None)
    return dict(models) if models else None


def catalogue_ratios() -> Figure:
    """d_ff / d_model for every model of the catalogue, against 4 and 8/3."""
    fig, (ax,) = _figure()
    models = load_catalogue()
    if models is None:
        ax.text(0.5, 0.5, "The catalogue (ffnverify.catalogue.MODELS) is not available yet.",
                ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return fig
    rows = sorted(models.items(), key=lambda kv: sp.Rational(_field(kv[1], "d_ff"),
                                                               _field(kv[1], "d_model")))
    names = [name for name, _ in rows]
    ratios = [sp.Rational(_field(r, "d_ff"), _field(r, "d_model")) for _, r in rows]
    gated = [getattr(variants.VARIANTS.get(str(_field(r, "variant"))), "gated", None)
             for _, r in rows]
    colours = ["C1" if g else "C0" if g is False else "C7" for g in gated]
    ax.barh(names, [float(r) for r in ratios], color=colours)
    for y, r in enumerate(ratios):
        ax.annotate(f" {float(r):.3f}", (float(r), y), va="center", fontsize=7)
    for ref, label in ((sp.Integer(4), "4"), (sp.Rational(8, 3), "8/3")):
        ax.axvline(float(ref), color="grey", ls="--", lw=1)
        ax.text(float(ref), 0.005, f" {label}", transform=ax.get_xaxis_transform(),
                color="grey", ha="left", va="bottom")
    ax.set_ylim(-1.6, len(names) - 0.4)  # room for the reference labels at the bottom
    ax.set(xlabel="d_ff / d_model", title="Catalogue: FFN expansion ratio per model "
           "(orange gated, blue not)")
    ax.tick_params(axis="y", labelsize=7)
    return fig


PLOTS = {
    "params_vs_width": params_vs_width,
    "activations": activation_curves,
    "flop_split": flop_split,
    "catalogue_ratios": catalogue_ratios,
}


def png(name: str) -> bytes:
    """The figure `name` as PNG bytes (WIDTH × HEIGHT pixels)."""
    fig = PLOTS[name]()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI)
    return buffer.getvalue()


def write_all(folder) -> list[Path]:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in PLOTS:
        path = folder / f"{name}.png"
        path.write_bytes(png(name))
        written.append(path)
    return written


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for path in write_all(argv[0] if argv else "build/plots"):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
