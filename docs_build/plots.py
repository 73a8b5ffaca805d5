"""The docs site's figures, drawn with matplotlib (Agg, no display) from the derivations.

Every number plotted comes from `derivations` (or the catalogue) and is turned into a float
only at the last step, for drawing. Each figure is figsize(name) at DPI: FIGSIZE (WIDTH ×
HEIGHT pixels), except the catalogue chart, as wide as the docs column and as tall as its
rows need. Labels that
could collide are placed from their measured extents (place_mark_labels). `python -m docs_build.plots FOLDER` writes them all.
"""

import importlib
import io
import itertools
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np
import sympy as sp
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from derivations import activations, flops, params, variants, widths
from derivations.symbols import d, h, z

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


MARK_FONTSIZE = 9
MARK_PAD_PX = 3.0  # between a label and its own line, and around every obstacle


def _renderer(fig: Figure):
    """Lay `fig` out (constrained layout included) and give the renderer that measures text."""
    canvas = FigureCanvasAgg(fig)
    fig.draw_without_rendering()
    return canvas.get_renderer()


def _intervals_of_lines(ax, x0: float, x1: float, skip=()) -> list[tuple[float, float]]:
    """Display-y intervals the axes' lines (curves, reference lines, markers) cover between
    display x0 and x1: each segment clipped to [x0, x1], a marker as its drawn size."""
    out = []
    for line in ax.lines:
        if line in skip:
            continue
        pts = line.get_transform().transform(line.get_xydata())
        half = line.get_markersize() * ax.figure.dpi / 72 / 2 if line.get_marker() not in (
            None, "None", "", " ") else 0.0
        for (xa, ya), (xb, yb) in itertools.pairwise(pts) if len(pts) > 1 else [(pts[0], pts[0])]:
            if max(xa, xb) < x0 - half or min(xa, xb) > x1 + half:
                continue
            if xa == xb:
                lo, hi = min(ya, yb), max(ya, yb)
            else:
                ta, tb = sorted(((x0 - xa) / (xb - xa), (x1 - xa) / (xb - xa)))
                ta, tb = max(ta, 0.0), min(tb, 1.0)
                lo, hi = sorted((ya + ta * (yb - ya), ya + tb * (yb - ya)))
            out.append((lo - half, hi + half))
    return out


def _free_start(obstacles, bottom: float, top: float, length: float, pad: float):
    """The lowest y in [bottom, top] where `length` fits clear of `obstacles` (each grown
    by pad), or None."""
    y = bottom + pad
    for lo, hi in sorted((lo - pad, hi + pad) for lo, hi in obstacles):
        if hi < y:
            continue
        if lo >= y + length:
            break
        y = max(y, hi)
    return y if y + length <= top - pad else None


