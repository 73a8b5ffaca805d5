"""The escapes every report writes untrusted text with, to the character, and the model
functions' errors for a bad argument. Each escape below is the one its reader decodes:
Python's own backslash escapes (\\n, \\x1b, \\u2028; \\xNN for a byte of a file name that
is not UTF-8, as os.fsdecode carries it), JSON's \\u escapes, and GitHub's workflow-command
escapes (%25 %3A %2C, in capitals as the Actions toolkit writes and the runner reads them).
A model function's error names the argument at fault, so the report can point at it.
(The language area's full mutation run, issue 26, docs/mutation.md: the property tests of
test_printable.py check that nothing unsafe is left, not which escape is written.)"""

import inspect
import json
import os

import pytest
import sympy as sp

from ffnverify.claims import model_functions as M
from ffnverify.claims.errors import ClaimError
from ffnverify.claims.printable import (
    annotation_data,
    annotation_property,
    fs_name,
    json_text,
    line_lead,
    visible,
)


@pytest.mark.parametrize("text,shown", [
    ("plain ≈ text", "plain ≈ text"),
    ("a\nb\rc\td", "a\\nb\\rc\\td"),
    ("\x1b[31mred", "\\x1b[31mred"),
    ("\x00\x7f", "\\x00\\x7f"),
    ("\x85\x9f", "\\x85\\x9f"),  # C1 controls: two hex digits, as Python writes them
    ("\u2028\u2029", "\\u2028\\u2029"),
    ("\u202eevil\u2066", "\\u202eevil\\u2066"),  # bidirectional controls
    (os.fsdecode(b"caf\xe9"), "caf\\xe9"),  # a byte that was not UTF-8
    (os.fsdecode(b"\x80\xff"), "\\x80\\xff"),
    ("\ud800", "\\ud800"),  # lone surrogates that stand for no byte
    ("\udc7f", "\\udc7f"),
    ("\udd00", "\\udd00"),
    (None, ""),
    (12, "12"),
], ids=lambda v: ascii(v))  # mutmut's pytest options print ids raw: no lone surrogates
def test_visible_writes_each_unsafe_character_as_its_python_escape(text, shown):
    assert visible(text) == shown


def test_an_annotation_escapes_percent_and_a_property_also_colon_and_comma():
    # '%' first, so that an escape is never escaped twice
    assert annotation_data("50% of 2,048: a\nb") == "50%25 of 2,048: a\\nb"
    assert annotation_property("docs/a,b.md:3 50%") == "docs/a%2Cb.md%3A3 50%25"
    assert annotation_property(None) == ""
    assert annotation_data("%3A") == "%253A"


@pytest.mark.parametrize("path,lead", [
    ("docs/a.md", "docs/a.md"),
    ("a:b.md", "a:b.md"),
    ("x ", "x "),
    ("", ""),
    (":x.md", "./:x.md"),
    ("::error file=x::y", "./::error file=x::y"),
    (" ::x", "./ ::x"),
    ("\t:x", "./\t:x"),
    (" a.md", "./ a.md"),  # white space at the start of a line is lost by some readers
])
def test_a_path_at_the_start_of_a_line_never_starts_a_workflow_command(path, lead):
    assert line_lead(path) == lead


def test_json_text_is_indented_two_and_keeps_what_json_needs_no_escape_for():
    assert json_text({"a": [1]}) == '{\n  "a": [\n    1\n  ]\n}'
    assert json_text({"a": 1}, indent=None) == '{"a": 1}'
    text = json_text({"s": "é≈\u2028\x85\u202e"})
    assert text == '{\n  "s": "é≈\\u2028\\u0085\\u202e"\n}'
    assert json.loads(text) == {"s": "é≈\u2028\x85\u202e"}


def test_a_file_name_in_bytes_is_shown_like_the_same_name_in_text():
    assert fs_name(b"caf\xe9.md") == "caf\\xe9.md" == fs_name(os.fsdecode(b"caf\xe9.md"))
    assert fs_name("été.md") == "été.md"


