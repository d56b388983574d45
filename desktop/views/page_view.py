"""Page view for PDFs and scans: the page rendered by the engine, with the span highlights
the engine computes from the document's char→box map (the rectangles the redacted PDF
burns). Kept in sync with the review text by span id."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

import engine.api as api
from desktop.records import LoadedDocument
from desktop.theme import STATUS_GLYPHS, label_colour
from engine.core.domain import Document, Span, SpanStatus

SPAN_ROLE = 0  # QGraphicsItem data key holding the span id


def span_rects(doc: Document, span: Span) -> list[tuple[int, float, float, float, float]]:
    """(page, x0, y0, x1, y1) per line of the span: the engine's rectangles, the same the
    redacted PDF burns (``engine.api.span_rectangles``)."""
    return [(page, *rect) for page, rect in api.span_rectangles(doc, span)]


class PageView(QWidget):
    spanClicked = Signal(str)
    pageRequested = Signal(str, int)  # document id, page number (1-based)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.loaded: LoadedDocument | None = None
        self.page = 1
        self._images: dict[tuple[str, int], QImage] = {}
        self._current: str | None = None
        self._fitted: tuple[str, int] | None = None
        self.info = QLabel("No page image: select a PDF or scanned document.", self)
        self.page_box = QSpinBox(self)
        self.page_box.setPrefix("Page ")
        self.page_box.setMinimum(1)
        self.page_box.setToolTip("Page shown (PgUp/PgDn in the page view)")
        self.page_box.valueChanged.connect(self.show_page)
        self.scene = QGraphicsScene(self)
        self.view = QGraphicsView(self.scene, self)
        self.view.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        self.view.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.view.setAcceptDrops(False)
        self.view.setAccessibleName("Page image with highlights")
        self.scene.selectionChanged.connect(self._clicked)
        top = QHBoxLayout()
        top.addWidget(self.info, 1)
        top.addWidget(self.page_box)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.view, 1)

    def show_document(self, loaded: LoadedDocument) -> None:
        changed = self.loaded is None or self.loaded.document.id != loaded.document.id
        self.loaded = loaded
        doc = loaded.document
        if not doc.pages:
            self.scene.clear()
            self.info.setText("This document has no pages (plain text): use the Review tab.")
            self.page_box.setEnabled(False)
            return
        self.page_box.setEnabled(True)
        self.page_box.blockSignals(True)
        self.page_box.setMaximum(len(doc.pages))
        self.page_box.blockSignals(False)
        self.show_page(1 if changed else self.page)

    def set_page_image(self, document_id: str, page: int, image: QImage) -> None:
        self._images[(document_id, page)] = image
        if self.loaded and self.loaded.document.id == document_id and self.page == page:
            self._draw()

    def select_span(self, span_id: str) -> None:
        """Follow the review text: go to the span's page and centre on it."""
        self._current = span_id
        if self.loaded is None:
            return
        span = next((s for s in self.loaded.spans if s.id == span_id), None)
        if span is None:
            return
        rects = span_rects(self.loaded.document, span)
        if rects and rects[0][0] != self.page:
            self.page_box.setValue(rects[0][0])
        else:
            self._draw()

    def fit_width(self) -> None:
        rect = self.scene.sceneRect()
        if rect.width() > 0:
            self.view.resetTransform()
            scale = max(0.05, (self.view.viewport().width() - 4) / rect.width())
            self.view.scale(scale, scale)

    def resizeEvent(self, event: object) -> None:  # noqa: N802
        super().resizeEvent(event)  # type: ignore[arg-type]
        self.fit_width()

    def update_spans(self, loaded: LoadedDocument) -> None:
        self.loaded = loaded
        self._draw()

    def show_page(self, page: int) -> None:
        self.page = page
        if self.loaded is None:
            return
        key = (self.loaded.document.id, page)
        if key not in self._images:
            self.pageRequested.emit(*key)
        self._draw()

    def _draw(self) -> None:
        self.scene.clear()
        if self.loaded is None or not self.loaded.document.pages:
            return
        doc = self.loaded.document
        meta = doc.pages[self.page - 1]
        image = self._images.get((doc.id, self.page))
        if image is None:
            self.info.setText(f"Rendering page {self.page} of {len(doc.pages)}…")
            return
        scale = image.width() / meta.width if meta.width else 1.0
        self.scene.addPixmap(QPixmap.fromImage(image))
        self.scene.setSceneRect(0, 0, image.width(), image.height())
        if self._fitted != (doc.id, self.page):  # fit the page width once per page
            self._fitted = (doc.id, self.page)
            self.fit_width()
        shown = 0
        focus: QGraphicsRectItem | None = None
        for span in self.loaded.spans:
            if span.status is SpanStatus.SUPERSEDED:
                continue
            for page, x0, y0, x1, y1 in span_rects(doc, span):
                if page != self.page:
                    continue
                item = self._rect(span, QRectF(x0 * scale, y0 * scale, (x1 - x0) * scale,
                                               (y1 - y0) * scale))
                shown += 1
                if span.id == self._current:
                    focus = item
        ocr = " (text from OCR)" if meta.ocr else ""
        self.info.setText(f"Page {self.page} of {len(doc.pages)}{ocr} · {shown} highlight(s)")
        if focus is not None:
            self.view.centerOn(focus)

    def _rect(self, span: Span, rect: QRectF) -> QGraphicsRectItem:
        colour = label_colour(span.label)
        item = QGraphicsRectItem(rect.adjusted(-1, -1, 1, 1))
        pen = QPen(colour.darker(140), 2)
        fill = QColor(colour)
        if span.status is SpanStatus.CANDIDATE:
            pen.setStyle(Qt.PenStyle.DashLine)
            fill.setAlpha(60)
        elif span.status is SpanStatus.ACCEPTED:
            fill.setAlpha(120)
        else:  # rejected: grey outline, crossed
            pen = QPen(QColor("#777777"), 1, Qt.PenStyle.DotLine)
            fill = QColor(0, 0, 0, 0)
        if span.id == self._current:
            pen = QPen(QColor("#000000"), 3)
        item.setPen(pen)
        item.setBrush(QBrush(fill))
        if span.status is SpanStatus.REJECTED:
            self.scene.addLine(rect.left(), rect.center().y(), rect.right(), rect.center().y(),
                               QPen(QColor("#777777"), 1))
        item.setToolTip(f"{STATUS_GLYPHS[span.status]} {span.label.value} · "
                        f"{span.status.value.lower()}")
        item.setData(SPAN_ROLE, span.id)
        item.setFlag(QGraphicsRectItem.GraphicsItemFlag.ItemIsSelectable)
        self.scene.addItem(item)
        return item

    def _clicked(self) -> None:
        items = self.scene.selectedItems()
        if items and items[0].data(SPAN_ROLE):
            span_id = str(items[0].data(SPAN_ROLE))
            # Later: the reaction redraws the scene, which must not happen inside its signal.
            QTimer.singleShot(0, lambda: self.spanClicked.emit(span_id))
