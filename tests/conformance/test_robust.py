"""Real modules: every failure is a ConformanceFailure naming a check (factory, forward,
several at once), adapters for other forwards, shape constraints, train mode, big draws."""

import pytest

torch = pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from torch import nn  # noqa: E402

from ffnverify.cli import main  # noqa: E402
from ffnverify.testing import check_example, check_ffn, megatron_call  # noqa: E402
from ffnverify.testing import conformance as C  # noqa: E402

from .zoo import HF, SwiGLU  # noqa: E402

pytestmark = pytest.mark.torch


def broken_factory(d, h, bias=False):
    raise RuntimeError("config rejects this width")


class ForwardRaises(SwiGLU):
    def forward(self, x):
        if x.dim() == 3:
            raise ValueError("expects (n, d)")
        return super().forward(x)


def test_factory_exception_is_a_factory_failure():
    with pytest.raises(C.ConformanceFailure) as info:
        check_ffn(broken_factory, "swiglu", "hf", bias=False, max_examples=2)
    assert info.value.check == "factory" and "config rejects" in info.value.report()


def test_forward_exception_names_the_check():
    with pytest.raises(C.ConformanceFailure) as info:
        check_ffn(ForwardRaises, "swiglu", "hf", bias=False, max_examples=3, shrink=False)
    assert info.value.check == "independence"
    assert "forward raised ValueError: expects (n, d)" in info.value.report()


class FailsTwoWays(SwiGLU):
    """Wrong in two distinct ways, by shape: Hypothesis reports both (an ExceptionGroup)."""

    def forward(self, x):
        y = super().forward(x)
        if x.shape[-1] % 2:
            raise RuntimeError("odd width")
        return y * 1.01


def test_several_failures_at_once_are_one_conformance_failure():
    with pytest.raises(C.ConformanceFailure) as info:
        check_ffn(FailsTwoWays, "swiglu", "hf", bias=False, max_examples=30)
    text = info.value.report()
    assert text.startswith("FFN conformance failure: check '")
    if info.value.others:  # Hypothesis found both
        assert "other distinct failure" in text and len(info.value.others) >= 1
        assert all(isinstance(o, C.ConformanceFailure) for o in info.value.others)


def test_cli_prints_no_traceback(capsys, tmp_path, monkeypatch):
    mod = tmp_path / "brokenmods.py"
    mod.write_text("def factory(d, h, bias=False):\n    raise KeyError('nope')\n")
    monkeypatch.chdir(tmp_path)
    code = main(["check", "brokenmods:factory", "--variant", "swiglu", "--layout", "hf",
                 "--max-examples", "2"])
    out = capsys.readouterr()
    assert code == 1 and "Traceback" not in out.out + out.err
    assert "check 'factory'" in out.out
    code = main(["check", "brokenmods:factory", "--variant", "swiglu", "--max-examples", "2"])
    out = capsys.readouterr()
    assert code == 1 and "Traceback" not in out.out + out.err


class MegatronLike(nn.Module):
    """forward(x) -> (output, output_bias) with the bias not yet added (skip_bias_add)."""

    def __init__(self, d, h, bias=True):
        super().__init__()
        self.linear_fc1 = nn.Linear(d, 2 * h, bias=bias)
        self.linear_fc2 = nn.Linear(h, d, bias=False)
        self.fc2_bias = nn.Parameter(torch.zeros(d)) if bias else None

    def forward(self, x):
        g, u = self.linear_fc1(x).chunk(2, dim=-1)
        return self.linear_fc2(nn.functional.silu(g) * u), None


