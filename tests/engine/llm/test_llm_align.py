from __future__ import annotations

from engine.detectors.llm.align import align_quote


def _texts(text: str, quote: str) -> list[str]:
    return [text[m.start:m.end] for m in align_quote(quote, text)]


def test_every_occurrence_case_and_whitespace_tolerant() -> None:
    text = "Mary  Olsen came in. MARY OLSEN was seen.\nMary\nOlsen left."
    matches = align_quote("mary olsen", text)
    assert [(m.start, m.end) for m in matches] == [(0, 11), (21, 31), (42, 52)]
    assert all(m.score == 100 for m in matches)


def test_whole_words_only() -> None:
    assert _texts("Annual exam for Ann. Anne left.", "Ann") == ["Ann"]
    assert _texts("Dr. Lee saw Leeann", "Lee") == ["Lee"]


def test_ocr_noise_found_by_fuzzy_pass() -> None:
    matches = align_quote("Olsen", "Patient 0lsen, Mary was seen.")
    assert len(matches) == 1 and matches[0].score < 100
    assert "Patient 0lsen, Mary was seen."[matches[0].start:matches[0].end] == "0lsen"


def test_short_quotes_must_match_exactly() -> None:
    assert align_quote("Al", "Ali and Ab were here") == []


def test_unaligned_quote_is_empty() -> None:
    assert align_quote("Jonathan Smithers", "No names in this clinical text at all.") == []


def test_punctuation_around_quote_is_ignored() -> None:
    assert _texts("Call 780-555-0142.", "780-555-0142.") == ["780-555-0142"]
