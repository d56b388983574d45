from __future__ import annotations

from engine.core.domain import CharBox, Document, Page, Span, SpanStatus
from engine.core.labels import Label
from engine.exporters.pdf_text_layer import direction, hidden_mask, page_words, winansi


def _doc(text: str) -> Document:
    # One 10-point-wide box per character on a single line of page 1.
    boxes = tuple(CharBox(1, 10.0 * i, 0.0, 10.0 * i + 8, 10.0) for i in range(len(text)))
    return Document(text=text, pages=(Page(1, 0, len(text), 612, 792),), boxes=boxes)


def _span(doc: Document, value: str, status: SpanStatus = SpanStatus.ACCEPTED) -> Span:
    start = doc.text.index(value)
    return Span(start, start + len(value), Label.PATIENT, status=status)


def test_words_touching_a_live_span_are_left_out() -> None:
    doc = _doc("Seen Keller's wife today")
    kept = page_words(doc, 1, hidden_mask(doc, [_span(doc, "Keller")]), [])
    assert [w.text for w in kept] == ["Seen", "wife", "today"]
    rejected = page_words(doc, 1, hidden_mask(doc, [_span(doc, "Keller", SpanStatus.REJECTED)]),
                          [])
    assert [w.text for w in rejected] == ["Seen", "Keller's", "wife", "today"]


def test_words_under_a_redaction_box_or_outside_latin1_are_left_out() -> None:
    doc = _doc("Zoë from Łódź seen")
    words = page_words(doc, 1, hidden_mask(doc, []), [])
    assert [w.text for w in words] == ["Zoë", "from", "seen"]
    assert words[0].space_after and not words[-1].space_after
    assert words[1].rect == (40.0, 0.0, 78.0, 10.0)
    covered = page_words(doc, 1, hidden_mask(doc, []), [(45.0, 2.0, 50.0, 8.0)])
    assert [w.text for w in covered] == ["Zoë", "seen"]


def test_winansi_keeps_accents_and_refuses_what_helvetica_cannot_carry() -> None:
    assert winansi("Montréal") == "Montréal" and winansi("cœur") == "cœur"
    assert winansi("Montre\u0301al") == "Montréal"  # decomposed input is composed
    assert winansi("Łódź") is None and winansi("Ωmega") is None


def test_drawn_surrogates_keep_what_helvetica_draws_and_fold_the_rest() -> None:
    from engine.exporters.pdf_boxes import drawable as _drawable

    assert _drawable("Léa Zoë cœur") == "Léa Zoë cœur"
    assert _drawable("Łódź") == "Lódz" and _drawable("李 Ann") == " Ann"


def test_direction_of_a_word_from_its_first_and_last_letters() -> None:
    assert direction((10, 10), (40, 11)) == 0
    assert direction((10, 10), (11, 40)) == 90  # runs up the page (a page with /Rotate 90)
    assert direction((40, 10), (10, 9)) == 180
    assert direction((10, 40), (11, 10)) == 270
    assert direction((10, 10), (10, 10)) == 0  # one letter
