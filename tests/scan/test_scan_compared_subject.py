"""A model the text measures its own against ("outperforms Llama 2 70B", "smaller than
GPT-3") does not make a section speak of two models (`structure._compared`): the listed
data under the heading is still said of the heading's model, a reading to confirm. A
second model named as a subject in its own right still takes the heading's model away, and so
does a compared model in a text that names no model of its own ("Compared with X, it is
larger.": the data below may be X's).
Documents written for these tests."""

import pytest

LISTED = """
## Architecture

- Number of layers: 32
- Context Length: 32K tokens
- Total params: 46.7B
"""


def _verdicts(scan_text, text):
    return {s["text"].split(":")[0].lstrip("- "): (s["status"], s["verdict"])
            for s in scan_text(text)["statements"] if ":" in s["text"]}


@pytest.mark.parametrize("intro", [
    "Mixtral 8x7B is a sparse mixture of experts that outperforms Llama 2 70B.",
    "Mixtral 8x7B is faster than Llama 2 70B at inference.",
    "Mixtral 8x7B is often compared with GPT-3.5 on chat tasks.",
    "Mixtral 8x7B, unlike Llama 2 70B, routes each token to two experts.",
    "Mixtral 8x7B matches or beats GPT-3.5 on most benchmarks.",
])
def test_a_compared_model_leaves_the_heading_model(scan_text, intro):
    got = _verdicts(scan_text, f"# Mixtral 8x7B\n\n{intro}\n{LISTED}")
    assert got["Number of layers"] == ("suggested", "true"), got
    assert got["Context Length"] == ("suggested", "true"), got
    assert got["Total params"] == ("suggested", "true"), got


def test_a_wrong_figure_under_a_compared_model_is_still_false(scan_text):
    text = f"# Mixtral 8x7B\n\nMixtral 8x7B outperforms Llama 2 70B.\n{LISTED}"
    got = _verdicts(scan_text, text.replace("layers: 32", "layers: 80"))
    assert got["Number of layers"] == ("suggested", "false"), got


@pytest.mark.parametrize("intro", [
    "Mixtral 8x7B is a sparse mixture of experts. Llama 2 70B is a dense model.",
    "This page covers Mixtral 8x7B and Llama 2 70B.",
    # compared with, but beside no model of its own: the data below may be the other's
    "Compared with Llama 2 70B, it is faster.",
])
def test_a_second_subject_still_takes_the_heading_model_away(scan_text, intro):
    got = _verdicts(scan_text, f"# Mixtral 8x7B\n\n{intro}\n{LISTED}")
    assert all(status == "unchecked" for status, _ in got.values()), got
