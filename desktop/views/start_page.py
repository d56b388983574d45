"""First screen: New project, Open project, recent projects."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)


class StartPage(QWidget):
    newRequested = Signal()
    openRequested = Signal()
    recentRequested = Signal(object)  # Path

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        title = QLabel("<h1>ClearNote</h1>", self)
        blurb = QLabel("De-identify clinical documents on this computer. Nothing leaves it.\n"
                       "A project is one .clearnote file holding the documents, your review "
                       "decisions and the surrogate mapping.", self)
        blurb.setWordWrap(True)
        self.new_button = QPushButton("New project…", self)
        self.new_button.setToolTip("Create a .clearnote project file (Ctrl+N)")
        self.open_button = QPushButton("Open project…", self)
        self.open_button.setToolTip("Open an existing .clearnote file (Ctrl+O)")
        self.new_button.clicked.connect(self.newRequested)
        self.open_button.clicked.connect(self.openRequested)
        self.recent = QListWidget(self)
        self.recent.setAccessibleName("Recent projects")
        self.recent.setToolTip("Double-click or press Enter to open")
        self.recent.itemActivated.connect(
            lambda item: self.recentRequested.emit(Path(item.data(Qt.ItemDataRole.UserRole))))
        buttons = QHBoxLayout()
        buttons.addWidget(self.new_button)
        buttons.addWidget(self.open_button)
        buttons.addStretch(1)
        inner = QVBoxLayout()
        inner.addWidget(title)
        inner.addWidget(blurb)
        inner.addSpacing(12)
        inner.addLayout(buttons)
        inner.addSpacing(12)
        inner.addWidget(QLabel("<b>Recent projects</b>", self))
        inner.addWidget(self.recent, 1)
        outer = QHBoxLayout(self)
        outer.addStretch(1)
        outer.addLayout(inner, 3)
        outer.addStretch(1)

    def set_recent(self, paths: list[Path]) -> None:
        self.recent.clear()
        for path in paths:
            item = QListWidgetItem(f"{path.stem} — {path.parent}")
            item.setData(Qt.ItemDataRole.UserRole, str(path))
            item.setToolTip(str(path))
            self.recent.addItem(item)
        if not paths:
            self.recent.addItem(QListWidgetItem("No recent projects."))
