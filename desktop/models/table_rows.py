"""TableRowsModel: the first rows of a table document, read-only, one Qt column per table
column. Identifier columns are filled with the colour of the label their role stands for
(a name column in the PATIENT colour, an MRN in the ID colour), so a reviewer sees at a
glance what the export replaces; the header says each column's role in words as well.

A table detected for review has a span on each identifier cell: the cell is filled while
it is live (undecided or accepted), and plain with its text struck out of the colour when
a person rejected it (the export writes it as it is); ``SpanIdRole`` gives the cell's span
id, ``CellStatusRole`` its status. A note cell with live spans says how many."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from desktop.theme import label_colour, text_on
from engine.core.domain import ACTIVE_STATUSES, Span, SpanStatus
from engine.core.labels import Label

if TYPE_CHECKING:  # the tables stack is imported when a table is first shown
    from engine.api import TablePreview

# role (engine.api.TABLE_ROLES values) -> the label whose colour marks its cells
ROLE_LABELS: dict[str, Label] = {
    "patient-key": Label.ID, "identifier": Label.ID, "name": Label.PATIENT,
    "date": Label.DATE, "date-of-birth": Label.DATE, "age": Label.AGE,
    "zip": Label.LOCATION, "address": Label.LOCATION, "phone": Label.PHONE,
    "email": Label.WEB,
}

ColumnRole = Qt.ItemDataRole.UserRole + 1  # the column's role, "name", "keep", ...
SpanIdRole = Qt.ItemDataRole.UserRole + 2  # an identifier cell's span id ("" for none)
CellStatusRole = Qt.ItemDataRole.UserRole + 3  # that span's status ("CANDIDATE", ...)

_Index = QModelIndex | QPersistentModelIndex


class TableRowsModel(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._columns: tuple[str, ...] = ()
        self._roles: tuple[str, ...] = ()
        self._rows: tuple[tuple[str, ...], ...] = ()
        self._cells: dict[tuple[int, int], tuple[int, int]] = {}
        self._spans: dict[str, Span] = {}
        self._by_cell: dict[tuple[int, int], list[str]] = {}

    def set_preview(self, preview: TablePreview | None,
                    cells: dict[tuple[int, int], tuple[int, int]] | None = None,
                    spans: Iterable[Span] = ()) -> None:
        self.beginResetModel()
        if preview is None:
            self._columns, self._roles, self._rows = (), (), ()
        else:
            schema = preview.sheet_schema
            self._columns = schema.columns
            self._roles = tuple(r.value for r in schema.roles)
            self._rows = preview.rows
        self._cells = dict(cells or {})
        self._spans = {sp.id: sp for sp in spans}
        starts = sorted((a, b, key) for key, (a, b) in self._cells.items())
        self._by_cell = {key: [] for key in self._cells}
        for sp in sorted(self._spans.values(), key=lambda sp: (sp.start, sp.end)):
            at = bisect_right(starts, (sp.start, float("inf"), (0, 0))) - 1
            if at >= 0 and sp.end <= starts[at][1]:
                self._by_cell[starts[at][2]].append(sp.id)
        self.endResetModel()

    def cell_range(self, row: int, column: int) -> tuple[int, int] | None:
        """The cell's range in the table's review text (None: not a reviewable cell)."""
        return self._cells.get((row, column))

    def spans_in(self, row: int, column: int) -> list[Span]:
        """The spans inside the cell, in text order."""
        return [self._spans[i] for i in self._by_cell.get((row, column), ())]

    def cell_span(self, row: int, column: int) -> Span | None:
        """An identifier cell's own span (over its whole value)."""
        where = self._cells.get((row, column))
        if where is None or not self.is_identifier(column):
            return None
        whole = [sp for sp in self.spans_in(row, column) if (sp.start, sp.end) == where]
        return whole[0] if whole else None

    def apply_span(self, span: Span) -> None:
        """A span's status changed: repaint the cell that holds it."""
        if span.id not in self._spans:
            return  # not in the rows shown
        self._spans[span.id] = span
        for (row, column), ids in self._by_cell.items():
            if span.id in ids:
                index = self.index(row, column)
                self.dataChanged.emit(index, index)

    def role_of(self, column: int) -> str:
        return self._roles[column]

    def is_identifier(self, column: int) -> bool:
        return self._roles[column] in ROLE_LABELS

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008,N802
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008,N802
        return 0 if parent.isValid() else len(self._columns)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._rows) \
                or index.column() >= len(self._columns):
            return None
        column = index.column()
        column_role = self._roles[column]
        label = ROLE_LABELS.get(column_role)
        span = self.cell_span(index.row(), column)
        rejected = span is not None and span.status is SpanStatus.REJECTED
        if role == Qt.ItemDataRole.DisplayRole:
            row = self._rows[index.row()]
            return row[column] if column < len(row) else ""
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tip(index.row(), column, span)
        if role == ColumnRole:
            return column_role
        if role == SpanIdRole:
            return span.id if span is not None else ""
        if role == CellStatusRole:
            return span.status.value if span is not None else ""
        if role == Qt.ItemDataRole.BackgroundRole and label is not None and not rejected:
            return QBrush(label_colour(label).lighter(150))
        if role == Qt.ItemDataRole.FontRole and rejected:
            font = QFont()
            font.setStrikeOut(True)
            return font
        if role == Qt.ItemDataRole.ForegroundRole:
            if label is not None and not rejected:
                return QBrush(text_on(label_colour(label).lighter(150)))
            if column_role == "drop" or rejected:
                return QBrush(QColor("#888888"))
        return None

    def _tip(self, row: int, column: int, span: Span | None) -> str:
        value = self._rows[row][column] if column < len(self._rows[row]) else ""
        if span is not None:
            return (f"{value}\n{span.label.value}: "
                    + ("rejected, written as it is" if span.status is SpanStatus.REJECTED
                       else "replaced in the export"))
        live = [sp for sp in self.spans_in(row, column) if sp.status in ACTIVE_STATUSES]
        if self._roles[column] == "free-text" and (row, column) in self._cells:
            return f"{value}\n{len(live)} span(s) replaced in the export"
        return value

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Vertical:
            if role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(self._rows):
                return str(section + 1)
            return None
        if not 0 <= section < len(self._columns):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{self._columns[section]}\n{self._roles[section]}"
        if role == ColumnRole:
            return self._roles[section]
        if role == Qt.ItemDataRole.FontRole and self._roles[section] in ROLE_LABELS:
            font = QFont()
            font.setBold(True)
            return font
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
