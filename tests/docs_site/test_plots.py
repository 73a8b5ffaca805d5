"""The figures: each is a real, non-blank PNG of the declared size; the catalogue figure
tolerates a missing catalogue. Readability, measured on the drawn figure: no two labels
overlap, no line runs through a label, the catalogue's names are 9 pt or larger."""

import io
import math
import struct

import numpy as np
import pytest

pytest.importorskip("matplotlib", reason="matplotlib is in the docs extra: pip install -e .[docs]")

from docs_build import plots

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG_SIGNATURE, "not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def is_drawn(data: bytes) -> bool:
    """More than a blank canvas: pixel values vary and several colours are present."""
    import matplotlib.image as mpimg

    pixels = mpimg.imread(io.BytesIO(data), format="png")
    colours = {tuple(p) for p in pixels.reshape(-1, pixels.shape[-1])[::97]}
    return pixels.std() > 0.01 and len(colours) > 5


@pytest.mark.parametrize("name", list(plots.PLOTS))
def test_each_plot_is_a_drawn_png_of_the_declared_size(name):
    data = plots.png(name)
    assert png_size(data) == plots.pixels(name)
    assert len(data) > 10_000, f"{name}: {len(data)} bytes is suspiciously small"
    assert is_drawn(data), f"{name}: the image is blank"


def test_the_drawn_check_rejects_a_blank_image():
    from matplotlib.figure import Figure

    buffer = io.BytesIO()
    Figure(figsize=plots.FIGSIZE, dpi=plots.DPI).savefig(buffer, format="png")
    assert png_size(buffer.getvalue()) == (plots.WIDTH, plots.HEIGHT)
    assert not is_drawn(buffer.getvalue())


def test_catalogue_plot_without_the_catalogue(monkeypatch):
    def no_catalogue(name):
        raise ImportError(f"No module named {name!r}")

    monkeypatch.setattr(plots.importlib, "import_module", no_catalogue)
    assert plots.load_catalogue() is None
    assert png_size(plots.png("catalogue_ratios")) == (plots.WIDTH, plots.HEIGHT)
    assert plots.pixels("catalogue_ratios") == (plots.WIDTH, plots.HEIGHT)


def test_catalogue_plot_reads_rows_as_dicts_or_objects(monkeypatch):
    class Row:
        d_model, d_ff, variant = 4096, 11008, "swiglu"

    models = {"as-object": Row(), "as-dict": {"d_model": 768, "d_ff": 3072, "variant": "gelu"}}
    monkeypatch.setattr(plots, "load_catalogue", lambda: models)
    fig = plots.catalogue_ratios()
    widths = sorted(round(p.get_width(), 4) for p in fig.axes[0].patches)
    assert widths == [round(11008 / 4096, 4), 4.0]


def test_matched_widths_marked_on_the_parameter_plot_come_from_the_derivations():
    from derivations.symbols import d

    fig = plots.params_vs_width()
    xs = sorted({round(line.get_xdata()[0], 6) for line in fig.axes[0].lines
                 if len(set(line.get_xdata())) == 1 and line.get_linestyle() == "--"})
    assert xs == sorted(round(float(x), 6) for x in (
        plots.matched_width("swiglu") / d, 4, plots.widths.llama_width(4096) / 4096))


def test_write_all(tmp_path):
    paths = plots.write_all(tmp_path)
    assert sorted(p.name for p in paths) == sorted(f"{n}.png" for n in plots.PLOTS)
    assert all(png_size(p.read_bytes()) == plots.pixels(p.stem) for p in paths)


def test_flop_split_bands_hold_what_their_labels_say():
    """Each band is one kind of matmul, computed from the shapes; together they are the
    derivations' training total, and the legend names each band's contents."""
    import sympy as sp

    from derivations import flops

    fig = plots.flop_split()
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert [lab.split(":")[0] for lab in labels[:4]] == ["forward matmuls (x·W_in, hidden·W_down)",
                                                         "backward", "backward", "backward"]
    assert labels[:4] == [label for _, label in plots.FLOP_BANDS[:4]]
    assert labels[4].startswith(plots.FLOP_BANDS[4][1])
    names = list(plots.variants.VARIANTS)
    bars = fig.axes[0].containers
    assert len(bars) == len(plots.FLOP_BANDS)
    for i, name in enumerate(names):
        dim = plots.D_EXAMPLE
        hh = plots.matched_width(name, sp.Integer(dim))
        parts = plots.flop_parts(name)
        assert parts["weights"] == parts["forward"] == flops.matmul_flops(name, dim, hh, 1)
        backward = flops.matmul_flops(name, dim, hh, 1, "backward")
        assert parts["input"] == backward - flops.matmul_flops(name, dim, hh, 1, "backward",
                                                               input_grad=False)
        assert parts["weights"] + parts["hidden"] + parts["input"] == backward
        assert sum(parts.values()) == flops.flops(name, dim, hh, 1, "train", count="all")
        for (key, _), bar in zip(plots.FLOP_BANDS, bars):
            # matplotlib stores a stacked bar as (bottom, bottom + value) and gives back
            # their difference: one rounding each way, at most an ulp of the bar's top
            patch, value = bar.patches[i], float(parts[key] / dim**2)
            top = patch.get_y() + patch.get_height()
            assert abs(patch.get_height() - value) <= math.ulp(top), (name, key)


