"""`ffnverify audit` of 1,000 mixed claims (benchmarks/audit_claims.py): every verdict is the
expected one (exit 0). Its time (the requirement: under 10 s on the project's 2-core
machine) is a benchmark, benchmarks/test_bench_audit.py (`tox -e bench`): a wall-clock
assertion in the default envs fails on a loaded machine without a bug.
"""

from benchmarks.audit_claims import mixed_claims
from ffnverify.claims.files import collect
from ffnverify.cli import main


def test_audit_of_1000_mixed_claims(tmp_path):
    path = tmp_path / "bench.toml"
    path.write_text("".join(f'[[claim]]\nexpr = "{e}"\nexpect = "{x}"\n\n'
                            for e, x in mixed_claims(1000)), encoding="utf-8")
    assert len(collect([path])) == 1000
    code = main(["audit", str(path), "--format", "json", "--output", str(tmp_path / "r.json")])
    assert code == 0
