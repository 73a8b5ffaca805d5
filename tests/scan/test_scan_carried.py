"""What the text before a unit gives it (`ffnverify/scan/carried.py`, once two modules:
`carried` and `carry`): the nominal count and KV topic `Carry` walks, and the units
before a unit and its table's rows that `learn` records and `before` gives back."""

from ffnverify.scan import carried
from ffnverify.scan.variants import Context


def _learned(texts):
    context = Context()
    for text in texts:
        carried.learn(text, context)
    return context


def test_before_gives_the_nearest_units_first_and_at_most_recent():
    texts = [f"unit {i}" for i in range(carried.RECENT + 3)]
    context = _learned(texts)
    got = carried.before(context, texts[-1])
    assert got.recent == tuple(reversed(texts[-1 - carried.RECENT:-1]))
    assert carried.before(context, texts[0]).recent == ()


def test_a_table_row_sees_every_row_of_its_table_and_not_the_next_table():
    rows = ["a | 1 | 2", "b | 3 | 4", "c | 5 | 6"]
    other = ["x | 9", "y | 8"]
    context = _learned(["Intro.", *rows, "Between.", *other])
    assert carried.before(context, rows[0]).table == rows
    assert carried.before(context, other[1]).table == other
    assert carried.before(context, "Between.").table == []


def test_the_same_text_in_two_places_carries_nothing():
    context = _learned(["First.", "Same text.", "Second.", "Same text."])
    assert carried.before(context, "Same text.") is None
    assert carried.before(context, "Second.").recent[0] == "Same text."


def test_a_unit_whose_text_was_the_walks_own_key_is_read_like_any_other():
    # the walk once kept its state under the key "ambiguous": a unit with that text
    # overwrote it, and the next unit's learn failed
    context = _learned(["Before.", "ambiguous", "After it."])
    assert carried.before(context, "ambiguous").recent == ("Before.",)
    assert carried.before(context, "After it.").recent == ("ambiguous", "Before.")


def test_before_without_a_context_or_for_an_unlearned_text_is_none():
    assert carried.before(None, "x") is None
    assert carried.before(_learned(["a."]), "never seen") is None


def test_carry_keeps_one_count_and_forgets_two():
    walk = carried.Carry()
    walk.heading("Running a 7B model")
    assert walk.state().count == "7B"
    walk.after("Its weights take 14 GB in BF16.")
    assert walk.state().count == "7B"
    walk.after("A 7B model and a 13B model differ.")
    assert walk.state().count == ""
    walk.after("A 70B-parameter model is bigger.")
    assert walk.state().count == "70B"


def test_carry_knows_the_kv_topic_from_the_title_and_the_section():
    walk = carried.Carry()
    walk.heading("KV cache sizes")
    walk.heading("Weights")
    assert walk.state().kv_topic  # the title's topic holds for the whole document
    walk = carried.Carry()
    walk.heading("Serving")
    walk.heading("The KV cache")
    assert walk.state().kv_topic
    walk.heading("Weights")
    assert not walk.state().kv_topic


def test_a_row_gets_the_context_the_paragraph_over_its_table_states():
    walk = carried.Carry()
    walk.after("Sizes at 8192 tokens of context:")
    assert walk.state(row=True).context == "8192"
    walk.after("a | 1", row=True)
    assert walk.state(row=True).context == "8192"
    assert walk.state().context == ""