def place_mark_labels(fig: Figure, ax, marks) -> list:
    """Label each vertical line of `marks` [(x in data, text, colour, line)] with its text
    rotated along it, at positions computed from the drawn extents: lines closer than a
    label's thickness form a cluster, its first labelled on the left and its last on the
    right (a cluster of three cannot be labelled: ValueError); each label then goes to the
    lowest stretch beside its line that no curve, reference line, marker, legend or
    earlier label crosses. Returns the Text artists."""
    renderer = _renderer(fig)
    to_px = ax.transData.transform
    box = ax.get_window_extent(renderer)
    texts = []
    for x, label, colour, _line in marks:
        t = ax.text(x, 0, label, rotation=90, color=colour, fontsize=MARK_FONTSIZE,
                    rotation_mode="anchor", ha="left", va="bottom")
        t.set_in_layout(False)  # placed inside the axes: the layout must not move for it
        texts.append(t)
    extents = [t.get_window_extent(renderer) for t in texts]
    order = sorted(range(len(marks)), key=lambda i: marks[i][0])
    xs = [to_px((marks[i][0], 0))[0] for i in range(len(marks))]
    sides = {}
    cluster: list[int] = []
    for i in order + [None]:
        near = (i is not None and cluster and xs[i] - xs[cluster[-1]]
                < extents[cluster[-1]].width + extents[i].width + 2 * MARK_PAD_PX)
        if near:
            cluster.append(i)
            continue
        if len(cluster) > 2:
            raise ValueError(f"{len(cluster)} lines too close to label: "
                             f"{[marks[j][1] for j in cluster]}")
        if len(cluster) == 2:
            sides[cluster[0]], sides[cluster[1]] = "left", "right"
        elif cluster:
            only = cluster[0]
            room_right = box.x1 - xs[only] > extents[only].width + 2 * MARK_PAD_PX
            sides[only] = "right" if room_right else "left"
        cluster = [] if i is None else [i]
    placed = [t.get_window_extent(renderer) for t in ax.texts if t not in texts]
    legend = ax.get_legend()
    if legend is not None:
        placed.append(legend.get_window_extent(renderer))
    own = {m[3] for m in marks}
    for i in order:
        width, length = extents[i].width, extents[i].height
        x0 = xs[i] + MARK_PAD_PX if sides[i] == "right" else xs[i] - MARK_PAD_PX - width
        x1 = x0 + width
        obstacles = _intervals_of_lines(ax, x0, x1, skip=own - {None})
        obstacles += [(b.y0, b.y1) for b in placed if b.x1 >= x0 and b.x0 <= x1]
        y = _free_start(obstacles, box.y0, box.y1, length, MARK_PAD_PX)
        if y is None:
            raise ValueError(f"no room beside the line for {marks[i][1]!r}")
        # ha="left", va="bottom", then turned 90° about that anchor (rotation_mode
        # "anchor"): the text runs up from it, and it is the label's lower-right corner
        texts[i].set_position(ax.transData.inverted().transform((x1, y)))
        placed.append(texts[i].get_window_extent(renderer))
    return texts


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
    llama = widths.llama_width(D_EXAMPLE)
    marks = [  # (h, label, colour)
        (4 * d, "4d (ReLU/GELU convention)", "C0"),
        (matched_width(gated), f"$h = {_tex(matched_width(gated))}$: gated, matched", "C1"),
        (llama * d / D_EXAMPLE, f"Llama rule: {llama} at d = {D_EXAMPLE}", "C2"),
    ]
    ax.plot([float(matched_width(gated) / d)], [float(baseline)], "o", color="C1")
    ax.set(xlabel="hidden width h / d", ylabel="parameters / d²  (no bias)",
           title="Parameters against hidden width", xlim=(0, 6), ylim=(0, 18))
    ax.legend(loc="upper left", fontsize=8)
    ax.grid(alpha=0.3)
    lines = [(float(w / d), label, colour, ax.axvline(float(w / d), color=colour, ls="--", lw=1))
             for w, label, colour in marks]
    place_mark_labels(fig, ax, lines)
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


CATALOGUE_ROW_INCHES = 0.22  # one bar per model: a 9 pt label is 0.125 in tall
CATALOGUE_MARGIN_INCHES = 1.4  # title, axis, reference labels and legend
CATALOGUE_FONTSIZE = 9
TEXT_GROUND = {"facecolor": "white", "edgecolor": "none", "pad": 1.0}
# The docs column is 688 px wide at a 1280 px window (Material, both sidebars shown): a
# chart this wide is shown at its own size there, so 9 pt stays 9 pt
CATALOGUE_WIDTH_INCHES = 6.88


def catalogue_figsize(rows: int) -> tuple[float, float]:
    """The catalogue chart's size: the docs column's width, a height that grows with the
    rows."""
    return (CATALOGUE_WIDTH_INCHES,
            max(FIGSIZE[1], CATALOGUE_MARGIN_INCHES + CATALOGUE_ROW_INCHES * rows))


def moe_note(row) -> str | None:
    """For a mixture of experts, what its d_ff is and what a token uses, in d_model units:
    d_ff is one routed expert's width; each token goes through active_experts of them
    plus the shared expert (shared_d_ff) where there is one."""
    experts = _field(row, "experts") or 1
    if experts <= 1:
        return None
    k, d_ff, dm = _field(row, "active_experts") or 1, _field(row, "d_ff"), _field(row, "d_model")
    shared = _field(row, "shared_d_ff") or 0
    used = k * d_ff + shared
    sum_text = f"{k}×{d_ff}" + (f" + shared {shared}" if shared else "")
    return (f"1 of {experts} experts; per token {sum_text} = {used} "
            f"= {_ratio_text(sp.Rational(used, dm))}·d")


def _ratio_text(r: sp.Rational) -> str:
    """A ratio as an exact decimal of up to four places, else to three marked ≈."""
    for places in (3, 4):
        shown = f"{float(r):.{places}f}"
        if sp.Rational(shown) == r:
            return shown
    return f"≈{float(r):.3f}"


