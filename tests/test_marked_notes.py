"""benchmarks/marked_notes.py: an author's marked notes become gold on the right characters."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

RAW = """casing: mixed
MICU note
Pt is a ⟦AGE|54⟧ yo F, goes by "⟦PATIENT|Dottie⟧". Dr. ⟦DOCTOR|Okafor⟧ aware.
=====
casing: upper
BED 1 - ⟦PATIENT|FUIMAONO, IOANE⟧ 58 M
=====
casing: lower
no phi in this one
"""


@pytest.fixture()
def marked(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import marked_notes

    return marked_notes


def test_marks_become_gold_on_the_same_characters(marked: ModuleType) -> None:
    records, problems = marked.convert(RAW, 302)
    assert problems == []
    assert [r["id"] for r in records] == ["icu302-001", "icu302-002", "icu302-003"]
    assert [r["meta"]["casing"] for r in records] == ["mixed", "upper", "lower"]
    assert all(r["meta"]["style"] == "icu_set302" for r in records)
    first = records[0]
    assert "⟦" not in first["text"] and first["text"].startswith("MICU note\n")
    assert [(first["text"][s["start"]:s["end"]], s["label"]) for s in first["spans"]] == [
        ("54", "AGE"), ("Dottie", "PATIENT"), ("Okafor", "DOCTOR")]
    second = records[1]
    assert [second["text"][s["start"]:s["end"]] for s in second["spans"]] == ["FUIMAONO, IOANE"]
    assert records[2]["spans"] == []


def test_bad_marks_are_reported(marked: ModuleType) -> None:
    _, problems = marked.convert("casing: mixed\nseen by ⟦NURSE|Ana⟧ and ⟦PERSON| Bo⟧ ⟦", 7)
    assert len(problems) == 3
    assert all(p.startswith("icu7-001: ") for p in problems)
