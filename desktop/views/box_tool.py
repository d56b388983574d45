"""Drawing a box redaction on the page view: while the tool is on, a left-button drag over
the page draws a rectangle (shown as it grows) and ``drawn`` gives it in scene (picture)
coordinates; the page view turns it into the page's view space."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPen
from PySide6.QtWidgets import QGraphicsRectItem, QGraphicsView


class BoxTool(QObject):
    drawn = Signal(QRectF)

    def __init__(self, view: QGraphicsView) -> None:
        super().__init__(view)
        self.view = view
        self.active = False
        self._start: QPointF | None = None
        self._rubber: QGraphicsRectItem | None = None
        view.viewport().installEventFilter(self)

    def set_active(self, active: bool) -> None:
        self.active = active
        self.view.setDragMode(QGraphicsView.DragMode.NoDrag if active
                              else QGraphicsView.DragMode.ScrollHandDrag)
        self.view.viewport().setCursor(Qt.CursorShape.CrossCursor if active
                                       else Qt.CursorShape.OpenHandCursor)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if not self.active or not isinstance(event, QMouseEvent):
            return False
        pos = self.view.mapToScene(event.position().toPoint())
        kind = event.type()
        if kind == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
            self._start = pos
            self._rubber = self.view.scene().addRect(QRectF(pos, pos),
                                                     QPen(QColor("#C0392B"), 2,
                                                          Qt.PenStyle.DashLine))
            return True
        if kind == QEvent.Type.MouseMove and self._start is not None:
            if self._rubber is not None:
                self._rubber.setRect(QRectF(self._start, pos).normalized())
            return True
        if kind == QEvent.Type.MouseButtonRelease and self._start is not None:
            rect = QRectF(self._start, pos).normalized()
            self._start = None
            if self._rubber is not None:
                self.view.scene().removeItem(self._rubber)
                self._rubber = None
            self.drawn.emit(rect)
            return True
        return False
