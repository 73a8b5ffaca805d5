"""An unchecked statement says why, where its names tell: a model the catalogue does not
hold, or no model at all; a statement whose model a heading gives, or that names a row,
gets no such reason. Sentences written for these tests."""

from verdicts import only


def test_a_model_the_catalogue_lacks_is_named(scan_text):
    got = only(scan_text, "Falcon 180B has 80 layers.")
    assert got["status"] == "unchecked"
    assert "'Falcon 180B' is not in the catalogue" in got["detail"], got


def test_no_model_at_all(scan_text):
    got = only(scan_text, "The model has 80 layers.")
    assert got["status"] == "unchecked"
    assert got["detail"].startswith("names no model of the catalogue"), got


def test_no_such_reason_where_a_model_is_given(scan_text):
    got = scan_text("# Llama 2 7B\n\nIt has 32 widgets and 7 gadgets.\n")["statements"]
    assert all("catalogue" not in s["detail"] for s in got), got
    got = only(scan_text, "Llama 2 7B has 32 widgets.")
    assert "catalogue" not in got["detail"], got
