"""The column roles of a dropped table, for a person to confirm before anything runs: one
row per column with its header, the inferred role in a combo box of the engine's roles
(each explained in its tooltip) and a few sample values. OK gives the edited roles as a
schema (``schema()``), stored with the table when it is imported; Cancel imports nothing.
A workbook shows a tab per sheet, each with its own columns and roles."""

from __future__ import annotations

from collections.abc import Sequence
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
    QTabWidget,
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
    """``sheets``: a workbook's sheets (each sheet's preview); each gets a tab with its own
    columns and roles."""

    def __init__(self, file_name: str, preview: TablePreview,
                 parent: QWidget | None = None, *,
                 sheets: Sequence[TablePreview] = ()) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Column roles: {file_name}")
        self.preview = preview
        self.previews = tuple(sheets) if len(sheets) > 1 else (preview,)
        schema = preview.sheet_schema
        what = (f"a workbook of {len(self.previews)} sheets (one tab each)"
                if len(self.previews) > 1 else f"a table of {len(schema.columns)} columns")
        intro = QLabel(
            f"<b>{file_name}</b> is {what}. ClearNote "
            "inferred what each column holds; its role decides what the export does with "
            "it. Check the roles, change any that are wrong, then Import. Nothing is "
            "imported if you cancel.", self)
        intro.setWordWrap(True)
        self.grids: list[QTableWidget] = []
        self.sheet_boxes: list[list[QComboBox]] = []
        for sheet in self.previews:
            grid, boxes = self._roles_grid(sheet)
            self.grids.append(grid)
            self.sheet_boxes.append(boxes)
        self.grid, self.role_boxes = self.grids[0], self.sheet_boxes[0]
        self.tabs = QTabWidget(self)
        self.tabs.setAccessibleName("Sheets")
        for sheet, grid in zip(self.previews, self.grids, strict=True):
            self.tabs.addTab(grid, sheet.sheets[sheet.sheet - 1] if sheet.sheets else "")
        self.tabs.tabBar().setVisible(len(self.previews) > 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Import with these roles")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(buttons)
        widest = max(len(p.sheet_schema.columns) for p in self.previews)
        self.resize(820, min(640, 190 + 34 * widest))

    def _roles_grid(self, preview: TablePreview) -> tuple[QTableWidget, list[QComboBox]]:
        schema = preview.sheet_schema
        grid = QTableWidget(len(schema.columns), 3, self)
        grid.setHorizontalHeaderLabels(["Column", "Role", "Sample values"])
        grid.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        grid.setAccessibleName("Column roles")
        boxes: list[QComboBox] = []
        for row, (column, role) in enumerate(zip(schema.columns, schema.roles, strict=True)):
            grid.setItem(row, 0, QTableWidgetItem(column))
            box = QComboBox(grid)
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
            grid.setCellWidget(row, 1, box)
            boxes.append(box)
            samples = " · ".join(preview.samples(row, SAMPLES)) or "(empty in the first rows)"
            item = QTableWidgetItem(samples)
            item.setToolTip(samples)
            grid.setItem(row, 2, item)
        header = grid.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        grid.verticalHeader().setVisible(False)
        return grid, boxes

    def set_role(self, column: int, role: str, *, sheet: int = 1) -> None:
        boxes = self.sheet_boxes[sheet - 1]
        boxes[column].setCurrentIndex(boxes[column].findData(role))

    def roles(self, sheet: int = 1) -> list[str]:
        return [box.currentData() for box in self.sheet_boxes[sheet - 1]]

    def schema(self) -> TableSchema:
        """The roles as edited, for the table's columns (a workbook: each sheet's)."""
        schemas = [api.schema_with_roles(p.sheet_schema.columns, self.roles(n))
                   for n, p in enumerate(self.previews, 1)]
        if len(schemas) == 1:
            return schemas[0]
        return api.TableSchema.of_sheets(
            [(p.sheets[p.sheet - 1], schema) for p, schema in zip(self.previews, schemas,
                                                                  strict=True)])