# --- readability: measured extents of the drawn figure ---------------------------------

def drawn_texts(fig, with_ticks=False):
    """(text, display bbox) of every visible, non-empty label in the axes (and their legends),
    and the tick labels if asked; the figure is laid out first, as savefig does."""
    renderer = plots._renderer(fig)
    out = []
    for ax in fig.axes:
        texts = list(ax.texts)
        if ax.get_legend() is not None:
            texts.append(ax.get_legend())
        if with_ticks:
            texts += ax.get_yticklabels() + ax.get_xticklabels()
        for t in texts:
            if t.get_visible() and (not hasattr(t, "get_text") or t.get_text().strip()):
                out.append((t, t.get_window_extent(renderer)))
    return out


def overlapping(boxes, shrink=1.0):
    """Pairs of boxes that overlap by more than `shrink` pixels each way."""
    def inner(b):
        return b.expanded(1, 1).padded(-shrink)
    return [(a, b) for i, (a, ba) in enumerate(boxes) for b, bb in boxes[i + 1:]
            if inner(ba).overlaps(inner(bb))]


def hides(text, line):
    """The text is drawn above the line on an opaque ground: the line stops at it."""
    ground = getattr(text, "get_bbox_patch", lambda: None)()
    return (ground is not None and ground.get_facecolor()[3] == 1
            and text.get_zorder() > line.get_zorder())


def lines_through(fig, boxes, shrink=1.0):
    """(text, line) where a drawn line of the axes crosses a text's box and shows."""
    from matplotlib.path import Path as MplPath

    hits = []
    for ax in fig.axes:
        for line in ax.lines:
            path = line.get_transform().transform_path(line.get_path())
            if len(path.vertices) < 2:
                path = MplPath(np.repeat(path.vertices, 2, axis=0))
            for t, box in boxes:
                if t is ax.get_legend() or hides(t, line):
                    continue
                if path.intersects_bbox(box.padded(-shrink), filled=False):
                    hits.append((label(t), line.get_label()))
    return hits


def label(t):
    return t.get_text() if hasattr(t, "get_text") else type(t).__name__


def test_params_plot_labels_neither_overlap_nor_sit_on_a_line():
    fig = plots.params_vs_width()
    boxes = drawn_texts(fig)
    assert len(boxes) == 5  # three line labels, the baseline's, the legend
    assert [(label(a), label(b)) for a, b in overlapping(boxes)] == []
    assert lines_through(fig, boxes) == []
    inside = fig.axes[0].get_window_extent()
    for t, box in boxes:
        assert inside.x0 <= box.x0 and box.x1 <= inside.x1, label(t)
        assert inside.y0 <= box.y0 and box.y1 <= inside.y1, label(t)


def test_the_readability_checks_catch_a_collision_and_a_crossing():
    """The old hand-placed labels, put at one spot: the checks must see it."""
    fig = plots.params_vs_width()
    ax = fig.axes[0]
    texts = [t for t in ax.texts if t.get_rotation() == 90]
    a, b = texts[1], texts[2]  # the matched width's and the Llama rule's (8d/3 and 11008)
    b.set_position(a.get_position())
    assert overlapping(drawn_texts(fig))
    fig = plots.params_vs_width()
    t = next(t for t in fig.axes[0].texts if t.get_rotation() == 90)
    t.set_position((t.get_position()[0], 7.0))  # the 4d label across the 2dh/3dh lines
    assert any(text == t.get_text() for text, _ in lines_through(fig, drawn_texts(fig)))


