"""The one span-to-page-box geometry: view space is the upright page as PDFium renders it,
for every /Rotate and an offset crop box, and a span's boxes sit on its words."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from engine.core.domain import CharBox, Document, Page, Span
from engine.core.labels import Label
from engine.exporters.geometry import page_frames, span_page_boxes
from engine.ingest.frames import PageFrame
from engine.session import load_document
from tests.fixtures_docs import PATIENT, PHN, letter_pages, write_text_pdf


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_frame_matches_pdfium_rendering(tmp_path: Path, rotation: int) -> None:
    pdf = pdfium.PdfDocument.new()
    page = pdf.new_page(600, 800)
    page.set_mediabox(10, 20, 610, 820)
    page.set_cropbox(30, 50, 580, 790)
    page.set_rotation(rotation)
    pdf.save(tmp_path / "p.pdf")
    doc = Document("x", source_path=str(tmp_path / "p.pdf"), media_type="application/pdf",
                   pages=(Page(1, 0, 1, *page.get_size()),))
    frame = page_frames(doc)[1]
    assert (frame.width, frame.height) == page.get_size()
    conv = page.render(scale=10).get_posconv(page)
    for x, y in ((100.0, 200.0), (500.0, 700.0), (31.0, 51.0)):
        bx, by = conv.to_bitmap(x, y)
        vx, vy = frame.point_to_view(x, y)
        assert (round(vx, 1), round(vy, 1)) == (bx / 10, by / 10)
        assert frame.point_to_source(vx, vy) == pytest.approx((x, y))


def test_image_frames_are_pixels_and_lines_split_at_line_breaks() -> None:
    text = "Jane\nDoe"
    boxes = (CharBox(1, 10, 10, 20, 30), CharBox(1, 20, 10, 30, 30),
             CharBox(1, 30, 10, 40, 30), CharBox(1, 40, 10, 50, 30), None,
             CharBox(1, 10, 40, 20, 60), CharBox(1, 20, 40, 30, 60), CharBox(1, 30, 40, 40, 60))
    doc = Document(text, media_type="image/png", pages=(Page(1, 0, len(text), 200, 100),),
                   boxes=boxes)
    frames = {1: PageFrame(1, 200, 100)}
    got = [b.rect for b in span_page_boxes(doc, Span(0, len(text), Label.PATIENT), frames)]
    assert got == [(10, 10, 50, 30), (10, 40, 40, 60)]


def test_boxes_are_in_view_space_on_their_words(tmp_path: Path) -> None:
    # Where PDFium draws each identifier (its own text search), against the box for it.
    source = write_text_pdf(tmp_path / "letter.pdf", letter_pages()[:1], extras=False)
    doc = load_document(source)
    frames = page_frames(doc)
    pdf = pdfium.PdfDocument(source)
    page = pdf[0]
    textpage = page.get_textpage()
    for value in (PATIENT, PHN):
        start = doc.text.find(value)
        boxes = span_page_boxes(doc, Span(start, start + len(value), Label.ID), frames)
        assert len(boxes) == 1
        found = textpage.search(value).get_next()
        assert found is not None
        index, count = found
        lefts, bottoms, rights, tops = zip(*(textpage.get_charbox(i, loose=True)
                                             for i in range(index, index + count)), strict=True)
        top_y = frames[1].height - max(tops)  # y down from the top of the page
        box = boxes[0]
        assert box.x0 == pytest.approx(min(lefts), abs=0.5)
        assert box.x1 == pytest.approx(max(rights), abs=0.5)
        assert box.y0 == pytest.approx(top_y, abs=0.5)
        assert box.y1 == pytest.approx(frames[1].height - min(bottoms), abs=0.5)
    textpage.close()
    page.close()
    pdf.close()


def test_born_digital_page_turned_by_rotate_one_box_per_identifier(tmp_path: Path) -> None:
    # Text drawn across the page, the page shown turned (/Rotate 90): the text runs down
    # the view, and each identifier still gets one box, on its glyphs, and the redacted PDF
    # (which verifies itself) removes them.
    from engine.exporters.pdf import write_redacted_pdf
    from tests.fixtures_docs import planted_spans

    flat = write_text_pdf(tmp_path / "flat.pdf", letter_pages()[:1], extras=False)
    pdf = pdfium.PdfDocument(flat)
    pdf[0].set_rotation(90)
    pdf.save(tmp_path / "turned.pdf")
    pdf.close()
    doc = load_document(tmp_path / "turned.pdf")
    frames = page_frames(doc)
    assert (frames[1].width, frames[1].height) == (792.0, 612.0)
    pdf = pdfium.PdfDocument(tmp_path / "turned.pdf")
    page = pdf[0]
    conv = page.render(scale=1).get_posconv(page)
    textpage = page.get_textpage()
    for value in (PATIENT, PHN):
        start = doc.text.find(value)
        (box,) = span_page_boxes(doc, Span(start, start + len(value), Label.ID), frames)
        index, count = textpage.search(value).get_next()
        for i in range(index, index + count):
            x0, y0, x1, y1 = textpage.get_charbox(i, loose=True)
            (ax, ay), (bx, by) = conv.to_bitmap(x0, y0), conv.to_bitmap(x1, y1)
            assert box.x0 - 1.5 <= min(ax, bx) and max(ax, bx) <= box.x1 + 1.5
            assert box.y0 - 1.5 <= min(ay, by) and max(ay, by) <= box.y1 + 1.5
    textpage.close()
    pdf.close()
    out = write_redacted_pdf(tmp_path / "turned.pdf", doc, planted_spans(doc),
                             tmp_path / "red.pdf")
    assert out.is_file()
