"""Box redaction in the window: drag a rectangle over the signature on the page view; it is
stored, drawn where it was dragged, undone with Ctrl+Z, redone, and removed with Delete."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from desktop.render import DPI
from desktop.settings import UserSettings
from desktop.views.menus import PAGE_TAB
from tests.fixtures_docs import DOCTOR, letter_pages, word_rects, write_text_pdf

from .conftest import drop_files
from .helpers import TIMEOUT_MS, detected_count, open_window


def test_drag_a_box_over_the_signature_undo_redo_delete(
        qtbot: QtBot, tmp_path: Path, user_settings: UserSettings) -> None:
    inbox = tmp_path / "in"
    inbox.mkdir()
    letter = write_text_pdf(inbox / "letter.pdf", letter_pages(), extras=False)
    window = open_window(qtbot, tmp_path, user_settings)
    drop_files(window, [letter])
    qtbot.waitUntil(lambda: detected_count(window) == 1, timeout=TIMEOUT_MS)
    c, view = window.controller, window.page_view
    doc_id = window.documents.model.entries()[0].id
    window.tabs.setCurrentIndex(PAGE_TAB)
    window.documents.select_document(doc_id)
    qtbot.waitUntil(lambda: view.loaded is not None and "highlight" in view.info.text(),
                    timeout=TIMEOUT_MS)
    view.page_box.setValue(2)
    qtbot.waitUntil(lambda: view.page == 2 and "Page 2" in view.info.text(),
                    timeout=TIMEOUT_MS)

    # Drag from just above-left of the signature to just below-right of it.
    k = DPI / 72
    x0, y0, x1, y1 = word_rects(letter, DOCTOR, 1)[-1]
    top_left = QPointF((x0 - 4) * k, (792 - y1 - 4) * k)
    bottom_right = QPointF((x1 + 4) * k, (792 - y0 + 4) * k)
    view.view.centerOn(top_left)
    port = view.view.viewport()
    start, end = view.view.mapFromScene(top_left), view.view.mapFromScene(bottom_right)
    view.draw_button.click()
    assert view.box_tool.active
    QTest.mousePress(port, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(port, QPoint((start.x() + end.x()) // 2, (start.y() + end.y()) // 2))
    QTest.mouseRelease(port, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)
    qtbot.waitUntil(lambda: len(view.box_rects()) == 1, timeout=TIMEOUT_MS)
    project = c.project
    assert project is not None
    (stored,) = project.box_redactions(doc_id)
    assert stored.page == 2
    # Stored in page points, drawn where it was dragged (within the zoom's rounding).
    assert abs(stored.x0 - (x0 - 4)) < 2 and abs(stored.y1 - (792 - y0 + 4)) < 2
    (drawn,) = view.box_rects().values()
    assert "1 box redaction" in view.info.text()
    assert drawn.contains(QPointF((x0 + x1) / 2 * k, (792 - (y0 + y1) / 2) * k))

    c.undo()
    qtbot.waitUntil(lambda: view.box_rects() == {}, timeout=TIMEOUT_MS)
    c.redo()
    qtbot.waitUntil(lambda: len(view.box_rects()) == 1, timeout=TIMEOUT_MS)
    view.draw_button.click()  # back to scrolling; select the box and press Delete
    item = next(i for i in view.scene.items() if i.data(1))
    item.setSelected(True)
    view._remove_selected_box()
    qtbot.waitUntil(lambda: view.box_rects() == {}, timeout=TIMEOUT_MS)
    assert project.box_redactions(doc_id) == []
    window.close()


def test_export_review_copy_from_the_menu(qtbot: QtBot, tmp_path: Path,
                                          user_settings: UserSettings,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop.views import main_window

    inbox = tmp_path / "in"
    inbox.mkdir()
    letter = write_text_pdf(inbox / "letter.pdf", letter_pages()[:1], extras=False)
    (inbox / "note.txt").write_text("Seen 2024-02-11 by Dr. Sam Lee.\n", encoding="utf-8")
    window = open_window(qtbot, tmp_path, user_settings)
    drop_files(window, [letter, inbox / "note.txt"])
    qtbot.waitUntil(lambda: detected_count(window) == 2, timeout=TIMEOUT_MS)
    out = tmp_path / "review"
    monkeypatch.setattr(main_window.QFileDialog, "getExistingDirectory",
                        lambda *args, **kw: str(out))  # the folder the user picks
    with qtbot.waitSignal(window.controller.reviewCopyWritten, timeout=TIMEOUT_MS) as sent:
        window.actions_by_name["export_review"].trigger()
    assert sent.args == [1]  # the PDF; the text note has no pages
    pdf_id = next(e.id for e in window.documents.model.entries() if e.name == "letter.pdf")
    assert [p.name for p in out.iterdir()] == [f"{pdf_id}.review.pdf"]
    qtbot.waitUntil(lambda: "review cop" in window.statusBar().currentMessage(),
                    timeout=TIMEOUT_MS)
    window.close()
