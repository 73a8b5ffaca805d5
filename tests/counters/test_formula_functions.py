"""Public FLOP formula functions, run as code (not transcribed) where the package is light.

transformers' `Trainer.floating_point_ops(inputs)` is 6 x the tokens of `input_ids` x the
model's non-embedding parameter count. Run on an FFN built on the meta device (no memory,
so the full default range of shapes), it is exact for the training matmul FLOPs without
bias, and charges 6 FLOPs per bias parameter per token with bias: a bias is an add, not
part of a matmul.
"""

from types import SimpleNamespace

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from ffnverify.testing.counters import check_counter  # noqa: E402


def hf_training_flops(d, h, batch, seq, bias, gated):
    from torch import nn
    from transformers.modeling_utils import ModuleUtilsMixin

    class FFN(ModuleUtilsMixin, nn.Module):
        main_input_name = "input_ids"

        def __init__(self):
            super().__init__()
            kw = {"bias": bias, "device": "meta"}
            if gated:
                self.gate_proj = nn.Linear(d, h, **kw)
            self.up_proj = nn.Linear(d, h, **kw)
            self.down_proj = nn.Linear(h, d, **kw)

    inputs = {"input_ids": torch.empty(batch, seq, dtype=torch.long, device="meta")}
    return transformers.Trainer.floating_point_ops(SimpleNamespace(model=FFN()), inputs)


@pytest.mark.parametrize("variant", ["gelu", "swiglu"])
def test_trainer_floating_point_ops_is_6N(variant):
    exact = check_counter(hf_training_flops, "flops", variant, pass_="train", bias=False,
                          fixed={"bias": False}, max_examples=40, max_dim=4096,
                          args="d=d,h=h,batch=batch,seq=seq,gated=gated")
    assert exact.ok, exact.report()
    with_bias = check_counter(hf_training_flops, "flops", variant, pass_="train", bias=True,
                              fixed={"bias": True}, max_examples=40, max_dim=4096,
                              args="d=d,h=h,batch=batch,seq=seq,gated=gated")
    assert with_bias.explanation.key == "bias_term", with_bias.report()
    assert "+ 6 per bias parameter per token" in with_bias.explanation.title
