"""How a page's box space maps onto the page as a reader sees it.

Char boxes of PDF pages are in PDF user space (points, origin bottom-left, y up, before the
page's /Rotate is applied), whether they came from the text layer or from OCR; boxes of
image pages are pixels of the upright frame (origin top-left, y down). A ``PageFrame``
maps either to the *view space* of the page: the upright page as rendered (crop box and
rotation applied), origin top-left, y down, in the page's own units (points or pixels),
``width`` x ``height``. A picture of the page at any scale is view space times
``picture width / frame width``. The page view, the review PDF and the redacted PDF all
place boxes through here (``engine.exporters.geometry.span_page_boxes``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.core.domain import Document
from engine.core.errors import InputError
from engine.ingest.pdfium_lock import serialized

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True, slots=True)
class PageFrame:
    number: int  # 1-based page number
    width: float  # view-space size: the page as rendered, rotation applied
    height: float
    pdf: bool = False  # boxes are PDF user space (else: pixels of the upright frame)
    # The visible box (crop box within the media box) in user space; PDF pages only.
    left: float = 0.0
    bottom: float = 0.0
    right: float = 0.0
    top: float = 0.0
    rotation: int = 0  # degrees clockwise the page is turned for display (PDF /Rotate)

    def point_to_view(self, x: float, y: float) -> tuple[float, float]:
        if not self.pdf:
            return x, y
        if self.rotation == 90:
            return y - self.bottom, x - self.left
        if self.rotation == 180:
            return self.right - x, y - self.bottom
        if self.rotation == 270:
            return self.top - y, self.right - x
        return x - self.left, self.top - y

    def point_to_source(self, vx: float, vy: float) -> tuple[float, float]:
        if not self.pdf:
            return vx, vy
        if self.rotation == 90:
            return vy + self.left, vx + self.bottom
        if self.rotation == 180:
            return self.right - vx, vy + self.bottom
        if self.rotation == 270:
            return self.right - vy, self.top - vx
        return vx + self.left, self.top - vy

    def to_view(self, rect: Rect) -> Rect:
        return _bounds(self.point_to_view(rect[0], rect[1]),
                       self.point_to_view(rect[2], rect[3]))

    def to_source(self, rect: Rect) -> Rect:
        return _bounds(self.point_to_source(rect[0], rect[1]),
                       self.point_to_source(rect[2], rect[3]))


def _bounds(a: tuple[float, float], b: tuple[float, float]) -> Rect:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])


def _is_pdf(doc: Document) -> bool:
    return doc.media_type == "application/pdf" or (
        doc.source_path or "").lower().endswith(".pdf")


@serialized
def page_frames(doc: Document, *, source: str | Path | None = None,
                password: str | None = None) -> dict[int, PageFrame]:
    """Every page's frame, by page number. PDF pages read their crop box and rotation from
    the source file (``source``, else the document's; the document keeps only the rendered
    size); image pages need nothing but their size."""
    if not _is_pdf(doc):
        return {p.number: PageFrame(p.number, p.width, p.height) for p in doc.pages}
    source = Path(source or doc.source_path or "")
    if not source.name or not source.is_file():
        raise InputError(source, "the source PDF is not available to place boxes on its pages")
    # Deferred: PDFium loads only when a PDF's pages are placed.
    from engine.ingest.pdf import open_pdf

    pdf = open_pdf(source, password)
    try:
        frames: dict[int, PageFrame] = {}
        for index in range(len(pdf)):
            page = pdf[index]
            try:
                ml, mb, mr, mt = page.get_mediabox()
                cl, cb, cr, ct = page.get_cropbox()
                rotation = page.get_rotation() % 360
                width, height = page.get_size()
            finally:
                page.close()
            # PDFium shows the crop box clipped to the media box (normalised corners).
            left, right = max(min(ml, mr), min(cl, cr)), min(max(ml, mr), max(cl, cr))
            bottom, top = max(min(mb, mt), min(cb, ct)), min(max(mb, mt), max(cb, ct))
            frames[index + 1] = PageFrame(index + 1, width, height, True, left, bottom,
                                          right, top, rotation)
        return frames
    finally:
        pdf.close()
