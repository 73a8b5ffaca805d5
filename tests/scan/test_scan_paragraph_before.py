"""A statement that names no model, right after a paragraph that names one catalogue row
and nothing else, with no heading between (`structure._Before.last`): read as said of
that row, a reading to confirm and never a FALSE flag (`Given.guessed`), since it may
speak of a model in general. The sentences are written for these tests.
"""

_DOC = """# Models compared

Mistral 7B and Llama 2 13B are both small.

## Architecture

Mixtral 8x7B routes each token to two of its experts.

While the total number of parameters is {total}, only 12.9 billion are used per token.

## Other

The total number of parameters is 46.7 billion.
"""


def _by_line(result):
    return {s["line"]: s for s in result["statements"]}


def test_the_paragraph_before_gives_its_one_model(scan_text):
    got = _by_line(scan_text(_DOC.format(total="46.7 billion")))
    s = got[9]
    assert s["status"] == "suggested" and s["verdict"] == "true", s
    assert "params_total(mixtral-8x7b)" in s["claim"] and "params_active(mixtral-8x7b)" in \
        s["claim"], s


def test_a_guess_from_the_paragraph_before_never_accuses(scan_text):
    got = _by_line(scan_text(_DOC.format(total="45 billion")))
    s = got[9]
    assert s["status"] == "unchecked" and s["verdict"] is None, s
    assert "would be false" in s["detail"] and "mixtral-8x7b" in s["detail"], s


def test_a_heading_between_ends_the_guess(scan_text):
    got = _by_line(scan_text(_DOC.format(total="46.7 billion")))
    assert got[13]["status"] == "unchecked", got[13]


def test_a_paragraph_naming_two_models_gives_none(scan_text):
    doc = ("Mistral 7B and Llama 2 13B are both small.\n\n"
           "Mixtral 8x7B and Llama 2 70B both use grouped-query attention.\n\n"
           "The total number of parameters is 46.7 billion.\n")
    got = _by_line(scan_text(doc))
    assert got[5]["status"] == "unchecked", got[5]


def test_a_paragraph_two_back_gives_none(scan_text):
    doc = ("Mistral 7B and Llama 2 13B are both small.\n\n"
           "Mixtral 8x7B routes each token to two of its experts.\n\n"
           "Routing is learned.\n\n"
           "The total number of parameters is 46.7 billion.\n")
    got = _by_line(scan_text(doc))
    assert got[7]["status"] == "unchecked", got[7]


def test_symbols_are_premises_where_the_statement_computes_from_them(scan_text):
    doc = ("Mistral 7B and Llama 2 13B are both small.\n\n"
           "Mixtral 8x7B routes each token to two of its experts.\n\n"
           "Each expert has d = 4096 and h = 14336, so it holds 3 × 4096 × 14336 = "
           "176,160,768 weights.\n")
    s = _by_line(scan_text(doc))[5]
    assert s["status"] == "checked" and s["claim"] == "3 * 4096 * 14336 == 176160768", s


def test_a_symbol_alone_may_state_the_assumed_models_field(scan_text):
    doc = ("Mistral 7B and Llama 2 13B are both small.\n\n"
           "Mixtral 8x7B routes each token to two of its experts.\n\n"
           "Its width is d = 4096.\n")
    s = _by_line(scan_text(doc))[5]
    assert s["status"] == "suggested" and "d_model(mixtral-8x7b) == 4096" in s["claim"], s