def catalogue_ratios(models=None, figsize=None) -> Figure:
    """d_ff / d_model for every model of the catalogue, sorted, against 4 and 8/3; a
    mixture of experts says what its d_ff is (one expert) and what a token uses."""
    models = load_catalogue() if models is None else models
    if not models:
        fig, (ax,) = _figure()
        ax.text(0.5, 0.5, "The catalogue (ffnverify.catalogue.MODELS) is not available yet.",
                ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return fig
    fig = Figure(figsize=figsize or catalogue_figsize(len(models)), dpi=DPI,
                 layout="constrained")
    ax = fig.subplots()
    rows = sorted(models.items(), key=lambda kv: (sp.Rational(_field(kv[1], "d_ff"),
                                                                _field(kv[1], "d_model")),
                                                   kv[0]))
    names = [name for name, _ in rows]
    ratios = [sp.Rational(_field(r, "d_ff"), _field(r, "d_model")) for _, r in rows]
    gated = [getattr(variants.VARIANTS.get(str(_field(r, "variant"))), "gated", None)
             for _, r in rows]
    kinds = {True: ("C1", "gated (3 matrices)"), False: ("C0", "not gated (2 matrices)"),
             None: ("C7", "variant not known")}
    bars = ax.barh(names, [float(r) for r in ratios], color=[kinds[g][0] for g in gated])
    references = ((sp.Integer(4), "4"), (sp.Rational(8, 3), "8/3"))
    row_texts = []
    for y, (r, (_, row)) in enumerate(zip(ratios, rows)):
        note = moe_note(row)
        texts = [_ratio_text(r)] + ([f"← {note}"] if note else [])
        # on a white ground above the reference lines: a line stops where a text is
        row_texts.append((float(r), y, [ax.text(float(r), y, t, va="center", ha="left",
                                                fontsize=CATALOGUE_FONTSIZE - 1, zorder=3,
                                                bbox=TEXT_GROUND)
                                        for t in texts]))
    for ref, label in references:
        ax.axvline(float(ref), color="grey", ls="--", lw=1, zorder=2)
        ax.text(float(ref), 0.005, f" {label}", transform=ax.get_xaxis_transform(),
                color="grey", ha="left", va="bottom")
    ax.set_ylim(-1.6, len(names) - 0.4)  # room for the reference labels at the bottom
    ax.set_xlim(0, float(max(ratios)) * 1.1)
    ax.set(xlabel="d_ff / d_model  (for a mixture of experts: one expert's width)",
           title=f"Catalogue: FFN expansion ratio d_ff / d_model, {len(names)} models")
    ax.tick_params(axis="y", labelsize=CATALOGUE_FONTSIZE)
    shown = [g for g in kinds if g in gated]
    fig.legend([bars[gated.index(g)] for g in shown], [kinds[g][1] for g in shown],
               loc="outside lower center", ncols=len(shown), fontsize=CATALOGUE_FONTSIZE,
               frameon=False)
    place_after_bars(fig, ax, row_texts)
    return fig


def place_after_bars(fig: Figure, ax, rows) -> None:
    """Set each row's texts one after another from its bar's end, from their measured
    widths. rows: [(bar end x, row y, [Text, ...])]."""
    renderer = _renderer(fig)
    to_px, from_px = ax.transData.transform, ax.transData.inverted().transform
    gap = CATALOGUE_FONTSIZE * fig.dpi / 72  # an em between a row's texts
    for x, y, texts in rows:
        cursor, y_px = to_px((x, y))
        cursor += MARK_PAD_PX
        for t in texts:
            t.set_in_layout(False)
            width = t.get_window_extent(renderer).width
            t.set_position(from_px((cursor, y_px)))
            cursor += width + gap


def figsize(name: str) -> tuple[float, float]:
    """The size in inches figure `name` is drawn at (the catalogue's grows with its rows)."""
    if name == "catalogue_ratios":
        models = load_catalogue()
        return catalogue_figsize(len(models)) if models else FIGSIZE
    return FIGSIZE


def pixels(name: str) -> tuple[int, int]:
    """figsize(name) at DPI: the PNG's width and height."""
    w, h_in = figsize(name)
    return round(w * DPI), round(h_in * DPI)


PLOTS = {
    "params_vs_width": params_vs_width,
    "activations": activation_curves,
    "flop_split": flop_split,
    "catalogue_ratios": catalogue_ratios,
}


def png(name: str) -> bytes:
    """The figure `name` as PNG bytes, pixels(name) in size."""
    fig = PLOTS[name]()
    FigureCanvasAgg(fig)  # drawn by Agg directly, no backend looked up by name
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
