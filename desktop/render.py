"""Page images for the page view (runs in a worker: QImage is safe off the GUI thread).

The engine renders the page (``engine.api.render_page``) and says where its boxes go
(``engine.api.page_frames``); this only turns the picture into a QImage."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QImage

import engine.api as api
from engine.core.domain import Document

DPI = 110


@dataclass(frozen=True)
class RenderedPage:
    image: QImage
    frames: dict[int, api.PageFrame]  # every page's frame: boxes of spans over pages too


def render_page(doc: Document, page: int, dpi: int = DPI) -> RenderedPage:
    frames = api.page_frames(doc)
    return RenderedPage(_from_pil(api.render_page(doc, page, dpi=dpi)), frames)


def _from_pil(pil: object) -> QImage:
    img = pil.convert("RGB")  # type: ignore[attr-defined]
    data = img.tobytes("raw", "RGB")
    qimg = QImage(data, img.width, img.height, img.width * 3, QImage.Format.Format_RGB888)
    return qimg.copy()  # own the buffer
