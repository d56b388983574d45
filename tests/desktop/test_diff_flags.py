"""Flags you can act on: each names the term and its category, selecting one shows it in
both texts, the document list's CIRE column counts the flags the diff shows, and the diff
wraps long lines while keeping line n beside line n."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QPlainTextEdit
from pytestqt.qtbot import QtBot

from desktop.settings import UserSettings
from engine.core.labels import Label

from .conftest import drop_files
from .helpers import TIMEOUT_MS, detected_count, open_window

LONG = " ".join(["The patient tolerated the exercise protocol well without symptoms."] * 6)


def test_flags_name_the_term_and_the_list_counts_them(
        qtbot: QtBot, tmp_path: Path, user_settings: UserSettings) -> None:
    note = tmp_path / "in" / "note.txt"
    note.parent.mkdir()
    lines = [f"Line {i}: {LONG}" for i in range(30)]
    lines.insert(20, "Patient: Harold Finch takes metformin 500 mg daily.")
    text = "\n".join(lines) + "\n"
    note.write_text(text, encoding="utf-8")
    window = open_window(qtbot, tmp_path, user_settings)
    drop_files(window, [note])
    qtbot.waitUntil(lambda: detected_count(window) == 1, timeout=TIMEOUT_MS)
    project = window.controller.project
    assert project is not None
    doc_id = window.documents.model.entries()[0].id
    start = text.index("metformin")  # a reviewer's slip: the drug marked as a name
    project.add_manual_span(doc_id, start, start + len("metformin"), Label.PERSON)
    window.documents.select_document(doc_id)
    qtbot.waitUntil(lambda: window.review.document is not None, timeout=TIMEOUT_MS)
    window.actions_by_name["tab_diff"].trigger()
    diff = window.diff
    qtbot.waitUntil(lambda: diff.data is not None and diff.flags.count() > 0,
                    timeout=TIMEOUT_MS)
    words = [diff.flags.item(i).text() for i in range(diff.flags.count())]
    assert any("“metformin” — drug, replaced by “" in w and "HIGH" in w for w in words)
    # The list's CIRE column shows the number of flags the diff shows.
    model = window.documents.model
    qtbot.waitUntil(lambda: model.entry(model.row_of(doc_id)).flags == diff.flags.count(),
                    timeout=TIMEOUT_MS)

    # Long lines wrap; line n stays beside line n while scrolling.
    for pane in (diff.left, diff.right):
        assert pane.lineWrapMode() is QPlainTextEdit.LineWrapMode.WidgetWidth
        assert pane.horizontalScrollBar().maximum() == 0
    flag_row = next(i for i, w in enumerate(words) if "metformin" in w)
    diff.flags.setCurrentRow(flag_row)
    qtbot.wait(50)
    assert diff.left.textCursor().position() == start
    assert diff.left.textCursor().blockNumber() == 20
    diff.left.verticalScrollBar().setValue(diff.left.verticalScrollBar().maximum() // 2)
    qtbot.wait(50)
    top = [p.cursorForPosition(QPoint(0, 0)).blockNumber() for p in (diff.left, diff.right)]
    assert top[0] > 3 and top[0] == top[1]
    window.close()
