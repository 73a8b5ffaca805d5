"""A rounded input of arithmetic is read at its stated precision in the lenient reading
(statcheck's rule: flag only what no rounding of the reported figures can rescue): a
figure with a scale or unit (`6.7B`, `24 GB`) or a hedge (`~2.67`) spans its interval,
so "6.7B params × 2 bytes = 13.5 GB" (Llama 2 7B's 6.74B) is no CHECKED FALSE. So is a
plain decimal that rounds a third, sixth, ninth or twelfth (`2.67` for 8/3: no finite
decimal states it), so `2.67 × 4096 = 10923` is 8/3 × 4096 read leniently. Another plain
operand (`4096`, `3.5`) is taken as written: `8,192 × 3.5 = 28,762` stays false."""

import pytest
from verdicts import only


@pytest.mark.parametrize("text", [
    "6.7B × 2 = 13.5B",
    "Weights: 6.7B params × 2 bytes = 13.5 GB.",
    "3.2B params × 4 bytes = 12.9 GB",       # 3.2B could be 3.23B
    "1.3B × 2 bytes = 2.6 GB, × 4 = 10.5 GB",
    "12.5M + 3.3M = 15.9M",                   # 12.54M + 3.34M
    "Roughly ~2.67 × 4096 ≈ 10,923",          # a hedged operand
    "2.67 × 4096 = 10923",                    # 2.67 rounds 8/3
    "8/3 ≈ 2.67, and 2.67 × 4096 ≈ 10,923.",
    "0.33 × 12,288 ≈ 4,096",                  # 0.33 rounds 1/3
])
def test_rounded_inputs_rescue(scan_text, text):
    st = only(scan_text, text)
    assert st["verdict"] == "true", st
    assert st["status"] == "suggested", st   # a reading to confirm, not as written


@pytest.mark.parametrize("text", [
    "2.67 × 4096 = 11923",                    # no rounding of 2.67 reaches it
    "8,192 × 3.5 = 28,762",                   # 3.5 rounds no third: as written
    "0.002 × 3000 = 8",                       # nor does 0.002
    "6.7B × 2 = 15B",                         # no rounding of 6.7B gives 15B
    "6.7B params × 2 bytes = 16 GB.",
    "12.5M - 3.3M = 9.5M",                    # a subtracted term moves the value down:
])                                            # [9.15M, 9.25M] misses [9.45M, 9.55M]
def test_no_rounding_rescues(scan_text, text):
    st = only(scan_text, text)
    assert st["verdict"] == "false", st


def test_exact_inputs_still_checked(scan_text):
    st = only(scan_text, "4096 × 11008 × 3 = 135,266,304")
    assert st["status"] == "checked" and st["verdict"] == "true", st


def test_divisor_moves_the_value_down(scan_text):
    # 13.5B / 2 with 13.5B in [13.45B, 13.55B]: [6.725B, 6.775B] meets 6.7B's [6.65B, 6.75B]
    st = only(scan_text, "13.5B / 2 = 6.7B")
    assert st["verdict"] == "true", st
    st = only(scan_text, "13.5B / 2 = 6.6B")
    assert st["verdict"] == "false", st
