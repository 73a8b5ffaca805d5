"""The benchmarks' helper logic, and the memory model check, at small sizes (normal suite).

- ffnverify.bench.gemm (was benchmarks.gemm_limit): the GEMMs of a pass are exactly the derived matmul FLOPs, with
  the operand layouts each storage convention implies;
- ffnverify.backends.numpy_ffn's blocked, threaded, in-place code gives bit for bit the results of
  the plain expressions (a reference written here the plain way), in both cache modes;
- benchmarks.memory: the measured memory of forward + backward agrees with
  derivations.memory.activation_memory, and mutants (a forward that caches one array too
  many, a backward with one (n, h) temporary too many) are caught;
- the ratio_to_gemm bookkeeping, the plot/tables, and gpu_bench's clean exit without CUDA.
"""

import json

import numpy as np
import pytest

from benchmarks import conftest as bench_conf
from benchmarks import memory, plot, recompute_ffn
from derivations.flops import flops
from derivations.variants import VARIANTS
from ffnverify.backends import numpy_ffn
from ffnverify.backends.activations import ACTIVATIONS
from ffnverify.backends.variants import lookup
from ffnverify.bench import gemm as gemm_limit

# ---------------------------------------------------------------- the GEMM limit


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("layout", gemm_limit.LAYOUTS)
def test_pass_gemms_are_the_derived_matmul_flops(variant, layout):
    d, h, n = 6, 10, 7
    for pass_ in ("forward", "backward", "train"):
        for input_grad in (True, False):
            gemms = gemm_limit.pass_gemms(variant, d, h, n, pass_, input_grad, layout)
            assert gemm_limit.total_flops(gemms) == flops(variant, d, h, n, pass_, input_grad=input_grad)
    train = gemm_limit.pass_gemms(variant, d, h, n, "train", layout=layout)
    assert len(train) == 3 * len(VARIANTS[variant].projections)


def test_pass_gemms_mutant_is_caught():
    gemms = gemm_limit.pass_gemms("swiglu", 6, 10, 7, "train")
    assert gemm_limit.total_flops(gemms[:-1]) != flops("swiglu", 6, 10, 7, "train")


@pytest.mark.parametrize("layout", gemm_limit.LAYOUTS)
def test_operands_have_the_gemm_shapes_and_layouts(layout):
    gemms = gemm_limit.pass_gemms("swiglu", 6, 10, 7, "train", layout=layout)
    for g, (a, b) in zip(gemms, gemm_limit.numpy_operands(gemms), strict=True):
        assert (a @ b).shape == (g.m, g.p)
        assert a.flags.c_contiguous != g.trans_a and b.flags.c_contiguous != g.trans_b
    # the backward of x@W reads Aᵀ (dW) and Wᵀ (dA); nn.Linear's forward reads Wᵀ
    assert [g.trans_b for g in gemms[:3]] == [layout == "linear"] * 3


def test_unknown_layout_is_rejected():
    with pytest.raises(ValueError, match="unknown layout"):
        gemm_limit.pass_gemms("relu", 2, 3, 4, layout="W@x")


def test_ratio_to_gemm_bookkeeping(monkeypatch):
    gemm_times = iter([0.9, 0.5, 0.7, 0.6])  # one per round, warm-up included

    class Stats:
        min, median = 0.625, 0.75

    class StubBenchmark:
        def __init__(self):
            self.extra_info, self.stats = {}, None

        def pedantic(self, target, setup, rounds, warmup_rounds):
            for _ in range(rounds + warmup_rounds):
                setup()
                target()
            self.stats = type("Meta", (), {"stats": Stats})

    monkeypatch.setattr(bench_conf, "gemm_round", lambda ops, mm: next(gemm_times))
    calls = []
    b = StubBenchmark()
    info = {"flops": 10**9}
    bench_conf.run_against_gemms(b, lambda: calls.append(1), None, [], None, info, rounds=3)
    assert len(calls) == 4
    e = b.extra_info
    assert e["ratio_to_gemm"] == pytest.approx(0.5 / 0.625)  # fastest GEMM round / fastest run
    assert e["ratio_to_gemm_median"] == pytest.approx(0.65 / 0.75)
    assert e["gflops"] == pytest.approx(1 / 0.625) and e["gemm_gflops"] == pytest.approx(2.0)


