"""Page view for PDFs and scans: the page rendered by the engine, with the span highlights
the engine places (``engine.api.span_page_boxes``: the boxes the redacted PDF burns, in
the upright page's view space). Kept in sync with the review text by span id. Opens fitted
to the width; Ctrl+wheel, Ctrl+= / Ctrl+- zoom, and the buttons fit the width or the page."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QKeySequence,
    QPainter,
    QPen,
    QPixmap,
    QResizeEvent,
    QShortcut,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

import engine.api as api
from desktop.records import LoadedDocument
from desktop.render import RenderedPage
from desktop.theme import STATUS_GLYPHS, label_colour
from desktop.views.box_tool import BoxTool
from desktop.views.zoom import ZoomBar
from engine.core.domain import Document, Span, SpanStatus

SPAN_ROLE = 0  # QGraphicsItem data key holding the span id
BOX_ROLE = 1  # ... and the box redaction id


def span_page(doc: Document, span: Span) -> int | None:
    """The page the span starts on (its first character with a box), without a frame."""
    for box in doc.boxes[span.start:span.end]:
        if box is not None:
            return box.page
    return None


class _PageCanvas(QGraphicsView):
    """The page's graphics view: Ctrl+wheel zooms (a plain wheel scrolls)."""

    zoomStep = Signal(int)  # +1 in, -1 out
    resized = Signal()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self.resized.emit()  # the viewport has its new size now: a fitted zoom refits

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            delta = event.angleDelta().y()
            if delta:
                self.zoomStep.emit(1 if delta > 0 else -1)
            event.accept()
            return
        super().wheelEvent(event)


