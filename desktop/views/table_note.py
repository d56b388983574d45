"""The review panel beside a table's grid: the selected row's note (free-text cell) with its
spans highlighted in their label's colour (a rejected one underlined in grey: written as it
is), the list of those spans, and Accept / Reject for the selected span or the selected
identifier cell. Decisions go out as ``statusRequested`` (span id, SpanStatus), the same
path as a document's (undoable, audited by id)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from desktop.theme import label_colour
from engine.core.domain import Span, SpanStatus

SpanIdItemRole = Qt.ItemDataRole.UserRole + 1


class TableNotePanel(QWidget):
    statusRequested = Signal(str, object)  # span id, SpanStatus

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel("Select a row to review its note.", self)
        self.title.setWordWrap(True)
        self.note = QPlainTextEdit(self)
        self.note.setReadOnly(True)
        self.note.setAccessibleName("Note of the selected row")
        self.list = QListWidget(self)
        self.list.setAccessibleName("Spans of the note")
        self.list.currentItemChanged.connect(self._span_selected)
        self.target = QLabel("", self)
        self.target.setWordWrap(True)
        self.accept_button = QPushButton("&Accept", self)
        self.reject_button = QPushButton("&Reject", self)
        self.accept_button.setToolTip("Replace it in the export (the selected span or "
                                      "identifier cell)")
        self.reject_button.setToolTip("Not an identifier: written as it is in the export")
        self.accept_button.clicked.connect(lambda: self.decide(SpanStatus.ACCEPTED))
        self.reject_button.clicked.connect(lambda: self.decide(SpanStatus.REJECTED))
        buttons = QHBoxLayout()
        buttons.addWidget(self.accept_button)
        buttons.addWidget(self.reject_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.note, 3)
        layout.addWidget(self.list, 2)
        layout.addWidget(self.target)
        layout.addLayout(buttons)
        self._offset = 0
        self._spans: list[Span] = []
        self._cell_span: Span | None = None
        self._update_target()

    # ------------------------------------------------------------------ content

    def show_row(self, title: str, text: str, offset: int, spans: list[Span],
                 cell_span: Span | None = None) -> None:
        """The row's note (``text``, which starts at ``offset`` in the review text) with
        its ``spans``; ``cell_span``: the selected identifier cell's span, if any."""
        self.title.setText(title)
        self._offset, self._cell_span = offset, cell_span
        self._spans = [sp for sp in spans if sp.status is not SpanStatus.SUPERSEDED]
        if self.note.toPlainText() != text:
            self.note.setPlainText(text)
        self.list.blockSignals(True)
        self.list.clear()
        for span in self._spans:
            piece = text[span.start - offset:span.end - offset]
            item = QListWidgetItem(f"{span.label.value} · {span.status.value.lower()} · "
                                   f"{piece}")
            item.setData(SpanIdItemRole, span.id)
            item.setForeground(QColor("#888888") if span.status is SpanStatus.REJECTED
                               else label_colour(span.label).darker(140))
            self.list.addItem(item)
        self.list.blockSignals(False)
        self._highlight()
        self._update_target()

    def clear(self) -> None:
        self.show_row("Select a row to review its note.", "", 0, [])

    def apply_span(self, span: Span) -> None:
        changed = False
        if self._cell_span is not None and self._cell_span.id == span.id:
            self._cell_span, changed = span, True
        for i, known in enumerate(self._spans):
            if known.id == span.id:
                self._spans[i], changed = span, True
        if changed:
            current = self.selected_span()
            self.show_row(self.title.text(), self.note.toPlainText(), self._offset,
                          self._spans, self._cell_span)
            if current is not None:
                self.select_span(current.id)

    # ------------------------------------------------------------------ selection

    def selected_span(self) -> Span | None:
        """The span Accept/Reject act on: the one selected in the list, else the
        selected identifier cell's."""
        item = self.list.currentItem()
        if item is not None and item.isSelected():
            wanted = item.data(SpanIdItemRole)
            return next((sp for sp in self._spans if sp.id == wanted), None)
        return self._cell_span

    def select_span(self, span_id: str) -> None:
        for row in range(self.list.count()):
            if self.list.item(row).data(SpanIdItemRole) == span_id:
                self.list.setCurrentRow(row)
                return

    def _span_selected(self, *_: object) -> None:
        span = self.selected_span()
        if span is not None and span in self._spans:
            cursor = self.note.textCursor()
            cursor.setPosition(span.start - self._offset)
            cursor.setPosition(span.end - self._offset, QTextCursor.MoveMode.KeepAnchor)
            self.note.setTextCursor(cursor)
        self._update_target()

    def _update_target(self) -> None:
        span = self.selected_span()
        if span is None:
            self.target.setText("Select a span of the note, or an identifier cell.")
        else:
            where = "identifier cell" if span is self._cell_span else "span"
            self.target.setText(f"Selected {where}: {span.label.value}, "
                                f"{span.status.value.lower()}")
        self.accept_button.setEnabled(span is not None)
        self.reject_button.setEnabled(span is not None)

    def decide(self, status: SpanStatus) -> bool:
        """Accept or reject the selected span or identifier cell (A / R); False: none."""
        span = self.selected_span()
        if span is not None:
            self.statusRequested.emit(span.id, status)
        return span is not None

    def _highlight(self) -> None:
        selections = []
        for span in self._spans:
            extra = QTextEdit.ExtraSelection()
            fmt = QTextCharFormat()
            if span.status is SpanStatus.REJECTED:
                fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DashUnderline)
                fmt.setUnderlineColor(QColor("#888888"))
            else:
                fmt.setBackground(label_colour(span.label).lighter(150))
            extra.format = fmt
            cursor = QTextCursor(self.note.document())
            cursor.setPosition(span.start - self._offset)
            cursor.setPosition(span.end - self._offset, QTextCursor.MoveMode.KeepAnchor)
            extra.cursor = cursor
            selections.append(extra)
        self.note.setExtraSelections(selections)
