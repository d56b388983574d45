"""Documents of the open project: status, span counts, CIRE flags, patient."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

from desktop.messages import in_words
from desktop.records import DisplayStatus, DocumentEntry

Index = QModelIndex | QPersistentModelIndex

ID_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2
STATUS_ROLE = Qt.ItemDataRole.UserRole + 3

STATUS_GLYPHS = {
    DisplayStatus.IMPORTED: "○", DisplayStatus.DETECTED: "◐",
    DisplayStatus.NEEDS_REVIEW: "●", DisplayStatus.REVIEWED: "✓",
    DisplayStatus.EXPORTED: "⇪", DisplayStatus.FAILED: "⚠",
}

# The text was decoded with uncertainty (or holds replacement characters): a person should
# check it before trusting detection on it.
DECODING_MARK = "⚑"
DECODING_NOTE = "Text decoding was uncertain: check the text before relying on detection"


class DocumentListModel(QAbstractTableModel):
    COLUMNS = ("Document", "Status", "Candidates", "Accepted", "Rejected", "CIRE flags",
               "Patient", "Pages")
    TOOLTIPS = ("Source file name", "Where the document is in the workflow",
                "Spans waiting for a decision", "Spans that will be replaced",
                "Spans that stay as written", "Clinical-retention flags after replacement",
                "Patient group (pseudonymous)", "Pages (PDF and scans)")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._entries: list[DocumentEntry] = []

    # -- data in
    def set_entries(self, entries: Sequence[DocumentEntry]) -> None:
        """The whole list. When it only adds to the rows shown (the refresh after a drop),
        just the rows that changed or arrived are signalled: a reset makes the view drop
        its selection and re-measure every row, 20 to 40 ms of the event loop for 50."""
        new = list(entries)
        if self._entries and {e.id for e in self._entries} <= {e.id for e in new}:
            shown = {e.id: e for e in self._entries}
            self.update_entries([e for e in new if shown.get(e.id) != e])
            return
        self.beginResetModel()
        self._entries = new
        self.endResetModel()

    def update_entry(self, entry: DocumentEntry) -> None:
        self.update_entries([entry])

    def update_entries(self, entries: Sequence[DocumentEntry]) -> None:
        """Rows refreshed and rows added, each in one signal: a sorted view re-sorts and
        re-measures its columns per signal, so a drop of 50 notes signalled row by row
        kept the event loop from running for half a second."""
        rows = {e.id: row for row, e in enumerate(self._entries)}
        changed: list[int] = []
        added: dict[str, DocumentEntry] = {}
        for entry in entries:
            row = rows.get(entry.id)
            if row is None:
                added[entry.id] = entry
            else:
                self._entries[row] = entry
                changed.append(row)
        if changed:
            self.dataChanged.emit(self.index(min(changed), 0),
                                  self.index(max(changed), len(self.COLUMNS) - 1))
        if added:
            first = len(self._entries)
            self.beginInsertRows(QModelIndex(), first, first + len(added) - 1)
            self._entries.extend(added.values())
            self.endInsertRows()

    def entry(self, row: int) -> DocumentEntry:
        return self._entries[row]

    def entries(self) -> list[DocumentEntry]:
        return list(self._entries)

    def row_of(self, document_id: str) -> int:
        for row, e in enumerate(self._entries):
            if e.id == document_id:
                return row
        return -1

    # -- Qt interface
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._entries)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.COLUMNS):
            if role == Qt.ItemDataRole.DisplayRole:
                return self.COLUMNS[section]
            if role == Qt.ItemDataRole.ToolTipRole:
                return self.TOOLTIPS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._entries):
            return None
        e = self._entries[index.row()]
        col = index.column()
        if role == ID_ROLE:
            return e.id
        if role == STATUS_ROLE:
            return e.display_status
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(e, col)
        if role == SORT_ROLE:
            value = self._display(e, col)
            if col == 1:
                return DisplayStatus.ALL.index(e.display_status)
            return value.casefold() if isinstance(value, str) else value
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == 1 and e.record.reason:
                return f"Failed: {in_words(e.record.reason)}"
            if col == 1 and e.record.needs_review:
                return DECODING_NOTE
            return self.TOOLTIPS[col] if col else e.record.source_path
        if role == Qt.ItemDataRole.TextAlignmentRole and col >= 2 and col != 6:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    @staticmethod
    def _display(e: DocumentEntry, col: int) -> Any:
        if col == 0:
            return e.name
        if col == 1:
            mark = f" {DECODING_MARK}" if e.record.needs_review else ""
            # Exported is not finished while candidates are open: say what is left.
            left = (f", {e.candidates} undecided"
                    if e.display_status == DisplayStatus.EXPORTED and e.candidates else "")
            return f"{STATUS_GLYPHS.get(e.display_status, '')} {e.display_status}{left}{mark}"
        if col == 2:
            return e.candidates
        if col == 3:
            return e.accepted
        if col == 4:
            return e.rejected
        if col == 5:
            return e.flags
        if col == 6:
            return e.record.patient_id or ""
        return e.record.page_count


class DocumentFilterProxyModel(QSortFilterProxyModel):
    """Filters by a name substring and a status; sorts numerically where it should."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._status: str | None = None
        self.setSortRole(SORT_ROLE)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setFilterKeyColumn(0)

    def set_status_filter(self, status: str | None) -> None:
        if not hasattr(self, "endFilterChange"):  # Qt < 6.10
            self._status = status or None
            self.invalidateRowsFilter()
            return
        self.beginFilterChange()  # Qt 6.10 deprecates invalidateRowsFilter for this pair
        self._status = status or None
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        model = self.sourceModel()
        index = model.index(source_row, 0, source_parent)
        if self._status and model.data(index, STATUS_ROLE) != self._status:
            return False
        return super().filterAcceptsRow(source_row, source_parent)