class PageView(QWidget):
    spanClicked = Signal(str)
    pageRequested = Signal(str, int)  # document id, page number (1-based)
    boxDrawn = Signal(str, int, object)  # document id, page, (x0, y0, x1, y1) view space
    boxRemoved = Signal(str, str)  # document id, box redaction id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.loaded: LoadedDocument | None = None
        self.page = 1
        self._pages: dict[tuple[str, int], RenderedPage] = {}
        self._current: str | None = None
        self.picked_box: str | None = None  # a box redaction picked in the list
        self.info = QLabel("No page image: select a PDF or scanned document.", self)
        self.page_box = QSpinBox(self)
        self.page_box.setPrefix("Page ")
        self.page_box.setMinimum(1)
        self.page_box.setToolTip("Page shown (PgUp/PgDn in the page view)")
        self.page_box.valueChanged.connect(self.show_page)
        self.scene = QGraphicsScene(self)
        self.view = _PageCanvas(self.scene, self)
        self.view.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        self.view.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.view.setAcceptDrops(False)
        self.view.setAccessibleName("Page image with highlights")
        # Always there, so fitting the width never makes a horizontal scroll bar appear.
        self.view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.zoom = ZoomBar(self.view, self)
        self.view.zoomStep.connect(self.zoom.step)
        self.view.resized.connect(self.zoom.refit)
        self.scene.selectionChanged.connect(self._clicked)
        self.box_tool = BoxTool(self.view)
        self.box_tool.drawn.connect(self._box_drawn)
        self.draw_button = QToolButton(self)
        self.draw_button.setText("Draw box")
        self.draw_button.setCheckable(True)
        self.draw_button.setToolTip("Redact a rectangle (signature, logo, stamp): drag on the "
                                    "page (B). Select a box and press Delete to remove it.")
        self.draw_button.toggled.connect(self.box_tool.set_active)
        for key, slot in (("B", self.draw_button.toggle),
                          (QKeySequence.StandardKey.Delete, self._remove_selected_box)):
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
        top = QHBoxLayout()
        top.addWidget(self.info, 1)
        top.addWidget(self.draw_button)
        top.addWidget(self.zoom)
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
        if changed:
            self.zoom.fit_width_mode()  # a new document opens fitted to the width
        self.show_page(1 if changed else self.page)

    def set_page_image(self, document_id: str, page: int, rendered: RenderedPage) -> None:
        self._pages[(document_id, page)] = rendered
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
        page = span_page(self.loaded.document, span)
        if page is not None and page != self.page:
            self.page_box.setValue(page)
        else:
            self._draw()

    def select_box(self, box_id: str, page: int) -> None:
        """Show a box redaction picked in the list: its page, the box selected (kept
        across the redraw when the page image arrives)."""
        self.picked_box = box_id
        if page != self.page:
            self.page_box.setValue(page)
        for item in self.scene.items():
            item.setSelected(item.data(BOX_ROLE) == box_id)

    def fit_width(self) -> None:
        self.zoom.fit_width_mode()

    def update_spans(self, loaded: LoadedDocument) -> None:
        self.loaded = loaded
        self._draw()

    def show_page(self, page: int) -> None:
        self.page = page
        if self.loaded is None:
            return
        key = (self.loaded.document.id, page)
        if key not in self._pages:
            self.pageRequested.emit(*key)
        self._draw()

    def highlight_rects(self) -> dict[str, list[QRectF]]:
        """The scene rectangles drawn for each span on the page shown (image pixels)."""
        out: dict[str, list[QRectF]] = {}
        for item in self.scene.items():
            if isinstance(item, QGraphicsRectItem) and item.data(SPAN_ROLE):
                out.setdefault(str(item.data(SPAN_ROLE)), []).append(
                    item.rect().adjusted(1, 1, -1, -1))
        return out

    def _draw(self) -> None:
        self.scene.clear()
        if self.loaded is None or not self.loaded.document.pages:
            return
        doc = self.loaded.document
        rendered = self._pages.get((doc.id, self.page))
        if rendered is None:
            self.info.setText(f"Rendering page {self.page} of {len(doc.pages)}…")
            return
        image, frame = rendered.image, rendered.frames[self.page]
        # View space (the upright page, y down) to the picture's pixels.
        scale = image.width() / frame.width if frame.width else 1.0
        self.scene.addPixmap(QPixmap.fromImage(image))
        self.scene.setSceneRect(0, 0, image.width(), image.height())
        self.zoom.refit()
        shown = 0
        focus: QGraphicsRectItem | None = None
        for span in self.loaded.spans:
            if span.status is SpanStatus.SUPERSEDED:
                continue
            for box in api.span_page_boxes(doc, span, rendered.frames):
                if box.page != self.page:
                    continue
                item = self._rect(span, QRectF(box.x0 * scale, box.y0 * scale,
                                               (box.x1 - box.x0) * scale,
                                               (box.y1 - box.y0) * scale))
                shown += 1
                if span.id == self._current:
                    focus = item
        for drawn in self.loaded.boxes:
            if drawn.page == self.page:
                self._box_item(drawn.id, QRectF(drawn.x0 * scale, drawn.y0 * scale,
                                                (drawn.x1 - drawn.x0) * scale,
                                                (drawn.y1 - drawn.y0) * scale))
        ocr = " (text from OCR)" if doc.pages[self.page - 1].ocr else ""
        boxes = sum(1 for b in self.loaded.boxes if b.page == self.page)
        redacted = f" · {boxes} box redaction(s)" if boxes else ""
        self.info.setText(f"Page {self.page} of {len(doc.pages)}{ocr} · {shown} highlight(s)"
                          f"{redacted}")
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

    def _box_item(self, box_id: str, rect: QRectF) -> None:
        item = QGraphicsRectItem(rect)
        item.setPen(QPen(QColor("#000000"), 2))
        item.setBrush(QBrush(QColor(0, 0, 0, 150), Qt.BrushStyle.Dense4Pattern))
        item.setToolTip("Box redaction: burnt black into the redacted PDF (Delete removes "
                        "it, Ctrl+Z undoes)")
        item.setData(BOX_ROLE, box_id)
        item.setFlag(QGraphicsRectItem.GraphicsItemFlag.ItemIsSelectable)
        self.scene.addItem(item)
        if box_id == self.picked_box:
            item.setSelected(True)

    def box_rects(self) -> dict[str, QRectF]:
        """Scene rectangles of the box redactions drawn on the page shown."""
        return {str(i.data(BOX_ROLE)): i.rect() for i in self.scene.items()
                if isinstance(i, QGraphicsRectItem) and i.data(BOX_ROLE)}

    def _box_drawn(self, rect: QRectF) -> None:
        """A drag on the page: to view space (the picture's pixels over its scale)."""
        if self.loaded is None or not self.loaded.document.pages:
            return
        rendered = self._pages.get((self.loaded.document.id, self.page))
        if rendered is None:
            return
        frame = rendered.frames[self.page]
        k = frame.width / rendered.image.width() if rendered.image.width() else 1.0
        rect = rect.intersected(self.scene.sceneRect())
        self.boxDrawn.emit(self.loaded.document.id, self.page,
                           (rect.left() * k, rect.top() * k, rect.right() * k,
                            rect.bottom() * k))

    def _remove_selected_box(self) -> None:
        if self.loaded is None:
            return
        for item in self.scene.selectedItems():
            if item.data(BOX_ROLE):
                self.boxRemoved.emit(self.loaded.document.id, str(item.data(BOX_ROLE)))

    def _clicked(self) -> None:
        items = self.scene.selectedItems()
        if items and items[0].data(SPAN_ROLE):
            span_id = str(items[0].data(SPAN_ROLE))
            # Later: the reaction redraws the scene, which must not happen inside its signal.
            QTimer.singleShot(0, lambda: self.spanClicked.emit(span_id))
