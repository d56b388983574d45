"""Page images for display: a page of a PDF or a frame of an image, as a PIL image.

The same page geometry as ingest (image pages upright per EXIF, PDF pages at ``dpi``), so
boxes scaled by ``image.width / page.width`` land on the characters they were read from."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from engine.core.domain import Document
from engine.core.errors import InputError
from engine.ingest.pdfium_lock import serialized

if TYPE_CHECKING:
    from PIL import Image

DISPLAY_DPI = 110


@serialized
def render_page(doc: Document, page: int, *, dpi: int = DISPLAY_DPI,
                password: str | None = None) -> Image.Image:
    """Page ``page`` (1-based) of the document's source file, in RGB."""
    # Deferred: PDFium and PIL load only when a page is shown.
    from engine.ingest.images import iter_frames, open_image
    from engine.ingest.pdf import open_pdf

    source = Path(doc.source_path or "")
    if not doc.source_path or not source.is_file():
        raise InputError(source, "the source file is not available to show its pages")
    if not 1 <= page <= max(1, len(doc.pages)):
        raise InputError(source, f"has no page {page}")
    if doc.media_type == "application/pdf" or source.suffix.lower() == ".pdf":
        pdf = open_pdf(source, password)
        try:
            return pdf[page - 1].render(scale=dpi / 72).to_pil().convert("RGB")
        finally:
            pdf.close()
    img = open_image(source)
    try:
        for number, frame in enumerate(iter_frames(img), 1):
            if number == page:
                return frame.convert("RGB")
    finally:
        img.close()
    raise InputError(source, f"has no page {page}")
