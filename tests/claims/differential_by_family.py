"""The differential test's figures per generator family, against any engine.

    PYTHONPATH=<checkout whose engine to test> python tests/claims/differential_by_family.py N [FAMILY ...]

draws N claims from each family of test_differential (ROUNDING LIMITS APPROX KINKS RELS,
or CLAIMS for the whole generator), decides them with the engine found on PYTHONPATH and
re-checks each verdict with the test's oracle, without stopping at a disagreement: so an
older engine can be measured with the newer generator (how many disagreements a family
finds). Prints claims, verdicts, budget (over CLAIM_SECONDS), disagreements, the worst
time and memory, and up to four disagreements per family. Not collected by pytest.
"""

import collections
import importlib.util
import pathlib
import sys
import time

from hypothesis import HealthCheck, given, settings

HERE = pathlib.Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("test_differential", HERE / "test_differential.py")
td = importlib.util.module_from_spec(spec)
spec.loader.exec_module(td)
import claim_strategies  # noqa: E402  (beside this file: on sys.path when run as a script)


def measure(name, n):
    rows, bad = collections.Counter(), []
    td.STATS.update({"worst s": 0.0, "worst KiB": 0})

    @settings(max_examples=n, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(getattr(claim_strategies, name))
    def run(text):
        result = td.decide_measured(text)
        rows["claims"] += 1
        if result is None:
            rows["budget"] += 1
            return
        rows[result["verdict"]] += 1
        problem = td.disagreement(text, result)
        if problem:
            rows["disagreements"] += 1
            bad.append((text, problem))

    t0 = time.time()
    run()
    print(f"{name}: {dict(rows)}, worst {td.STATS['worst s']:.2f} s, "
          f"{td.STATS['worst KiB']} KiB, wall {time.time() - t0:.0f} s")
    for text, problem in bad[:4]:
        print(f"    {text} | {problem[:200]}")


if __name__ == "__main__":
    import ffnverify

    print("engine:", ffnverify.__file__)
    for family in sys.argv[2:] or ["ROUNDING", "LIMITS", "APPROX", "KINKS", "RELS"]:
        measure(family, int(sys.argv[1]))
