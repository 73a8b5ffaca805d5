"""The scan's reading, through its public entry (`scan.scan` on a written file), at the
places where a plausible bug changes a verdict: a figure's stated precision at its exact
boundary, the precedence of × over +, an unbalanced parenthesis, a model's name as the
paper writes it, every number word, a sentence that holds an author's initial, and each
link of a chained equality.

Each case states what a careful reader of the sentence concludes (docs/architecture.md
§5.2): exact values decide the boundary cases, and every true sentence has a
false twin that the same bug would leave unchanged or turn.
"""

from fractions import Fraction

import pytest


def one(scan_text, text):
    """(status, verdict, record) of the one statement `text` makes."""
    recs = scan_text(text + "\n")["statements"]
    assert len(recs) == 1, [r["text"] for r in recs]
    return recs[0]["status"], recs[0]["verdict"], recs[0]


# ---- a figure's stated precision: `= 0.03` means [0.025, 0.035], ties included ----------
# 1/40 is exactly 0.025: rounded half up it is 0.03, half to even 0.02. Both are roundings
# a careful writer uses, so each reading holds (suggested: the figure as written does not),
# and a charitable scan never calls either FALSE. One ten-thousandth past either end,
# no rounding gives the figure: FALSE, checked. One more stated digit (0.030) states a
# precision 1/40 misses.
@pytest.mark.parametrize("text,status,verdict", [
    ("1 / 40 = 0.03", "suggested", "true"),  # the tie, rounded half up
    ("1 / 40 = 0.02", "suggested", "true"),  # the tie, rounded half to even
    ("1 / 40 = 0.025", "checked", "true"),  # exact
    ("1 / 40 = 0.030", "checked", "false"),  # [0.0295, 0.0305]
    ("249 / 10000 = 0.03", "checked", "false"),  # 0.0249: below the lower end
    ("251 / 10000 = 0.03", "suggested", "true"),  # 0.0251: inside
    ("349 / 10000 = 0.03", "suggested", "true"),  # 0.0349: inside
    ("7 / 200 = 0.03", "suggested", "true"),  # 0.035: the upper tie (rounded half down)
    ("351 / 10000 = 0.03", "checked", "false"),  # 0.0351: above the upper end
    ("251 / 10000 = 0.02", "checked", "false"),  # 0.0251: above [0.015, 0.025]
])
def test_a_figure_holds_exactly_within_half_a_unit_of_its_last_digit(scan_text, text, status,
                                                                     verdict):
    got = one(scan_text, text)
    assert got[:2] == (status, verdict), got[2]


# ---- arithmetic: × binds tighter than +, parentheses group --------------------------------
@pytest.mark.parametrize("text,verdict", [
    ("2 + 3 × 4 = 14", "true"), ("2 + 3 × 4 = 20", "false"),
    ("2 × 3 + 4 = 10", "true"), ("2 × 3 + 4 = 14", "false"),
    ("(2 + 3) × 4 = 20", "true"), ("(2 + 3) × 4 = 14", "false"),
    ("4096 × 3 + 4096 = 16384", "true"), ("4096 + 4096 × 3 = 16384", "true"),
    ("4096 + 4096 × 3 = 32768", "false"), ("2 + 3 * 4 = 14", "true"),
    ("100 - 10 × 2 = 80", "true"), ("100 - 10 × 2 = 180", "false"),
    ("10 × 2 - 100 / 4 = -5", "true"),
])
def test_products_bind_tighter_than_sums(scan_text, text, verdict):
    status, got, rec = one(scan_text, text)
    assert (status, got) == ("checked", verdict), rec


# ---- an unbalanced parenthesis does not lose the statement --------------------------------
@pytest.mark.parametrize("text,verdict", [
    ("The width (see below is 4 × 4096 = 16384.", "true"),
    ("The width (see below is 4 × 4096 = 16385.", "false"),
    ("Width ((4 × 4096 = 16384.", "true"),
    ("Width 4 × 4096) = 16384.", "true"),
    ("Width 4 × 4096) = 16385.", "false"),
])
def test_an_unbalanced_parenthesis_keeps_the_statement(scan_text, text, verdict):
    status, got, rec = one(scan_text, text)
    assert (status, got) == ("checked", verdict), rec


# ---- a model named as its paper writes it ------------------------------------------------
# LLaMA (Touvron et al. 2023a, Table 2): 7B 32 layers, 13B 40, 33B 60, 65B 80.
@pytest.mark.parametrize("name,layers", [("LLaMA 7B", 32), ("LLaMA-7B", 32), ("LLaMA 13B", 40),
                                         ("LLaMA 33B", 60), ("LLaMA 65B", 80)])
