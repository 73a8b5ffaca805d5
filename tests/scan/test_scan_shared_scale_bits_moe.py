"""Three readings a careful reader takes, so that no true sentence is CHECKED FALSE:

- a sum of figures with no scale, equal to a result with one (`67 + 8.4 + 235 = 310.4M`):
  the terms are at the result's scale too (as a range's low end takes its high end's),
  and the result at its stated precision (856M is [855.5M, 856.5M]);
- a width in bits in a byte product (`175B × 16 bits = 350GB`): 8 bits a byte, unless
  the arithmetic divides by 8 itself;
- a parameter count of a mixture of experts not said to be the total ("2 billion
  non-embedding parameters" of Qwen1.5-MoE-A2.7B): the active count is a reading too.
"""

import pytest
from verdicts import only

# ---- a sum's unscaled terms at the result's scale -----------------------------------

@pytest.mark.parametrize("text", [
    "Per block: 12 + 3.5 + 3.5 + 40 = 59M parameters.",
    "The pieces add up: 1.2 + 0.8 + 2 = 4B.",
    "Totals: 300 + 200 - 50 = 450K tokens.",
    "Budget: 16 + 16 + 32 = 64K",
    "Sum: 1.25 + 2.5 = 3.75M",
])
def test_sum_terms_take_the_result_scale(scan_text, text):
    st = only(scan_text, text)
    assert st["verdict"] == "true", st


@pytest.mark.parametrize("text", [
    "Per block: 12 + 3.5 + 3.5 + 40 = 75M parameters.",   # 59, not 75, at any scale
    "The pieces add up: 1.2 + 0.8 + 2 = 9B.",
])
def test_sum_wrong_at_every_scale_is_false(scan_text, text):
    st = only(scan_text, text)
    assert st["verdict"] == "false", st


def test_result_at_its_precision(scan_text):
    # 855.8 is within 856M's [855.5M, 856.5M]; 857M is not
    assert only(scan_text, "Each: 600 + 255.8 = 856M")["verdict"] == "true"
    assert only(scan_text, "Each: 600 + 255.8 = 857M")["verdict"] == "false"


@pytest.mark.parametrize("text", [
    "4096 × 4096 = 16.8M",          # a product states its own scale
    "Sum: 4000 + 4000 = 8K",        # as written
])
def test_products_and_literal_sums_read_as_written(scan_text, text):
    st = only(scan_text, text)
    assert st["verdict"] == "true", st


def test_product_not_scaled(scan_text):
    # a product's factors are not put at the result's scale: 16 × 16 = 256, not 256M
    st = only(scan_text, "16 × 16 = 256M")
    assert st["verdict"] == "false", st


# ---- bits in a byte product -----------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Weights: 13B × 16 bits = 26 GB.",
    "Weights: 13B * 16-bit = 26GB",
    "A 70B model × 4-bit = 35 GB",
    "70B params × 8 bits = 70 GB of weights.",
    "7B × 4 bits/param = 3.5 GB",
    "7B × 16 bits / 8 = 14 GB",        # the writer turns bits into bytes
])
def test_bits_are_an_eighth_of_a_byte(scan_text, text):
    st = only(scan_text, text)
    assert st["status"] == "checked" and st["verdict"] == "true", st


@pytest.mark.parametrize("text", [
    "70B params × 8 bits = 560 GB of weights.",   # 8 bits is one byte: 70 GB
    "13B × 16 bits = 208 GB.",
])
def test_bits_read_as_bytes_is_false(scan_text, text):
    st = only(scan_text, text)
    assert st["verdict"] == "false", st


# ---- a mixture of experts: the active count is a reading ------------------------------

@pytest.mark.parametrize("text", [
    "Qwen1.5-MoE-A2.7B has only 2 billion non-embedding parameters.",
    "Mixtral 8x7B has 13B parameters.",
])
def test_moe_count_may_be_active(scan_text, text):
    st = only(scan_text, text)
    assert st["verdict"] == "true" and st["status"] != "checked", st


@pytest.mark.parametrize("text", [
    "Mixtral 8x7B has 13B total parameters.",      # said to be the total
    "Mixtral 8x7B has 13B parameters in all.",
    "Llama 2 7B has 2 billion non-embedding parameters.",   # dense: no active reading
    "Mixtral 8x7B has 30B parameters.",            # neither total nor active
])
def test_total_or_dense_counts_stay_false(scan_text, text):
    st = only(scan_text, text)
    assert st["verdict"] == "false", st


def test_moe_total_still_true(scan_text):
    st = only(scan_text, "Mixtral 8x7B has 46.7B parameters.")
    assert st["status"] == "checked" and st["verdict"] == "true", st
