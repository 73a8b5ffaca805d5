"""A value a primary source publishes for a field although the config holds another
(catalogue `published_as`: Gemma's report gives a 256128-row vocabulary and the fused
gate+up width as "feedforward hidden dims") is not wrong: the scan leaves it unread and
says why. Found on the first half of the fresh2 corpus, where Gemma's report table
(`Vocab Size | 256128 | 256128`) was CHECKED FALSE."""

from ffnverify.catalogue import MODELS
from ffnverify.claims.signatures import SIGNATURES


def test_every_published_value_is_a_field_the_config_disagrees_with():
    rows = [m for m in MODELS.values() if m.published_as]
    assert rows, "no row records a published value"
    for m in rows:
        for func, value in m.published_as.items():
            assert func in SIGNATURES, (m.name, func)
            held = m.published_total if func == "params_total" else getattr(m, func)
            assert held != value, (m.name, func)  # else it is no alternative


def test_a_published_value_is_unread_and_others_still_judged(scan_text):
    doc = ("| | Gemma 2B | Gemma 7B |\n|---|---|---|\n| Vocab Size | 256128 | 256128 |\n\n"
           "Gemma 2B has a vocabulary of 256000 tokens.\n\n"
           "Gemma 2B has a vocabulary of 256512 tokens.\n\n"
           "Gemma 7B's feedforward hidden dim is 49152.\n")
    got = scan_text(doc)["statements"]
    assert got[0]["status"] == "unchecked" and "primary source" in got[0]["detail"], got[0]
    assert [(s["status"], s["verdict"]) for s in got[1:3]] == [
        ("checked", "true"), ("checked", "false")], got
    assert got[3]["verdict"] != "false", got[3]


def test_a_makers_published_total_is_not_wrong(scan_text):
    # mistral.ai announced "a 7.3B parameter model"; its checkpoint holds 7,241,732,096
    # (7.2B): the maker's figure is unread and said so, a figure nobody published is judged
    got = scan_text("Mistral 7B has 7.3B parameters.\n\nMistral 7B has 7.1B parameters.\n\n"
                    "Mistral 7B has 7.24B parameters.\n")["statements"]
    assert got[0]["status"] == "unchecked" and "primary source" in got[0]["detail"], got[0]
    assert [(s["status"], s["verdict"]) for s in got[1:]] == [
        ("checked", "false"), ("checked", "true")], got
