"""The view of a table document in the review area: its first rows × columns
(``TableRowsModel``: identifier cells filled with their role's colour while they are
replaced, plain and struck out when a person rejected them), a tab per sheet of a workbook,
and beside the grid the selected row's note with its spans (``TableNotePanel``), where a
span of the note or the selected identifier cell is accepted or rejected. Decisions go out
as ``statusRequested``; another sheet is asked for with ``sheetRequested``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QSplitter,
    QTabBar,
    QTableView,
    QVBoxLayout,
    QWidget,
)

import engine.api as api
from desktop.models.table_rows import TableRowsModel
from desktop.views.table_note import TableNotePanel
from engine.core.domain import Span

if TYPE_CHECKING:
    from desktop.records import TableData


class TableDocumentView(QWidget):
    statusRequested = Signal(str, object)  # span id, SpanStatus
    sheetRequested = Signal(str, int)  # document id, sheet (1-based)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.caption = QLabel("", self)
        self.caption.setWordWrap(True)
        self.caption.setAccessibleName("Table summary")
        self.sheets = QTabBar(self)
        self.sheets.setAccessibleName("Sheets")
        self.sheets.setVisible(False)
        self.sheets.currentChanged.connect(self._sheet_changed)
        self.model = TableRowsModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(False)  # the role colours carry the meaning
        self.table.setWordWrap(False)
        self.table.setAccessibleName("Table rows")
        self.table.selectionModel().currentChanged.connect(self._cell_changed)
        self.note = TableNotePanel(self)
        self.note.statusRequested.connect(self.statusRequested)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(self.table)
        split.addWidget(self.note)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.caption)
        layout.addWidget(self.sheets)
        layout.addWidget(split, 1)
        self.data: TableData | None = None
        self._wanted = 1  # the sheet the reviewer chose

    def show_table(self, data: TableData) -> None:
        if self.data is not None and self.data.document_id == data.document_id \
                and data.preview is not None and data.preview.sheet != self._wanted:
            # The table reloaded (a decision undone): stay on the sheet being reviewed.
            self.sheetRequested.emit(data.document_id, self._wanted)
            return
        if data.preview is not None:
            self._wanted = data.preview.sheet
        same = self.data is not None and self.data.document_id == data.document_id \
            and data.preview is not None and self.data.preview is not None \
            and self.data.preview.sheet == data.preview.sheet
        keep = self.table.currentIndex() if same else QModelIndex()
        self.data = data
        preview = data.preview
        self.model.set_preview(preview, data.cells, data.spans)
        self.note.clear()
        self._show_sheets(data)
        if preview is None:
            self.caption.setText(f"The rows cannot be shown: {data.problem}")
            return
        schema = preview.sheet_schema
        marked = sum(self.model.is_identifier(c) for c in range(self.model.columnCount()))
        shown = (f"the first {len(preview.rows)} rows" if preview.more
                 else f"all {len(preview.rows)} rows")
        review = ("Select a row to see its note with its spans; accept or reject a span, "
                  "or a selected identifier cell (rejected: written as it is)."
                  if data.cells else
                  "Not detected for cell review: detect it to review its cells (a table of "
                  f"more than {api.MAX_REVIEW_ROWS:,} rows is exported by its column roles "
                  "without cell review).")
        self.caption.setText(
            f"Table: {shown} × {len(schema.columns)} columns; {marked} identifier "
            f"column{'s' if marked != 1 else ''} filled in their role's colour. {review}")
        self.table.resizeColumnsToContents()
        for column in range(self.model.columnCount()):  # long notes: keep the grid legible
            self.table.setColumnWidth(column, min(self.table.columnWidth(column), 320))
        if keep.isValid():
            self.table.setCurrentIndex(self.model.index(keep.row(), keep.column()))

    def apply_span(self, span: Span) -> None:
        """A decision was stored: repaint its cell and the note panel."""
        self.model.apply_span(span)
        self.note.apply_span(span)

    def _show_sheets(self, data: TableData) -> None:
        names = data.preview.sheets if data.preview is not None else ()
        self.sheets.blockSignals(True)
        while self.sheets.count():
            self.sheets.removeTab(0)
        for name in names:
            self.sheets.addTab(name)
        if data.preview is not None and names:
            self.sheets.setCurrentIndex(data.preview.sheet - 1)
        self.sheets.blockSignals(False)
        self.sheets.setVisible(len(names) > 1)

    def _sheet_changed(self, index: int) -> None:
        if self.data is not None and index >= 0:
            self._wanted = index + 1
            self.sheetRequested.emit(self.data.document_id, index + 1)

    def _cell_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid() or self.data is None or self.data.preview is None:
            self.note.clear()
            return
        row, column = current.row(), current.column()
        notes = [c for c in range(self.model.columnCount())
                 if self.model.role_of(c) == "free-text"
                 and self.model.cell_range(row, c) is not None]
        note = column if column in notes else (notes[0] if notes else None)
        cell_span = self.model.cell_span(row, column)
        name = self.data.preview.row_names[row] if row < len(self.data.preview.row_names) \
            else str(row + 1)
        if note is None:
            self.note.show_row(f"Row {name}: no note to review.", "", 0, [], cell_span)
            return
        start, _end = self.model.cell_range(row, note) or (0, 0)
        value = self.data.preview.rows[row][note]
        header = self.model.headerData(note, Qt.Orientation.Horizontal) or ""
        self.note.show_row(f"Row {name}, {str(header).splitlines()[0]}:", value, start,
                           self.model.spans_in(row, note), cell_span)