# ------------------------------------------------ numpy_ffn == the plain expressions


def plain_forward(variant, w, x):
    act_name, gated = lookup(variant)
    act = ACTIVATIONS[act_name][0]
    x2 = x.reshape(-1, x.shape[-1])
    lin = lambda a, p: a @ w[f"W_{p}"] + w[f"b_{p}"] if f"b_{p}" in w else a @ w[f"W_{p}"]
    cache = {"x": x2, "z_up": lin(x2, "up")}
    if gated:
        cache["z_gate"] = lin(x2, "gate")
        cache["a"] = act(cache["z_gate"])
        cache["p"] = hidden = cache["a"] * cache["z_up"]
    else:
        cache["a"] = hidden = act(cache["z_up"])
    y = lin(hidden, "down")
    return y.reshape(*x.shape[:-1], y.shape[-1]), cache


def plain_backward(variant, w, cache, dy):
    act_name, gated = lookup(variant)
    dact = ACTIVATIONS[act_name][1]
    x2, dy2 = cache["x"], dy.reshape(-1, dy.shape[-1])
    hidden = cache["p"] if gated else cache["a"]
    grads = {"W_down": hidden.T @ dy2}
    dh = dy2 @ w["W_down"].T
    if gated:
        dz = {"gate": dh * cache["z_up"] * dact(cache["z_gate"]), "up": dh * cache["a"]}
    else:
        dz = {"up": dh * dact(cache["z_up"])}
    dx = 0
    for p, g in dz.items():
        grads[f"W_{p}"] = x2.T @ g
        dx = g @ w[f"W_{p}"].T if p == next(iter(dz)) else dx + g @ w[f"W_{p}"].T
        if f"b_{p}" in w:
            grads[f"b_{p}"] = g.sum(axis=0)
    if "b_down" in w:
        grads["b_down"] = dy2.sum(axis=0)
    grads["x"] = dx
    return grads


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_numpy_ffn_is_bitwise_the_plain_expressions(variant, dtype, monkeypatch):
    monkeypatch.setattr(numpy_ffn, "BLOCK_ELEMENTS", 64)  # many blocks
    rng = np.random.default_rng(3)
    d, h = 5, 24
    for bias in (False, True):
        w = numpy_ffn.init_weights(variant, d, h, bias, dtype, rng=4)
        x = (rng.standard_normal((3, 13, d)) * 4).astype(dtype)
        dy = rng.standard_normal((3, 13, d)).astype(dtype)
        y0, c0 = plain_forward(variant, w, x)
        y1, c1 = numpy_ffn.forward(variant, w, x)
        assert np.array_equal(y0, y1), f"{variant} {bias}: forward differs from the plain one"
        assert set(c1) == set(c0) | {"shape"}
        for free_cache in (False, True):
            g0 = plain_backward(variant, w, c0, dy)
            g1 = numpy_ffn.backward(variant, w, c1, dy, free_cache=free_cache)
            assert set(g1) == set(g0)
            for k in g0:
                assert np.array_equal(g0[k].reshape(g1[k].shape), g1[k]), (
                    f"{variant} bias={bias} free_cache={free_cache}: grad {k} differs")
            assert (c1 == {}) == free_cache, "free_cache empties the cache, and only it does"


def test_fast_sigmoid_is_bitwise_np_activations():
    special = [0.0, -0.0, 1e-45, -1e-45, 88.7, -88.7, -104.0, 710.0, -746.0, np.inf, -np.inf, np.nan]
    rng = np.random.default_rng(0)
    for dtype in (np.float32, np.float64):
        z = np.concatenate([rng.standard_normal(4000) * s for s in (1, 30, 1e4)] + [special])
        z = z.astype(dtype)
        for name in ("sigmoid", "silu"):
            for fast, ref in zip(numpy_ffn._FAST[name], ACTIVATIONS[name], strict=True):
                with np.errstate(invalid="ignore"):  # silu(±inf) = ±inf·σ: nan both ways
                    assert np.array_equal(fast(z), ref(z), equal_nan=True), f"{name} {dtype}"
                    assert fast(z).dtype == dtype


