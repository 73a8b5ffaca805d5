"""Test kits for users' code: the FFN conformance kit (and the formula checker).

Exports are lazy, so importing `ffnverify.testing` (as the pytest plugin does) needs neither
torch nor hypothesis until a kit is used.
"""

_LAZY = {
    "check_ffn": ("ffnverify.testing.conformance", "check_ffn"),
    "check_example": ("ffnverify.testing.conformance", "check_example"),
    "ConformanceFailure": ("ffnverify.testing.conformance", "ConformanceFailure"),
    "check_moe": ("ffnverify.testing.moe", "check_moe"),
    "check_counter": ("ffnverify.testing.counters", "check_counter"),
    "identify_ffn": ("ffnverify.testing.identify", "identify_ffn"),
    "megatron_call": ("ffnverify.testing.conformance", "megatron_call"),
}

__all__ = list(_LAZY)


def __getattr__(name):
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module 'ffnverify.testing' has no attribute {name!r}")