def test_llama_as_the_paper_spells_it_is_the_first_llama(scan_text, name, layers):
    status, verdict, rec = one(scan_text, f"{name} has {layers} layers.")
    assert (status, verdict) == ("checked", "true"), rec
    assert "llama-1-" in rec["claim"]
    status, verdict, rec = one(scan_text, f"{name} has {layers + 8} layers.")
    assert (status, verdict) == ("checked", "false"), rec


# ---- every number word, with its English value --------------------------------------------
B = 80640  # divisible by 2, 3, 4, 5, 6, 8, 10 and 16: every fraction below is an integer
FRACTIONS = [("half", Fraction(1, 2)), ("a third", Fraction(1, 3)), ("one third", Fraction(1, 3)),
             ("two-thirds", Fraction(2, 3)), ("two thirds", Fraction(2, 3)),
             ("a quarter", Fraction(1, 4)), ("three quarters", Fraction(3, 4)),
             ("a fourth", Fraction(1, 4)), ("a fifth", Fraction(1, 5)),
             ("a sixth", Fraction(1, 6)), ("five sixths", Fraction(5, 6)),
             ("an eighth", Fraction(1, 8)), ("three eighths", Fraction(3, 8)),
             ("a tenth", Fraction(1, 10)), ("a sixteenth", Fraction(1, 16))]
MULTIPLES = [("twice", 2), ("double", 2), ("twofold", 2), ("triple", 3), ("thrice", 3),
             ("threefold", 3), ("three times", 3), ("quadruple", 4), ("fourfold", 4),
             ("4 times", 4), ("ten times", 10), ("tenfold", 10)]
TO = [("doubles", 2), ("doubled", 2), ("triples", 3), ("tripled", 3), ("quadruples", 4),
      ("quadrupled", 4), ("halves", Fraction(1, 2)), ("halved", Fraction(1, 2))]


def _sentences():
    for word, r in FRACTIONS:
        yield word, r, lambda a, w=word: f"The width {a} is {w} of {B}."
    for word, r in MULTIPLES:
        yield word, r, lambda a, w=word: f"The width {a} is {w} {B}."
    for word, r in TO:
        yield word, r, lambda a, w=word: f"The width {B} {w} to {a}."


@pytest.mark.parametrize("word,ratio,write", list(_sentences()),
                         ids=[f"{w}-{r}" for w, r, _ in _sentences()])  # stable across workers
def test_every_number_word_means_its_english_value(scan_text, word, ratio, write):
    right = int(ratio * B)
    status, verdict, rec = one(scan_text, write(right))
    assert (status, verdict) == ("checked", "true"), rec
    status, verdict, rec = one(scan_text, write(right + 1))
    assert (status, verdict) == ("checked", "false"), rec


# ---- an author's initial is no sentence end -----------------------------------------------
@pytest.mark.parametrize("text", [
    "As N. Shazeer notes, 3 × 32 = 96.",
    "As J. R. R. Tolkien and N. Shazeer note, 3 × 32 = 96.",
    "Following A. Vaswani et al., 3 × 32 = 96.",
])
def test_an_initial_does_not_end_the_sentence(scan_text, text):
    status, verdict, rec = one(scan_text, text)
    assert (status, verdict, rec["text"]) == ("checked", "true", text)
    status, verdict, rec = one(scan_text, text.replace("= 96", "= 100"))
    assert (status, verdict) == ("checked", "false")


def test_sentences_still_split_at_a_real_end(scan_text):
    recs = scan_text("As N. Shazeer notes, 3 × 32 = 96. Then 3 × 32 = 100.\n")["statements"]
    assert [(r["text"], r["verdict"]) for r in recs] == [
        ("As N. Shazeer notes, 3 × 32 = 96.", "true"), ("Then 3 × 32 = 100.", "false")]


# ---- a chain of equalities states each link -----------------------------------------------
LINKS = ["16", "2 × 8", "4 × 4", "32 / 2", "64 / 4"]
WRONG = {"16": "17", "2 × 8": "2 × 9", "4 × 4": "4 × 5", "32 / 2": "34 / 2", "64 / 4": "68 / 4"}


@pytest.mark.parametrize("length", [3, 4, 5])
def test_a_chain_holds_only_when_every_link_does(scan_text, length):
    sides = LINKS[:length]
    status, verdict, rec = one(scan_text, "Here " + " = ".join(sides) + ".")
    assert (status, verdict) == ("checked", "true"), rec
    for k in range(length):  # one side wrong, anywhere: a link states a falsehood
        wrong = sides[:k] + [WRONG[sides[k]]] + sides[k + 1:]
        status, verdict, rec = one(scan_text, "Here " + " = ".join(wrong) + ".")
        assert (status, verdict) == ("checked", "false"), (wrong, rec)
