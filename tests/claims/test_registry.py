"""The claim-function registry against the signatures: one entry per name, each callable
with the parameters its signature lists, in that order, with the same defaults."""

import inspect

import pytest

from ffnverify.claims import functions, model_functions, registry
from ffnverify.claims.signatures import SIGNATURES


def test_every_signature_has_one_function_and_back():
    assert set(registry.FUNCTIONS) == set(SIGNATURES) - registry.BUILT_IN
    assert registry.BUILT_IN <= set(SIGNATURES)


def test_the_two_tables_share_no_name():
    assert not functions.FUNCTIONS.keys() & model_functions.FUNCTIONS.keys()


def test_merge_refuses_a_name_defined_twice():
    with pytest.raises(ValueError, match="d_ff"):
        registry.merge({"d_ff": len, "a": len}, {"d_ff": abs})
    assert registry.merge({"a": len}, {"b": abs}) == {"a": len, "b": abs}


@pytest.mark.parametrize("name", sorted(set(SIGNATURES) - registry.BUILT_IN))
def test_function_takes_its_signature(name):
    sig, fn = SIGNATURES[name], registry.FUNCTIONS[name]
    params = inspect.signature(fn).parameters
    if sig.variadic:
        assert any(p.kind is p.VAR_POSITIONAL for p in params.values()), name
        return
    # `pass` is a Python keyword, `bytes` a builtin: the implementations add a trailing _
    names = [p.rstrip("_") for p in params]
    assert names == list(sig.params), name
    for p, (pname, py) in zip(sig.params, params.items()):
        if py.default is not inspect.Parameter.empty:
            assert p in sig.defaults and sig.defaults[p] == py.default, (name, pname)
