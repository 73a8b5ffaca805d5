"""`ffnverify models`: the table and the JSON, and a wrong row turning the exit code to 1."""

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
    assert "—" in mistral  # a given width: nothing derived


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
    assert "MISMATCH" in line
    assert "1 with a MISMATCH: llama-2-70b" in out
