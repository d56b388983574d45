"""The span table as the reviewer asks to see it: filtered by label, status, detector and
a lowest confidence, sorted by any column (by value: confidence as a number, status in
review order), superseded rows hidden unless asked for."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel

from desktop.models.span_table import SORT_ROLE, SpanTableModel
from engine.core.domain import Span, SpanStatus
from engine.core.labels import Label

Index = QModelIndex | QPersistentModelIndex
FILTERS = ("label", "status", "detector", "min_confidence", "show_superseded")


class SpanFilterProxyModel(QSortFilterProxyModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.label: Label | None = None
        self.status: SpanStatus | None = None
        self.detector: str | None = None
        self.min_confidence = 0.0
        self.show_superseded = False

    def source(self) -> SpanTableModel:
        model = self.sourceModel()
        assert isinstance(model, SpanTableModel)
        return model

    def set_filter(self, **changes: Any) -> None:
        """Change any of label, status, detector, min_confidence, show_superseded."""
        for key in changes:
            if key not in FILTERS:
                raise AttributeError(key)
        if not hasattr(self, "endFilterChange"):  # Qt < 6.10 (the project allows 6.7)
            for key, value in changes.items():
                setattr(self, key, value)
            self.invalidateRowsFilter()
            return
        self.beginFilterChange()
        for key, value in changes.items():
            setattr(self, key, value)
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:  # noqa: N802
        if source_parent.isValid():
            return False
        s = self.source().span_at(source_row)
        if s.status is SpanStatus.SUPERSEDED and not self.show_superseded \
                and self.status is not SpanStatus.SUPERSEDED:
            return False
        return ((self.label is None or s.label is self.label)
                and (self.status is None or s.status is self.status)
                and (self.detector is None or self.detector in s.detectors)
                and s.confidence >= self.min_confidence)

    def span_at(self, row: int) -> Span:
        return self.source().span_at(self.mapToSource(self.index(row, 0)).row())

    def row_of(self, span_id: str) -> int:
        row = self.source().row_of(span_id)
        if row < 0:
            return -1
        return self.mapFromSource(self.source().index(row, 0)).row()

    def spans(self) -> list[Span]:
        return [self.span_at(r) for r in range(self.rowCount())]
