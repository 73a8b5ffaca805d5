"""The figures: each is a real, non-blank PNG of the declared size; the catalogue figure
tolerates a missing catalogue."""

import io
import math
import struct

import pytest

pytest.importorskip("matplotlib", reason="matplotlib is in the docs extra: pip install -e .[docs]")

from docs_build import plots  # noqa: E402

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
    assert png_size(data) == (plots.WIDTH, plots.HEIGHT)
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
    assert all(png_size(p.read_bytes()) == (plots.WIDTH, plots.HEIGHT) for p in paths)


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
