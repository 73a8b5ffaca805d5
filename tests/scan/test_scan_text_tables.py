"""Tables in plain text are prose tables (docs/architecture.md §5.1: a table row is a statement): a header
line of words over lines of figures, in columns aligned with spaces or divided by `|`.
Program text and ordinary paragraphs are not tables. An empty Markdown cell is shown."""

from ffnverify.scan import readers

ALIGNED = """Models

         layers heads embd ctx  vocab
  124 M  12     12    768  1024 50257
  355 M  24     16    1024 1024 50257
"""


def _rows(text, fmt="text"):
    return [(b.header, b.cells, b.text) for b in readers.read(text, fmt).blocks
            if b.kind == "row"]


def test_columns_aligned_with_spaces_are_a_table():
    rows = _rows(ALIGNED)
    assert rows == [(("", "layers", "heads", "embd", "ctx", "vocab"),
                     ("124 M", "12", "12", "768", "1024", "50257"),
                     "124 M  12     12    768  1024 50257"),
                    (("", "layers", "heads", "embd", "ctx", "vocab"),
                     ("355 M", "24", "16", "1024", "1024", "50257"),
                     "355 M  24     16    1024 1024 50257")]


def test_columns_divided_by_bars_are_a_table_and_its_rows_are_read(scan_text):
    doc = "Model | Layers | Heads\n------|--------|------\nLlama 2 7B | 32 | 32\n" \
          "Llama 2 13B | 41 | 40\n"
    got = {r["text"]: r for r in scan_text(doc, "t.txt")["statements"]}
    assert (got["Llama 2 7B | 32 | 32"]["status"], got["Llama 2 7B | 32 | 32"]["verdict"]) \
        == ("checked", "true")
    assert got["Llama 2 13B | 41 | 40"]["verdict"] == "false"  # it has 40 layers
    assert not any(t.startswith("Model") or t.startswith("---") for t in got)


def test_prose_and_program_text_are_not_tables():
    prose = "The model has two parts\nwith 12 layers and 12 heads in all\nand 768 wide.\n"
    assert _rows(prose) == []
    code = "x = 1\ny = 2\nz = 3\n"
    assert _rows(code) == []
    ragged = "   layers heads\n  12 12 12\n  24\n"  # a column with no figure: not aligned
    assert _rows(ragged) == []


def test_an_empty_markdown_cell_is_shown():
    rows = _rows("| a | b | c |\n|---|---|---|\n| Total | | 100% |\n", "markdown")
    assert rows[-1][2] == "Total | | 100%"


PARAMS_TABLE = ("| Name | Shape | Number of parameters |\n|---|---|---|\n"
                "| wte.weight | (50257, 768) | 38597376 |\n| c_attn.bias | (2304,) | 2304 |\n"
                "| c_fc.weight | (768, 3072) | 2359297 |\n"
                "| out | (1, 768) | n/a |\n")


def test_a_shape_column_multiplies_out_to_the_parameter_column(scan_text):
    got = {r["text"]: r for r in scan_text(PARAMS_TABLE)["statements"]}
    right = got["wte.weight | (50257, 768) | 38597376"]
    assert (right["status"], right["verdict"], right["claim"]) == (
        "suggested", "true", "50257 * 768 == 38597376")  # a shape may be another tensor's
    assert got["c_attn.bias | (2304,) | 2304"]["verdict"] == "true"
    wrong = got["c_fc.weight | (768, 3072) | 2359297"]  # 768 × 3072 = 2,359,296
    assert (wrong["status"], wrong["verdict"]) == ("suggested", "false")


def test_an_output_shape_is_no_weight_shape(scan_text):
    doc = "| Layer | Output Shape | Param # |\n|---|---|---|\n| Linear | (1, 3072) | 2362368 |\n"
    row = next(r for r in scan_text(doc)["statements"] if "Linear" in r["text"])
    assert row["status"] == "unchecked", row  # torchsummary's output shape is activations


def test_a_run_in_label_opening_a_list_item_stays_with_its_sentence(scan_text):
    got = [r["text"] for r in scan_text("- **Data.** Roughly 500B tokens of text.\n"
                                        "- Yes. The model has 32 layers and 4096 wide.\n"
                                        "- It has 12 layers. It has 12 heads.\n")["statements"]]
    assert "Data. Roughly 500B tokens of text." in got
    assert "It has 12 layers." in got and "It has 12 heads." in got  # sentences still cut
