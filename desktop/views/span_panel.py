"""The span table with its filter bar: label, status, detector, lowest confidence, and
whether superseded rows show. Click a header to sort. The table reads through a
``SpanFilterProxyModel``; ``model`` stays the plain ``SpanTableModel`` the view fills."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop.models.span_filter import SpanFilterProxyModel
from desktop.models.span_table import SpanTableModel
from desktop.theme import STATUS_GLYPHS
from engine.core.domain import Span, SpanStatus
from engine.core.labels import Label


class SpanPanel(QWidget):
    spanSelected = Signal(str)  # span id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = SpanTableModel(self)
        self.proxy = SpanFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.table = QTableView(self)
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # text order until asked
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        header.setToolTip("Click a column header to sort by it")
        self.table.setAccessibleName("Spans of this document")
        self.table.selectionModel().currentRowChanged.connect(self._on_current_row)

        self.label_filter = self._combo("Any label", "Show spans of this label only",
                                        [(lb.value, lb) for lb in Label])
        self.status_filter = self._combo("Any status", "Show spans in this review state only", [
            (f"{STATUS_GLYPHS[st]} {st.value.lower()}", st) for st in SpanStatus])
        self.detector_filter = self._combo("Any detector", "Show spans this detector proposed",
                                           [])
        self.min_confidence = QDoubleSpinBox(self)
        self.min_confidence.setRange(0.0, 1.0)
        self.min_confidence.setSingleStep(0.05)
        self.min_confidence.setDecimals(2)
        self.min_confidence.setPrefix("≥ ")
        self.min_confidence.setToolTip("Show spans with at least this confidence")
        self.min_confidence.setAccessibleName("Lowest confidence shown")
        self.min_confidence.valueChanged.connect(
            lambda v: self.proxy.set_filter(min_confidence=float(v)))
        self.superseded = QCheckBox("Superseded", self)
        self.superseded.setToolTip("Also list spans that lost an overlap")
        self.superseded.toggled.connect(lambda on: self.proxy.set_filter(show_superseded=on))
        self.shown = QLabel("", self)
        self.shown.setAccessibleName("Spans shown")
        for signal in (self.proxy.rowsInserted, self.proxy.rowsRemoved,
                       self.proxy.modelReset, self.proxy.layoutChanged):
            signal.connect(self._count)

        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        for widget in (QLabel("Show:", self), self.label_filter, self.status_filter,
                       self.detector_filter, self.min_confidence, self.superseded,
                       self.shown):
            bar.addWidget(widget)
        bar.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.table, 1)

    def _combo(self, any_text: str, tip: str, items: list[tuple[str, object]]) -> QComboBox:
        box = QComboBox(self)
        box.addItem(any_text, None)
        for text, data in items:
            box.addItem(text, data)
        box.setToolTip(tip)
        box.setAccessibleName(tip)
        box.currentIndexChanged.connect(self._filters_changed)
        return box

    def _filters_changed(self) -> None:
        # Combo data come back as plain strings: make them the vocabulary's types again.
        label, status = self.label_filter.currentData(), self.status_filter.currentData()
        self.proxy.set_filter(label=Label(label) if label else None,
                              status=SpanStatus(status) if status else None,
                              detector=self.detector_filter.currentData())

    def set_spans(self, spans: list[Span], text: str = "") -> None:
        self.model.set_spans(spans, text)
        detectors = sorted({d for s in spans for d in s.detectors if d})
        kept = self.detector_filter.currentData()
        self.detector_filter.blockSignals(True)
        self.detector_filter.clear()
        self.detector_filter.addItem("Any detector", None)
        for d in detectors:
            self.detector_filter.addItem(d, d)
        self.detector_filter.setCurrentIndex(max(0, self.detector_filter.findData(kept)))
        self.detector_filter.blockSignals(False)
        self._filters_changed()

    def _count(self) -> None:
        self.shown.setText(f"{self.proxy.rowCount()} of {self.model.rowCount()}")

    def _on_current_row(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.spanSelected.emit(self.proxy.span_at(current.row()).id)

    def select(self, span_id: str) -> None:
        """Make the span's row current, if the filters show it."""
        row = self.proxy.row_of(span_id)
        if row >= 0 and self.table.currentIndex().row() != row:
            self.table.selectionModel().setCurrentIndex(
                self.proxy.index(row, 0),
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows)
            self.table.scrollTo(self.proxy.index(row, 0))
