"""The read-only view of a table document in the review area: its first rows × columns,
identifier columns filled with their role's colour (``TableRowsModel``), and a line that
says what is shown. A table has no text of its own: its roles decide its export."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QAbstractItemView, QLabel, QTableView, QVBoxLayout, QWidget

from desktop.models.table_rows import TableRowsModel

if TYPE_CHECKING:
    from desktop.records import TableData


class TableDocumentView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.caption = QLabel("", self)
        self.caption.setWordWrap(True)
        self.caption.setAccessibleName("Table summary")
        self.model = TableRowsModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.setAlternatingRowColors(False)  # the role colours carry the meaning
        self.table.setWordWrap(False)
        self.table.setAccessibleName("Table rows")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.caption)
        layout.addWidget(self.table, 1)

    def show_table(self, data: TableData) -> None:
        self.model.set_preview(data.preview)
        if data.preview is None:
            self.caption.setText(f"The rows cannot be shown: {data.problem}")
            return
        preview = data.preview
        marked = sum(self.model.is_identifier(c) for c in range(self.model.columnCount()))
        shown = (f"the first {len(preview.rows)} rows" if preview.more
                 else f"all {len(preview.rows)} rows")
        self.caption.setText(
            f"Table (read-only): {shown} × {len(preview.schema.columns)} columns; "
            f"{marked} identifier column{'s' if marked != 1 else ''} filled in their "
            "role's colour. Its roles decide its export; the rows are read again from "
            "the source file then.")
        self.table.resizeColumnsToContents()
        for column in range(self.model.columnCount()):  # long notes: keep the grid legible
            self.table.setColumnWidth(column, min(self.table.columnWidth(column), 320))
