"""TableRowsModel: the first rows of a table document, read-only, one Qt column per table
column. Identifier columns are filled with the colour of the label their role stands for
(a name column in the PATIENT colour, an MRN in the ID colour), so a reviewer sees at a
glance what the export replaces; the header says each column's role in words as well."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from desktop.theme import label_colour, text_on
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

_Index = QModelIndex | QPersistentModelIndex


class TableRowsModel(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._columns: tuple[str, ...] = ()
        self._roles: tuple[str, ...] = ()
        self._rows: tuple[tuple[str, ...], ...] = ()

    def set_preview(self, preview: TablePreview | None) -> None:
        self.beginResetModel()
        if preview is None:
            self._columns, self._roles, self._rows = (), (), ()
        else:
            self._columns = preview.schema.columns
            self._roles = tuple(r.value for r in preview.schema.roles)
            self._rows = preview.rows
        self.endResetModel()

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
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            row = self._rows[index.row()]
            return row[column] if column < len(row) else ""
        if role == ColumnRole:
            return column_role
        if role == Qt.ItemDataRole.BackgroundRole and label is not None:
            return QBrush(label_colour(label).lighter(150))
        if role == Qt.ItemDataRole.ForegroundRole:
            if label is not None:
                return QBrush(text_on(label_colour(label).lighter(150)))
            if column_role == "drop":
                return QBrush(QColor("#888888"))
        return None

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
