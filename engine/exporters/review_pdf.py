"""Review copy of a PDF or scanned document: the original pages at their original size with
the page view's own highlight boxes (``span_page_boxes``), coloured by label and marked with
the span id, and a legend at the end.

It holds the original text and pictures: it is for a second reviewer or an auditor and
belongs with the originals (like the BRAT review export), never in a de-identified output
folder. Each output page is built in the view space of the upright page: the source page is
placed as a Form XObject through its frame (crop box and rotation applied), so the boxes,
their labels and the page all read upright whatever the source's /Rotate.
"""

from __future__ import annotations

import ctypes
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from engine.core.context import RunContext
from engine.core.domain import Document, Span, SpanStatus
from engine.core.errors import InputError
from engine.core.files import atomic_target
from engine.core.labels import LABEL_COLOURS, Label
from engine.exporters.geometry import PageBox, PageFrame, page_frames, span_page_boxes
from engine.exporters.pdf import _image_dpi, _jpeg_image_obj, _place
from engine.exporters.pdf_boxes import drawable
from engine.exporters.pdf_text_layer import set_text
from engine.ingest.pdfium_lock import serialized

PAD = 1.0  # points around each box, as the redacted PDF pads its boxes
ID_SIZE = 5.0  # points: the span id written above its box
SHOWN = (SpanStatus.CANDIDATE, SpanStatus.ACCEPTED, SpanStatus.REJECTED)


def _rgb(label: Label) -> tuple[int, int, int]:
    hexed = LABEL_COLOURS.get(label, "#888888").lstrip("#")
    return int(hexed[0:2], 16), int(hexed[2:4], 16), int(hexed[4:6], 16)


def _view_matrix(frame: PageFrame) -> pdfium.PdfMatrix:
    """Source user space → the output page (the upright page, PDF y up)."""
    ox, oy = frame.point_to_view(0.0, 0.0)
    ax, ay = frame.point_to_view(1.0, 0.0)
    bx, by = frame.point_to_view(0.0, 1.0)
    h = frame.height
    return pdfium.PdfMatrix(ax - ox, -(ay - oy), bx - ox, -(by - oy), ox, h - oy)


def _rect(rect: tuple[float, float, float, float], *, stroke: tuple[int, int, int],
          fill: tuple[int, int, int, int] | None, width: float) -> pdfium_c.FPDF_PAGEOBJECT:
    x0, y0, x1, y1 = rect
    obj = pdfium_c.FPDFPageObj_CreateNewRect(x0, y0, x1 - x0, y1 - y0)
    pdfium_c.FPDFPageObj_SetStrokeColor(obj, *stroke, 255)
    pdfium_c.FPDFPageObj_SetStrokeWidth(obj, width)
    if fill is not None:
        pdfium_c.FPDFPageObj_SetFillColor(obj, *fill)
    pdfium_c.FPDFPath_SetDrawMode(obj, pdfium_c.FPDF_FILLMODE_ALTERNATE if fill else 0, True)
    return obj


def _text(pdf: pdfium.PdfDocument, text: str, x: float, y: float, size: float,
          rgb: tuple[int, int, int] = (0, 0, 0)) -> pdfium_c.FPDF_PAGEOBJECT:
    obj = pdfium_c.FPDFPageObj_NewTextObj(pdf.raw, b"Helvetica", ctypes.c_float(size))
    set_text(obj, drawable(text))
    pdfium_c.FPDFPageObj_Transform(obj, 1, 0, 0, 1, x, y)
    pdfium_c.FPDFPageObj_SetFillColor(obj, *rgb, 255)
    return obj


def _draw_spans(pdf: pdfium.PdfDocument, page: pdfium.PdfPage, height: float, k: float,
                boxes: Sequence[tuple[Span, PageBox]]) -> None:
    """Boxes in view space (scaled by ``k`` to points) onto an output page of ``height``."""
    for span, box in boxes:
        rgb = _rgb(span.label)
        rect = (box.x0 * k - PAD, height - box.y1 * k - PAD,
                box.x1 * k + PAD, height - box.y0 * k + PAD)
        if span.status is SpanStatus.REJECTED:
            obj = _rect(rect, stroke=(119, 119, 119), fill=None, width=0.5)
        elif span.status is SpanStatus.ACCEPTED:
            obj = _rect(rect, stroke=rgb, fill=(*rgb, 90), width=1.0)
        else:  # candidate: undecided, lighter
            obj = _rect(rect, stroke=rgb, fill=(*rgb, 40), width=0.75)
        pdfium_c.FPDFPage_InsertObject(page.raw, obj)
        tag = f"{span.id} {span.label.value} {span.status.value.lower()}"
        pdfium_c.FPDFPage_InsertObject(page.raw, _text(pdf, tag, rect[0], rect[3] + 0.6,
                                                       ID_SIZE, rgb))


