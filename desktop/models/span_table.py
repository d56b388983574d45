"""The spans of the document under review, in text order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from desktop.theme import STATUS_GLYPHS, label_colour
from engine.core.domain import Span, SpanStatus

Index = QModelIndex | QPersistentModelIndex

SPAN_ID_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2  # a value that sorts as the column means
STATUS_ORDER = {SpanStatus.CANDIDATE: 0, SpanStatus.ACCEPTED: 1, SpanStatus.REJECTED: 2,
                SpanStatus.SUPERSEDED: 3}


class SpanTableModel(QAbstractTableModel):
    COLUMNS = ("Status", "Label", "Text", "Source", "Detector", "Confidence", "Start", "End")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._spans: list[Span] = []
        self._text = ""

    def set_spans(self, spans: Sequence[Span], text: str = "") -> None:
        self.beginResetModel()
        self._spans = sorted(spans, key=lambda s: (s.start, s.end, s.id))
        self._text = text
        self.endResetModel()

    def spans(self) -> list[Span]:
        return list(self._spans)

    def span_at(self, row: int) -> Span:
        return self._spans[row]

    def row_of(self, span_id: str) -> int:
        for row, s in enumerate(self._spans):
            if s.id == span_id:
                return row
        return -1

    def replace_span(self, span: Span) -> None:
        """Update one span in place (status change) or insert it in text order."""
        row = self.row_of(span.id)
        if row >= 0:
            self._spans[row] = span
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.COLUMNS) - 1))
            return
        key = (span.start, span.end, span.id)
        row = sum(1 for s in self._spans if (s.start, s.end, s.id) < key)
        self.beginInsertRows(QModelIndex(), row, row)
        self._spans.insert(row, span)
        self.endInsertRows()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._spans)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if (orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole
                and 0 <= section < len(self.COLUMNS)):
            return self.COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._spans):
            return None
        s = self._spans[index.row()]
        col = index.column()
        if role == SPAN_ID_ROLE:
            return s.id
        if role == SORT_ROLE:
            return _sort_key(s, col, self._text)
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return f"{STATUS_GLYPHS[s.status]} {s.status.value.lower()}"
            if col == 1:
                return s.label.value + (f"/{s.subtype}" if s.subtype
                                        and s.subtype != s.label.value else "")
            if col == 2:
                return self._text[s.start:s.end].replace("\n", " ")
            if col == 3:
                return s.source.value.lower()
            if col == 4:
                return s.detector
            if col == 5:
                return f"{s.confidence:.2f}"
            return s.start if col == 6 else s.end
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{s.label.value} · {s.status.value.lower()} · " \
                   f"{', '.join(s.detectors) or s.source.value.lower()}"
        if role == Qt.ItemDataRole.DecorationRole and col == 1:
            return label_colour(s.label)
        if role == Qt.ItemDataRole.ForegroundRole and s.status in (SpanStatus.REJECTED,
                                                                   SpanStatus.SUPERSEDED):
            return QBrush(QColor("#777777"))
        if role == Qt.ItemDataRole.FontRole and s.status is SpanStatus.REJECTED and col == 2:
            from PySide6.QtGui import QFont

            font = QFont()
            font.setStrikeOut(True)
            return font
        return None


def _sort_key(s: Span, col: int, text: str) -> Any:
    if col == 0:
        return STATUS_ORDER[s.status]
    if col == 1:
        return s.label.value
    if col == 2:
        return text[s.start:s.end].casefold()
    if col == 3:
        return s.source.value
    if col == 4:
        return s.detector
    if col == 5:
        return s.confidence
    return s.start if col == 6 else s.end
