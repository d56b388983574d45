"""mix_corpus: hand-written notes once per casing with their gold intact, teacher-only text with
no gold, and train.make_windows learning no tag from teacher-only text."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from engine.training.distil import IGNORE
from engine.training.mix_corpus import GOLD_ONLY_STYLE, main
from engine.training.train import load_tokenizer, make_windows

MODEL_TOKENIZER = Path(__file__).resolve().parents[3] / "models/clearnote-ner-minilm/tokenizer.json"

NOTE = {"id": "icu/1", "text": "pt seen by Dr Okafor 4/1, to Kessler 3",
        "spans": [{"start": 14, "end": 20, "label": "DOCTOR"},
                  {"start": 21, "end": 24, "label": "DATE"}], "meta": {}}
CASE = {"id": "es/1", "text": "Paciente: Ernesto Rivera Bueno, 70 años.",
        "spans": [{"start": 10, "end": 30, "label": "PATIENT"}], "meta": {}}
GENERATED = {"id": "synth/train/1", "text": "Seen by Dr. Kumar on July 31, 2008.",
             "spans": [{"start": 8, "end": 17, "label": "DOCTOR"}], "meta": {"style": "letter"}}


def _jsonl(path: Path, *docs: dict) -> Path:
    path.write_text("".join(json.dumps(d) + "\n" for d in docs))
    return path


def _mixed(tmp_path: Path) -> list[dict]:
    gen = tmp_path / "gen"
    gen.mkdir()
    _jsonl(gen / "train.jsonl", GENERATED)
    _jsonl(gen / "dev.jsonl", GENERATED)
    out = tmp_path / "mix"
    main(["--out", str(out), "--generated", str(gen),
          "--gold-only", str(_jsonl(tmp_path / "icu.jsonl", NOTE)),
          "--casings", "as_is,lower,upper",
          "--teacher-only", str(_jsonl(tmp_path / "es.jsonl", CASE)),
          "--extra", str(_jsonl(tmp_path / "es_gold.jsonl", {**CASE, "id": "es/2"}))])
    assert (out / "dev.jsonl").read_text() == (gen / "dev.jsonl").read_text()
    assert json.loads((out / "mix.json").read_text()) == {
        "generated": 1, "gold_only:icu.jsonl": 3, "extra:es_gold.jsonl": 1,
        "teacher_only:es.jsonl": 1}
    with gzip.open(out / "train.jsonl.gz", "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def test_each_casing_keeps_the_gold_on_the_same_words(tmp_path: Path) -> None:
    docs = _mixed(tmp_path)
    notes = [d for d in docs if d["meta"].get("style") == GOLD_ONLY_STYLE]
    assert sorted(d["meta"]["casing"] for d in notes) == ["as_is", "lower", "upper"]
    for d in notes:
        assert [d["text"][s["start"]:s["end"]].lower() for s in d["spans"]] == ["okafor", "4/1"]
    assert {d["text"] for d in notes} == {NOTE["text"], NOTE["text"].lower(),
                                          NOTE["text"].upper()}


def test_teacher_only_text_carries_no_gold_and_teaches_no_tag(tmp_path: Path) -> None:
    docs = _mixed(tmp_path)
    (case,) = [d for d in docs if d["meta"].get("teacher_only")]
    (gold_case,) = [d for d in docs if d["id"] == "es/2"]
    assert gold_case["spans"] == CASE["spans"]  # --extra keeps its gold
    assert case["text"] == CASE["text"] and case["spans"] == []
    tok = load_tokenizer(MODEL_TOKENIZER)
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    (win,) = make_windows([case], tok, 64, 16, cls, sep)
    assert set(win[2]) == {IGNORE}
    (gold,) = make_windows([GENERATED], tok, 64, 16, cls, sep)
    assert len(set(gold[2]) - {IGNORE}) > 1  # ordinary documents still learn their tags


def test_meddocan_training_split_in_clearnote_labels() -> None:
    from engine.core.labels import Label
    from engine.training.meddocan import meddocan_docs

    docs = meddocan_docs("train")
    assert len(docs) == 500 and all("/train/" in d["id"] for d in docs)
    labels = {s["label"] for d in docs for s in d["spans"]}  # type: ignore[attr-defined]
    assert {"PATIENT", "DOCTOR", "DATE", "ID"} <= labels and labels <= {x.value for x in Label}
