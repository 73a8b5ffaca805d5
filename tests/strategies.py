"""Labelled Hypothesis draws shared by the cross-check tests.

Every helper takes Hypothesis's `data` object and draws with a label, so a failing
example prints as `d=5, h=7, bias=True, variant='swiglu'` rather than as anonymous
values. Sizes are kept small where a test runs real matmuls (torch flop counting,
gradients); the exact counts are cheap and draw widely.
"""

import numpy as np
from hypothesis import strategies as st

from derivations.variants import VARIANTS

VARIANT_NAMES = list(VARIANTS)
GATED = [name for name, v in VARIANTS.items() if v.gated]


def variant(data, label="variant"):
    return data.draw(st.sampled_from(VARIANT_NAMES), label=label)


def bias(data, label="bias"):
    return data.draw(st.booleans(), label=label)


def dim(data, label, lo=1, hi=64):
    return data.draw(st.integers(lo, hi), label=label)


def sizes(data, hi_d=16, hi_h=24, hi_n=6):
    """(d, h, n): model width, hidden width, tokens."""
    return dim(data, "d", 1, hi_d), dim(data, "h", 1, hi_h), dim(data, "n", 1, hi_n)


def token_shape(data, n_hi=6, label="token_shape"):
    """Leading (token) axes of an input: (n,) for 2-D inputs or (batch, seq) for 3-D."""
    return data.draw(
        st.one_of(
            st.tuples(st.integers(1, n_hi)),
            st.tuples(st.integers(1, 3), st.integers(1, n_hi)),
        ),
        label=label,
    )


def seed(data, label="seed"):
    return data.draw(st.integers(0, 2**32 - 1), label=label)


def rng(data, label="seed"):
    """A NumPy generator seeded by a labelled draw (the values are reproducible)."""
    return np.random.default_rng(seed(data, label))


def float_dtype(data, label="dtype"):
    return data.draw(st.sampled_from([np.float64, np.float32]), label=label)
