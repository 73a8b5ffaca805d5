"""The kit's identify and layout tables, on what the first mutation run of the kit area
(issue 26, docs/mutation.md) showed no selected test checked: the summary and JSON of an
identification, the reproducer commands (they must run as printed), a diagnosis through a
`call=` adapter and of a routed expert, and the experts' row blocks."""

import ast
import contextlib
import io
import shlex

import pytest

torch = pytest.importorskip("torch", reason="the conformance kit needs PyTorch")

from ffnverify.cli import main  # noqa: E402
from ffnverify.testing import identify_ffn, layouts  # noqa: E402
from ffnverify.testing.identify import Candidate, Identification, reproducer  # noqa: E402

from . import experts  # noqa: E402
from .broken import MegatronScaled, first_output  # noqa: E402
from .zoo import HF, GateUpSwapped, SwiGLU, correct  # noqa: E402

pytestmark = pytest.mark.torch


def _stdout(fn, *args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = fn(*args)
    return code, out.getvalue()


# ---------------------------------------------------------------- the summary and JSON


@pytest.mark.parametrize("bias", [False, True])
def test_the_summary_names_the_biases_the_module_has(bias):
    # kills identify.Identification.summary mutmut_1 (the bias list printed as None)
    found = identify_ffn(correct(HF, "swiglu"), bias=bias)
    assert found.bias == dict.fromkeys(("gate", "up", "down"), bias)
    expected = "gate, up, down" if bias else "none"
    assert f"biases: {expected};" in found.summary(), found.summary()


def test_a_summary_without_a_runner_up_says_nothing_of_one():
    # kills Identification.summary mutmut_7 ("None" printed for the missing runner-up)
    best = Candidate("relu", "hf", 1e-17, True, "relu")
    text = Identification(4, 6, {"up": False, "down": False}, best, None, None, [best]).summary()
    assert "runner-up" not in text and "None" not in text, text
    assert text.startswith("variant relu (activation relu), layout hf, biases: none;")


def test_the_json_names_the_runner_up_it_found():
    # kills Identification.as_dict mutmut_23 (the "runner_up" key misspelt)
    found = identify_ffn(correct(HF, "gelu"), bias=False)
    data = found.as_dict()
    assert data["runner_up"] == {"variant": found.runner_up.variant,
                                 "layout": found.runner_up.layout,
                                 "activation": found.runner_up.activation,
                                 "error": found.runner_up.error,
                                 "within_bound": found.runner_up.within}
    assert data["best"]["variant"] == "gelu" and data["runner_up"]["variant"] != "gelu"


# ---------------------------------------------------------------- reproducers run as printed


def test_the_command_reproducer_carries_the_call_adapter():
    # kills identify.reproducer mutmut_1 (the importable call= adapter dropped: the command
    # would not be the `ffnverify identify` one, and could not run the module)
    target = f"{MegatronScaled.__module__}:MegatronScaled"
    found = identify_ffn(MegatronScaled, bias=False, call=first_output, target=target)
    cmd = reproducer(MegatronScaled, target, found.d, found.h, False, call=first_output)
    argv = shlex.split(cmd)
    assert argv[:3] == ["ffnverify", "identify", target], cmd
    assert argv[argv.index("--call") + 1] == f"{first_output.__module__}:first_output"
    code, out = _stdout(main, argv[1:])
    assert code == 1 and out.strip() == found.summary().strip()


def _identify_call(cmd):
    """The identify_ffn call of a `python -c "..."` reproducer, parsed (never run here),
    and the names its imports bind."""
    head = 'python -c "'
    assert cmd.startswith(head) and cmd.endswith('"'), cmd
    tree = ast.parse(cmd[len(head):-1])
    imported = {a.asname or a.name for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) for a in node.names}
    call = next(node for node in ast.walk(tree) if isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "identify_ffn")
    return call, imported


def test_the_python_reproducer_calls_the_factory_by_its_name():
    # kills identify.reproducer mutmut_40 (the factory's own name replaced by "factory")
    cmd = reproducer(GateUpSwapped, None, 4, 6, False)
    call, imported = _identify_call(cmd)
    assert isinstance(call.args[0], ast.Name) and call.args[0].id == "GateUpSwapped", cmd
    assert {k.arg: ast.literal_eval(k.value) for k in call.keywords} == {
        "d": 4, "h": 6, "bias": False}
    assert "identify_ffn" in imported


