"""The ffnverify pytest plugin (registered through the `pytest11` entry point).

Collects the claims in Markdown and TOML files as test items (claims.pytest_items).
"""

from ffnverify.bench.fixture import ffn_bench  # noqa: F401
from ffnverify.claims.pytest_items import pytest_addoption, pytest_collect_file  # noqa: F401
from ffnverify.testing.fixtures import ffn_conformance  # noqa: F401

pytest_plugins = ["ffnverify.scan.pytest_scan"]  # `pytest --ffnverify-scan`: the scan as items
