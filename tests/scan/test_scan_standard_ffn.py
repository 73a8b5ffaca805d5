""""The standard 4d FFN", "a vanilla FFN at h = 4d": a plain FFN named with its width
between the adjective and the noun is the ungated variant the comparison is against. The
project's headline myth, said that way, is read (and is false). Sentences written for these
tests."""

import pytest
from verdicts import only


@pytest.mark.parametrize("text,verdict", [
    ("A SwiGLU FFN at 8/3·d width has 33% fewer parameters than the standard 4d FFN.", "false"),
    ("A SwiGLU FFN at 8/3·d width has the same parameters as the standard 4d FFN.", "true"),
    ("SwiGLU at h = 8/3 d has 33% fewer parameters than a vanilla FFN at h = 4d.", "false"),
])
def test_a_standard_ffn_with_its_width(scan_text, text, verdict):
    got = only(scan_text, text)
    assert got["verdict"] == verdict and "relu" in got["claim"], got