# ---------------------------------------------------------------- model functions

_GOOD = {"model": "llama-2-7b", "d": sp.Integer(4096), "heads": sp.Integer(32),
         "vocab": sp.Integer(32000), "context": sp.Integer(4096)}

_NUMBER = "{} must be a number or an expression, not 'oops'"
_FLAG = "{} must be true or false, not oops"

BAD_ARGUMENTS = [
    # function, argument, the message, the argument it points at
    ("params_attention", "d", _NUMBER.format("d"), "d"),
    ("params_attention", "heads", _NUMBER.format("heads"), "heads"),
    ("params_attention", "qkv_bias", _FLAG.format("qkv_bias"), "qkv_bias"),
    ("params_attention", "o_bias", _FLAG.format("o_bias"), "o_bias"),
    ("params_embedding", "vocab", _NUMBER.format("vocab"), "vocab"),
    ("params_embedding", "d", _NUMBER.format("d"), "d"),
    ("params_norm", "d", _NUMBER.format("d"), "d"),
    ("params_norm", "kind", "unknown norm kind 'oops'; expected one of rms, layer", "norm kind"),
    ("flops_attention", "d", _NUMBER.format("d"), "d"),
    ("flops_attention", "heads", _NUMBER.format("heads"), "heads"),
    ("flops_attention", "n", _NUMBER.format("n"), "n"),
    ("flops_attention", "pass_", "unknown pass 'oops'; expected one of forward, backward, train",
     "pass"),
    ("flops_attention", "input_grad", _FLAG.format("input_grad"), "input_grad"),
    ("flops_model", "n", _NUMBER.format("n"), "n"),
    ("flops_model", "pass_", "unknown pass 'oops'; expected one of forward, backward, train",
     "pass"),
    ("kv_cache_bytes", "context", _NUMBER.format("context"), "context"),
    ("kv_cache_bytes", "batch", _NUMBER.format("batch"), "batch"),
    ("kv_cache_bytes", "dtype", "unknown dtype 'oops'; expected one of float32, fp32, bfloat16, "
                                "bf16, float16, fp16, fp8, int8, int4", "dtype"),
    ("d_ff", "fused", _FLAG.format("fused"), "fused"),
]


@pytest.mark.parametrize("function,argument,message,param", BAD_ARGUMENTS,
                         ids=[f"{f}-{a}" for f, a, _, _ in BAD_ARGUMENTS])
def test_a_bad_argument_is_named_in_the_error_and_pointed_at(function, argument, message,
                                                              param):
    fn = M.FUNCTIONS[function]
    names = list(inspect.signature(fn).parameters)
    args = {a: _GOOD[a] for a in names if a in _GOOD}
    args[argument] = "oops"
    with pytest.raises(ClaimError) as got:
        fn(**args)
    assert (str(got.value), got.value.param) == (message, param)


@pytest.mark.parametrize("name", ["heads", "kv_heads", "head_dim", "vocab", "context",
                                  "experts", "active_experts"])
def test_each_field_function_is_named_for_its_field_and_reads_it(name):
    from ffnverify.catalogue import get

    fn = M.FUNCTIONS[name]
    assert fn.__name__ == name
    row = get("mixtral-8x7b")
    assert fn("mixtral-8x7b") == getattr(row, name)


def test_a_field_the_sources_do_not_state_is_an_error_naming_it():
    from ffnverify.catalogue import MODELS

    row = next(m for m in MODELS.values() if m.context is None)  # the 2017 Transformer
    with pytest.raises(ClaimError) as got:
        M.FUNCTIONS["context"](row.name)
    assert str(got.value) == f"context of {row.name!r} is not stated by its sources"


def test_encoder_layers_of_an_encoder_only_an_encoder_decoder_and_a_decoder_only_model():
    assert M.encoder_layers("bert-base") == 12  # BERT's one stack is its encoder
    assert M.encoder_layers("t5-v1.1-base") == 12
    assert M.encoder_layers("llama-2-7b") == 0  # 32 decoder layers, no encoder
