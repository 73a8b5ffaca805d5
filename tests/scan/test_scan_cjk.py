"""Chinese, Japanese and Korean text: its sentences, figures (亿, 万, 字节, figures glued
to the words beside them) and nouns are found, and a statement is read by its figures and
nouns alone, so never more than suggested; a word that may negate, ask or suppose leaves
it unread. Sentences written for these tests."""

import pytest
from verdicts import only

from ffnverify.scan.numbers import normalise, tokens
from ffnverify.scan.units import _sentence_starts


def _nums(text):
    return [(t.text, t.value, t.scale) for t in tokens(normalise(text)) if t.kind == "NUM"]


@pytest.mark.parametrize("text,value,scale", [
    ("拥有1700亿参数的模型", 170 * 10**9, "B"),   # 亿: 10⁸
    ("参数量约为 67 亿。", 67 * 10**8, "B"),       # apart from its figure
    ("70億パラメータ", 7 * 10**9, "B"),
    ("1.5万亿 tokens", 15 * 10**11, "T"),          # 万亿: 10¹²
    ("7B模型需要14GB显存", 14 * 10**9, "bytes"),   # glued to the words on both sides
])
def test_a_figure_in_cjk_text_is_read_with_its_scale(text, value, scale):
    got = [(v, s) for _, v, s in _nums(text)]
    assert (value, scale) in got, (text, got)


def test_bytes_per_parameter_in_cjk_text_is_read_as_such():
    """"4字节/参数": 4 bytes per parameter, no amount of memory."""
    from ffnverify.scan import memory_words

    text = normalise("参数大小:4字节/参数")
    four = next(t for t in tokens(text) if t.kind == "NUM")
    assert four.value == 4 and memory_words.PER_PARAM.match(text[four.end:])


def test_a_figure_glued_to_a_latin_name_stays_part_of_the_name():
    assert _nums("Qwen1.5 and L08 and W1") == []


def test_a_full_width_stop_ends_a_sentence():
    text = "代码中设置的intermediate_size=4096。按我的理解，应该是16384。"
    assert _sentence_starts(text) == [text.index("按")]


def test_a_cjk_statement_is_found_and_read_as_suggested_at_most(scan_text):
    got = only(scan_text, "Llama 2 7B 有 32 层，隐藏层维度为4096，32 个注意力头。")
    assert (got["status"], got["verdict"]) == ("suggested", "true"), got
    for field in ("layers(llama-2-7b) == 32", "d_model(llama-2-7b) == 4096",
                  "heads(llama-2-7b) == 32"):
        assert field in got["claim"], got
    # a reading through the glossary that comes out false is a lead, never a flag
    for text in ("Llama 2 7B的层数为40。", "Llama-2-7B はレイヤー数が 40 です。"):
        got = only(scan_text, text)
        assert got["status"] == "unchecked" and "would be false" in got["detail"], got
        assert "layers(llama-2-7b) == 40" in got["detail"]
    got = only(scan_text, "Llama 2 7B的FP16权重约为13.5GB。")
    assert (got["status"], got["verdict"]) == ("suggested", "true"), got
    assert "weight_bytes(llama-2-7b, dtype=fp16)" in got["claim"]


@pytest.mark.parametrize("text", [
    "Llama 2 7B 不是 40 层。",          # a negation
    "Llama 2 7B 有 40 层吗？",          # a question
    "如果 Llama 2 7B 有 40 层，它会更大。",  # a condition
    "Llama-2-7B のレイヤー数は 40 ではない。",
])
def test_a_cjk_word_that_may_negate_ask_or_suppose_leaves_it_unread(scan_text, text):
    got = only(scan_text, text)
    assert got["status"] == "unchecked" and "not read" in got["detail"], got


def test_a_cjk_arithmetic_line_is_suggested(scan_text):
    """"10亿参数*4字节/参数=40亿字节": its arithmetic holds; the line may also state a
    model's count (the scan does not parse it), so it is suggested, not checked."""
    got = only(scan_text, "10亿参数*4字节/参数=40亿字节")
    assert (got["status"], got["verdict"]) == ("suggested", "true"), got
    got = only(scan_text, "10亿参数*4字节/参数=50亿字节")
    assert (got["status"], got["verdict"]) == ("suggested", "false"), got


def test_a_total_row_is_not_the_weights(scan_text):
    """"| Total | ~152 GB |" under a table of weights, gradients and optimizer states is
    the column's sum, not the weights of the 7B model the heading names."""
    doc = ("### Memory for a 7B Parameter Model\n\n| Component | Size (FP32) |\n|---|---|\n"
           "| Model parameters | 28 GB |\n| Gradients | 28 GB |\n| Total | ~56 GB |\n")
    rows = {s["text"].split("|")[0].strip(): s for s in scan_text(doc)["statements"]}
    assert rows["Model parameters"]["verdict"] == "true", rows
    assert rows["Total"]["verdict"] != "false", rows


