"""The "What ClearNote learned" panel: names and places now found, clinical words now
ignored, how many places each matches in the documents nobody reviewed; Remove (a new
profile version) and Undo (back to the previous one).

It shows the entries' text (the reviewer's own project, like the document view); nothing
here logs it.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop.models.learned_entries import LearnedEntriesModel, LearnedRow, LearnedView


class _EntryTable(QGroupBox):
    """One kind of entries, with its own Remove button."""

    removeRequested = Signal(list)  # list[PhiEntry | VocabEntry]

    def __init__(self, title: str, empty: str, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.model = LearnedEntriesModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setAccessibleName(title)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2, 3):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.empty = QLabel(empty, self)
        self.empty.setWordWrap(True)
        self.remove_button = QPushButton("Remove selected", self)
        self.remove_button.setToolTip("Forget the selected entries (a new version; Undo "
                                      "brings them back)")
        self.remove_button.clicked.connect(self._remove)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._enable())
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(self.empty)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.remove_button)
        layout.addLayout(row)
        self._enable()

    def set_rows(self, rows: Sequence[LearnedRow]) -> None:
        self.model.set_rows(rows)
        self.table.setVisible(bool(rows))
        self.empty.setVisible(not rows)
        self._enable()

    def selected_rows(self) -> list[int]:
        return sorted({i.row() for i in self.table.selectionModel().selectedRows()})

    def _enable(self) -> None:
        self.remove_button.setEnabled(bool(self.selected_rows()))

    def _remove(self) -> None:
        entries = [self.model.row_at(r).entry for r in self.selected_rows()]
        if entries:
            self.removeRequested.emit(entries)


class LearnedPanel(QWidget):
    removeRequested = Signal(list)  # entries
    undoRequested = Signal()
    refreshRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel("Nothing learned yet.", self)
        self.summary.setWordWrap(True)
        self.undo_button = QPushButton("Undo last change", self)
        self.undo_button.setToolTip("Go back to the previous version of what ClearNote learned")
        self.undo_button.clicked.connect(self.undoRequested)
        self.refresh_button = QPushButton("Refresh", self)
        self.refresh_button.clicked.connect(self.refreshRequested)
        self.found = _EntryTable(
            "Names and places now found", "No names or places learned yet: accept or add "
            "names in your review, or import a list.", self)
        self.ignored = _EntryTable(
            "Clinical words now ignored", "No clinical words learned yet: reject the words "
            "ClearNote wrongly marks in your review.", self)
        self.found.removeRequested.connect(self.removeRequested)
        self.ignored.removeRequested.connect(self.removeRequested)
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.refresh_button)
        top.addWidget(self.undo_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.found, 1)
        layout.addWidget(self.ignored, 1)
        self.view = LearnedView(None, 0)
        self.show_view(self.view)

    def show_view(self, view: LearnedView) -> None:
        self.view = view
        if view.version is None:
            self.summary.setText("Nothing learned yet: ClearNote uses its shipped detection."
                                 if not view.versions else
                                 "Nothing learned is in use (you went back before the first "
                                 "version).")
        else:
            self.summary.setText(
                f"Version {view.version}: {len(view.found)} name(s) and place(s) found, "
                f"{len(view.ignored)} clinical word(s) ignored. Matches count places in the "
                "documents nobody reviewed.")
        self.undo_button.setEnabled(view.can_undo)
        self.found.set_rows(view.found)
        self.ignored.set_rows(view.ignored)
