"""Arithmetic whose result follows a tilde (`scan/tildes.py`): "3 x 2048 x 5504 ~ 34M"
is `3·2048·5504 ≈ 34M`; a tilde glued to both figures ("4~8") or in CJK text is a range,
and a byte product is another reader's. Sentences written for these tests, not taken from
the corpus. 3 × 2048 × 5504 = 33,816,576."""

from ffnverify.scan.numbers import normalise, tokens
from ffnverify.scan.tildes import tilde_results


def _parts(text):
    clean = normalise(text)
    return [(p.strict, p.sure) for p in tilde_results(tokens(clean), clean)]


def test_an_expression_then_a_tilde_and_a_figure():
    assert _parts("each MLP has 3 x 2048 x 5504 ~ 34M weights") == [
        ("approx(3 * 2048 * 5504, 34000000, abs=500000)", True)]
    assert _parts("so 2 × (2048 + 512) ~ 5.1K") == [
        ("approx(2 * (2048 + 512), 5100, abs=50)", True)]


def test_a_hedged_operand_makes_it_a_reading_to_confirm():
    got = _parts("Total ~ 2 x (3 x 2048 x 5504) ~ 68M")
    assert len(got) == 1 and got[0][1] is False, got


def test_ranges_and_other_readers_figures_are_not_read():
    assert _parts("use 2 x 4~8 GPUs") == []                       # glued: a range
    assert _parts("显存 2 x 24 ~ 48 GB") == []                    # CJK: a range
    assert _parts("needs 2 x 24 GB ~ 48 GB") == []                 # bytes: memory's
    assert _parts("the width 2048 ~ 2K is common") == []           # nothing computed
    assert _parts("so 3 x 2048 ~ 6K x 2 in all") == []             # the right side goes on


def test_a_wrong_tilde_result_is_false(scan_text):
    doc = "Each MLP has 3 x 2048 x 5504 ~ 50M weights.\n"
    (s,) = scan_text(doc)["statements"]
    assert (s["status"], s["verdict"]) == ("checked", "false"), s
