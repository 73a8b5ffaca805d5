"""German, French, Spanish, Portuguese and Russian statements read through `scan/european.py`'s glossary:
figures written the continental way ("13,5 GB", "4.096", "46,7 Mrd.", "13,5 Go"), the
domain's nouns, and what turns a statement into something else ("nicht", "si"): read to
confirm, never CHECKED, never flagged FALSE but as arithmetic, and English text left as
it is. Sentences written for these tests. Llama 2 7B: 32 layers, context 4096, weights
13.48 GB in fp16; Mixtral 8x7B: 46.7B total, 12.9B active.
"""

import pytest

from ffnverify.scan import european
from ffnverify.scan.numbers import normalise


@pytest.mark.parametrize("text,lang", [
    ("Llama 2 7B hat 32 Schichten und eine Kontextlänge von 4.096 Token.", "de"),
    ("Le modèle Llama 2 7B a 32 couches et nécessite 13,5 Go en FP16.", "fr"),
    ("Llama 2 7B tiene 32 capas y necesita 13,5 GB en FP16.", "es"),
    ("Llama 2 7B tem 32 camadas e precisa de 13,5 GB em FP16.", "pt"),
    ("Llama 2 7B имеет 32 слоя и занимает около 13,5 ГБ памяти в FP16.", "ru"),
    ("Llama 2 7B has 32 layers and a context of 4,096 tokens.", ""),
    ("The model uses a pro license and die-cast GPUs with 32 layers.", ""),
    ("Llama 2 7B: 32 layers, 4096 context, 13.5 GB in FP16", ""),
])
def test_the_language_is_told_by_its_function_words(text, lang):
    assert european.language(text) == lang


@pytest.mark.parametrize("text,want", [
    ("Llama 2 7B benötigt etwa 13,5 GB", "13.5 GB"),
    ("eine Kontextlänge von 4.096 Token und 32 Schichten", "4096"),
    ("insgesamt 46,7 Mrd. Parameter und 12,9 Mrd. aktiv", "46.7 billion"),
    ("il nécessite 13,5 Go pour les poids", "13.5 GB"),
    ("hat 1 Billion Parameter und 32 Schichten", "1 trillion"),  # German Billion: 10^12
    ("il a un billion de paramètres et des couches", "trillion"),  # French billion: 10^12
    ("um modelo 7B tem 7 bilhões de parâmetros e 32 camadas", "7 billion"),
    ("занимает около 13,5 ГБ памяти и имеет 32 слоя", "13.5 GB"),
    ("всего 46,7 млрд параметров и 32 слоя", "46.7 billion"),
])
def test_figures_are_written_the_english_way(text, want):
    assert want in " ".join(normalise(text).split())


def test_english_text_is_left_as_it_is():
    text = "Llama 2 7B has 32 layers, needs 13.5 GB in FP16, and 1,024 tokens per batch."
    assert normalise(text) == text


def _one(scan_text, text):
    (got,) = scan_text(text + "\n")["statements"]
    return got


@pytest.mark.parametrize("text,verdict", [
    ("Llama 2 7B benötigt in FP16 etwa 13,5 GB Speicher für die Gewichte.", "true"),
    ("Llama 2 7B hat 32 Schichten und eine Kontextlänge von 4.096 Token.", "true"),
    ("Mixtral 8x7B hat insgesamt 46,7 Mrd. Parameter, davon 12,9 Mrd. aktiv.", "true"),
    ("Le modèle Llama 2 7B a 32 couches et nécessite 13,5 Go en FP16.", "true"),
    ("Llama 2 7B tiene 32 capas y necesita 13,5 GB en FP16.", "true"),
    ("Float32 benötigt 4 Byte pro Parameter.", "true"),
    ("Llama 2 7B tem 32 camadas e precisa de 13,5 GB em FP16.", "true"),
    ("Llama 2 7B имеет 32 слоя и занимает около 13,5 ГБ памяти в FP16.", "true"),
    ("Mixtral 8x7B имеет всего 46,7 млрд параметров, из них 12,9 млрд активных.", "true"),
])
def test_a_statement_is_read_to_confirm(scan_text, text, verdict):
    got = _one(scan_text, text)
    assert (got["status"], got["verdict"]) == ("suggested", verdict), got


@pytest.mark.parametrize("text", [
    "Llama 2 7B hat 40 Schichten und eine Kontextlänge von 4.096 Token.",
    "Llama 2 7B tiene 40 capas y necesita 13,5 GB en FP16.",
    "Llama 2 7B tem 40 camadas e precisa de 13,5 GB em FP16.",
    "Llama 2 7B имеет 40 слоёв и занимает около 13,5 ГБ памяти в FP16.",
])
def test_a_wrong_figure_is_never_flagged_through_the_glossary(scan_text, text):
    got = _one(scan_text, text)
    assert got["verdict"] != "false" and got["status"] != "checked", got
    assert "check it by hand" in got["detail"] or "not flagged" in got["detail"], got


@pytest.mark.parametrize("text", [
    "Llama 2 7B hat nicht 32 Schichten und braucht etwa 13,5 GB.",
    "Si Llama 2 7B a 32 couches, il nécessite 13,5 Go en FP16.",
    "Llama 2 7B hat 32 Schichten und 1,024 Köpfe mit etwa 13,5 GB.",  # 1,024 reads two ways
    "Llama 2 7B não tem 40 camadas e precisa de 13,5 GB em FP16.",
    "Llama 2 7B не имеет 40 слоёв и занимает около 13,5 ГБ памяти в FP16.",
])
def test_negation_condition_or_a_doubtful_figure_is_not_read(scan_text, text):
    got = _one(scan_text, text)
    assert got["status"] == "unchecked", got


def test_a_count_in_a_glossed_intro_carries_to_the_list_under_it(scan_text):
    doc = ("Beispiel:\nEin Modell mit 7 Milliarden Parametern benötigt:\n\n"
           "- 28 GB bei Float32\n- 14 GB bei Float16\n- 5 GB bei INT8\n")
    got = {s["line"]: s for s in scan_text(doc)["statements"]}
    assert [(got[k]["status"], got[k]["verdict"]) for k in (4, 5)] == [
        ("suggested", "true")] * 2, got
    assert "7000000000 * bytes(int8)" in got[6]["claim"] and got[6]["verdict"] == "false", got


def test_only_a_glossed_intro_to_a_list_carries_its_count(scan_text):
    # a glossed sentence that introduces no list gives its count to nothing after it
    doc = ("Ein Modell mit 7 Milliarden Parametern ist klein und schnell.\n\n"
           "- 28 GB bei Float32\n")
    got = {s["line"]: s for s in scan_text(doc)["statements"]}
    assert got[3]["status"] == "unchecked", got
