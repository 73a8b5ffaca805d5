"""Coverage (issue 27, docs/architecture.md §5.2): a claim covers a statement only when
the statement's figures appear in the claim or in its `quote`, and the quote matches the
whole statement."""

from ffnverify.claims.files import Claim

TWO = "Llama 2 7B has 32 layers and a 4096-wide residual stream.\n"


def _claim(expr, quote="", source=""):
    return Claim("claims.toml", 1, 1, expr, quote=quote, source=source)


def _statuses(result):
    return [r["status"] for r in result["statements"]]


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
