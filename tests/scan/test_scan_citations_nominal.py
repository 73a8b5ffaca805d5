"""Two readings found on the first half of the fresh2 corpus (tests/scan/corpus_v3/README.md):
a citation marker ("…batch size.[1][2]") is no figure and ends no sentence early; and a
parameter count that equals the size in a catalogue row's name is nominal only when the
text writes that size in the name ("Llama 2 70B … 70B"), so "GPT-3 has 175 billion
parameters" is a measurement, read at its precision."""

from ffnverify.scan.numbers import tokens
from ffnverify.scan.read import reading


def _nums(text):
    return [t.text for t in tokens(text) if t.kind == "NUM"]


def _strict(text):
    r = reading(text)
    return [p.strict for p in r.parts] if r else []


def test_citation_markers_are_not_figures():
    assert _nums("based on context length and batch size.[1][2]") == []
    assert _nums("as Wikipedia[12], the paper[3, 4] and the book[5–7] say") == []
    assert _nums("a footnote.[^5]") == []


def test_brackets_that_are_not_citations_keep_their_numbers():
    assert _nums("the matrix has shape [2, 768]") == ["2", "768"]
    assert _nums("形状为[2, 768]，参数量") == ["2", "768"]  # no Latin word before it
    assert _nums("Number of layers: [ 149 ]") == ["149"]  # spaced: a value, not a marker
    assert _nums("a batch of shape[4096]") == ["4096"]  # too large for a citation


def test_a_citation_after_the_field_binds_nothing_to_it():
    text = ("Llama 2 70B demands memory that grows with the KV cache, based on context "
            "length and batch size.[1][2]")
    assert not any("context(" in p for p in _strict(text)), _strict(text)


def test_a_sentence_ends_after_its_citation_markers(scan_text):
    doc = "Llama 2 70B is large.[1][2] Llama 2 7B has 32 layers.[3]\n"
    got = [s["text"] for s in scan_text(doc)["statements"]]
    assert got == ["Llama 2 7B has 32 layers.[3]"], got


def test_a_size_the_name_does_not_write_is_a_measurement(scan_text):
    doc = ("GPT-3 has 175 billion parameters.\n\n"     # 174.6B: true at its precision
           "GPT-2 small has 117M parameters.\n\n"      # 124.4M: no reading rescues 117M
           "Llama 2 70B has 70B parameters.\n\n"       # the name's own size: nominal
           "The 70B model, Llama 2 70B, is large.\n")  # likewise
    got = [(s["status"], s["verdict"]) for s in scan_text(doc)["statements"]]
    assert got[:2] == [("checked", "true"), ("checked", "false")], got
    assert all(status == "unchecked" for status, _ in got[2:]), got
