"""A leading clause before "it" may hold a figure with a thousands separator ("With a
131,072-token window, it …"): the separator ends no clause, so the sentence is still said
of the model the sentence before named (`scan._ANAPHORA`), to confirm. Sentences written
for these tests, not taken from the corpus (Llama 3 8B: context 8,192)."""


def _got(scan_text, doc):
    return [(s["text"], s["status"], s["verdict"]) for s in scan_text(doc)["statements"]]


def test_a_figure_with_separators_in_the_leading_clause(scan_text):
    got = _got(scan_text, "Llama 3 8B has 32 layers. With an 8,192 token context window, it "
                          "handles long files.\n\nLlama 3 8B has 32 layers. With a 16,384 token "
                          "context window, it handles long files.\n")
    assert got[1][1:] == ("suggested", "true"), got
    assert got[3][1:] == ("suggested", "false"), got


def test_a_clause_ended_by_a_comma_is_still_one(scan_text):
    # "With 8,192 tokens, we" — the subject is "we", not the model: nothing said of it
    got = _got(scan_text, "Llama 3 8B has 32 layers. With 16,384 tokens of context, we ran "
                          "out of memory.\n")
    assert got[1][1] == "unchecked", got
