"""Review PDF: the page view's boxes on the original pages. Born-digital: the text inside
each drawn box is the identifier. Scanned and rotated-scan twins (OCR'd): each box covers
the identifier where the born-digital twin prints it."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from engine.core.domain import Document, Span, SpanStatus
from engine.exporters.review_pdf import write_review_pdf
from engine.session import load_document
from tests.fixtures_docs import (
    DOB,
    MRN,
    PATIENT,
    PHI,
    PHN,
    letter_pages,
    planted_spans,
    word_rects,
    write_scan_twin,
    write_text_pdf,
)

Rect = tuple[float, float, float, float]


def drawn_boxes(path: Path) -> dict[int, list[Rect]]:
    """Top-level rectangles per page number (the original page is one Form object)."""
    pdf = pdfium.PdfDocument(path)
    out: dict[int, list[Rect]] = {}
    try:
        for index in range(len(pdf)):
            page = pdf[index]
            out[index + 1] = [tuple(obj.get_bounds()) for obj in page.get_objects(
                filter=[pdfium_c.FPDF_PAGEOBJ_PATH], max_depth=0)]
            page.close()
    finally:
        pdf.close()
    return out


def covers(box: Rect, word: Rect, slack: float) -> bool:
    return (box[0] <= word[0] + slack and box[1] <= word[1] + slack
            and box[2] >= word[2] - slack and box[3] >= word[3] - slack)


def test_boxes_land_on_the_identifier_words(tmp_path: Path) -> None:
    source = write_text_pdf(tmp_path / "letter.pdf", extras=False)
    doc = load_document(source)
    spans = planted_spans(doc)
    out = write_review_pdf(source, doc, spans, tmp_path / "letter.review.pdf")
    pdf = pdfium.PdfDocument(out)
    try:
        assert len(pdf) == 3  # two pages at their own size, then the legend
        assert pdf[0].get_size() == pdf[1].get_size() == (612.0, 792.0)
        boxes = drawn_boxes(out)
        inside_boxes = {}
        for number in (1, 2):
            textpage = pdf[number - 1].get_textpage()
            inside_boxes[number] = [textpage.get_text_bounded(*box).replace("\r\n", " ")
                                    for box in boxes[number]]
            textpage.close()
        legend = pdf[2].get_textpage().get_text_range()
    finally:
        pdf.close()
    # Every occurrence of every identifier has a box around it that holds its text.
    expected = sum(doc.text.count(v) for v in PHI)
    found = 0
    for value in PHI:
        for number in (1, 2):
            occurrences = doc.text[doc.pages[number - 1].start:doc.pages[number - 1].end] \
                .count(value)
            hits = sum(1 for t in inside_boxes[number] if value in t)
            assert hits >= occurrences, (value, number)
            found += occurrences
    assert found == expected == len(spans)
    assert all(s.id in legend for s in spans) and "PATIENT" not in legend.split("\n")[0]


@pytest.mark.parametrize("rotate", [0, 90])
def test_scan_twin_boxes_cover_the_printed_words(tmp_path: Path, rotate: int) -> None:
    original = write_text_pdf(tmp_path / "letter.pdf", letter_pages()[:1], extras=False)
    scan = write_scan_twin(original, tmp_path / "scan.pdf", rotate=rotate)
    doc: Document = load_document(scan)
    assert doc.pages[0].ocr and (doc.pages[0].width, doc.pages[0].height) == (612.0, 792.0)
    values = [v for v in (PATIENT, DOB, PHN, MRN) if v in doc.text]
    assert len(values) >= 3, "OCR lost the identifiers"
    spans = [Span(s.start, s.end, s.label, source=s.source, status=SpanStatus.ACCEPTED)
             for s in planted_spans(doc, values)]
    out = write_review_pdf(scan, doc, spans, tmp_path / "scan.review.pdf")
    boxes = drawn_boxes(out)[1]
    for value in values:
        for word in word_rects(original, value):
            # OCR boxes are a little loose; each printed occurrence sits inside one box
            # no more than a line high and a little wider than the word.
            assert any(covers(box, word, 1.5) and box[3] - box[1] < 2.5 * (word[3] - word[1])
                       for box in boxes), (value, word)


def test_redacted_sideways_scan_burns_the_printed_words(tmp_path: Path) -> None:
    # The redacted PDF takes the same boxes back to page space: on a page scanned sideways
    # (/Rotate 90) the black lands on the identifiers as the reader sees them.
    from engine.exporters.pdf import write_redacted_pdf

    original = write_text_pdf(tmp_path / "letter.pdf", letter_pages()[:1], extras=False)
    scan = write_scan_twin(original, tmp_path / "scan.pdf", rotate=90)
    doc = load_document(scan)
    values = [v for v in (PATIENT, DOB, PHN, MRN) if v in doc.text]
    out = write_redacted_pdf(scan, doc, planted_spans(doc, values), tmp_path / "red.pdf")
    pdf = pdfium.PdfDocument(out)
    try:
        assert pdf[0].get_size() == (612.0, 792.0)
        image = pdf[0].render(scale=2, grayscale=True).to_pil()
    finally:
        pdf.close()
    for value in values:
        for x0, y0, x1, y1 in word_rects(original, value):
            area = image.crop((int(x0 * 2), int((792 - y1) * 2), int(x1 * 2) + 1,
                               int((792 - y0) * 2) + 1))
            dark = sum(area.histogram()[:60]) / (area.width * area.height)
            assert dark > 0.95, (value, dark)