def _legend(pdf: pdfium.PdfDocument, doc: Document, spans: Sequence[Span],
            located: dict[str, list[PageBox]]) -> None:
    """Legend pages: what the colours and styles mean, then every span drawn (id, label,
    status, page, detector); no document text."""
    width, height, top = 612.0, 792.0, 740.0
    rows: list[tuple[str, tuple[int, int, int]]] = []
    counts = Counter(s.status.value.lower() for s in spans)
    rows.append((f"Review copy of document {doc.id}: {len(spans)} span(s) drawn "
                 f"({', '.join(f'{n} {k}' for k, n in sorted(counts.items())) or 'none'})",
                 (0, 0, 0)))
    rows.append(("Filled box: accepted (will be replaced). Light box: candidate (undecided). "
                 "Grey outline: rejected (stays).", (0, 0, 0)))
    rows.append(("It contains the original text: keep it with the originals.", (0, 0, 0)))
    rows.append(("", (0, 0, 0)))
    rows += [(f"{label.value}", _rgb(label)) for label in Label]
    rows.append(("", (0, 0, 0)))
    rows.append(("span id            label      status     page  detector", (0, 0, 0)))
    for span in sorted(spans, key=lambda s: s.start):
        pages = sorted({b.page for b in located.get(span.id, [])})
        where = ",".join(map(str, pages)) or "-"
        rows.append((f"{span.id}  {span.label.value:<10} {span.status.value.lower():<10} "
                     f"{where:<5} {span.detector}", _rgb(span.label)))
    page: pdfium.PdfPage | None = None
    y = 0.0
    for text, rgb in rows:
        if page is None or y < 50:
            if page is not None:
                page.gen_content()
                page.close()
            page = pdf.new_page(width, height)
            pdfium_c.FPDFPage_InsertObject(page.raw, _text(pdf, "Legend", 50, top + 20, 14))
            y = top
        if text:
            if rgb != (0, 0, 0):
                pdfium_c.FPDFPage_InsertObject(page.raw, _rect(
                    (50, y - 1, 62, y + 8), stroke=rgb, fill=(*rgb, 140), width=0.75))
            pdfium_c.FPDFPage_InsertObject(page.raw, _text(pdf, text, 68, y, 8))
        y -= 12
    if page is not None:
        page.gen_content()
        page.close()


def _draw_redactions(pdf: pdfium.PdfDocument, page: pdfium.PdfPage, height: float, k: float,
                     boxes: Sequence[PageBox]) -> None:
    """Box redactions a reviewer drew: a black outline, hatched by a light grey fill."""
    for box in boxes:
        rect = (box.x0 * k, height - box.y1 * k, box.x1 * k, height - box.y0 * k)
        pdfium_c.FPDFPage_InsertObject(page.raw, _rect(rect, stroke=(0, 0, 0),
                                                       fill=(0, 0, 0, 60), width=1.5))
        pdfium_c.FPDFPage_InsertObject(page.raw, _text(pdf, "box redaction", rect[0],
                                                       rect[3] + 0.6, ID_SIZE))


@serialized
def write_review_pdf(source: str | Path, doc: Document, spans: Sequence[Span],
                     out_path: str | Path, *, password: str | None = None,
                     ctx: RunContext | None = None,
                     redactions: Sequence[PageBox] = ()) -> Path:
    """Write the review copy of ``doc`` (read from ``source``, a PDF or an image) with its
    candidate, accepted and rejected spans drawn, and the box ``redactions`` a reviewer
    drew; superseded spans are left out."""
    source, out_path = Path(source), Path(out_path)
    ctx = ctx or RunContext()
    if not source.is_file():
        raise InputError(source, "source document not found")
    if not doc.pages:
        raise InputError(source, "has no pages (plain text): no review copy to draw")
    shown = [s for s in spans if s.status in SHOWN]
    frames = page_frames(doc, source=source, password=password)
    located = {s.id: span_page_boxes(doc, s, frames) for s in shown}
    per_page: dict[int, list[tuple[Span, PageBox]]] = {}
    for span in shown:
        for box in located[span.id]:
            per_page.setdefault(box.page, []).append((span, box))
    out = pdfium.PdfDocument.new()
    try:
        if frames and next(iter(frames.values())).pdf:
            _pages_from_pdf(out, source, password, frames, per_page, redactions, ctx)
        else:
            _pages_from_image(out, source, doc, frames, per_page, redactions, ctx)
        _legend(out, doc, shown, located)
        with atomic_target(out_path) as tmp:
            out.save(tmp, version=17)
    finally:
        out.close()
    return out_path


def _pages_from_pdf(out: pdfium.PdfDocument, source: Path, password: str | None,
                    frames: dict[int, PageFrame],
                    per_page: dict[int, list[tuple[Span, PageBox]]],
                    redactions: Sequence[PageBox], ctx: RunContext) -> None:
    from engine.ingest.pdf import open_pdf

    src = open_pdf(source, password)
    try:
        for index in range(len(src)):
            ctx.check()
            frame = frames[index + 1]
            page = out.new_page(frame.width, frame.height)
            form = src.page_as_xobject(index, out).as_pageobject()
            form.set_matrix(_view_matrix(frame))
            page.insert_obj(form)
            _draw_spans(out, page, frame.height, 1.0, per_page.get(index + 1, []))
            _draw_redactions(out, page, frame.height, 1.0,
                             [b for b in redactions if b.page == index + 1])
            page.gen_content()
            page.close()
            ctx.report("review", index + 1, len(src), f"page {index + 1}")
    finally:
        src.close()


def _pages_from_image(out: pdfium.PdfDocument, source: Path, doc: Document,
                      frames: dict[int, PageFrame],
                      per_page: dict[int, list[tuple[Span, PageBox]]],
                      redactions: Sequence[PageBox], ctx: RunContext) -> None:
    from engine.ingest.images import iter_frames, open_image

    img = open_image(source)
    try:
        dpi = _image_dpi(img)
        k = 72 / dpi
        for index, picture in enumerate(iter_frames(img)):
            ctx.check()
            w_pt, h_pt = picture.width * k, picture.height * k
            page = out.new_page(w_pt, h_pt)
            obj = _jpeg_image_obj(out, picture)
            _place(obj, (0, 0, w_pt, h_pt))
            page.insert_obj(obj)
            _draw_spans(out, page, h_pt, k, per_page.get(index + 1, []))
            _draw_redactions(out, page, h_pt, k, [b for b in redactions if b.page == index + 1])
            page.gen_content()
            page.close()
            ctx.report("review", index + 1, len(doc.pages), f"page {index + 1}")
    finally:
        img.close()
