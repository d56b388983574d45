"""Reviewing a table's cells in the desktop (issue 28): the grid marks each identifier
cell by its span's status, the selected row's note shows its spans, and Accept / Reject
(buttons or A / R) on a note span or an identifier cell change what the export writes
(undoable); a workbook shows a tab per sheet in the roles dialog and in the grid; tables
inside a dropped folder get the roles dialog too."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

import engine.api as api
from desktop.models.table_rows import CellStatusRole, SpanIdRole, TableRowsModel
from desktop.settings import UserSettings
from desktop.views.main_window import MainWindow
from desktop.views.table_roles_dialog import TableRolesDialog
from engine.core.domain import SpanStatus
from engine.core.labels import Label
from tests.engine.tables.extract import HEADER, write_extract

from .conftest import drop_files
from .helpers import TIMEOUT_MS, open_window

NOTE, PHONE, LAB = HEADER.index("note"), HEADER.index("phone"), HEADER.index("hba1c")
PIPELINE = api.PipelineConfig(policy="hipaa", ner=False)
SECRET = b"desktop-table-review-0123456789ab"


def _detected_table(tmp_path: Path) -> tuple[Path, str]:
    src = tmp_path / "extract.csv"
    write_extract(src, n_patients=3, visits=1)
    path = tmp_path / "p.clearnote"
    with api.Project.create(path, policy="hipaa", pipeline=PIPELINE, secret=SECRET) as project:
        [doc_id] = project.import_paths([src]).imported
        project.detect()
    return path, doc_id


def test_the_rows_model_marks_each_identifier_cell_by_its_decision(
        qtmodeltester: ModelTester, tmp_path: Path) -> None:
    path, doc_id = _detected_table(tmp_path)
    with api.Project.open(path) as project:
        preview = api.preview_project_table(project, doc_id)
        cells = {(preview.row_names.index(c.row), c.column): (c.start, c.end)
                 for c in project.tables.cells(doc_id)}
        spans = project.spans(doc_id)
    model = TableRowsModel()
    model.set_preview(preview, cells, spans)
    qtmodeltester.check(model)
    phone = model.index(0, PHONE)
    span = model.cell_span(0, PHONE)
    assert span is not None and span.label is Label.PHONE
    assert phone.data(SpanIdRole) == span.id and phone.data(CellStatusRole) == "CANDIDATE"
    assert phone.data(Qt.ItemDataRole.BackgroundRole) is not None
    assert "replaced in the export" in phone.data(Qt.ItemDataRole.ToolTipRole)
    assert [s.label for s in model.spans_in(0, NOTE)].count(Label.DATE) == 1
    model.apply_span(span.with_status(SpanStatus.REJECTED))
    assert phone.data(Qt.ItemDataRole.BackgroundRole) is None  # written as it is
    assert phone.data(Qt.ItemDataRole.FontRole).strikeOut()
    assert model.index(0, LAB).data(SpanIdRole) == ""  # a kept column: nothing to decide
    qtmodeltester.check(model)


def _open_table(qtbot: QtBot, window: MainWindow, src: Path) -> str:
    c = window.controller
    with qtbot.waitSignal(c.dropFinished, timeout=TIMEOUT_MS):
        c.import_paths([src])  # imported and detected, cells stored
    [doc] = c.project.documents()
    assert doc.status.value == "detected"
    view = window.review.table_view
    c.load_document(doc.id)
    qtbot.waitUntil(lambda: window.review.body.currentWidget() is view
                    and bool(view.model.cell_range(0, NOTE)), timeout=TIMEOUT_MS)
    return doc.id


def _export(qtbot: QtBot, window: MainWindow, out: Path) -> list[list[str]]:
    with qtbot.waitSignal(window.controller.exportFinished, timeout=TIMEOUT_MS):
        window.controller.export(None, out, ["txt"])
    [table] = out.glob("*.deid.csv")
    with table.open(encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))[1:]


def test_rejecting_a_note_span_in_the_table_view_changes_the_export(
        qtbot: QtBot, tmp_path: Path, user_settings: UserSettings) -> None:
    window = open_window(qtbot, tmp_path, user_settings)
    src = tmp_path / "extract.csv"
    write_extract(src, n_patients=2, visits=1)
    original = list(csv.reader(src.open(encoding="utf-8", newline="")))[1:]
    _open_table(qtbot, window, src)
    view = window.review.table_view
    before = _export(qtbot, window, tmp_path / "before")

    view.table.setCurrentIndex(view.model.index(0, NOTE))  # the row's note, its spans
    note = view.note
    assert note.note.toPlainText() == original[0][NOTE]
    dates = [i for i in range(note.list.count()) if note.list.item(i).text().startswith(
        "DATE")]
    assert dates and "Row r1" in note.title.text()
    note.list.setCurrentRow(dates[0])
    span = note.selected_span()
    assert span is not None and span.label is Label.DATE
    written = note.note.toPlainText()[span.start - note._offset:span.end - note._offset]
    with qtbot.waitSignal(window.controller.spanChanged, timeout=TIMEOUT_MS):
        note.reject_button.click()
    qtbot.waitUntil(lambda: "rejected" in note.list.item(dates[0]).text(),
                    timeout=TIMEOUT_MS)
    after = _export(qtbot, window, tmp_path / "after")
    assert written in after[0][NOTE] and written not in before[0][NOTE]
    assert after[1] == before[1]

    # An identifier cell, rejected with R (the review flow's key), is written as it is.
    view.table.setCurrentIndex(view.model.index(1, PHONE))
    assert "identifier cell" in note.target.text()
    with qtbot.waitSignal(window.controller.spanChanged, timeout=TIMEOUT_MS):
        window.review_flow.decide(SpanStatus.REJECTED)
    qtbot.waitUntil(lambda: view.model.index(1, PHONE).data(CellStatusRole) == "REJECTED",
                    timeout=TIMEOUT_MS)
    kept = _export(qtbot, window, tmp_path / "kept")
    assert kept[1][PHONE] == original[1][PHONE] != before[1][PHONE]

    # Undo, twice: the export is the undecided one again.
    for _ in range(2):
        with qtbot.waitSignal(window.controller.undoStateChanged, timeout=TIMEOUT_MS):
            window.controller.undo()
    assert _export(qtbot, window, tmp_path / "undone") == before


def _workbook(path: Path) -> Path:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    book.active.title = "Visits"
    book.active.append(["mrn", "patient_name", "note"])
    book.active.append(["4410021", "Ottilie Brannagh", "Ottilie Brannagh seen, stable."])
    labs = book.create_sheet("Labs")
    labs.append(["specimen_id", "collected", "result"])
    labs.append(["SP-77123", "2024-03-02", "HbA1c 7.1"])
    labs.append(["SP-77124", "2024-04-02", "HbA1c 6.9"])
    book.save(path)
    return path


def test_a_workbooks_sheets_in_the_dialog_and_the_grid(
        qtbot: QtBot, tmp_path: Path, user_settings: UserSettings) -> None:
    window = open_window(qtbot, tmp_path, user_settings)
    src = _workbook(tmp_path / "book.xlsx")
    drop_files(window, [src])
    qtbot.waitUntil(lambda: window.table_drop.dialog is not None, timeout=TIMEOUT_MS)
    dialog = window.table_drop.dialog
    assert isinstance(dialog, TableRolesDialog)
    assert [dialog.tabs.tabText(i) for i in range(dialog.tabs.count())] == ["Visits", "Labs"]
    assert dialog.grids[1].item(0, 0).text() == "specimen_id"
    dialog.set_role(2, "drop", sheet=2)
    with qtbot.waitSignal(window.controller.dropFinished, timeout=TIMEOUT_MS):
        dialog.accept()
    [doc] = window.controller.project.documents()
    stored = window.controller.project.tables.schema(doc.id)
    assert stored is not None and stored.for_sheet("Labs").roles[2].value == "drop"

    view = window.review.table_view
    window.controller.load_document(doc.id)
    qtbot.waitUntil(lambda: window.review.body.currentWidget() is view
                    and view.sheets.count() == 2, timeout=TIMEOUT_MS)
    assert view.sheets.isVisible() and view.model.rowCount() == 1
    view.sheets.setCurrentIndex(1)
    qtbot.waitUntil(lambda: view.model.rowCount() == 2, timeout=TIMEOUT_MS)
    assert view.model.index(0, 0).data() == "SP-77123"
    assert view.model.role_of(2) == "drop"
    window.controller.load_document(doc.id)  # reloaded (as after an undo): same sheet
    qtbot.wait(300)
    qtbot.waitUntil(lambda: view.sheets.currentIndex() == 1 and view.model.rowCount() == 2,
                    timeout=TIMEOUT_MS)
    view.sheets.setCurrentIndex(0)  # and back to the first sheet
    qtbot.waitUntil(lambda: view.model.rowCount() == 1, timeout=TIMEOUT_MS)
    qtbot.wait(300)
    assert view.sheets.currentIndex() == 0 and view.model.columnCount() == 3


def test_tables_inside_a_dropped_folder_get_the_roles_dialog(
        qtbot: QtBot, tmp_path: Path, user_settings: UserSettings) -> None:
    window = open_window(qtbot, tmp_path, user_settings)
    folder = tmp_path / "drop"
    folder.mkdir()
    write_extract(folder / "extract.csv", n_patients=2, visits=1)
    write_extract(folder / "other.csv", n_patients=3, visits=1)
    (folder / "letter.txt").write_text("Seen today, stable.\n", encoding="utf-8")
    drop_files(window, [folder])
    qtbot.waitUntil(lambda: window.table_drop.dialog is not None, timeout=TIMEOUT_MS)
    first = window.table_drop.dialog
    assert first is not None and "extract.csv" in first.windowTitle()
    first.set_role(LAB, "drop")
    first.accept()
    qtbot.waitUntil(lambda: window.table_drop.dialog not in (None, first),
                    timeout=TIMEOUT_MS)
    second = window.table_drop.dialog
    assert second is not None and "other.csv" in second.windowTitle()
    with qtbot.waitSignal(window.controller.dropFinished, timeout=TIMEOUT_MS):
        second.reject()  # cancelled: not imported, though its folder was dropped
    project = window.controller.project
    names = sorted(Path(d.source_path).name for d in project.documents())
    assert names == ["extract.csv", "letter.txt"]
    [table] = [d for d in project.documents() if d.source_path.endswith(".csv")]
    stored = project.tables.schema(table.id)
    assert stored is not None and stored.roles[LAB].value == "drop"
