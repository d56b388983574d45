"""Box redactions listed with the spans (issue 27 item 3 leftover): each box drawn shows a
row under the span table; selecting it shows the box on its page; Remove (or Delete)
removes it, and Ctrl+Z brings it back."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from desktop.settings import UserSettings
from desktop.views.menus import PAGE_TAB, REVIEW_TAB
from tests.fixtures_docs import letter_pages, write_text_pdf

from .conftest import drop_files
from .helpers import TIMEOUT_MS, detected_count, open_window


def test_boxes_listed_selectable_and_removable(
        qtbot: QtBot, tmp_path: Path, user_settings: UserSettings) -> None:
    inbox = tmp_path / "in"
    inbox.mkdir()
    letter = write_text_pdf(inbox / "letter.pdf", letter_pages(), extras=False)
    window = open_window(qtbot, tmp_path, user_settings)
    drop_files(window, [letter])
    qtbot.waitUntil(lambda: detected_count(window) == 1, timeout=TIMEOUT_MS)
    c, review = window.controller, window.review
    doc_id = window.documents.model.entries()[0].id
    window.documents.select_document(doc_id)
    qtbot.waitUntil(lambda: review.document is not None, timeout=TIMEOUT_MS)
    assert not review.boxes.isVisibleTo(window)  # no boxes: no list
    c.add_box(doc_id, 2, (300.0, 600.0, 420.0, 640.0))  # a signature on page 2
    c.add_box(doc_id, 1, (40.0, 30.0, 200.0, 80.0))  # the letterhead logo
    qtbot.waitUntil(lambda: review.boxes.list.count() == 2, timeout=TIMEOUT_MS)
    assert review.boxes.isVisibleTo(window)
    assert review.boxes.title.text() == "Box redactions: 2"
    rows = [review.boxes.list.item(i).text() for i in range(2)]
    assert rows[0].startswith("▮ Page 1") and rows[1].startswith("▮ Page 2")
    assert "120 × 40" in rows[1]

    signature = review.boxes.ids()[1]
    review.boxes.list.setCurrentRow(1)  # shows the box on its page, selected
    assert window.tabs.currentIndex() == PAGE_TAB
    view = window.page_view
    qtbot.waitUntil(lambda: view.page == 2 and signature in view.box_rects(),
                    timeout=TIMEOUT_MS)
    assert [i.data(1) for i in view.scene.selectedItems()] == [signature]

    window.tabs.setCurrentIndex(REVIEW_TAB)
    review.boxes.list.setFocus()
    QTest.keyClick(review.boxes.list, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: review.boxes.list.count() == 1, timeout=TIMEOUT_MS)
    project = c.project
    assert project is not None
    assert [b.page for b in project.box_redactions(doc_id)] == [1]
    qtbot.waitUntil(lambda: window.actions_by_name["undo"].isEnabled(), timeout=TIMEOUT_MS)
    window.actions_by_name["undo"].trigger()
    qtbot.waitUntil(lambda: review.boxes.list.count() == 2, timeout=TIMEOUT_MS)
    window.close()
