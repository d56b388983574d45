"""Through the window: a span the reviewer marks exactly over a detected one (with
another label) is added, the detected one shows as superseded, and the diff is
computed (it failed with "overlapping spans")."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QTextCursor
from pytestqt.qtbot import QtBot

from desktop.settings import UserSettings
from engine.core.domain import Source, SpanStatus
from engine.core.labels import Label

from .conftest import drop_files
from .helpers import TIMEOUT_MS, detected_count, open_window


def test_manual_span_over_a_detected_span_then_diff(
        qtbot: QtBot, tmp_path: Path, user_settings: UserSettings,
        letters: list[Path]) -> None:
    window = open_window(qtbot, tmp_path, user_settings)
    errors: list[str] = []
    window.controller.error.connect(errors.append)
    drop_files(window, letters[:1])
    qtbot.waitUntil(lambda: detected_count(window) == 1, timeout=TIMEOUT_MS)
    doc_id = window.documents.model.entries()[0].id
    window.documents.select_document(doc_id)
    review = window.review
    qtbot.waitUntil(lambda: review.document is not None, timeout=TIMEOUT_MS)
    text = review.document.text
    start = text.index("403-555-0199")
    phone = next(s for s in review.spans() if s.start <= start < s.end)
    cursor = review.text.textCursor()
    cursor.setPosition(phone.start)
    cursor.setPosition(phone.end, QTextCursor.MoveMode.KeepAnchor)
    review.text.setTextCursor(cursor)
    review.label_box.setCurrentIndex(review.label_box.findData(Label.ID))
    assert review.add_selection()
    qtbot.waitUntil(lambda: any(s.source is Source.MANUAL for s in review.spans()),
                    timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: review._spans[phone.id].status is SpanStatus.SUPERSEDED,
                    timeout=TIMEOUT_MS)
    window.actions_by_name["tab_diff"].trigger()
    qtbot.waitUntil(lambda: window.diff.data is not None, timeout=TIMEOUT_MS)
    assert "403-555-0199" not in window.diff.data.deid.text
    assert errors == []
