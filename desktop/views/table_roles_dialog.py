"""The column roles of a dropped table, for a person to confirm before anything runs: one
row per column with its header, the inferred role in a combo box of the engine's roles
(each explained in its tooltip) and a few sample values. OK gives the edited roles as a
schema (``schema()``), stored with the table when it is imported; Cancel imports nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

import engine.api as api
from desktop.models.table_rows import ROLE_LABELS
from desktop.theme import label_icon

if TYPE_CHECKING:
    from engine.api import TablePreview, TableSchema

SAMPLES = 3  # sample values shown per column


class TableRolesDialog(QDialog):
    def __init__(self, file_name: str, preview: TablePreview,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Column roles: {file_name}")
        self.preview = preview
        schema = preview.schema
        intro = QLabel(
            f"<b>{file_name}</b> is a table of {len(schema.columns)} columns. ClearNote "
            "inferred what each column holds; its role decides what the export does with "
            "it. Check the roles, change any that are wrong, then Import. Nothing is "
            "imported if you cancel.", self)
        intro.setWordWrap(True)
        self.grid = QTableWidget(len(schema.columns), 3, self)
        self.grid.setHorizontalHeaderLabels(["Column", "Role", "Sample values"])
        self.grid.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.grid.setAccessibleName("Column roles")
        self.role_boxes: list[QComboBox] = []
        for row, (column, role) in enumerate(zip(schema.columns, schema.roles, strict=True)):
            self.grid.setItem(row, 0, QTableWidgetItem(column))
            box = QComboBox(self.grid)
            for choice in api.TABLE_ROLES:
                label = ROLE_LABELS.get(choice.value)
                if label is not None:
                    box.addItem(label_icon(label), choice.value, choice.value)
                else:
                    box.addItem(choice.value, choice.value)
                box.setItemData(box.count() - 1, api.role_help(choice),
                                Qt.ItemDataRole.ToolTipRole)
            box.setCurrentIndex(box.findData(role.value))
            box.setAccessibleName(f"Role of column {row + 1}")
            box.currentIndexChanged.connect(lambda _i, b=box: b.setToolTip(
                api.role_help(b.currentData())))
            box.setToolTip(api.role_help(role))
            self.grid.setCellWidget(row, 1, box)
            self.role_boxes.append(box)
            samples = " · ".join(preview.samples(row, SAMPLES)) or "(empty in the first rows)"
            item = QTableWidgetItem(samples)
            item.setToolTip(samples)
            self.grid.setItem(row, 2, item)
        header = self.grid.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.grid.verticalHeader().setVisible(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Import with these roles")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.grid, 1)
        layout.addWidget(buttons)
        self.resize(820, min(640, 160 + 34 * len(schema.columns)))

    def set_role(self, column: int, role: str) -> None:
        self.role_boxes[column].setCurrentIndex(self.role_boxes[column].findData(role))

    def roles(self) -> list[str]:
        return [box.currentData() for box in self.role_boxes]

    def schema(self) -> TableSchema:
        """The roles as edited, for the table's columns."""
        return api.schema_with_roles(self.preview.schema.columns, self.roles())