def test_the_python_reproducer_names_an_adapter_that_cannot_be_imported():
    # kills identify.reproducer mutmut_76 (the adapter's own name replaced by "call")
    def adapter(module, x):
        return module(x)[0]

    adapter.__qualname__ = "adapter"  # defined here: not importable from this module
    target = f"{MegatronScaled.__module__}:MegatronScaled"
    cmd = reproducer(MegatronScaled, target, 4, 6, False, call=adapter)
    call, imported = _identify_call(cmd)
    assert call.args[0].id == "MegatronScaled" and "MegatronScaled" in imported, cmd
    given = {k.arg: k.value for k in call.keywords}
    assert isinstance(given["call"], ast.Name) and given["call"].id == "adapter", cmd


# ---------------------------------------------------------------- diagnoses


class _ScaledWithMask(SwiGLU):
    """A forward that takes a second argument (a mask it ignores); the output scaled."""

    def forward(self, x, mask):
        return super().forward(x) * 1.01


def _with_mask(module, x):
    return module(x, None)


def test_a_diagnosis_reaches_the_module_through_its_call_adapter():
    # kills identify._diagnose mutmut_38 (call= left out of the diagnosis' case: the
    # module's forward then lacks its second argument, and nothing is diagnosed)
    found = identify_ffn(_ScaledWithMask, bias=False, call=_with_mask)
    assert found.best is None
    assert {d.kind for d in found.diagnoses} == {"scale"}, found.summary()
    assert "1.01" in found.summary()


class _ScaledLLaMAMoE(experts.LLaMAMoECopy):
    def forward(self, x):
        return super().forward(x) * 1.01


def test_a_routed_experts_diagnosis_leaves_the_router_out():
    # kills identify._diagnose mutmut_43 (the experts layout handed on as its table, which
    # loses the layout's name and with it the router it leaves out of the FFN)
    found = identify_ffn(_ScaledLLaMAMoE, bias=False, experts=0)
    assert found.best is None and found.closest.layout == "litgpt-moe", found.summary()
    assert {d.kind for d in found.diagnoses} == {"scale"}, found.summary()


# ---------------------------------------------------------------- experts' row blocks


def _stacked(E, h, d):
    """An (E·h, d) weight whose every element says where it is: row r holds 1000·r + col."""
    return torch.arange(E * h * d, dtype=torch.float64).reshape(E * h, d)


@pytest.mark.parametrize("expert", [0, 1, 2])
def test_an_expert_table_reads_its_own_row_block(expert):
    # kills layouts.expert_table mutmut_16 (lo=None: "[None:hi]" reads no row block)
    E, h, d = 3, 4, 5
    w = _stacked(E, h, d)
    table = layouts.expert_table("dbrx-experts", expert, h)
    for name in ("W_gate", "W_up"):
        got = layouts.apply_transform(table[name][1], w)
        assert torch.equal(got, w[expert * h:(expert + 1) * h].T)
    assert torch.equal(layouts.apply_transform(table["W_down"][1], w),
                       w[expert * h:(expert + 1) * h])


def test_mapping_of_a_stacked_experts_layout_uses_the_hidden_width():
    # kills layouts.mapping mutmut_11 (h not passed on: rows 0:0, an empty block)
    E, h, d = 3, 4, 5
    w = _stacked(E, h, d)
    table = layouts.mapping(True, "dbrx-experts", expert=2, h=h)
    assert table == layouts.expert_table("dbrx-experts", 2, h)
    assert torch.equal(layouts.apply_transform(table["W_down"][1], w), w[8:12])


@pytest.mark.parametrize("text, named", [
    ('{"W_mid": ["fc.weight", "T"]}', "'W_mid'"),
    ('{"W_up": ["fc.weight", "T", "extra"]}', "'W_up'"),
    ('{"b_up": [1]}', "'b_up'"),
])
def test_a_bad_layout_mapping_is_refused_naming_the_entry(text, named):
    # kills layouts.parse mutmut_10 and mutmut_24 (ValueError(None): no word of what is wrong)
    with pytest.raises(ValueError) as info:
        layouts.parse(text)
    assert named in str(info.value)
