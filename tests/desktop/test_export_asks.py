"""An export that asks: documents still open (undecided candidates, HIGH CIRE flags) are
listed with their counts before anything is written; cancel writes nothing, "finished
only" leaves them out, "anyway" exports them and says so in the audit log; the list then
reads "exported, N undecided"."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop.settings import UserSettings
from desktop.views.main_window import MainWindow
from engine.core.domain import SpanStatus

from .conftest import drop_files
from .helpers import TIMEOUT_MS, detected_count, open_window


def _export(qtbot: QtBot, window: MainWindow, out: Path) -> None:
    window.documents.table.selectAll()
    window.actions_by_name["export"].trigger()
    dialog = window.export_dialog
    assert dialog is not None and dialog.only_selected.isChecked()
    dialog.folder.setText(str(out))
    for fmt, box in dialog.checks.items():
        box.setChecked(fmt == "txt")
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.open_work_dialog is not None
                    and window.open_work_dialog.isVisible(), timeout=TIMEOUT_MS)


def test_export_lists_open_documents_and_offers_three_ways(
        qtbot: QtBot, tmp_path: Path, letters: list[Path], user_settings: UserSettings) -> None:
    window = open_window(qtbot, tmp_path, user_settings)
    drop_files(window, letters)
    qtbot.waitUntil(lambda: detected_count(window) == 2, timeout=TIMEOUT_MS)
    c = window.controller
    project = c.project
    assert project is not None
    settled, open_id = (e.id for e in window.documents.model.entries())
    for span in project.spans(settled):
        if span.status is SpanStatus.CANDIDATE:
            project.set_span_status(span.id, SpanStatus.ACCEPTED)
    undecided = sum(1 for s in project.spans(open_id) if s.status is SpanStatus.CANDIDATE)
    assert undecided > 0
    c.refresh_documents()
    out = tmp_path / "out"

    # 1. Cancel: the counts were shown, nothing is written.
    _export(qtbot, window, out)
    asked = window.open_work_dialog
    assert asked is not None and asked.table.rowCount() == 1
    assert asked.table.item(0, 1).text() == str(undecided)
    assert asked.settled_button.isEnabled() and "1 finished" in asked.settled_button.text()
    qtbot.mouseClick(asked.cancel_button, Qt.MouseButton.LeftButton)
    dialog = window.export_dialog
    assert dialog is not None
    qtbot.waitUntil(lambda: "cancelled" in dialog.status.text(), timeout=TIMEOUT_MS)
    assert not any(out.glob("*.deid.txt"))
    dialog.close()

    # 2. The finished documents only.
    _export(qtbot, window, out)
    qtbot.mouseClick(window.open_work_dialog.settled_button, Qt.MouseButton.LeftButton)
    dialog = window.export_dialog
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=TIMEOUT_MS)
    assert [d.document_id for d in dialog.report.exported] == [settled]
    assert project.audit_log(actions=["export.confirmed_open"]) == []
    dialog.close()

    # 3. Anyway: both go out, the choice is audited, the list keeps what is open.
    _export(qtbot, window, out)
    qtbot.mouseClick(window.open_work_dialog.anyway_button, Qt.MouseButton.LeftButton)
    dialog = window.export_dialog
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=TIMEOUT_MS)
    assert sorted(d.document_id for d in dialog.report.exported) == sorted([settled, open_id])
    audit = project.audit_log(actions=["export.confirmed_open"])
    assert [(e.document_id, e.count) for e in audit] == [(open_id, undecided)]
    model = window.documents.model
    qtbot.waitUntil(lambda: f"exported, {undecided} undecided" in str(
        model.data(model.index(model.row_of(open_id), 1))), timeout=TIMEOUT_MS)
    assert "undecided" not in str(model.data(model.index(model.row_of(settled), 1)))
    dialog.close()
    window.close()
