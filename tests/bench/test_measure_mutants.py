"""ffnverify.bench.measure, on what the first mutation run of the kit area (issue 26,
docs/mutation.md) showed no selected test checked: a factory target measured with
biases is built with them."""

import pytest

from derivations.params import params
from ffnverify.bench import measure

torch = pytest.importorskip("torch", reason="a factory target is a torch module")

pytestmark = pytest.mark.torch


@pytest.mark.parametrize("bias", [False, True])
def test_a_factory_target_is_built_with_the_bias_asked_for(bias):
    # kills measure.make_runner mutmut_40 (bias=None handed to build_module: a biased
    # module is timed without its biases, and the bench reports the wrong module)
    from ffnverify.backends.torch_ffn import FFN

    def factory(d, h, b):
        return FFN("swiglu", d, h, bias=b)

    d, h = 4, 6
    runner = measure.make_runner(factory, "swiglu", "hf", 3, d, h, bias=bias)
    count = sum(p.numel() for p in runner.m.parameters())
    assert count == params("swiglu", d, h, bias)  # 3dh, plus 2h + d with the biases
    assert any(name.endswith("bias") for name, _ in runner.m.named_parameters()) == bias
