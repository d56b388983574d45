"""Accept or reject a span from the diff (issue 27 item 6): select a CIRE flag or click a
replacement in either pane, then R / A or the buttons; the diff is computed again."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from desktop.settings import UserSettings
from engine.core.domain import SpanStatus
from engine.core.labels import Label

from .conftest import drop_files
from .helpers import TIMEOUT_MS, detected_count, open_window

TEXT = "Patient: Harold Finch takes metformin 500 mg daily.\nSeen 2021-03-14.\n"


def test_reject_a_flagged_span_and_accept_a_replacement_from_the_diff(
        qtbot: QtBot, tmp_path: Path, user_settings: UserSettings) -> None:
    note = tmp_path / "in" / "note.txt"
    note.parent.mkdir()
    note.write_text(TEXT, encoding="utf-8")
    window = open_window(qtbot, tmp_path, user_settings)
    drop_files(window, [note])
    qtbot.waitUntil(lambda: detected_count(window) == 1, timeout=TIMEOUT_MS)
    project = window.controller.project
    assert project is not None
    doc_id = window.documents.model.entries()[0].id
    start = TEXT.index("metformin")  # a reviewer's slip: the drug marked as a name
    slip = project.add_manual_span(doc_id, start, start + len("metformin"), Label.PERSON)
    window.documents.select_document(doc_id)
    qtbot.waitUntil(lambda: window.review.document is not None, timeout=TIMEOUT_MS)
    window.actions_by_name["tab_diff"].trigger()
    diff = window.diff
    qtbot.waitUntil(lambda: diff.data is not None and diff.flags.count() > 0,
                    timeout=TIMEOUT_MS)
    assert not diff.reject_button.isEnabled()  # nothing selected yet

    row = next(i for i in range(diff.flags.count()) if "metformin" in diff.flags.item(i).text())
    diff.flags.setCurrentRow(row)
    assert diff.selected_span_id == slip.id and diff.reject_button.isEnabled()
    diff.flags.setFocus()
    QTest.keyClick(diff.flags, Qt.Key.Key_R)
    qtbot.waitUntil(lambda: {s.id: s for s in project.spans(doc_id)}[slip.id].status
                    is SpanStatus.REJECTED, timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: diff.data is not None and "metformin" in diff.data.deid.text,
                    timeout=TIMEOUT_MS)

    # Click into the name's replacement on the de-identified side, then Accept.
    data = diff.data
    name = next(r for r in data.deid.replacements if r.start == TEXT.index("Harold"))
    cursor = diff.right.textCursor()
    cursor.setPosition(name.output_start + 1)
    diff.right.setTextCursor(cursor)
    assert diff.selected_span_id == name.span_id
    assert "PATIENT" in diff.picked.text() or "replacement" in diff.picked.text()
    diff.accept_button.click()
    qtbot.waitUntil(lambda: {s.id: s for s in project.spans(doc_id)}[name.span_id].status
                    is SpanStatus.ACCEPTED, timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: window.review._spans[name.span_id].status
                    is SpanStatus.ACCEPTED, timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: not window.controller.runner.busy, timeout=TIMEOUT_MS)
