"""A model named in one `Key: value` line is the model itself, not a component of it
because the next key is "Layers:" ("Base model: Mistral 7B" over "Layers: 32" read as
"Mistral 7B layers", so the lines below were given the model the document named earlier:
found by a probe in the eleventh session; the text here is written for the test)."""

from ffnverify.scan import readers, structure
from ffnverify.scan.binding import subjects
from ffnverify.scan.detect import models

DOC = """# Specifications

- Model: Llama 3 8B
- Layers: 32

## Another

Base model: Mistral 7B
Layers: 32
Context: 8192 tokens
"""


def test_a_model_before_the_next_key_is_named_not_a_component():
    text = "Base model: Mistral 7B Layers: 32 Context: 8192 tokens"
    assert [n for _, _, n in subjects(text, models(text))] == ["mistral-7b"]
    text = "Eight Mistral 7B layers are stacked"  # a component still
    assert subjects(text, models(text)) == ()


def test_lines_under_another_models_name_are_not_given_the_first_model(scan_text):
    doc = readers.read(DOC, "markdown")
    places = structure.places(doc.blocks, doc.where)
    last = places[-1]
    assert last is None or last.model != "llama-3-8b", last
    got = {s["line"]: s for s in scan_text(DOC)["statements"]}
    for line in (9, 10):
        assert "llama-3-8b" not in (got[line]["claim"] or ""), got[line]


def test_a_token_vocabulary_binds_its_figure_by_its_noun(engine):
    from tests.scan.verdicts import decide
    got = decide(engine, "Llama 2 7B has 32 layers, a 4096-token context and a 50,000-token "
                         "vocabulary.")
    assert got[:2] == ("checked", "false") and "vocab(llama-2-7b) == 50000" in got[2], got[3]
    assert decide(engine, "Llama 2 7B has a 32,000-token vocabulary.")[:2] == ("checked", "true")


def test_one_value_restated_rounder_is_no_contrast():
    from ffnverify.scan.numbers import tokens
    from ffnverify.scan.precision import one_value

    def figs(text):
        return [t for t in tokens(text) if t.kind == "NUM"]

    assert one_value(figs("6738411520 (6.74 B)"))
    assert not one_value(figs("28672 but 86016"))
    assert not one_value(figs("6738411520 (6.75 B)"))


def test_a_count_restated_rounder_is_read_not_set_aside_as_a_contrast(engine):
    from tests.scan.verdicts import decide
    got = decide(engine, "So Llama 2 7B has 6738415616 (6.74 B) parameters.")
    assert "given two values" not in got[3]["detail"] and got[1] == "true", got[3]
