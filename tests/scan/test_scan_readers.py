"""Every format is read with its own parser, what is not prose stays out, and each
statement's position is the exact file:line:col of its first character."""

import json

import nbformat
import pytest


def at(path, line, col, n=12):
    """The source text at a 1-based position."""
    text = path.read_text(encoding="utf-8")
    return text.split("\n")[line - 1][col - 1:col - 1 + n]


def statements(result):
    return [(r["line"], r["col"], r["text"], r["status"]) for r in result["statements"]]


def assert_positions(result, path):
    assert result["statements"], "no statement found"
    for r in result["statements"]:
        first = r["text"].split()[0].strip("*`")
        assert at(path, r["line"], r["col"], len(first)) == first, r


MD = """---
title: 32 layers in the front matter
---
# Notes

Llama 2 7B has 32 layers. See [the 80-layer card](https://x.org/80-layers).
It has a hidden size of 4096, and `3×32 = 96`.

- Mistral 7B's intermediate size is 14,336.
- **Llama 3 70B** has ~69.5B parameters.

> quoted: 8,192 × 3.5 = 28,672

| Field | Llama 2 7B |
|-------|-----------:|
| Layers | 32 |

SwiGLU at 8/3·d has the parameters of ReLU at 4·d.

```claim
params(swiglu, d, 8/3*d) == params(relu, d, 4*d)
```

```python
hidden = 4096 * 4  # 16384 layers
```

    indented code: 12 layers
"""


def test_markdown(scan_text, tmp_path):
    result = scan_text(MD, "a.md")
    found = statements(result)
    texts = [t for _, _, t, _ in found]
    assert not any("front matter" in t or "16384" in t or "indented" in t for t in texts)
    assert not any("80-layers" in t for t in texts)  # a link target is not prose
    assert (6, 1, "Llama 2 7B has 32 layers.", "checked") in found
    assert any(line == 9 and col == 3 for line, col, _, _ in found)  # list item
    assert any(line == 10 and col == 5 for line, col, _, _ in found)  # after **
    assert any(line == 12 and col == 3 for line, col, _, _ in found)  # block quote
    row = next(r for r in result["statements"] if r["line"] == 16)
    assert row["status"] == "checked" and row["claim"] == "layers(llama-2-7b) == 32"
    covered = next(r for r in result["statements"] if r["line"] == 18)
    assert covered["status"] == "covered"
    assert_positions(result, tmp_path / "a.md")


HTML = """<!DOCTYPE html><html><head><title>t</title>
<script>var s = "Llama 2 7B has 99 layers";</script><style>p{margin:32px}</style></head>
<body><h1>Sizes</h1>
<p>Llama 2 7B has 32 layers &amp; a hidden
size of 4096.</p>
<pre>8/3 * 4096 = 10922 params</pre>
<table><tr><th>Model</th><th>Layers</th></tr>
<tr><td>Mistral 7B</td><td>32</td></tr></table>
<ul><li>3×32 = 96 weights</li></ul>
</body></html>
"""


def test_html(scan_text, tmp_path):
    result = scan_text(HTML, "a.html")
    found = statements(result)
    assert not any("99" in t or "10922" in t or "32px" in t for _, _, t, _ in found)
    assert (4, 4, "Llama 2 7B has 32 layers & a hidden size of 4096.", "checked") in found
    assert any(line == 8 and col == 9 and s == "checked" for line, col, _, s in found)
    assert any(line == 9 and col == 9 for line, col, _, _ in found)
    assert_positions(result, tmp_path / "a.html")


RST = """Sizes
=====

Llama 2 7B has 32 layers and
a hidden size of 4096.

* Mistral 7B's intermediate size is 14,336.

.. math::

   8/3 \\cdot 4096 = 10922

::

   literal 4096 layers 32

.. include:: /etc/passwd

+--------+------------+
| Field  | Llama 2 7B |
+========+============+
| Layers | 32         |
+--------+------------+
"""


