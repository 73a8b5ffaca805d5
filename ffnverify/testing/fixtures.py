"""pytest fixtures of the conformance kit (registered by ffnverify.pytest_plugin).

    def test_my_mlp(ffn_conformance):
        ffn_conformance(my_factory, "swiglu", layout="hf")

The fixture returns `ffnverify.testing.check_ffn`; a non-conformance fails the test with
the kit's report. torch and hypothesis are imported only when the fixture is used, so the
plugin costs nothing in environments without them.
"""

import pytest


@pytest.fixture
def ffn_conformance():
    """`check_ffn(factory, variant, layout=..., bias=..., dtypes=..., max_examples=...)`."""
    pytest.importorskip("torch", reason="the FFN conformance kit needs PyTorch")
    pytest.importorskip("hypothesis", reason="the FFN conformance kit needs hypothesis")
    from ffnverify.testing.conformance import check_ffn

    return check_ffn
