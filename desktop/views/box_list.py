"""Box redactions listed beside the spans: one row per box drawn on the document's pages
(page, position, size in page units), selectable (it shows the box on its page) and
removable (Remove or Delete; undoable like any review decision)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from engine.api import BoxRedaction


class BoxList(QWidget):
    boxSelected = Signal(str, int)  # box id, page
    removeRequested = Signal(str, str)  # document id, box id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document_id: str | None = None
        self.title = QLabel("", self)
        self.list = QListWidget(self)
        self.list.setAccessibleName("Box redactions of this document")
        self.list.setMaximumHeight(self.fontMetrics().height() * 5)
        self.list.currentItemChanged.connect(self._selected)
        self.remove_button = QPushButton("Remove box", self)
        self.remove_button.setToolTip("Remove the selected box redaction (Delete; Ctrl+Z "
                                      "brings it back)")
        self.remove_button.clicked.connect(self.remove_selected)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Delete), self.list,
                  self.remove_selected, context=Qt.ShortcutContext.WidgetShortcut)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.title, 1)
        top.addWidget(self.remove_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.list)
        self.set_boxes(None, ())

    def set_boxes(self, document_id: str | None, boxes: Sequence[BoxRedaction]) -> None:
        current = self.list.currentItem()
        keep = current.data(Qt.ItemDataRole.UserRole)[0] \
            if current is not None and document_id == self.document_id else None
        self.document_id = document_id
        self.list.blockSignals(True)
        self.list.clear()
        for box in sorted(boxes, key=lambda b: (b.page, b.y0, b.x0)):
            item = QListWidgetItem(
                f"▮ Page {box.page} · at ({box.x0:.0f}, {box.y0:.0f}) · "
                f"{box.x1 - box.x0:.0f} × {box.y1 - box.y0:.0f}")
            item.setData(Qt.ItemDataRole.UserRole, (box.id, box.page))
            item.setToolTip("Burnt black into the redacted PDF; select to see it on its page")
            self.list.addItem(item)
            if box.id == keep:  # a reload keeps the reviewer's selection
                self.list.setCurrentItem(item)
        self.list.blockSignals(False)
        n = len(boxes)
        self.title.setText(f"Box redactions: {n}")
        self.remove_button.setEnabled(self.list.currentItem() is not None)
        self.setVisible(n > 0)

    def ids(self) -> list[str]:
        return [self.list.item(i).data(Qt.ItemDataRole.UserRole)[0]
                for i in range(self.list.count())]

    def _selected(self, item: QListWidgetItem | None) -> None:
        self.remove_button.setEnabled(item is not None)
        if item is not None:
            box_id, page = item.data(Qt.ItemDataRole.UserRole)
            self.boxSelected.emit(box_id, page)

    def remove_selected(self) -> None:
        item = self.list.currentItem()
        if item is None or self.document_id is None:
            return
        self.removeRequested.emit(self.document_id, item.data(Qt.ItemDataRole.UserRole)[0])
