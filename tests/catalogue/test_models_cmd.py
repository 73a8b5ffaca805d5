"""`ffnverify models`: the table (within 100 columns) and the JSON, rows chosen by name, and
a wrong row turning the exit code to 1."""

import dataclasses
import json

from ffnverify import catalogue
from ffnverify.cli import main


def test_table_lists_every_model_with_its_checks(capsys):
    assert main(["models"]) == 0
    out = capsys.readouterr().out
    for name in catalogue.MODELS:
        assert name in out
    rows = [line for line in out.splitlines() if line.split(" ")[0] in catalogue.MODELS]
    assert len(rows) == len(catalogue.MODELS)
    assert not [r for r in rows if "MISMATCH" in r]
    assert "0 with a MISMATCH" in out
    llama = next(line for line in out.splitlines() if line.startswith("llama-2-7b "))
    assert "11008" in llama and "6,738,415,616" in llama and "MATCH" in llama
    mistral = next(line for line in out.splitlines() if line.startswith("mistral-7b "))
    assert " given " in mistral  # a given width: nothing derived
    gemma = next(line for line in out.splitlines() if line.startswith("gemma-2-9b "))
    assert gemma.rstrip().endswith("—")  # no published total
    sources = out.split("Sources:\n", 1)[1]
    for m in catalogue.MODELS.values():  # every source is there, wrapped but whole
        assert " ".join(m.source.split()) in " ".join(sources.split())


def test_table_fits_100_columns(capsys):
    assert main(["models"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= 100, max(lines, key=len)


def test_names_select_rows_case_insensitively(capsys):
    assert main(["models", "LLAMA-2-7b", "gpt-2-small", "gemma-7b"]) == 0
    out = capsys.readouterr().out
    rows = [line.split(" ")[0] for line in out.splitlines()
            if line.split(" ")[0] in catalogue.MODELS]
    assert rows[:3] == ["llama-2-7b", "gpt2-small", "gemma-7b"]
    assert "3 models, 0 with a MISMATCH" in out
    assert "mistral-7b" not in out


def test_names_select_json_rows_unchanged(capsys):
    assert main(["models", "--format", "json"]) == 0
    everything = {r["name"]: r for r in json.loads(capsys.readouterr().out)["models"]}
    assert main(["models", "--format", "json", "gemma-7b", "llama-2-7b"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["version"] == 1
    assert doc["models"] == [everything["gemma-7b"], everything["llama-2-7b"]]


def test_an_unknown_name_is_an_error_with_suggestions(capsys):
    assert main(["models", "lama-2-7b"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "unknown model 'lama-2-7b'; did you mean llama-2-7b" in err


def test_json_rows(capsys):
    assert main(["models", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    rows = {r["name"]: r for r in doc["models"]}
    assert set(rows) == set(catalogue.MODELS)
    assert rows["gemma-7b"]["derived_total"] == 8_537_680_896
    assert rows["gemma-7b"]["total_check"] == "MATCH"
    assert rows["mistral-7b"]["width_check"] == "given"
    assert rows["llama-3.1-405b"]["width_params"] == {"multiple_of": 4096, "multiplier": "1.2"}
    assert all(r["ok"] and r["source"] for r in doc["models"])
    assert rows["llama-3.1-8b"]["context"] == 131072
    assert "meta-llama/Llama-2-7b-hf" in rows["llama-2-7b"]["hf_ids"]
    assert sum(rows["bert-base"]["parts"].values()) == rows["bert-base"]["derived_total"]
    assert rows["mixtral-8x7b"]["params_active"] == catalogue.params_active("mixtral-8x7b")


def test_a_wrong_row_is_reported_and_fails(capsys, monkeypatch):
    bad = dataclasses.replace(catalogue.MODELS["llama-2-70b"], kv_heads=64)
    monkeypatch.setitem(catalogue.MODELS, "llama-2-70b", bad)
    assert main(["models"]) == 1
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("llama-2-70b "))
    # the published figure shown next to the derived one it does not match
    assert line.split()[-2:] == ["MISMATCH", "68,976,648,192"]
    assert "1 with a MISMATCH: llama-2-70b" in out


def test_a_wrong_width_shows_what_the_rule_gives(capsys, monkeypatch):
    bad = dataclasses.replace(catalogue.MODELS["llama-2-7b"], d_ff=11264)
    monkeypatch.setitem(catalogue.MODELS, "llama-2-7b", bad)
    assert main(["models", "llama-2-7b"]) == 1
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("llama-2-7b "))
    assert "11264" in line and "MISMATCH 11008" in line


def test_one_row_is_one_model(capsys):
    assert main(["models", "gemma-7b"]) == 0
    assert "\n1 model, 0 with a MISMATCH\n" in capsys.readouterr().out
