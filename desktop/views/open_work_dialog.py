"""Asked before an export writes documents that are still open: undecided candidates (an
export replaces them as if accepted) or HIGH CIRE flags. Per document the counts; the
choices: export the settled documents only, export anyway (audited), or cancel."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

SETTLED, ANYWAY = "settled", "anyway"


class OpenWorkDialog(QDialog):
    chosen = Signal(str)  # SETTLED or ANYWAY (nothing on cancel)

    def __init__(self, parent: QWidget | None, plan: Any, names: Mapping[str, str]) -> None:
        super().__init__(parent)
        self.setWindowTitle("Some documents are not finished")
        self.plan = plan
        undecided = sum(w.undecided for w in plan.open)
        high = sum(w.cire_high for w in plan.open)
        total, settled = len(plan.document_ids), len(plan.settled)
        text = QLabel(
            f"{len(plan.open)} of {total} document(s) to export are still open: "
            f"{undecided} undecided candidate(s) (an export replaces them as if accepted) "
            f"and {high} HIGH CIRE flag(s) (clinical text the replacement may change).",
            self)
        text.setWordWrap(True)
        self.table = QTableWidget(len(plan.open), 3, self)
        self.table.setHorizontalHeaderLabels(["Document", "Undecided", "HIGH CIRE flags"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, work in enumerate(plan.open):
            cells = (names.get(work.document_id, work.document_id), work.undecided,
                     work.cire_high)
            for col, value in enumerate(cells):
                item = QTableWidgetItem(str(value))
                if col:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, col, item)
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setStretchLastSection(True)
        buttons = QDialogButtonBox(self)
        self.settled_button = buttons.addButton(
            f"Export the {settled} finished only", QDialogButtonBox.ButtonRole.AcceptRole)
        self.settled_button.setEnabled(settled > 0)
        self.settled_button.setToolTip("Leave the open documents for later")
        self.anyway_button = buttons.addButton(f"Export all {total} anyway",
                                               QDialogButtonBox.ButtonRole.DestructiveRole)
        self.anyway_button.setToolTip("Your choice and these counts go into the audit log")
        self.cancel_button = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.settled_button.clicked.connect(lambda: self._choose(SETTLED))
        self.anyway_button.clicked.connect(lambda: self._choose(ANYWAY))
        self.cancel_button.clicked.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        self.resize(560, 320)

    def _choose(self, choice: str) -> None:
        self.accept()
        self.chosen.emit(choice)
