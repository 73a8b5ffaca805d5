"""A value a primary source publishes for a field although the config holds another
(catalogue `published_as`: Gemma's report gives a 256128-row vocabulary and the fused
gate+up width as "feedforward hidden dims") is not wrong: the scan leaves it unread and
says why. Found on the first half of the fresh2 corpus, where Gemma's report table
(`Vocab Size | 256128 | 256128`) was CHECKED FALSE."""

from ffnverify.catalogue import MODELS
from ffnverify.claims.evaluate import evaluate_claim
from ffnverify.claims.signatures import SIGNATURES


def test_every_published_value_is_a_field_the_config_disagrees_with():
    rows = [m for m in MODELS.values() if m.published_as]
    assert rows, "no row records a published value"
    for m in rows:
        for key, value in m.published_as.items():
            func, _, scope = key.partition(":")  # "params_total:non_embedding": one scope's
            assert func in SIGNATURES and (not scope or func == "params_total"), (m.name, key)
            if scope:  # the card's count of that scope is no reading of the config's
                lhs = (f"params_total({m.name}) - params_total({m.name}, part=embedding)"
                       f" - params_total({m.name}, part=positions)")
                assert scope == "non_embedding", (m.name, key)
                for claim in (f"approx({lhs}, {value}, abs={value // 200})",
                              f"approx({lhs} - params_total({m.name}, part=lm_head), {value}, "
                              f"abs={value // 200})"):
                    assert evaluate_claim(claim)["verdict"] == "false", (m.name, key, claim)
            elif hasattr(m, func):
                assert getattr(m, func) != value, (m.name, func)  # else no alternative
            else:  # a count the catalogue computes (params_total)
                got = evaluate_claim(f"{func}({m.name}) == {value}")["verdict"]
                assert got == "false", (m.name, func)


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


def test_published_context_and_sizes(scan_text):
    # Mistral 7B: arXiv:2310.06825 gives context_len 8192 (config: 32768) and the
    # announcement "7.3B parameters" (count: 7.24B); GPT-2 XL is released as "1.5B"
    doc = ("| Model | Context |\n|---|---|\n| Mistral 7B | 8K |\n\n"
           "Mistral 7B has 7.3B parameters.\n\nGPT-2 XL has 1.5B parameters.\n\n"
           "Mistral 7B has 7.5B parameters.\n\nMistral 7B has a context of 4K tokens.\n")
    got = scan_text(doc)["statements"]
    assert [s["verdict"] for s in got[:3]] == [None, None, None], got
    assert [s["verdict"] for s in got[3:]] == ["false", "false"], got
