"""Tables in the desktop (issue 28): dropping a CSV shows the inferred column roles for
confirmation before anything runs (OK imports with the edited roles, stored so export
uses them; Cancel imports nothing), and a table document opens as a read-only grid of its
first rows with identifier columns filled in their role's colour."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

import engine.api as api
from desktop.models.table_rows import ColumnRole, TableRowsModel
from desktop.records import TableData
from desktop.settings import UserSettings
from desktop.views.table_roles_dialog import TableRolesDialog
from desktop.views.table_view import TableDocumentView
from tests.engine.tables.extract import HEADER, write_extract

from .conftest import drop_files
from .helpers import TIMEOUT_MS, open_window

LAB = HEADER.index("hba1c")  # a clinical column: inferred keep


def _extract(tmp_path: Path, patients: int = 4, visits: int = 2) -> Path:
    src = tmp_path / "extract.csv"
    write_extract(src, n_patients=patients, visits=visits)
    return src


def test_the_table_rows_model_marks_identifier_columns(
        qtmodeltester: ModelTester, tmp_path: Path) -> None:
    model = TableRowsModel()
    model.set_preview(api.preview_table(_extract(tmp_path), rows=5))
    qtmodeltester.check(model)
    assert (model.rowCount(), model.columnCount()) == (5, len(HEADER))
    mrn, name, lab = (model.index(0, HEADER.index(c)) for c in ("mrn", "patient_name", "hba1c"))
    assert mrn.data(ColumnRole) == "patient-key" and name.data(ColumnRole) == "name"
    assert mrn.data(Qt.ItemDataRole.BackgroundRole) is not None
    assert name.data(Qt.ItemDataRole.BackgroundRole) is not None
    assert lab.data(ColumnRole) == "keep" and lab.data(Qt.ItemDataRole.BackgroundRole) is None
    assert "patient-key" in model.headerData(0, Qt.Orientation.Horizontal)
    model.set_preview(None)
    qtmodeltester.check(model)


def test_the_role_dialog_gives_the_edited_roles(qtbot: QtBot, tmp_path: Path) -> None:
    preview = api.preview_table(_extract(tmp_path), rows=20)
    dialog = TableRolesDialog("extract.csv", preview)
    qtbot.addWidget(dialog)
    assert dialog.grid.rowCount() == len(HEADER)
    assert dialog.roles() == [r.value for r in preview.schema.roles]
    assert dialog.role_boxes[0].count() == len(api.TABLE_ROLES)
    assert dialog.grid.item(0, 2).text().count(" · ") == 2  # three sample values
    dialog.set_role(LAB, "drop")
    assert dialog.schema().roles[LAB].value == "drop"
    assert dialog.schema().columns == tuple(HEADER)


def test_dropping_a_table_imports_it_with_the_confirmed_roles(
        qtbot: QtBot, tmp_path: Path, user_settings: UserSettings) -> None:
    window = open_window(qtbot, tmp_path, user_settings)
    src = _extract(tmp_path)
    drop_files(window, [src])
    assert window.controller.project.documents() == []  # nothing runs before OK
    qtbot.waitUntil(lambda: window.table_drop.dialog is not None, timeout=TIMEOUT_MS)
    dialog = window.table_drop.dialog
    assert dialog is not None and dialog.isVisible()
    dialog.set_role(LAB, "drop")
    confirmed = dialog.schema()
    with qtbot.waitSignal(window.controller.dropFinished, timeout=TIMEOUT_MS):
        dialog.accept()
    [doc] = window.controller.project.documents()
    stored = api.preview_project_table(window.controller.project, doc.id).schema
    assert stored.roles[LAB].value == "drop" and stored == confirmed

    # Opened in the review area: the grid of its rows, identifier columns marked.
    view = window.review.table_view
    window.controller.load_document(doc.id)
    qtbot.waitUntil(lambda: window.review.body.currentWidget() is view, timeout=TIMEOUT_MS)
    assert view.model.rowCount() == 8 and view.model.columnCount() == len(HEADER)
    assert view.model.is_identifier(HEADER.index("mrn"))
    assert view.model.is_identifier(HEADER.index("dob"))
    assert not view.model.is_identifier(LAB)
    assert "all 8 rows" in view.caption.text()
    assert not window.review.side.isVisible()  # no spans of its own: the grid gets the width

    # Exported from the desktop with the confirmed roles: the lab column emptied.
    out = tmp_path / "out"
    with qtbot.waitSignal(window.controller.exportFinished, timeout=TIMEOUT_MS) as done:
        window.controller.export(None, out, ["txt"])
    assert [e.document_id for e in done.args[0].exported] == [doc.id]
    [table] = out.glob("*.deid.csv")
    with table.open(encoding="utf-8", newline="") as handle:
        assert {row["hba1c"] for row in csv.DictReader(handle)} == {""}


def test_cancelling_the_role_dialog_imports_nothing(
        qtbot: QtBot, tmp_path: Path, user_settings: UserSettings) -> None:
    window = open_window(qtbot, tmp_path, user_settings)
    started: list[object] = []
    window.controller.importStarted.connect(started.append)
    drop_files(window, [_extract(tmp_path)])
    qtbot.waitUntil(lambda: window.table_drop.dialog is not None, timeout=TIMEOUT_MS)
    window.table_drop.dialog.reject()
    qtbot.waitUntil(lambda: "cancelled, not imported" in window.statusBar().currentMessage(),
                    timeout=TIMEOUT_MS)
    assert window.table_drop.dialog is None and not window.table_drop.busy
    assert started == [] and window.controller.project.documents() == []


def test_a_table_that_cannot_be_shown_says_why(qtbot: QtBot) -> None:
    view = TableDocumentView()
    qtbot.addWidget(view)
    view.show_table(TableData(None, "the table changed since it was imported"))
    assert view.model.rowCount() == 0
    assert "changed since it was imported" in view.caption.text()


def test_a_table_too_large_for_cell_review_says_so_in_its_view(
        qtbot: QtBot, tmp_path: Path, user_settings: UserSettings,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Detection refuses cell review past the bound (nothing stored); the grid still shows the
    # rows and its caption says how such a table is exported.
    from engine.project import table_review

    monkeypatch.setattr(table_review, "MAX_REVIEW_ROWS", 3)
    window = open_window(qtbot, tmp_path, user_settings)
    drop_files(window, [_extract(tmp_path)])
    qtbot.waitUntil(lambda: window.table_drop.dialog is not None, timeout=TIMEOUT_MS)
    dialog = window.table_drop.dialog
    assert dialog is not None
    with qtbot.waitSignal(window.controller.dropFinished, timeout=TIMEOUT_MS):
        dialog.accept()
    [doc] = window.controller.project.documents()
    assert not window.controller.project.tables.is_detected(doc.id)
    view = window.review.table_view
    window.controller.load_document(doc.id)
    qtbot.waitUntil(lambda: window.review.body.currentWidget() is view, timeout=TIMEOUT_MS)
    assert view.model.rowCount() == 8
    assert "exported by its column roles without cell review" in view.caption.text()