def test_tuple_returns_with_none_and_megatron_call():
    report = check_ffn(MegatronLike, "swiglu", bias=False, max_examples=3)
    assert report.layout == "megatron"

    def strict(module, x):
        return module(x)[0]
    assert check_ffn(MegatronLike, "swiglu", bias=False, max_examples=2, call=strict)

    class Pair(nn.Module):  # megatron-core with skip_bias_add: (x W2ᵀ, b2)
        def __init__(self, d, h, bias=True):
            super().__init__()
            self.linear_fc1 = nn.Linear(d, 2 * h, bias=bias)
            self.linear_fc2 = nn.Linear(h, d, bias=bias)

        def forward(self, x):
            g, u = self.linear_fc1(x).chunk(2, dim=-1)
            hidden = nn.functional.silu(g) * u
            return nn.functional.linear(hidden, self.linear_fc2.weight), self.linear_fc2.bias
    check_ffn(Pair, "swiglu", "megatron", bias=True, max_examples=2, call=megatron_call)
    with pytest.raises(C.ConformanceFailure, match="megatron_call"):
        check_ffn(Pair, "swiglu", "megatron", bias=True, max_examples=2)


class TrainOnlyBug(SwiGLU):
    def forward(self, x):
        y = super().forward(x)
        return y * 1.5 if self.training else y


def test_a_training_only_code_path_is_caught():
    with pytest.raises(C.ConformanceFailure) as info:
        check_ffn(TrainOnlyBug, "swiglu", "hf", bias=False, max_examples=3, shrink=False)
    assert info.value.check == "train-mode"


class WithDropout(HF):
    def __init__(self, d, h, bias=False):
        super().__init__("swiglu", d, h, bias)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        return self.drop(super().forward(x))


def test_dropout_is_set_to_zero_in_train_mode():
    check_ffn(WithDropout, "swiglu", "hf", bias=False, max_examples=3)


def test_shape_constraints_are_respected():
    seen = set()

    def picky(d, h, bias=False):
        assert d % 4 == 0 and h == 3 * d, (d, h)
        seen.add((d, h))
        return HF("swiglu", d, h, bias)
    check_ffn(picky, "swiglu", bias=False, max_examples=5, d_multiple_of=4,
              h_of=lambda d: 3 * d)
    assert seen and all(d % 4 == 0 for d, _ in seen)


class NoDeepcopy(SwiGLU):
    def __deepcopy__(self, memo):
        raise TypeError("cannot deepcopy this module")


def test_no_deepcopy_requirement():
    check_ffn(NoDeepcopy, "swiglu", "hf", bias=False, max_examples=3)


class OnlyBig(SwiGLU):
    """Wrong only for n > 8 or h > 128: the draws the kit missed before."""

    def forward(self, x):
        y = super().forward(x)
        big = x.reshape(-1, x.shape[-1]).shape[0] > 8 or self.up_proj.out_features > 128
        return y * 1.01 if big else y


def test_larger_draws_reach_bugs_that_only_show_there():
    with pytest.raises(C.ConformanceFailure) as info:
        check_ffn(OnlyBig, "swiglu", "hf", bias=False, max_examples=40, shrink=False)
    c = info.value.case
    assert c.n > 8 or c.h > 128


def test_batch_and_sequence_shapes_are_drawn():
    shapes = []

    class Spy(SwiGLU):
        def forward(self, x):
            shapes.append(tuple(x.shape))
            return super().forward(x)
    check_example(Spy, "swiglu", "hf", False, seed=1, d=3, h=5, n=6)
    assert (2, 3, 3) in shapes


class TimmLikeMlp(nn.Module):
    """timm Mlp(bias=(True, False)): fc1 with a bias, fc2 without."""

    def __init__(self, d, h, bias):
        super().__init__()
        self.fc1 = nn.Linear(d, h, bias=bias["up"])
        self.act = nn.GELU()
        self.fc2 = nn.Linear(h, d, bias=bias["down"])

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


def test_per_projection_bias_flags():
    setting = {"up": True, "down": False}
    report = check_ffn(TimmLikeMlp, "gelu", bias=setting, max_examples=3)
    assert report.layout == "fc" and report.examples == {"up=True, down=False": 3}

    def ignores(d, h, bias):
        return TimmLikeMlp(d, h, {"up": True, "down": True})
    with pytest.raises(C.ConformanceFailure) as info:
        check_ffn(ignores, "gelu", "fc", bias=setting, max_examples=2)
    assert info.value.check == "params"
