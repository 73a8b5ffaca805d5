"""Hostile sentences written for the scan's soundness (none copied from a corpus): each
states the status or verdict it must get. A true sentence is never FALSE (checked or
suggested); a false one whose reading is grammatical is FALSE; an unclear one is not
`checked`. Families: negation, refutation, conditionals and imagined models, questions,
bounds, ranges, two models in one sentence, versions and siblings, partial readings,
rounded figures, `32K`, per-layer and per-expert counts, mixtures of experts, bits and
scales in arithmetic."""

import pytest
from verdicts import FALSE, TRUE, UNCLEAR, judged

CASES = [
    # negation
    ("Llama 2 7B does not have 40 layers.", TRUE),
    ("Llama 2 7B does not have 32 layers.", FALSE),
    ("Mistral 7B isn't a 48-layer model.", TRUE),
    ("GPT-3 never had 128 attention heads.", TRUE),
    ("No, Llama 2 7B doesn't use 64 heads.", TRUE),
    ("Llama 2 7B has 32 heads, not 40.", TRUE),
    # refutation, before and after the refuted clause
    ("It is a myth that Llama 2 70B has 64 KV heads.", TRUE),
    ("Contrary to popular belief, Mistral 7B has 32 layers.", TRUE),
    ("Contrary to popular belief that Mistral 7B has 40 layers, it has 32.", TRUE),
    ("It is not true that Llama 2 7B has 40 layers.", TRUE),
    ("Folks often claim Mistral 7B has 40 layers, but that is a misconception.", TRUE),
    ("Mistral 7B has 64 layers, which is wrong.", TRUE),
    ("Some say GPT-3 has 96 heads per layer, which is false.", FALSE),
    # conditionals, imagined models
    ("If Llama 2 7B had 40 layers, it would have about 8.3B parameters.", UNCLEAR),
    ("Had Mistral 7B used 40 layers, it would be slower.", UNCLEAR),
    ("A transformer like Mistral 7B with 48 layers would be slower.", UNCLEAR),
    ("Llama 2 13B, scaled to 60 layers, would need far more memory.", UNCLEAR),
    # questions
    ("Does Llama 2 7B really have 40 layers?", UNCLEAR),
    ("Was it Llama 2 7B that has 40 layers?", UNCLEAR),
    # bounds
    ("Llama 2 70B has at least 64 layers.", TRUE),
    ("Llama 2 70B has at most 64 layers.", FALSE),
    ("Mistral 7B has no more than 40 layers.", TRUE),
    ("Mistral 7B supports up to 32K tokens of context.", TRUE),
    ("GPT-3 has over 100 billion parameters.", TRUE),
    ("Llama 2 7B has under 8 billion parameters.", TRUE),
    ("Llama 2 7B has fewer than 30 layers.", FALSE),
    # ranges
    ("Llama 2 7B has between 30 and 35 layers.", TRUE),
    ("Llama 2 7B has 32–40 layers.", TRUE),
    ("Llama 2 7B has 7-9B parameters.", TRUE),
    ("Llama 2 7B has 40–48 layers.", FALSE),
    # two models in one sentence
    ("Unlike GPT-2 XL, GPT-3 has 96 layers.", TRUE),
    ("Unlike GPT-3, GPT-2 XL has 48 layers.", TRUE),
    ("Llama 3 8B, unlike Llama 3.1 8B, has a context of 8K tokens.", TRUE),
    ("Llama 2 13B has 40 layers, but Llama 2 7B has only 32.", TRUE),
    ("Mistral 7B has 8 KV heads rather than Llama 2 7B's 32.", TRUE),
    ("GPT-3 has 96 layers compared with 48 for GPT-2 XL.", TRUE),
    # versions and siblings
    ("Mistral-7B-v0.3 has 32 layers.", TRUE),
    ("Code Llama 7B has a 100K context.", TRUE),
    ("Llama 3.1 8B has a 128K context, vs Llama 3 8B with 8K.", TRUE),
    ("Llama 2 7B Chat has 32 layers.", TRUE),
    # partial readings
    ("Llama 3 8B has 8 KV heads, so at 4096 tokens in bf16 it needs 0.5 GiB of KV cache.", TRUE),
    ("Llama 2 7B has a hidden size of 4096 and 32 heads, so each head has 128 dimensions.", TRUE),
    ("The KV cache of Llama 2 7B at 4096 tokens is 2 GiB in fp16.", TRUE),
    # rounded figures
    ("Llama 2 7B has 6.7B parameters.", TRUE),
    ("Llama 2 7B has 6.74B parameters.", TRUE),
    ("Llama 2 7B has 6.73B parameters.", FALSE),
    ("Llama 2 7B has 131M embedding parameters.", TRUE),
    ("Llama 2 70B: roughly 69 billion parameters.", TRUE),
    # 32K as 32,000 or 32,768
    ("Mistral 7B has a 32K context.", TRUE),
    ("Llama 3 8B has 8K context.", TRUE),
    ("Llama 2 7B has a 4K context.", TRUE),
    ("Llama 2 7B has a 16K context.", FALSE),
    # one layer, one expert
    ("Llama 2 7B has 32 layers, each with 202M parameters.", TRUE),
    ("Each of Llama 2 7B's 32 layers has 202M parameters.", TRUE),
    ("Llama 2 7B has 202M parameters in each of its 32 layers.", TRUE),
    ("Llama 2 7B has 32 layers, each with 300M parameters.", FALSE),
    ("Llama 2 7B has 32 layers, each with 4096 hidden units and 6.7B parameters.", TRUE),
    ("Mixtral 8x7B's experts each have 5.6B parameters.", TRUE),
    ("Each of Mixtral 8x7B's 8 experts holds 5.6B parameters.", TRUE),
    # a part of a whole ("N of its M parameters"): M is the whole, not the part
    ("Llama 2 7B's FFN holds 4.3B of its 6.7B parameters.", TRUE),
    ("Llama 2 7B's attention uses 2.1B out of 6.7B parameters.", TRUE),
    # a proportion, a colon between figures
    ("The ratio of query heads to KV heads in Llama 2 70B is 64:8 = 8.", TRUE),
    # rounded inputs of arithmetic
    ("Llama 2 7B: 6.7B params × 2 bytes = 13.5 GB.", TRUE),
    ("Llama 2 7B: 6.7B params × 2 bytes = 20 GB.", FALSE),
    # a memory requirement: at least the weights
    ("Llama 2 7B needs 16 GB of VRAM in fp16.", TRUE),
    ("Llama 2 7B needs 8 GB of VRAM in fp16.", FALSE),
    # reported, derived
    ("According to one blog, Llama 2 7B has 40 layers.", UNCLEAR),
    ("In our fork of Llama 2 7B we use 40 layers.", TRUE),
    # published figures the config does not hold
    ("Mistral 7B has 7.3B parameters.", TRUE),
    ("Mistral 7B was trained with an 8K context.", TRUE),
    # mixtures of experts: total or active
    ("Mixtral 8x7B has 13B parameters.", TRUE),
    ("Mixtral 8x7B has 13B total parameters.", FALSE),
    ("Mixtral 8x7B has about 13B active parameters out of 47B.", TRUE),
    ("Qwen1.5-MoE-A2.7B has 2 billion non-embedding parameters.", TRUE),
    # bits and scales in arithmetic
    ("At 16 bits: 13B × 16 bits = 26 GB.", TRUE),
    ("70B × 4-bit = 35 GB.", TRUE),
    ("70B × 8 bits = 560 GB.", FALSE),
    ("One block: 33.5 + 33.5 + 135.3 = 202.3M parameters.", TRUE),
    ("One block: 33.5 + 33.5 + 135.3 = 250M parameters.", FALSE),
]


