"""The project's documents with a name filter, a status filter and sortable columns."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop.models.document_list import (
    ID_ROLE,
    STATUS_GLYPHS,
    DocumentFilterProxyModel,
    DocumentListModel,
)
from desktop.records import DisplayStatus


class DocumentListView(QWidget):
    documentActivated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = DocumentListModel(self)
        self.proxy = DocumentFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText("Filter by name (Ctrl+F)")
        self.filter.setToolTip("Show only documents whose name contains this text (Ctrl+F)")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.setFilterFixedString)
        self.status = QComboBox(self)
        self.status.addItem("All statuses", "")
        for st in DisplayStatus.ALL:
            self.status.addItem(st.capitalize(), st)
        self.status.setToolTip("Show only documents in this status")
        self.status.currentIndexChanged.connect(
            lambda _i: self.proxy.set_status_filter(self.status.currentData()))
        self.table = QTableView(self)
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.verticalHeader().hide()
        self.table.setAcceptDrops(False)
        self.table.setAccessibleName("Documents")
        header = self.table.horizontalHeader()
        # Fitted to the contents when the list is (re)loaded, not on every row change: a
        # ResizeToContents header measures every row per change, and a drop of 50 notes
        # refreshing rows as they are imported and detected held the event loop ~0.5 s.
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.model.modelReset.connect(self._fit_columns)
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)
        self.table.activated.connect(self._current_changed)
        top = QHBoxLayout()
        top.addWidget(self.filter, 1)
        top.addWidget(self.status)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)

    def _fit_columns(self) -> None:
        """Fitted to the rows there are, the Status column at least as wide as its longest
        word: a project opened empty fills during a drop, and "needs review" wrapped."""
        self.table.resizeColumnsToContents()
        metrics = self.table.fontMetrics()
        widest = max(metrics.horizontalAdvance(f"{STATUS_GLYPHS.get(s, '')} {s} ")
                     for s in DisplayStatus.ALL)
        status = 1
        room = widest + 2 * metrics.horizontalAdvance("M")
        if self.table.columnWidth(status) < room:
            self.table.setColumnWidth(status, room)

    def _current_changed(self, index: QModelIndex, *_: object) -> None:
        if index.isValid():
            self.documentActivated.emit(str(index.data(ID_ROLE)))

    def selected_ids(self) -> list[str]:
        rows = self.table.selectionModel().selectedRows()
        return [str(r.data(ID_ROLE)) for r in rows]

    def select_document(self, document_id: str) -> None:
        row = self.model.row_of(document_id)
        if row < 0:
            return
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        if index.isValid():
            self.table.setCurrentIndex(index)
