"""Identities in symbols, as written (`scan/symbolic.py`): `6h² + 2·h·3h = 12h²` is read
as a claim the engine proves for every h; a definition (`m = 3·h`), a binding (`h =
1024`), words beside a symbol and decimals are not identities. Sentences written for
these tests, not taken from the corpus."""

from ffnverify.scan.numbers import normalise, tokens
from ffnverify.scan.symbolic import identities


def _claims(text):
    clean = normalise(text)
    return [(p.strict, p.sure) for p in identities(tokens(clean), clean)]


def test_coefficient_sums_are_identities():
    assert _claims("so 6h² + 2 · h · 3h = 12h² in all") == [
        ("6*(h^2)+2*(h)*3*(h) == 12*(h^2)", True)]
    assert _claims("two matrices: n × 3n + 3n × n = 6n^2") == [
        ("(n)*3*(n)+3*(n)*(n) == 6*(n)^2", True)]


def test_a_name_before_the_chain_is_left_out():
    assert _claims("Q = 2n² + 2n² = 4n²") == [("2*(n^2)+2*(n^2) == 4*(n^2)", True)]


def test_a_label_in_parentheses_is_no_factor():
    got = _claims("6h² (four projections) + 2 · h · 3h (up, down) = 12h²")
    assert got == [("6*(h^2)+2*(h)*3*(h) == 12*(h^2)", True)]


def test_letters_written_together_are_a_product_only_beside_their_letters():
    assert _claims("2·n·h + n·h = 3nh") == [("2*(n)*(h)+(n)*(h) == 3*(n*h)", True)]
    assert _claims("so 4 = 2 is") == []


def test_definitions_and_bindings_are_not_identities():
    assert _claims("with n = 3 · h we have") == []
    assert _claims("we set h = 1024 here") == []
    assert _claims("h = 1024 is the width") == []
    assert _claims("so n = 4h is the width and h = 512 in total") == []


def test_decimals_and_spaced_figures_are_not_read():
    assert _claims("it is 8/3 h = 2.67h wide") == []
    assert _claims("so 3 h = 3 4 h") == []


def test_a_lost_superscript_is_a_guess_kept_only_when_it_holds():
    got = _claims("Total = 6h2 (attention) + 2 · h · 3h (FFN) = 12 h2")
    assert got == [("6*(h^2)+2*(h)*3*(h) == 12*(h^2)", False)]
    assert _claims("Total = 6h2 (attention) + 2 · h · 3h (FFN) = 14 h2") == []


def test_a_false_identity_is_checked_false(scan_text):
    doc = ("The block holds 6h² + 2 · h · 3h = 12h² weights.\n\n"
           "The block holds 6h² + 2 · h · 3h = 10h² weights.\n")
    got = [(s["status"], s["verdict"]) for s in scan_text(doc)["statements"]]
    assert got == [("checked", "true"), ("checked", "false")], got
