"""The claim language, on what the first mutation run of the language area (issue 26,
docs/mutation.md) showed no selected test checked: where an unreadable path's error
points, the example a grouping error gives, what an error names, and the Python defaults
of the model functions (a direct call must give what a claim gives)."""

import inspect
import re

import pytest
import sympy as sp

from ffnverify.claims import model_functions
from ffnverify.claims.errors import ClaimError
from ffnverify.claims.files import collect
from ffnverify.claims.parser import ClaimSyntaxError, Num, parse
from ffnverify.claims.signatures import REQUIRED, SIGNATURES

# ---------------------------------------------------------------- files


def test_a_missing_path_is_one_error_at_line_1_col_1(tmp_path):
    # kills files.collect mutmut_52 (the column left None)
    [claim] = collect([tmp_path / "missing.md"])
    assert (claim.line, claim.col, claim.problem) == (1, 1, "no such file or folder")


def test_a_path_the_system_cannot_stat_is_one_error_at_line_1_col_1(tmp_path):
    # kills files.collect mutmut_15 (the column left out: the message taken for it)
    name = tmp_path / ("x" * 5000 + ".md")  # past NAME_MAX: stat raises ENAMETOOLONG
    [claim] = collect([name])
    assert (claim.line, claim.col) == (1, 1)
    assert claim.problem.startswith("cannot read: ")


# ---------------------------------------------------------------- lexer and parser


@pytest.mark.parametrize("sep", [",", "\u202f", "\u2009"])
def test_a_grouping_error_gives_an_example_that_reads_as_one_number(sep):
    # kills lexer._grouped mutmut_13 (the example's middle group garbled)
    with pytest.raises(ClaimSyntaxError) as info:
        parse(f"1{sep}23 == 123")
    example = re.search(r"as in (\S+?)[;)]", info.value.message.replace(sep, "_SEP_"))
    assert example, info.value.message
    node = parse(example.group(1).replace("_SEP_", sep))
    assert isinstance(node, Num) and node.value == 134_217_728


def test_a_syntax_error_carries_its_message_as_every_exception_does():
    # kills lexer.ClaimSyntaxError.__init__ mutmut_1 (args left None: repr and logs lose it)
    with pytest.raises(ClaimSyntaxError) as info:
        parse("1 2")
    err = info.value
    assert err.args == (err.message,) and err.message in repr(err)
    assert str(err) == f"col {err.col}: {err.message}"


def test_a_claim_starting_with_a_name_before_a_comma_reads_it_as_a_name():
    # kills lexer.Lexer.next mutmut_1 (a bare word asked for by default: `x,` at the start
    # would be a WORD token, and the comma's rule would not be said)
    with pytest.raises(ClaimSyntaxError) as info:
        parse("x, 1 == 1")
    assert info.value.col == 2
    assert "comma is only a thousands separator" in info.value.message


def test_an_unexpected_token_is_named_by_its_text():
    # kills parser._describe mutmut_2 (every token described as the end of the claim)
    with pytest.raises(ClaimSyntaxError) as info:
        parse("1 2")
    assert "unexpected '2'" in info.value.message, info.value.message
    with pytest.raises(ClaimSyntaxError) as info:
        parse("(1 + 2")
    assert "found the end of the claim" in info.value.message


@pytest.mark.parametrize("value", [None, 42, ["1 == 1"]], ids=["None", "int", "list"])
def test_a_claim_that_is_not_text_is_refused_saying_so(value):
    # kills parser.parse mutmut_6 (the message garbled)
    with pytest.raises(ClaimSyntaxError) as info:
        parse(value)
    assert info.value.col == 1 and "must be text" in info.value.message


# ---------------------------------------------------------------- model functions


_REQUIRED_VALUES = {"model": "llama-2-7b", "d": sp.Integer(4096), "heads": sp.Integer(32),
                    "vocab": sp.Integer(32000), "context": sp.Integer(4096), "dtype": "bf16"}


@pytest.mark.parametrize("name", sorted(model_functions.FUNCTIONS))
def test_a_direct_call_uses_the_defaults_a_claim_uses(name):
    # kills model_functions.kv_cache_bytes mutmut_2 and params_attention mutmut_2 (a Python
    # default that is not the claim language's: the signature test in test_registry.py
    # cannot see one under mutmut, whose trampoline keeps the original's signature)
    fn, sig = model_functions.FUNCTIONS[name], SIGNATURES[name]
    py = [p for p in inspect.signature(fn).parameters]
    required = {p: _REQUIRED_VALUES[p.rstrip("_")] for p in py
                if sig.defaults.get(p.rstrip("_"), REQUIRED) is REQUIRED}
    defaults = {p: sig.defaults[p.rstrip("_")] for p in py if p not in required}
    assert fn(**required) == fn(**required, **defaults)


def test_llama_2_7b_attention_and_kv_cache_at_the_defaults():
    # published shapes: d 4096, 32 heads of 128, no attention biases, 32 layers; the KV
    # cache of 4096 tokens in 16-bit is 2 * 32 * 32 * 128 * 4096 * 2 bytes = 2 GiB
    assert model_functions.params_attention(sp.Integer(4096), sp.Integer(32)) == 4 * 4096**2
    assert model_functions.kv_cache_bytes("llama-2-7b", sp.Integer(4096)) == 2**31


def test_a_bad_heads_argument_is_named_in_the_error():
    # kills model_functions.params_attention mutmut_11 (the error names None, not heads)
    with pytest.raises(ClaimError) as info:
        model_functions.params_attention(sp.Integer(4096), "thirty-two")
    assert "heads must be a number" in str(info.value)
