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


def test_a_family_name_is_a_whole_word():
    """"optimizer" is no OPT, "GPTQ" no GPT, "yields" no Yi: a word that only starts with a
    family's name names no model (before, "the optimizer state" made a statement's figures
    unbindable, and "the formula yields" kept GPT-2 small from its own figures)."""
    from ffnverify.scan.detect import other_names

    for text in ("the optimizer state takes 2 GB", "GPTQ or AWQ cut it to 35 GB",
                 "the formula yields 162M", "a philosophy of 3 layers"):
        assert other_names(text) == (), text
    for text, name in (("OPT-175B has 96 layers", "OPT-175B"), ("Yi-34B has 60 layers", None),
                       ("Falcon 180B has 80 layers", "Falcon 180B")):
        got = [text[s:e] for s, e in other_names(text)]
        assert got == ([name] if name else got) and (name is None or got), (text, got)


def test_an_optimizer_leaves_the_model_its_figures(scan_text):
    got = only(scan_text, "Llama 2 7B has 32 layers; its optimizer state is another matter.")
    assert (got["status"], got["verdict"]) == ("checked", "true"), got
