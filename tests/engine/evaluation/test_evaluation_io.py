"""Reading gold and prediction JSONL (detect and deid output)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core.errors import InputError
from engine.core.labels import Label
from engine.evaluation import PredictedSpan, evaluate, load_gold, load_predictions


def write(path: Path, *rows: object) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_load_gold_maps_labels_from_any_schema(tmp_path: Path) -> None:
    text = "Juan Perez, 45 years, seen 01/02/2020 in Madrid"
    p = write(tmp_path / "g.jsonl",
              {"id": "1", "text": text, "spans": [
                  {"start": 0, "end": 10, "label": "NOMBRE_SUJETO_ASISTENCIA"},  # MEDDOCAN
                  {"start": 12, "end": 14, "label": "AGE"},
                  {"start": 27, "end": 37, "label": "DATE_TIME"},  # Presidio
                  {"start": 41, "end": 47, "label": "CITY"}]},  # i2b2
              {"id": "2", "text": "nothing"})
    docs = load_gold(p)
    assert [d.id for d in docs] == ["1", "2"]
    assert [(s.label, s.raw_label) for s in docs[0].spans] == [
        (Label.PATIENT, "NOMBRE_SUJETO_ASISTENCIA"), (Label.AGE, "AGE"),
        (Label.DATE, "DATE_TIME"), (Label.LOCATION, "CITY")]
    assert docs[1].spans == ()


@pytest.mark.parametrize("row, problem", [
    ({"id": "1", "text": "abc", "spans": [{"start": 1, "end": 9, "label": "AGE"}]}, "outside"),
    ({"id": "1", "text": "abc", "spans": [{"start": 0, "end": 1, "label": "NOPE"}]},
     "unknown label"),
    ({"id": "1", "spans": []}, "'text'"),
    ({"id": "1", "text": "abc", "spans": [{"start": "0", "end": 1, "label": "AGE"}]},
     "integers"),
])
def test_load_gold_errors_name_file_and_line(tmp_path: Path, row: object, problem: str) -> None:
    p = write(tmp_path / "g.jsonl", {"id": "0", "text": "ok"}, row)
    with pytest.raises(InputError, match=problem) as info:
        load_gold(p)
    assert "line 2" in str(info.value) and str(p) in str(info.value)


def test_invalid_json_and_duplicates(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "1", "text": "a"}\n{oops\n')
    with pytest.raises(InputError, match="line 2: invalid JSON"):
        load_gold(bad)
    dup = write(tmp_path / "dup.jsonl", {"id": "1", "text": "a"}, {"id": "1", "text": "b"})
    with pytest.raises(InputError, match="duplicate"):
        load_gold(dup)
    with pytest.raises(InputError, match="cannot open"):
        load_gold(tmp_path / "missing.jsonl")


def test_load_detect_output(tmp_path: Path) -> None:
    p = write(tmp_path / "p.jsonl",
              {"id": "1", "spans": [
                  {"start": 0, "end": 4, "label": "PATIENT", "source": "RULE", "confidence": 0.9},
                  {"start": 0, "end": 4, "label": "PATIENT", "source": "NER"},  # duplicate
                  {"start": 5, "end": 9, "label": "DATE", "status": "REJECTED"}]},
              {"id": "2", "spans": []})
    preds = load_predictions(p)
    assert preds["1"].spans == (PredictedSpan(0, 4, Label.PATIENT),)
    assert preds["1"].text is None
    assert preds["2"].spans == ()


def test_load_deid_output_uses_input_offsets_and_text(tmp_path: Path) -> None:
    text = "Ann Lee seen today."
    out = "[PATIENT] seen today."
    p = write(tmp_path / "p.jsonl",
              {"id": "1", "text": out, "replacements": [
                  {"start": 0, "end": 7, "label": "PATIENT", "output_start": 0,
                   "output_end": 9}]})
    preds = load_predictions(p)
    assert preds["1"].spans == (PredictedSpan(0, 7, Label.PATIENT),)
    assert preds["1"].text == out
    g = write(tmp_path / "g.jsonl",
              {"id": "1", "text": text, "spans": [{"start": 0, "end": 7, "label": "PATIENT"}]})
    d = evaluate(load_gold(g), preds, bootstrap=0).to_dict()
    assert d["span"]["exact"]["recall"] == 1.0
    assert d["levenshtein"]["lr"] == 1.0  # "ann lee" is nowhere near "[patient] seen today."
