"""A mixture of experts' name written with the multiplication sign ("Mixtral 8×7B") is
the same catalogue row as "Mixtral 8x7B" (`scan/detect.py`). Sentences written for these
tests, not taken from the corpus."""

from ffnverify.scan.detect import models


def test_the_times_sign_in_a_name():
    assert [n for _, _, n in models("Mixtral 8×7B routes two experts")] == ["mixtral-8x7b"]
    assert [n for _, _, n in models("and Mixtral 8×22B too")] == ["mixtral-8x22b"]


def test_a_product_beside_a_name_is_no_name():
    assert models("an 8×7 grid of Mixtral cells") == ()
    assert [n for _, _, n in models("Mixtral 8x7B ×2 replicas")] == ["mixtral-8x7b"]


def test_a_checked_reading_through_the_times_name(scan_text):
    doc = "Mixtral 8×7B has 46.7B parameters in total, 12.9B of them active per token.\n"
    (s,) = scan_text(doc)["statements"]
    assert (s["status"], s["verdict"]) == ("checked", "true"), s
