"""A drop that holds tables: each dropped table's inferred roles are shown for
confirmation (``TableRolesDialog``) before anything runs, one dialog after another; then
the drop is imported as one, each confirmed table with its roles. A cancelled table is
not imported; a table that cannot be read is named with its problem and not imported.
Tables inside a dropped folder get the dialog too (the folder is walked on a worker; one
that holds tables is imported as its other files plus the confirmed tables). Other
dropped files and folders are imported as before."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDialog, QWidget

import engine.api as api
from desktop.views.table_roles_dialog import TableRolesDialog

if TYPE_CHECKING:
    from desktop.controllers.project_controller import ProjectController
    from desktop.controllers.table_import import DroppedTable, DropPreview
    from engine.api import TableSchema


class TableDropFlow(QObject):
    message = Signal(str)  # a short note for the status bar: file names and problems only

    def __init__(self, window: QWidget, controller: ProjectController) -> None:
        super().__init__(window)
        self.window, self.controller = window, controller
        self.dialog: TableRolesDialog | None = None  # the one being confirmed
        self._pending: list[DroppedTable] = []
        self._others: list[Path] = []
        self._accepted: dict[Path, TableSchema] = {}
        self._skipped: list[str] = []
        self._password: str | None = None
        self._waiting = False
        controller.tablesPreviewed.connect(self._previewed)

    @property
    def busy(self) -> bool:
        return self._waiting or self.dialog is not None

    def start(self, paths: list[Path], *, password: str | None = None) -> None:
        if not any(p.is_dir() or (api.is_table_path(p) and p.is_file()) for p in paths):
            self.controller.import_paths(paths, password=password)
            return
        if self.busy:
            self.message.emit("Confirm the roles of the table already dropped first.")
            return
        self._others = list(paths)
        self._accepted, self._skipped, self._password = {}, [], password
        self._waiting = True
        # On a worker: folders are walked for tables, and tables may be large.
        self.controller.preview_tables(paths)

    def _previewed(self, found: DropPreview) -> None:
        self._waiting = False
        self._others = list(found.others)  # a folder with tables: its other files
        self._pending = list(found.tables)
        self._next()

    def _next(self) -> None:
        while self._pending:
            item = self._pending.pop(0)
            if item.preview is None:
                self._skipped.append(f"{item.path.name}: {item.problem}")
                continue
            dialog = TableRolesDialog(item.path.name, item.preview, self.window,
                                      sheets=item.sheets)
            dialog.finished.connect(lambda result, d=dialog, p=item.path:
                                    self._decided(p, d, result))
            self.dialog = dialog
            dialog.open()
            return
        self.dialog = None
        self._finish()

    def _decided(self, path: Path, dialog: TableRolesDialog, result: int) -> None:
        if result == QDialog.DialogCode.Accepted:
            self._accepted[path] = dialog.schema()
        else:
            self._skipped.append(f"{path.name}: cancelled, not imported")
        dialog.deleteLater()
        self._next()

    def _finish(self) -> None:
        if self._skipped:
            self.message.emit("; ".join(self._skipped))
        paths = self._others + list(self._accepted)
        if paths:
            self.controller.import_paths(paths, password=self._password,
                                         table_schemas=dict(self._accepted))