@pytest.mark.parametrize("text,expect", CASES, ids=[c[0][:60] for c in CASES])
def test_hostile_sentence(scan_text, text, expect):
    judged(scan_text, text, expect)


def test_enough_cases():
    assert len(CASES) >= 40


@pytest.mark.parametrize("text,status,verdict", [
    # `32K` is 32,000 or 32,768: a bound that holds under one reading only is to confirm
    ("Mistral 7B supports over 32K tokens of context.", "suggested", "true"),
    ("Llama 2 7B has a context of more than 4K tokens.", "suggested", "true"),
    ("Mistral 7B supports under 32K tokens of context.", "checked", "false"),
    ("Llama 2 7B has at least 4K tokens of context.", "checked", "true"),
])
def test_bounds_on_a_binary_scale(scan_text, text, status, verdict):
    st = scan_text(text + "\n")["statements"][0]
    assert (st["status"], st["verdict"]) == (status, verdict), st


@pytest.mark.parametrize("text", [
    # a difference paired with a field noun is no value of the field
    "Llama 2 13B has 8 more layers than Llama 2 7B.",
    "Llama 2 70B has 40 more layers than Llama 2 13B.",
    "The difference between Llama 2 13B and Llama 2 7B is 8 layers.",
    # a former value, or one before a change
    "Mistral 7B cut the KV heads from 32 to 8.",
    "Llama 2 70B went from 64 KV heads to 8.",
    "Llama 2 7B previously had a 2K context; now it has 4K.",
    "Llama 3 8B's vocabulary grew from 32K to 128K tokens.",
])
def test_differences_and_former_values_are_never_false(scan_text, text):
    for st in scan_text(text + "\n")["statements"]:
        assert st["verdict"] != "false", st


@pytest.mark.parametrize("text", [
    "Llama 2 13B has 48 layers, more than Llama 2 7B.",   # a value, then a comparison
    "Llama 2 7B has 40 layers, from what I can tell.",
])
def test_values_beside_comparisons_are_still_read(scan_text, text):
    st = scan_text(text + "\n")["statements"][0]
    assert st["verdict"] == "false", st


