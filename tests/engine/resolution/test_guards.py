"""Resolution guards and the rules + dictionaries pipeline on messy text.

Cases are data: tests/data/guards/*.jsonl."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core.domain import Document, Source, Span
from engine.core.labels import Label
from engine.pipeline import Pipeline, build_pipeline
from engine.resolution.edges import trim
from engine.resolution.guards import guard
from engine.resolution.measurements import looks_like_date, measurement_ranges

DATA = Path(__file__).resolve().parents[2] / "data" / "guards"


def _rows(name: str) -> list[dict]:
    with (DATA / name).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@pytest.fixture(scope="module")
def rules_only() -> Pipeline:
    return build_pipeline(ner=False, policy="strict")


def _found(pipeline: Pipeline, text: str) -> set[tuple[str, str]]:
    result = pipeline.run(Document.from_text(text))
    return {(text[s.start:s.end], s.label.value) for s in result.active}


@pytest.mark.parametrize("case", _rows("dates.jsonl"), ids=lambda c: c["date"])
def test_a_date_must_parse_as_a_date(case: dict) -> None:
    start = case["text"].index(case["date"])
    assert looks_like_date(case["text"], start, start + len(case["date"])) is case["valid"]


@pytest.mark.parametrize("case", _rows("dates.jsonl"), ids=lambda c: c["date"])
def test_guard_drops_model_dates_that_are_not_dates(case: dict) -> None:
    text = case["text"]
    start = text.index(case["date"])
    span = Span(start, start + len(case["date"]), Label.DATE, source=Source.NER)
    kept, dropped = guard(Document.from_text(text), [span])
    assert (len(kept), len(dropped)) == ((1, 0) if case["valid"] else (0, 1))


@pytest.mark.parametrize("label", [Label.DATE, Label.ID, Label.PHONE, Label.AGE, Label.PATIENT])
def test_numbers_in_measurement_strings_are_never_model_spans(label: Label) -> None:
    text = "ABG 7.43/41/76/28, CO/CI/SVR 5.8/2.71/497, BP 120/80, 5 mg @2300, 4pm, 14:30, 0400"
    ranges = measurement_ranges(text)
    spans = [Span(a, b, label, source=Source.NER) for a, b in ranges]
    assert len(spans) >= 8
    kept, _ = guard(Document.from_text(text), spans)
    assert kept == []


def test_cued_ids_and_phones_stand_on_their_format() -> None:
    text = "MRN 4452211 at 0400, phone 555-867-5309"
    spans = [Span(4, 11, Label.ID, source=Source.RULE),
             Span(27, 39, Label.PHONE, source=Source.RULE)]
    kept, dropped = guard(Document.from_text(text), spans)
    assert kept == spans and dropped == []


@pytest.mark.parametrize(("piece", "expected"), [
    (" / ", None), ("@", None), (" -- ", None), ("Smith.", "Smith"), ("Anna K.", "Anna K."),
    ("(555) 123-4567,", "(555) 123-4567"), ("/28", "28"), (" +1 555 0100 ", "+1 555 0100")])
def test_trim_keeps_what_belongs_to_the_span(piece: str, expected: str | None) -> None:
    text = f"x {piece} y"
    start, end = trim(text, 2, 2 + len(piece))
    assert (text[start:end] if end > start else None) == expected


def test_punctuation_only_spans_are_dropped_from_every_source() -> None:
    text = "BP / HR - @ ."
    spans = [Span(i, i + 1, Label.PERSON, source=source)
             for i, ch in enumerate(text) if ch in "/-@."
             for source in (Source.NER, Source.RULE, Source.DICTIONARY, Source.LLM)]
    kept, dropped = guard(Document.from_text(text), spans)
    assert kept == [] and len(dropped) == len(spans)


def test_names_take_initials_and_ids_their_prefix() -> None:
    text = "Anna K. met K. Morrow about #KX-448120."
    doc = Document.from_text(text)
    spans = [Span(0, 4, Label.PERSON, source=Source.NER), Span(15, 21, Label.DOCTOR,
             source=Source.NER), Span(31, 37, Label.ID, source=Source.NER)]
    kept, _ = guard(doc, spans)
    assert [text[s.start:s.end] for s in kept] == ["Anna K.", "K. Morrow", "KX-448120"]


@pytest.mark.parametrize("case", _rows("pipeline.jsonl"), ids=lambda c: c["text"][:30])
def test_rules_and_dictionaries_on_messy_text(rules_only: Pipeline, case: dict) -> None:
    found = _found(rules_only, case["text"])
    for covered, label in case["spans"]:
        assert (covered, label) in found
    for word in case.get("never", []):
        assert not any(word in covered for covered, _ in found)
    if not case["spans"]:
        assert found == set()


@pytest.mark.parametrize("case", _rows("casing.jsonl"), ids=lambda c: c["text"][:30])
@pytest.mark.parametrize("style", ["upper", "lower"])
def test_casing_variants_give_the_same_spans(rules_only: Pipeline, case: dict,
                                              style: str) -> None:
    text = case["text"]
    variant = text.upper() if style == "upper" else text.lower()
    assert len(variant) == len(text)

    def found(t: str) -> set[tuple[int, int, str]]:
        return {(s.start, s.end, s.label.value)
                for s in rules_only.run(Document.from_text(t)).active}

    original = found(text)
    assert len(original) >= 3  # the note has PHI to find
    assert found(variant) == original  # same positions and labels


def test_casing_notes_are_varied() -> None:
    """At least 8 golden notes, in several note styles (not one template re-cased)."""
    texts = [case["text"] for case in _rows("casing.jsonl")]
    assert len(texts) >= 8 and len(set(texts)) == len(texts)
    assert "Seen by Baker" in " ".join(texts)  # a name that is also a word, no title


def test_icu_charting_dates_survive_the_guard() -> None:
    text = "CCU NURSING NOTE 5/5\n10/6 0227 DILAUDID 2MG IV, adm 4MAY, cx from 2170-3-23; K 3/4"
    dates = ["5/5", "10/6", "4MAY", "2170-3-23", "3/4"]
    spans = [Span(text.index(d), text.index(d) + len(d), Label.DATE, source=Source.NER)
             for d in dates]
    kept, dropped = guard(Document.from_text(text), spans)
    assert [text[s.start:s.end] for s in kept] == dates[:4]
    assert [text[s.start:s.end] for s in dropped] == ["3/4"]  # a lab value, not a date


def test_a_model_date_that_is_a_code_stays_phi_as_an_id() -> None:
    text = "Wroclaw 53-320, pain for 12-14 days"
    spans = [Span(8, 14, Label.DATE, source=Source.NER),
             Span(25, 30, Label.DATE, source=Source.NER)]
    kept, dropped = guard(Document.from_text(text), spans)
    assert [(text[s.start:s.end], s.label) for s in kept] == [("53-320", Label.ID)]
    assert len(dropped) == 1