def test_sigmoid_identity_check_catches_a_mutant():
    z = np.linspace(-30, 30, 2001, dtype=np.float32)
    naive = (1 / (1 + np.exp(-z.astype(np.float64)))).astype(np.float32)  # rounds differently
    assert not np.array_equal(naive, ACTIVATIONS["sigmoid"][0](z))


def test_recompute_variant_matches_numpy_ffn():
    # float64; only the order of the dW_down sum over row blocks differs, so the
    # difference is bounded by the classic GEMM bound 2·n·u·(|hidden|ᵀ|dy|), n = tokens
    rng = np.random.default_rng(5)
    n, d, h = 200, 8, 24
    u = np.finfo(np.float64).eps / 2
    for variant in ("relu", "gelu", "swiglu", "bilinear"):
        w = numpy_ffn.init_weights(variant, d, h, rng=6)
        x, dy = rng.standard_normal((n, d)), rng.standard_normal((n, d))
        y0, c0 = numpy_ffn.forward(variant, w, x)
        hidden = np.abs(c0["p" if "p" in c0 else "a"])
        g0 = numpy_ffn.backward(variant, w, c0, dy)
        y1, c1 = recompute_ffn.forward(variant, w, x)
        assert set(c1) == {"x", "shape", "z_up"} | ({"z_gate"} if "z_gate" in c0 else set())
        g1 = recompute_ffn.backward(variant, w, c1, dy)
        assert c1 == {}
        bound = 2 * n * u * (hidden.T @ np.abs(dy))
        assert np.all(np.abs(g1["W_down"] - g0["W_down"]) <= bound)
        gamma = n * (d + h) * u  # normwise bound for the chain of GEMMs over n, d and h
        assert np.abs(y1 - y0).max() <= gamma * np.abs(y0).max()
        for k in set(g0) - {"W_down"}:
            assert np.abs(g1[k] - g0[k]).max() <= gamma * np.abs(g0[k]).max(), f"{variant} {k}"


# --------------------------------------------------------- the memory model check

N, D, H = 1024, 32, 256


@pytest.fixture
def small_blocks(monkeypatch):
    monkeypatch.setattr(numpy_ffn, "BLOCK_ELEMENTS", 1 << 10)
    monkeypatch.setattr(recompute_ffn, "ROWS", 32)


@pytest.mark.parametrize("variant", ["relu", "gelu", "swiglu", "bilinear"])
@pytest.mark.parametrize("convention", ["store", "recompute"])
def test_measured_memory_is_the_derived_activation_memory(variant, convention, small_blocks):
    r = memory.numpy_memory(variant, D, H, N, convention=convention, free_cache=True)
    assert r["derived"] == memory.derived_bytes(variant, D, H, N, convention)
    assert abs(r["saved"] - r["derived"]) <= 0.01 * r["derived"], r
    assert r["saved"] <= r["peak_extra"] <= 1.1 * r["derived"], r


@pytest.mark.parametrize("variant", ["relu", "swiglu"])
def test_non_consuming_backward_peak_is_two_more_hidden_buffers(variant, small_blocks):
    r = memory.numpy_memory(variant, D, H, N, free_cache=False)
    extra_buffers = 2 if lookup(variant)[1] else 1  # dh (and dz_up): the cache stays intact
    expected = r["derived"] + extra_buffers * N * H * 4
    assert abs(r["peak_extra"] - expected) <= 0.05 * r["derived"], (r, expected)


class _Leaky:
    """Mutant: the forward caches one (n, h) array more than the convention."""

    @staticmethod
    def forward(variant, weights, x):
        y, cache = numpy_ffn.forward(variant, weights, x)
        cache["extra"] = cache["z_up"].copy()
        return y, cache

    @staticmethod
    def backward(variant, weights, cache, dy, input_grad=True, free_cache=False):
        grads = numpy_ffn.backward(variant, weights, cache, dy, input_grad, free_cache)
        return grads


class _Wasteful:
    """Mutant: the backward holds an (n, h) scratch buffer through the whole pass."""

    forward = staticmethod(numpy_ffn.forward)

    @staticmethod
    def backward(variant, weights, cache, dy, input_grad=True, free_cache=False):
        scratch = np.ones_like(cache["z_up"])
        grads = numpy_ffn.backward(variant, weights, cache, dy, input_grad, free_cache)
        scratch += 1
        return grads