def test_rst(scan_text, tmp_path):
    result = scan_text(RST, "a.rst")
    found = statements(result)
    assert not any("literal" in t or "root" in t for _, _, t, _ in found)
    assert (4, 1, "Llama 2 7B has 32 layers and a hidden size of 4096.", "checked") in found
    assert any(line == 7 and col == 3 for line, col, _, _ in found)
    math = next(r for r in result["statements"] if r["line"] == 11)
    assert math["status"] == "checked" and math["verdict"] == "false"  # 10922.67
    row = next(r for r in result["statements"] if r["line"] == 22)
    assert row["claim"] == "layers(llama-2-7b) == 32"
    assert_positions(result, tmp_path / "a.rst")


TXT = """Notes on a 7B model

At d=4,d_ff=8 the ReLU FFN has 32+8+32+4=76 parameters with biases. The SwiGLU
block has 3×32=96 without.
d,hidden=4,8
relu_params=d*hidden+hidden+hidden*d+d

Llama 2 7B has 32
layers, wrapped.
"""


def test_text(scan_text, tmp_path):
    result = scan_text(TXT, "a.txt")
    found = statements(result)
    assert (3, 1, "At d=4,d_ff=8 the ReLU FFN has 32+8+32+4=76 parameters with biases.",
            "checked") in found
    assert any(line == 3 and col == 69 and t.startswith("The SwiGLU block has 3×32=96")
               for line, col, t, _ in found)  # a sentence that wraps onto the next line
    assert not any("relu_params" in t for _, _, t, _ in found)  # program text
    wrapped = next(r for r in result["statements"] if r["line"] == 8)
    assert wrapped["end_line"] == 9 and wrapped["claim"] == "layers(llama-2-7b) == 32"
    assert_positions(result, tmp_path / "a.txt")


def test_notebook(scan_text, tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell('# T\n\nLlama 2 7B has 32 "layers".\n'
                                              "And 3×32 = 96 params."),
                nbformat.v4.new_code_cell("x = 32 * 4  # 128 layers"),
                nbformat.v4.new_markdown_cell("Mistral 7B's intermediate size is 14,336.")]
    path = tmp_path / "a.ipynb"
    nbformat.write(nb, str(path))
    result = scan_text(path.read_text(encoding="utf-8"), "a.ipynb")
    texts = [r["text"] for r in result["statements"]]
    assert texts == ['Llama 2 7B has 32 "layers".', "And 3×32 = 96 params.",
                     "Mistral 7B's intermediate size is 14,336."]
    lines = path.read_text(encoding="utf-8").split("\n")
    for r in result["statements"]:
        encoded = json.dumps(r["text"], ensure_ascii=False)[1:-1]
        assert lines[r["line"] - 1][r["col"] - 1:].startswith(encoded[:10]), r
    assert all(r["status"] == "checked" and r["verdict"] == "true"
               for r in result["statements"])


def test_bad_notebook_is_an_input_error(scan_text):
    result = scan_text("{not json", "b.ipynb")
    assert result["errors"][0]["message"].startswith("not a readable notebook")


@pytest.mark.parametrize("name", ["c.md", "c.txt", "c.rst", "c.html"])
def test_not_utf8_is_an_input_error(scan_text, name):
    result = scan_text(b"ok\n\xff\xfe 32 layers", name)
    err = result["errors"][0]
    assert (err["line"], err["col"]) == (2, 1) and "UTF-8" in err["message"]


def test_prose_over_a_rule_is_no_heading():
    """A line of dashes under prose makes a setext heading in Markdown; an author who set
    a rule under "Here is my calculation:" or under several lines wrote prose, and its
    numbers are statements (found on the first half of the fresh2 corpus)."""
    from ffnverify.scan import readers

    doc = ("Here is my calculation:\n--------\n\nTotal parameters ~ 80 x 8192 ~ 78B\n"
           "and more\n--------\n\nModel sizes\n-----------\n\nLlama 2 7B has 32 layers.\n")
    kinds = [(b.kind, b.text[:12]) for b in readers.read(doc, "markdown").blocks]
    assert kinds == [("para", "Here is my c"), ("para", "Total parame"),
                     ("heading", "Model sizes"), ("para", "Llama 2 7B h")], kinds
