"""Import progress: one row per dropped file or folder, overall progress, Cancel, and
per-file errors (an encrypted PDF offers to retry with a password)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

STATE_GLYPHS = {"queued": "…", "importing": "⟳", "imported": "✓", "duplicate": "=",
                "failed": "⚠", "encrypted": "🔒", "cancelled": "■", "skipped": "–",
                "needs review": "⚑"}


class ImportPanel(QWidget):
    cancelRequested = Signal()
    passwordRequested = Signal(str)  # path of an encrypted PDF
    hideRequested = Signal()
    finishRequested = Signal(list)  # ids imported by a cancelled drop, not yet detected

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel("Import", self)
        self.bar = QProgressBar(self)
        self.bar.setAccessibleName("Import and detection progress")
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setToolTip("Stop importing and detecting (Esc)")
        self.cancel_button.clicked.connect(self.cancelRequested)
        self.close_button = QPushButton("Hide", self)
        self.close_button.setToolTip("Hide this panel")
        self.close_button.clicked.connect(self.hideRequested)
        self.finish_button = QPushButton("", self)
        self.finish_button.setToolTip("Detect PHI in the documents the cancelled import "
                                      "brought in, so they can be reviewed")
        self.finish_button.clicked.connect(self._finish_clicked)
        self.finish_button.hide()
        self._undetected: list[str] = []
        self.tree = QTreeWidget(self)
        self.tree.setHeaderLabels(["File or folder", "Status", "Detail"])
        self.tree.setRootIsDecorated(False)
        self.tree.setAccessibleName("Per-file import status")
        self.tree.itemActivated.connect(self._activated)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.bar, 2)
        top.addWidget(self.finish_button)
        top.addWidget(self.cancel_button)
        top.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.tree)
        self._rows: dict[str, QTreeWidgetItem] = {}

    def start(self, paths: list[Path]) -> None:
        self.tree.clear()
        self._rows = {}
        for path in paths:
            item = QTreeWidgetItem([path.name or str(path), f"{STATE_GLYPHS['queued']} queued", ""])
            item.setToolTip(0, str(path))
            self.tree.addTopLevelItem(item)
            self._rows[str(path)] = item
        self.title.setText(f"Importing {len(paths)} item(s)")
        self.bar.setFormat("%p%")
        self.bar.setRange(0, 0)
        self.cancel_button.setEnabled(True)
        self.offer_finish([])

    def set_item(self, path: str, state: str, detail: str) -> None:
        item = self._rows.get(path)
        if item is None:
            return
        item.setText(1, f"{STATE_GLYPHS.get(state, '')} {state}")
        if state == "encrypted":
            detail = "password protected: double-click or press Enter to give the password"
        item.setText(2, detail)
        item.setToolTip(2, detail)
        item.setData(0, Qt.ItemDataRole.UserRole, state)

    def state(self, path: str) -> str:
        item = self._rows.get(path)
        return str(item.data(0, Qt.ItemDataRole.UserRole) or "queued") if item else ""

    def set_progress(self, stage: str, done: int, total: int, message: str) -> None:
        """Progress goes on the bar, which repaints itself only: a title whose text changed
        (its width with it) re-laid out the whole window, 10 to 30 ms, several times a
        second during a drop."""
        if total <= 0:
            if message == "cancelled":
                self.finish("Cancelled")
            return
        words = {"import": "Importing", "detect": "Detecting PHI in", "export": "Exporting"}
        self.bar.setFormat(f"{words.get(stage, stage)} %v of %m")
        self.bar.setRange(0, total)
        self.bar.setValue(done)

    def finish(self, summary: str) -> None:
        self.bar.setRange(0, 1)
        self.bar.setValue(1)
        self.bar.setFormat("%p%")
        self.title.setText(summary)
        self.cancel_button.setEnabled(False)

    def offer_finish(self, undetected: list[str]) -> None:
        """After a cancel: a button to detect what was imported but not detected."""
        self._undetected = list(undetected)
        n = len(undetected)
        self.finish_button.setText(f"Detect the {n} imported document{'s' if n != 1 else ''}")
        self.finish_button.setVisible(bool(undetected))

    def _finish_clicked(self) -> None:
        ids, self._undetected = self._undetected, []
        self.finish_button.hide()
        if ids:
            self.finishRequested.emit(ids)

    def _activated(self, item: QTreeWidgetItem, _col: int) -> None:
        if item.data(0, Qt.ItemDataRole.UserRole) == "encrypted":
            self.passwordRequested.emit(item.toolTip(0))