def test_memory_check_catches_mutants(small_blocks):
    leaky = memory.numpy_memory("swiglu", D, H, N, impl=_Leaky)
    assert leaky["saved"] - leaky["derived"] >= N * H * 4 * 0.99
    wasteful = memory.numpy_memory("swiglu", D, H, N, impl=_Wasteful)
    assert abs(wasteful["saved"] - wasteful["derived"]) <= 0.01 * wasteful["derived"]
    assert wasteful["peak_extra"] > 1.1 * wasteful["derived"]


@pytest.mark.parametrize("variant", ["relu", "gelu", "swiglu"])
def test_torch_eager_memory(variant):
    pytest.importorskip("torch", reason="needs PyTorch")
    r = memory.torch_memory(variant, D, H, N)
    nh = N * H * 4
    # autograd keeps relu's output (relu' is read from it) instead of its input
    expected = r["derived"] - nh if variant == "relu" else r["derived"]
    assert r["saved"] == expected, r
    assert r["saved"] <= r["peak_extra"] <= 1.1 * (r["derived"] + 2 * nh), r


# ------------------------------------------------------------------ plot and gpu script


def _fake_run():
    bench = lambda e, t: {"extra_info": e, "stats": {"min": t, "median": t * 1.1, "rounds": 5}}
    ffn = [dict(backend=b, variant=v, shape="small", n=8, d=4, h=8, gflops=10.0,
                gemm_gflops=11.0, ratio_to_gemm=0.9, ratio_to_gemm_median=0.88, **{"pass": p})
           for b in ("numpy", "torch") for v in ("relu", "swiglu") for p in ("forward", "fwd+bwd")]
    mem = dict(impl="numpy", variant="swiglu", derived=100, saved=100, peak_extra=104,
               saved_ratio=1.0, peak_ratio=1.04, meets_target=True)
    return {"machine_info": {"cpu_model": "X", "blas": []}, "datetime": "now",
            "benchmarks": [bench(e, 0.01) for e in ffn] + [bench(mem, 1.0)]}


def test_plot_tables_and_png(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="the plot needs matplotlib (the bench extra)")
    storage = tmp_path / "store" / "Linux-CPython"
    storage.mkdir(parents=True)
    (storage / "0001_run.json").write_text(json.dumps(_fake_run()))
    png = tmp_path / "out.png"
    assert plot.main(["--storage", str(tmp_path / "store"), "--output", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = capsys.readouterr().out
    assert out.count("| small | numpy |") == 4 and "**0.900**" in out
    assert "| numpy | swiglu | 0.0 | 0.0 | 1.000 |" in out


def test_plot_without_runs_says_so(tmp_path):
    with pytest.raises(FileNotFoundError, match="tox -e bench"):
        plot.latest_json(tmp_path)


def test_gpu_bench_exits_cleanly_without_cuda(capsys):
    torch = pytest.importorskip("torch", reason="without torch it exits before CUDA")
    if torch.cuda.is_available():
        pytest.skip("a CUDA device is present: the script would run for real")
    from benchmarks import gpu_bench

    assert gpu_bench.main([]) == 0
    assert "no CUDA device" in capsys.readouterr().out


def test_readme_section_is_replaced_and_only_it(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# T\n<!-- bench:start -->\nold\n<!-- bench:end -->\ntail\n")
    data = _fake_run()
    ffn = plot.rows(data, "ratio_to_gemm")
    for r in ffn:
        r["shape"] = "llm"
    plot.write_readme(readme, plot.summary(data, ffn, plot.rows(data, "peak_ratio")))
    text = readme.read_text()
    assert text.startswith("# T\n<!-- bench:start -->\n") and text.endswith("<!-- bench:end -->\ntail\n")
    assert "old" not in text and "| swiglu | fwd+bwd | 10 | 0.900 | 10 | 0.900 |" in text
    (tmp_path / "bare.md").write_text("no markers\n")
    with pytest.raises(ValueError, match="bench:start"):
        plot.write_readme(tmp_path / "bare.md", "x")
