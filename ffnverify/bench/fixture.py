"""The `ffn_bench` pytest fixture (registered by ffnverify.pytest_plugin): `ffnverify bench`
inside a user's test, so CI can hold an FFN to a fraction of its GEMM limit.

    def test_my_mlp_speed(ffn_bench):
        r = ffn_bench("mypkg.mlp:factory", "swiglu", (2048, 1024, 2816), layout="auto")
        assert r.ratio_to_gemm >= 0.8
        assert r.memory.convention == "store"

The fixture returns a function with the arguments of `ffnverify.bench.measure.bench` for one
shape and one pass (default "train"), returning its `Result`. Each result is recorded in the
test's `user_properties` (JUnit XML keeps it). If the test also requests pytest-benchmark's
`benchmark` fixture, the module's pass is timed by `benchmark.pedantic` as well and the
figures go to `benchmark.extra_info`, so `--benchmark-autosave` / `--benchmark-compare`
keep their history.
"""

import pytest

SCALARS = ("flops", "gflops", "gemm_gflops", "ratio_to_gemm", "ratio_to_gemm_median", "gemm_s")


@pytest.fixture
def ffn_bench(request):
    """`ffn_bench(target, variant, (n, d, h), pass_="train", layout="auto", dtype="float32",
    device="cpu", bias=False, rounds=10, warmup=2) -> Result`."""
    from ffnverify.bench import measure

    def run(target, variant, shape, pass_="train", layout="auto", dtype="float32", device="cpu",
            bias=False, rounds=measure.DEFAULT_ROUNDS, warmup=measure.DEFAULT_WARMUP):
        if target != "numpy":
            pytest.importorskip("torch", reason="ffn_bench of a torch module needs PyTorch")
        (res,) = measure.bench(target, variant, [tuple(shape)], layout, dtype, device, (pass_,),
                               bias, rounds, warmup)
        request.node.user_properties.append(("ffn_bench", res.as_dict()))
        if "benchmark" in request.fixturenames:
            benchmark = request.getfixturevalue("benchmark")
            n, d, h = shape
            runner = measure.make_runner(target, variant, layout, n, d, h, bias, dtype, device)
            fn, before = runner.passes()[pass_]
            benchmark.extra_info.update({k: getattr(res, k) for k in SCALARS})
            if res.memory is not None:
                benchmark.extra_info.update(saved_elements=res.memory.saved_elements,
                                            convention=res.memory.convention,
                                            peak_extra_bytes=res.memory.peak_extra_bytes)
            benchmark.pedantic(fn, setup=before, rounds=rounds, warmup_rounds=warmup)
        return res

    return run
