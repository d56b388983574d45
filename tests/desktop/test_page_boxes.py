"""The page view draws each span's box on the span's own word: a pixel-level check on the
rendered page for a born-digital letter, its rasterised (OCR'd) twin and a twin scanned
sideways (/Rotate), and the zoom (fit width on first open, Ctrl+wheel, fit page)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QImage, QWheelEvent
from pytestqt.qtbot import QtBot

from desktop.records import LoadedDocument
from desktop.render import DPI, render_page
from desktop.views.page_view import PageView
from engine.api import load_document
from engine.core.domain import Span, SpanStatus
from tests.fixtures_docs import (
    DOB,
    MRN,
    PATIENT,
    PHN,
    PHONE,
    letter_pages,
    planted_spans,
    word_rects,
    write_scan_twin,
    write_text_pdf,
)

PAGE_H = 792.0


def ink(image: QImage, area: QRectF) -> list[tuple[int, int]]:
    """Dark pixels of ``image`` inside ``area``: where the word is actually printed."""
    out = []
    for y in range(max(0, int(area.top())), min(image.height(), int(area.bottom()) + 1)):
        for x in range(max(0, int(area.left())), min(image.width(), int(area.right()) + 1)):
            if QImage.pixelColor(image, x, y).lightness() < 110:
                out.append((x, y))
    return out


def shown(qtbot: QtBot, path: Path, values: list[str]) -> tuple[PageView, list[Span], QImage]:
    doc = load_document(path)
    spans = [Span(s.start, s.end, s.label, source=s.source, status=SpanStatus.ACCEPTED)
             for s in planted_spans(doc, [v for v in values if v in doc.text])]
    view = PageView()
    qtbot.addWidget(view)
    view.resize(900, 1000)
    view.show()
    qtbot.waitExposed(view)
    view.show_document(LoadedDocument(doc, tuple(spans)))
    rendered = render_page(doc, 1)
    view.set_page_image(doc.id, 1, rendered)
    return view, spans, rendered.image


@pytest.mark.parametrize("twin", ["born-digital", "scanned", "scanned sideways"])
def test_each_box_covers_its_word_on_the_rendered_page(qtbot: QtBot, tmp_path: Path,
                                                       twin: str) -> None:
    original = write_text_pdf(tmp_path / "letter.pdf", letter_pages()[:1], extras=False)
    path = original if twin == "born-digital" else write_scan_twin(
        original, tmp_path / "scan.pdf", rotate=90 if twin == "scanned sideways" else 0)
    values = [PATIENT, DOB, PHN, MRN, PHONE]
    view, spans, image = shown(qtbot, path, values)
    doc_text = view.loaded.document.text  # type: ignore[union-attr]
    drawn = view.highlight_rects()
    assert len(drawn) == len(spans) and len({v for v in values if v in doc_text}) >= 4
    k = DPI / 72  # the page view's picture: points to pixels
    checked = 0
    for value in {doc_text[s.start:s.end] for s in spans}:
        boxes = [r for s in spans if doc_text[s.start:s.end] == value for r in drawn[s.id]]
        for x0, y0, x1, y1 in word_rects(original, value):
            word = QRectF(x0 * k, (PAGE_H - y1) * k, (x1 - x0) * k, (y1 - y0) * k)
            printed = ink(image, word.adjusted(-1, -1, 1, 1))
            assert len(printed) > 20, "no ink where the word is printed"
            slack = 1.5 if twin == "born-digital" else 3.0
            box = next((b for b in boxes if b.adjusted(-slack, -slack, slack, slack)
                        .contains(word)), None)
            assert box is not None, (twin, value, word, boxes)
            # Every printed pixel of the word is inside the drawn box, which is one line.
            grown = box.adjusted(-slack, -slack, slack, slack)
            assert all(grown.contains(QPointF(x, y)) for x, y in printed)
            assert box.height() < 2.5 * word.height()
            checked += 1
    assert checked >= 5
    # Not mirrored: the header's telephone number is drawn at the top of the page.
    if PHONE in doc_text:
        top = min(r.top() for s in spans if doc_text[s.start:s.end] == PHONE
                  for r in drawn[s.id])
        assert top < 0.1 * image.height()


def test_zoom_fits_width_first_then_follows_the_reader(qtbot: QtBot, tmp_path: Path) -> None:
    path = write_text_pdf(tmp_path / "letter.pdf", letter_pages()[:1], extras=False)
    view, _, image = shown(qtbot, path, [PATIENT])

    def scale() -> float:
        return view.view.transform().m11()

    fitted = (view.view.viewport().width() - 4) / image.width()
    assert scale() == pytest.approx(fitted, rel=0.01)
    wheel = QWheelEvent(QPointF(100, 100), QPointF(100, 100), QPoint(0, 0), QPoint(0, 120),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.ControlModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    view.view.wheelEvent(wheel)
    assert scale() == pytest.approx(fitted * 1.25, rel=0.01)
    view.zoom.step(-1)
    view.zoom.step(-1)
    assert scale() == pytest.approx(fitted / 1.25, rel=0.01)
    view.zoom.fit_page_mode()
    page_fit = min(fitted, (view.view.viewport().height() - 4) / image.height())
    assert scale() == pytest.approx(page_fit, rel=0.01)
    view.resize(700, 900)  # a fitted mode follows the window
    qtbot.wait(10)
    assert scale() == pytest.approx(
        min((view.view.viewport().width() - 4) / image.width(),
            (view.view.viewport().height() - 4) / image.height()), rel=0.01)
    assert view.zoom.label.text().endswith("%")
