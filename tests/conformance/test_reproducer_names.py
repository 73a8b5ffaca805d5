"""A printed reproducer imports the factory by `module:qualname`; the kit names a factory
only when that name resolves to the factory itself. The third-party suite's factories are
top-level, so each reproducer imports what it names (a closure renamed to its class name,
as `thirdparty.litgpt("LLaMAMLP")` once was, printed an import that failed)."""

import pytest

from ffnverify.testing.results import _importable

from .thirdparty import BROKEN, ENTRIES, MOE, MOE_BROKEN


@pytest.mark.parametrize("entry", ENTRIES + BROKEN + MOE + MOE_BROKEN, ids=lambda e: e[0])
def test_every_third_party_factory_is_named_by_an_import_that_works(entry):
    factory = entry[1]
    where = _importable(factory)
    assert where is not None and where.endswith(":" + factory.__name__), (entry[0], where)


def test_a_renamed_closure_gets_no_import_target():
    def make():
        def factory(d, h, bias=False):
            return None
        factory.__qualname__ = "LLaMAMLP"  # a name its module does not define
        return factory

    assert _importable(make()) is None
    assert _importable(_importable) == "ffnverify.testing.results:_importable"
