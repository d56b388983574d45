"""Accumulates page texts, char boxes and OCR confidences into one Document."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.domain import CharBox, Document, Page

# Pages are separated by a form feed on its own line; separator chars have no box.
PAGE_SEPARATOR = "\n\f\n"


@dataclass
class PageText:
    """One page's text with a box (or None) per character, in the document's units."""

    number: int
    width: float
    height: float
    text: str = ""
    boxes: list[CharBox | None] = field(default_factory=list)
    ocr: bool = False
    # (start, end, confidence) relative to this page's text.
    confidences: list[tuple[int, int, float]] = field(default_factory=list)


class DocumentBuilder:
    def __init__(self) -> None:
        self._parts: list[str] = []
        self._boxes: list[CharBox | None] = []
        self._pages: list[Page] = []
        self._conf: list[tuple[int, int, float]] = []
        self._len = 0
        self.warnings: list[str] = []

    def add_page(self, page: PageText) -> None:
        if len(page.boxes) != len(page.text):
            raise ValueError("page text and boxes differ in length")
        if self._pages:
            self._append(PAGE_SEPARATOR, [None] * len(PAGE_SEPARATOR))
        start = self._len
        self._append(page.text, page.boxes)
        self._pages.append(Page(number=page.number, start=start, end=self._len,
                                width=page.width, height=page.height, ocr=page.ocr))
        self._conf.extend((start + s, start + e, c) for s, e, c in page.confidences)

    def _append(self, text: str, boxes: list[CharBox | None]) -> None:
        self._parts.append(text)
        self._boxes.extend(boxes)
        self._len += len(text)

    def build(self, *, source_path: str, media_type: str) -> Document:
        text = "".join(self._parts)
        has_boxes = any(b is not None for b in self._boxes)
        return Document(text=text, source_path=source_path, media_type=media_type,
                        pages=tuple(self._pages),
                        boxes=tuple(self._boxes) if has_boxes else (),
                        confidences=tuple(self._conf), warnings=tuple(self.warnings))
