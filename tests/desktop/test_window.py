"""Drive the real window: drop files, wait for detection, review with the keyboard, undo,
add a span, open the diff, export."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QTextCursor
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from desktop.settings import UserSettings
from engine.core.domain import Source, SpanStatus
from engine.core.labels import Label

from .conftest import drop_files
from .helpers import TIMEOUT_MS, detected_count, open_window


def press(window: object, key: str) -> None:
    seq = QKeySequence(key)
    combo = seq[0]
    QTest.keyClick(window.review.text, combo.key(), combo.keyboardModifiers())  # type: ignore[attr-defined]


def test_drop_review_undo_add_diff_export(qtbot: QtBot, tmp_path: Path,
                                         letters: list[Path],
                                         user_settings: UserSettings) -> None:
    window = open_window(qtbot, tmp_path, user_settings)
    assert window.stack.currentWidget() is window.workspace

    drop_files(window, letters)
    assert window.import_dock.isVisible()
    qtbot.waitUntil(lambda: detected_count(window) == 2, timeout=TIMEOUT_MS)
    states = {window.import_panel.state(str(p)) for p in letters}
    assert states == {"imported"}

    # Open the first letter; the review view selects the first candidate.
    window.documents.table.setFocus()
    window.documents.table.selectRow(0)
    qtbot.waitUntil(lambda: window.review.document is not None
                    and window.review.current_span is not None, timeout=TIMEOUT_MS)
    review = window.review
    first = review.current_span
    assert first is not None and first.status is SpanStatus.CANDIDATE
    selections = review.text.extraSelections()
    assert len(selections) >= 3  # highlights drawn

    # A accepts and moves on; R rejects the next one.
    review.text.setFocus()
    press(window, "A")
    qtbot.waitUntil(lambda: review._spans[first.id].status is SpanStatus.ACCEPTED
                    and review.model.span_at(review.model.row_of(first.id)).status
                    is SpanStatus.ACCEPTED, timeout=TIMEOUT_MS)
    second = review.current_span
    assert second is not None and second.id != first.id
    press(window, "R")
    qtbot.waitUntil(lambda: review.model.span_at(review.model.row_of(second.id)).status
                    is SpanStatus.REJECTED, timeout=TIMEOUT_MS)

    # N / P move between candidates.
    here = review.current_span
    press(window, "N")
    assert review.current_span is not None and review.current_span.id != here.id
    press(window, "P")
    assert review.current_span is not None and review.current_span.id == here.id

    # Ctrl+Z undoes the rejection; Ctrl+Shift+Z redoes it.
    qtbot.waitUntil(lambda: window.actions_by_name["undo"].isEnabled(), timeout=TIMEOUT_MS)
    press(window, "Ctrl+Z")
    qtbot.waitUntil(lambda: review._spans[second.id].status is SpanStatus.CANDIDATE,
                    timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: window.actions_by_name["redo"].isEnabled(), timeout=TIMEOUT_MS)
    press(window, "Ctrl+Shift+Z")
    qtbot.waitUntil(lambda: review._spans[second.id].status is SpanStatus.REJECTED,
                    timeout=TIMEOUT_MS)

    # Select a missed identifier ("Maple Farm") and add it as a LOCATION with S.
    text = review.document.text
    start = text.index("Maple Farm")
    already = [s for s in review.spans() if s.start < start + 10 and start < s.end
               and s.status is not SpanStatus.SUPERSEDED]
    assert already == []
    cursor = review.text.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(start + len("Maple Farm"), QTextCursor.MoveMode.KeepAnchor)
    review.text.setTextCursor(cursor)
    review.label_box.setCurrentIndex(review.label_box.findData(Label.LOCATION))
    press(window, "S")
    qtbot.waitUntil(lambda: any(s.source is Source.MANUAL and s.start == start
                                for s in review.spans()), timeout=TIMEOUT_MS)
    manual = next(s for s in review.spans() if s.source is Source.MANUAL)
    assert manual.label is Label.LOCATION and manual.status is SpanStatus.ACCEPTED
    del already

    # The document list counts follow the review.
    doc_id = review.document.id
    qtbot.waitUntil(lambda: window.documents.model.entry(
        window.documents.model.row_of(doc_id)).accepted >= 2, timeout=TIMEOUT_MS)

    # Diff: the accepted name is gone on the right, replacements are coloured.
    press(window, "Ctrl+3")
    qtbot.waitUntil(lambda: window.diff.data is not None, timeout=TIMEOUT_MS)
    diff = window.diff.data
    assert diff.document.id == doc_id
    assert "Maple Farm" not in diff.deid.text
    assert window.diff.right.extraSelections()
    assert window.diff.right.toPlainText() == diff.deid.text

    # Mark reviewed, then export the selected document.
    press(window, "Ctrl+Return")
    qtbot.waitUntil(lambda: window.documents.model.entry(
        window.documents.model.row_of(doc_id)).record.status.value == "reviewed",
        timeout=TIMEOUT_MS)
    window.actions_by_name["export"].trigger()
    dialog = window.export_dialog
    assert dialog is not None
    out = tmp_path / "out"
    dialog.folder.setText(str(out))
    dialog.checks["pdf"].setChecked(False)
    dialog.all_reviewed.setChecked(True)
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    # Candidates are still open in the letter: the export asks first (test_export_asks).
    qtbot.waitUntil(lambda: dialog.report is not None or (
        window.open_work_dialog is not None and window.open_work_dialog.isVisible()),
        timeout=TIMEOUT_MS)
    if dialog.report is None:
        qtbot.mouseClick(window.open_work_dialog.anyway_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=TIMEOUT_MS)
    report = dialog.report
    assert [d.document_id for d in report.exported] == [doc_id] and not report.failed
    exported = (out / f"{doc_id}.deid.txt").read_text(encoding="utf-8")
    assert "Maple Farm" not in exported
    assert "exported" in dialog.summary.toPlainText()
    dialog.close()
    window.close()


def test_failed_file_gets_a_reason_and_batch_goes_on(qtbot: QtBot, tmp_path: Path,
                                                     letters: list[Path],
                                                     user_settings: UserSettings) -> None:
    window = open_window(qtbot, tmp_path, user_settings)
    bad = tmp_path / "in" / "broken.pdf"
    bad.write_bytes(b"%PDF-1.4 this is not really a pdf")
    drop_files(window, [bad, letters[0]])
    qtbot.waitUntil(lambda: window.import_panel.state(str(letters[0])) == "imported"
                    and window.import_panel.state(str(bad)) in ("failed", "encrypted"),
                    timeout=TIMEOUT_MS)
    # Dropping the same letter again is recognised as a duplicate.
    qtbot.waitUntil(lambda: not window.controller.runner.busy, timeout=TIMEOUT_MS)
    drop_files(window, [letters[0]])
    qtbot.waitUntil(lambda: window.import_panel.state(str(letters[0])) == "duplicate",
                    timeout=TIMEOUT_MS)
    window.close()


def test_every_action_has_shortcut_and_tooltip(qtbot: QtBot, user_settings: UserSettings
                                               ) -> None:
    from desktop.views.main_window import MainWindow

    window = MainWindow(user=user_settings)
    qtbot.addWidget(window)
    missing = [name for name, act in window.actions_by_name.items()
               if act.shortcut().isEmpty() or not act.toolTip()]
    assert missing == []
    shortcuts = [a.shortcut().toString() for a in window.actions_by_name.values()]
    assert len(shortcuts) == len(set(shortcuts)), "duplicate shortcuts"
    window.close()


def test_drop_without_project_asks_for_one(qtbot: QtBot, letters: list[Path],
                                           user_settings: UserSettings) -> None:
    from desktop.views.main_window import MainWindow

    window = MainWindow(user=user_settings)
    qtbot.addWidget(window)
    window.show()
    drop_files(window, letters)
    assert "project first" in window.statusBar().currentMessage()
    window.close()


def test_text_follows_the_system_font_size_and_the_zoom(qtbot: QtBot,
                                                        user_settings: UserSettings) -> None:
    # A user who set large text in the OS gets large text in ClearNote; zoom adds to it.
    from PySide6.QtGui import QFont
    from PySide6.QtWidgets import QApplication

    from desktop.views.main_window import MainWindow

    system = QApplication.font()
    large = QFont(system)
    large.setPointSizeF(20.0)
    QApplication.setFont(large)
    try:
        window = MainWindow(user=user_settings)
        qtbot.addWidget(window)
        widgets = (window.review.text, window.diff.left, window.diff.right)
        assert [w.font().pointSizeF() for w in widgets] == [20.0] * 3
        window.actions_by_name["bigger"].trigger()
        window.actions_by_name["bigger"].trigger()
        assert [w.font().pointSizeF() for w in widgets] == [22.0] * 3
        assert user_settings.text_scale == 2  # remembered for the next start
        window.close()
        again = MainWindow(user=user_settings)
        qtbot.addWidget(again)
        assert again.review.text.font().pointSizeF() == 22.0
        again.close()
    finally:
        QApplication.setFont(system)