@pytest.mark.parametrize("text,status,verdict", [
    ("1 GiB = 1024 MiB of memory", "checked", "true"),
    ("1 GB = 1000 MB of memory", "checked", "true"),
    ("1 GB = 1024 MB of memory", "suggested", "true"),   # GiB and MiB: one reading holds
    ("13B = 13,000,000 parameters", "checked", "false"),  # no reading rescues it
    ("6.7B = 6,738,415,616 parameters", "suggested", "true"),  # 6.7B read as rounded
    ("1B = 10亿参数", "suggested", "true"),
    ("10亿字节=1GB", "suggested", "true"),
])
def test_a_figure_restated_in_another_scale_or_unit(scan_text, text, status, verdict):
    got = only(scan_text, text)
    assert (got["status"], got["verdict"]) == (status, verdict), got


def test_a_cjk_line_in_a_text_file_is_a_line_of_its_own(scan_text):
    """Chinese notes set each formula on its own line: a line break beside CJK letters
    ends the unit (a Latin line starting with a digit would continue the one above)."""
    doc = "计算模型大小\n模型大小=参数数量*每个参数字节\n10亿参数*4字节/参数=40亿字节\n10亿字节=1GB\n"
    got = scan_text(doc, "notes.txt")["statements"]
    lines = {s["line"]: s for s in got}
    assert lines[3]["end_line"] == 3 and lines[3]["verdict"] == "true", got
    assert lines[4]["verdict"] == "true", got


def test_the_glossary_gives_the_readers_their_english_words():
    """`cjk.to_english`: the domain's nouns, function words and the words of polarity, as
    the English readers know them (word order as written)."""
    from ffnverify.scan.cjk import to_english

    got = " ".join(to_english("Llama 2 7B 的层数为 32，注意力头数为 32").split())
    assert got == "Llama 2 7B layers is 32， heads is 32", got
    assert "not" in to_english("不是 40 层") and "?" in to_english("有 40 层吗")
    assert " ".join(to_english("显存约 14GB 左右").split()) == "VRAM about about 14GB"


def test_mixtral_total_and_active_in_chinese(scan_text):
    got = only(scan_text, "Mixtral 8x7B 每个 token 激活约 13B 参数。")
    assert (got["status"], got["verdict"]) == ("suggested", "true"), got
    assert "params_active(mixtral-8x7b)" in got["claim"]


def test_a_table_with_a_cjk_header_binds_its_columns_as_suggested(scan_text):
    doc = ("| 模型 | 层数 | 隐藏层维度 | 头数 |\n|---|---|---|---|\n"
           "| Llama 2 7B | 32 | 4096 | 32 |\n")
    got = [s for s in scan_text(doc)["statements"] if s["line"] == 3]
    assert [(s["status"], s["verdict"]) for s in got] == [("suggested", "true")], got
    for field in ("layers(llama-2-7b) == 32", "d_model(llama-2-7b) == 4096",
                  "heads(llama-2-7b) == 32"):
        assert field in got[0]["claim"]


@pytest.mark.parametrize("text,verdict", [
    ("8K tokens = 8,192 tokens of context.", "true"),
    ("A 32K context = 32,000 tokens.", "true"),
    ("1B parameters = 1000M parameters.", "true"),
    ("7B = 7,000,000 parameters.", "false"),
])
def test_a_conversion_with_its_noun_between(scan_text, text, verdict):
    assert only(scan_text, text)["verdict"] == verdict


@pytest.mark.parametrize("text,status,verdict", [
    # a condition leaves arithmetic as written to be checked (suggested); a figure bound
    # through the glossary is not read beside it; a negation leaves nothing read
    ("如果用 FP16 加载，7 * 2 = 14 GB。", "suggested", "true"),
    ("LLama 2의 7B를 FP16으로 가져오면 결과 값은 7 * 4B / 2 * 1.2 = 16.8 GB가 필요하다.",
     "suggested", "true"),
    ("如果用 FP16 加载，7 * 2 = 15 GB。", "suggested", "false"),
    ("如果 Llama 2 7B 有 40 层，它的显存会更大。", "unchecked", None),
    ("Llama 2 7B 不是 32 层，7 * 2 = 14。", "unchecked", None),
])
def test_a_condition_leaves_arithmetic_as_written(scan_text, text, status, verdict):
    (got,) = scan_text(text + "\n")["statements"]
    assert (got["status"], got["verdict"]) == (status, verdict), got


@pytest.mark.parametrize("text,verdict", [
    # "14G显存": Chinese writes G for gigabytes beside a memory word (`cjk._BARE_G`)
    ("Llama 2 7B 用 FP16 需要 14G 显存。", "true"),
    ("7B模型:FP16需要14G显存,INT8需要7G,INT4需要3.5G。", "true"),
])
def test_a_bare_g_beside_a_memory_word_is_gigabytes(scan_text, text, verdict):
    got = only(scan_text, text)
    assert (got["status"], got["verdict"]) == ("suggested", verdict), got


def test_a_bare_g_with_no_memory_word_is_not_bytes():
    assert "bytes" not in [scale for _, _, scale in _nums("7B 模型有 7G 参数。")]
    assert "bytes" in [scale for _, _, scale in _nums("需要 14G 显存")]
