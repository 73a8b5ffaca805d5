"""Benchmarks of the matmul core (pytest-benchmark; run with `tox -e bench`)."""