def test_three_lines_too_close_to_label_are_refused():
    fig, (ax,) = plots._figure()
    ax.set(xlim=(0, 6), ylim=(0, 18))
    marks = [(x, f"line {x}", "C0", ax.axvline(x)) for x in (2.0, 2.01, 2.02)]
    with pytest.raises(ValueError, match="3 lines too close"):
        plots.place_mark_labels(fig, ax, marks)


def test_a_label_with_no_room_beside_its_line_is_refused():
    fig, (ax,) = plots._figure()
    ax.set(xlim=(0, 6), ylim=(0, 18))
    for x in np.linspace(2.02, 2.3, 15):  # a wall of lines on the label's right
        ax.axvline(x, color="grey")
    mark = ax.axvline(2.0)
    with pytest.raises(ValueError, match="no room"):
        plots.place_mark_labels(fig, ax, [(2.0, "a long label " * 3, "C0", mark)])


def test_catalogue_names_are_readable_at_any_row_count():
    models = plots.load_catalogue()
    fig = plots.catalogue_ratios()
    assert plots.pixels("catalogue_ratios")[1] == round(
        plots.DPI * (plots.CATALOGUE_MARGIN_INCHES + plots.CATALOGUE_ROW_INCHES * len(models)))
    names = [t for t in fig.axes[0].get_yticklabels() if t.get_text()]
    assert sorted(t.get_text() for t in names) == sorted(models)
    assert min(t.get_fontsize() for t in names) >= 9
    boxes = drawn_texts(fig, with_ticks=True)
    assert [(label(a), label(b)) for a, b in overlapping(boxes)] == []
    assert lines_through(fig, drawn_texts(fig)) == []
    inside = fig.axes[0].get_window_extent()
    assert all(inside.x0 <= b.x0 and b.x1 <= inside.x1 for _, b in drawn_texts(fig))
    twice = dict(models) | {f"{n}-copy": r for n, r in models.items()}  # twice the rows
    assert overlapping(drawn_texts(plots.catalogue_ratios(twice), with_ticks=True)) == []


def test_the_catalogue_check_fails_at_the_old_fixed_size():
    fig = plots.catalogue_ratios(figsize=plots.FIGSIZE)  # 43 rows in 5 inches
    assert overlapping(drawn_texts(fig, with_ticks=True))


def test_the_catalogue_is_sorted_by_ratio():
    fig = plots.catalogue_ratios()
    widths = [p.get_width() for p in fig.axes[0].patches]
    assert widths == sorted(widths) and len(widths) == len(plots.load_catalogue())


def test_a_mixture_of_experts_says_what_its_d_ff_is_and_what_a_token_uses():
    from fractions import Fraction

    dense = {"d_model": 768, "d_ff": 3072, "variant": "gelu"}
    routed = {"d_model": 30, "d_ff": 100, "variant": "swiglu", "experts": 8,
              "active_experts": 2}
    shared = routed | {"shared_d_ff": 50}
    assert plots.moe_note(dense) is None
    assert plots.moe_note(routed) == "1 of 8 experts; per token 2×100 = 200 = ≈6.667·d"
    assert plots.moe_note(shared) == (
        "1 of 8 experts; per token 2×100 + shared 50 = 250 = ≈8.333·d")
    fig = plots.catalogue_ratios({"dense": dense, "moe": shared})
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "← " + plots.moe_note(shared) in texts and "4.000" in texts
    row = plots.load_catalogue()["qwen1.5-moe-a2.7b"]  # the chart's 0.6875
    assert Fraction(row.d_ff, row.d_model) == Fraction(11, 16)
    used = row.active_experts * row.d_ff + row.shared_d_ff
    assert plots.moe_note(row) == (f"1 of {row.experts} experts; per token "
                                   f"{row.active_experts}×{row.d_ff} + shared "
                                   f"{row.shared_d_ff} = {used} = 5.500·d")
    assert Fraction(used, row.d_model) == Fraction(11, 2)


@pytest.mark.parametrize(("num", "den", "text"), [
    (11, 16, "0.6875"), (8, 3, "≈2.667"), (4, 1, "4.000"), (27, 10, "2.700"),
    (1, 3000, "≈0.000"), (43, 16, "2.6875")])
def test_ratio_text_is_exact_or_marked(num, den, text):
    import sympy as sp

    assert plots._ratio_text(sp.Rational(num, den)) == text


def test_a_reference_line_through_a_ratio_without_its_ground_is_caught():
    fig = plots.catalogue_ratios()
    for t in fig.axes[0].texts:
        if t.get_bbox_patch() is not None:
            t.set_bbox(None)
    assert lines_through(fig, drawn_texts(fig))
