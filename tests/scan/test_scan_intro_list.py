"""A paragraph that ends with ":" and names one model gives it to every item of the list
right after it, not to the first item only; an item naming its own model, or anything
but the list's next item, ends that. Documents written for these tests."""


def _items(scan_text, text):
    return {s["line"]: (s["status"], s["verdict"]) for s in scan_text(text)["statements"]}


def test_every_item_of_the_introduced_list(scan_text):
    # (not the section's first paragraph, whose model its listed data has anyway)
    got = _items(scan_text, "Some words first.\n\nFor Llama 3 8B:\n\n- Vocabulary: 128,256 "
                 "tokens\n- Hidden dimension: 4,096\n- Layers: 40\n")
    assert got == {5: ("suggested", "true"), 6: ("suggested", "true"),
                   7: ("suggested", "false")}, got


def test_the_list_ends_the_introduction(scan_text):
    got = _items(scan_text, "Some words first.\n\nFor Llama 3 8B:\n\n- Vocabulary: 128,256 "
                 "tokens\n\nSomething else entirely.\n\n- Layers: 40\n")
    assert got[9] == ("unchecked", None), got


def test_an_item_naming_its_own_model_ends_it(scan_text):
    got = _items(scan_text, "Some words first.\n\nFor Llama 3 8B:\n\n- Vocabulary: 128,256 "
                 "tokens\n- GPT-2 small has 12 layers\n- Layers: 40\n")
    assert got[6] == ("checked", "true"), got
    assert got[7] == ("unchecked", None), got
