"""File > De-identification report…: the menu action writes the HTML report by a worker
(no PHI in it), then offers to print it to PDF through Qt."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop.settings import UserSettings
from desktop.views import report_action
from desktop.views.report_action import ReportAction

from .conftest import drop_files
from .helpers import TIMEOUT_MS, detected_count, open_window

PHI = ("John Smith", "Mary Jones", "Alice Brown", "Peter Wong", "9876 543 210",
       "john.smith@example.com", "letter1", "letter2")


def test_menu_writes_report_and_prints_pdf(qtbot: QtBot, tmp_path: Path, letters: list[Path],
                                           user_settings: UserSettings, monkeypatch) -> None:
    window = open_window(qtbot, tmp_path, user_settings)
    drop_files(window, letters)
    qtbot.waitUntil(lambda: detected_count(window) == 2, timeout=TIMEOUT_MS)
    html, pdf = tmp_path / "report.html", tmp_path / "report.pdf"
    answers = iter([(str(html), ""), (str(pdf), "")])
    monkeypatch.setattr(report_action.QFileDialog, "getSaveFileName",
                        lambda *a, **k: next(answers))

    action = window.actions_by_name["report"]
    assert action.isEnabled() and "report" in action.text().lower()
    assert action in window.menuBar().actions()[0].menu().actions()  # the File menu
    action.trigger()
    reporter = window.findChild(ReportAction)
    assert reporter is not None
    qtbot.waitUntil(lambda: reporter.offer is not None and reporter.offer.isVisible(),
                    timeout=TIMEOUT_MS)
    data = html.read_bytes()
    assert data.startswith(b"<!DOCTYPE html>")
    assert [v for v in PHI if v.lower().encode() in data.lower()] == []
    for entry in window.documents.model.entries():
        assert entry.id.encode() in data

    offer = reporter.offer
    print_button = next(b for b in offer.buttons() if "PDF" in b.text())
    with qtbot.waitSignal(reporter.printed, timeout=TIMEOUT_MS):
        qtbot.mouseClick(print_button, Qt.MouseButton.LeftButton)
    assert pdf.read_bytes().startswith(b"%PDF")
    assert not any(p.name.startswith(".clearnote-") for p in tmp_path.iterdir())
    qtbot.waitUntil(lambda: reporter.offer is None or not reporter.offer.isVisible(),
                    timeout=TIMEOUT_MS)
    window.controller.close_project()
    qtbot.waitUntil(lambda: not action.isEnabled(), timeout=TIMEOUT_MS)