@pytest.mark.parametrize("text,expect", [
    # two parts joined as the subject: their sum, not either part
    ("Llama 2 7B's embedding and LM head together hold 262M parameters.", TRUE),
    ("Llama 2 7B's attention plus FFN hold 6.5B parameters.", TRUE),
    ("Llama 2 7B's FFN holds 4.3B parameters.", TRUE),
    ("Llama 2 7B's FFN holds 3B parameters.", FALSE),
    # a change in the count, not the count ("saving 38.6M parameters")
    ("GPT-2 small ties its embedding and output matrices, saving 38.6M parameters.", TRUE),
    ("Tying the embeddings of Llama 2 7B would save about 131M parameters.", TRUE),
    # a part named in the singular: one layer's, or all of them
    ("Llama 2 7B's attention block has 67M parameters.", TRUE),
    ("Llama 2 7B's FFN layer has 135M parameters.", TRUE),
    ("Llama 2 7B's attention layers hold 2.1B parameters.", TRUE),
    ("Llama 2 7B's attention block has 500M parameters.", FALSE),
])
def test_parts_sums_and_changes(scan_text, text, expect):
    judged(scan_text, text, expect)


@pytest.mark.parametrize("text,expect", [
    # European and other digit grouping: a careful reader takes "4.096" as 4096
    ("Llama 2 7B has a hidden size of 4.096.", TRUE),
    ("Llama 2 7B's FFN width is 11.008.", TRUE),
    ("Mistral 7B has a vocabulary of 32.000 tokens.", TRUE),
    ("Llama 2 7B has 6,74 billion parameters.", TRUE),
    ("Llama 2 7B has a hidden size of 4'096.", TRUE),
    ("Llama 2 7B has 6 738 415 616 parameters.", TRUE),
    ("Llama 2 7B has a hidden size of 5.120.", FALSE),     # 5120 under either reading
    ("Llama 2 7B has a hidden size of 4,096.", TRUE),
])
def test_digit_grouping(scan_text, text, expect):
    judged(scan_text, text, expect)


@pytest.mark.parametrize("text,expect", [
    # a negation that denies a model a count, with the arithmetic of that count inside
    ("Mixtral 8x7B doesn't have 8 × 7B = 56B parameters, but 46.7B.", TRUE),
    ("Mixtral 8x22B has 141B parameters, not 8 × 22B = 176B.", TRUE),
    # an equality refuted as such still reads as its negation
    ("It is a myth that 8/3 × 4096 = 10923.", TRUE),
    ("It is a myth that 8/3 × 4096 = 10922.67.", FALSE),
])
def test_negated_arithmetic(scan_text, text, expect):
    judged(scan_text, text, expect)


@pytest.mark.parametrize("text", [
    "Its bigger sibling has 40 layers.",
    "The 13B version has 40 layers.",
    "Its successor has a 128K vocabulary.",
    "The smaller one has 32 layers; the larger 40.",
    "The next model in the family has 40 layers.",
])
def test_another_model_than_the_heading_names(scan_text, text):
    got = scan_text(f"# Llama 2 7B\n\nIt has 32 layers.\n\n{text}\n")["statements"]
    assert got[0]["verdict"] == "true", got[0]   # the heading's model is still read
    for st in got[1:]:
        assert st["verdict"] != "false", st


@pytest.mark.parametrize("text,status,verdict", [
    # a part named without "total"/"all layers": one layer's part too, leniently
    ("Llama 2 7B's FFN has 135M parameters.", "suggested", "true"),
    ("The FFN of Llama 2 7B holds 4.33B parameters.", "checked", "true"),
    ("Llama 2 7B's FFN has 135M parameters in total.", "checked", "false"),
    ("Across all layers, Llama 2 7B's FFNs hold 135M parameters.", "checked", "false"),
    ("Llama 2 7B's FFN has 500M parameters.", "checked", "false"),
    ("| Model | FFN params |\n|---|---|\n| Llama 2 7B | 135M |", "suggested", "true"),
    ("| Model | Total FFN params |\n|---|---|\n| Llama 2 7B | 135M |", "checked", "false"),
])
def test_a_part_may_be_one_layers(scan_text, text, status, verdict):
    st = scan_text(text + "\n")["statements"][-1]
    assert (st["status"], st["verdict"]) == (status, verdict), st


@pytest.mark.parametrize("text,expect", [
    # questions without a question mark: quizzes, exercises, indirect questions
    ("True or false: Llama 2 7B has 40 layers.", UNCLEAR),
    ("Exercise: show that Llama 2 7B has 40 layers.", UNCLEAR),
    ("I wonder whether Llama 2 7B has 40 layers.", UNCLEAR),
    ("Check whether Llama 2 7B has 40 layers.", UNCLEAR),
    ("Q: Does Mistral 7B have 40 layers? A: No, 32.", UNCLEAR),
    # a statement labelled wrong before it
    ("Wrong: Llama 2 7B has 40 layers.", TRUE),
    ("Myth — Llama 2 7B has 40 layers.", TRUE),
    ("❌ Llama 2 7B has 40 layers", TRUE),
    ("Correct: Llama 2 7B has 40 layers.", FALSE),
    ("✅ Llama 2 7B has 40 layers", FALSE),
])
def test_questions_and_labels(scan_text, text, expect):
    judged(scan_text, text, expect)


def test_q_heads_is_no_question(scan_text):
    got = scan_text("# Llama 2 70B\n\nQ-Heads: 64\n")["statements"]
    assert got and got[0]["status"] != "unchecked", got
