"""Page images for the page view (runs in a worker: QImage is safe off the GUI thread).

Prefers ``engine.api.render_page`` when the engine offers it; until then a thin
pypdfium2/QImage reader, display only (the engine's geometry stays authoritative)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QImage

import engine.api as api
from engine.core.domain import Document

DPI = 110


def render_page(doc: Document, page: int, dpi: int = DPI) -> QImage:
    engine_render = getattr(api, "render_page", None)
    source = Path(doc.source_path or "")
    if engine_render is not None:
        pil = engine_render(doc.source_path, page, dpi)
        return _from_pil(pil)
    if doc.media_type == "application/pdf" or source.suffix.lower() == ".pdf":
        import pypdfium2 as pdfium

        pdf = pdfium.PdfDocument(str(source))
        try:
            pil = pdf[page - 1].render(scale=dpi / 72).to_pil()
        finally:
            pdf.close()
        return _from_pil(pil)
    image = QImage(str(source))
    if image.isNull():
        raise FileNotFoundError("page image unavailable")
    return image


def _from_pil(pil: object) -> QImage:
    img = pil.convert("RGB")  # type: ignore[attr-defined]
    data = img.tobytes("raw", "RGB")
    qimg = QImage(data, img.width, img.height, img.width * 3, QImage.Format.Format_RGB888)
    return qimg.copy()  # own the buffer
