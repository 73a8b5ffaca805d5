"""Coverage (issue 27, docs/architecture.md §5.2): a claim covers a statement only when
the statement's figures appear in the claim or in its `quote`, and the quote matches the
whole statement; a claim fence after a paragraph or table covers only the statements
(rows) whose every figure it states."""

from ffnverify.claims.files import Claim

TWO = "Llama 2 7B has 32 layers and a 4096-wide residual stream.\n"
TABLE = ("| Model | Size | Layers | Hidden size |\n|---|---|---|---|\n"
         "| Llama 2 70B | 70B | 80 | 8192 |\n| Llama 2 13B | 13B | 40 | 5120 |\n")


def _claim(expr, quote="", source=""):
    return Claim("claims.toml", 1, 1, expr, quote=quote, source=source)


def _statuses(result):
    return [r["status"] for r in result["statements"]]


def test_a_fence_stating_part_of_a_sentence_does_not_cover_it(scan_text):
    part = TWO + "\n```claim\nlayers(llama-2-7b) == 32\n```\n"
    whole = TWO + "\n```claim\nlayers(llama-2-7b) == 32\nd_model(llama-2-7b) == 4096\n```\n"
    assert _statuses(scan_text(part)) != ["covered"]
    assert _statuses(scan_text(whole)) == ["covered"]


def test_a_fence_after_a_table_covers_only_the_rows_it_states(scan_text):
    doc = TABLE + "\n```claim\nlayers(llama-2-70b) == 80\nd_model(llama-2-70b) == 8192\n```\n"
    got = _statuses(scan_text(doc))
    assert got[0] == "covered"  # its size cell repeats the name: no figure to state
    assert got[1] != "covered"  # the fence says nothing of the 13B row


def test_a_source_with_a_quote_of_a_piece_covers_nothing(scan_text):
    where = scan_text(TWO)["statements"][0]["file"] + ":1"
    expr = "layers(llama-2-7b) == 32 and d_model(llama-2-7b) == 4096"
    piece = _claim(expr, quote="Llama 2 7B has 32 layers", source=where)
    whole = _claim(expr, quote=TWO.strip(), source=where)
    bare = _claim(expr, source=where)
    assert _statuses(scan_text(TWO, claims=[piece])) != ["covered"]
    assert _statuses(scan_text(TWO, claims=[whole])) == ["covered"]
    assert _statuses(scan_text(TWO, claims=[bare])) == ["covered"]


def test_a_whole_quote_still_needs_the_figures_it_quotes(scan_text):
    other = "Llama 2 7B has 40 layers and a 4096-wide residual stream."
    assert _statuses(scan_text(TWO, claims=[_claim("layers(llama-2-7b) == 32",
                                                   quote=other)])) != ["covered"]
