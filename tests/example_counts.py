"""How many Hypothesis examples a test with its own count draws, under the loaded profile.

The profiles are registered in conftest.py: `ci` (the default tox envs) draws half the
examples of `full` (tox -e full, the reference), `thorough` twenty times as many. A test
that sets its own max_examples (because one example costs seconds) states it at the `full`
profile's scale and asks `scaled(n)` for the count under the loaded one, so the default
envs and the named env keep the same ratio for every test.
"""

from hypothesis import settings

FULL_EXAMPLES = 50  # max_examples of the `full` profile, the scale a stated count is at


def scaled(n: int) -> int:
    """n examples at the `full` profile's scale, as many under the loaded profile (at least 1)."""
    return max(1, round(n * settings.default.max_examples / FULL_EXAMPLES))
