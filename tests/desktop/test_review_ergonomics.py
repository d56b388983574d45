"""Review ergonomics (issue 27 item 7): change a span's label (L, context menu; undoable,
audited), a span table sorted and filtered by label, status, confidence and detector with
superseded rows hidden unless asked, Shift+N for the next document needing review, mark
reviewed moves on, "all occurrences" says its count and asks above a threshold, reject-all
in the context menu, a current-span marker seen in dark mode, legend colours with WCAG
contrast."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor, QKeySequence, QPalette, QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu, QMessageBox
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from desktop import theme
from desktop.models.span_filter import SpanFilterProxyModel
from desktop.models.span_table import SpanTableModel
from desktop.settings import UserSettings
from desktop.views import review_flow
from desktop.views.legend import LegendWidget
from engine.core.domain import Source, Span, SpanStatus
from engine.core.labels import LABEL_COLOURS, Label

from .conftest import drop_files
from .helpers import TIMEOUT_MS, detected_count, open_window
from .test_models import TEXT, _spans


def press(window: object, key: str) -> None:
    combo = QKeySequence(key)[0]
    QTest.keyClick(window.review.text, combo.key(), combo.keyboardModifiers())  # type: ignore[attr-defined]


def test_filter_proxy_sorts_by_value_and_hides_superseded(qtmodeltester: ModelTester) -> None:
    model = SpanTableModel()
    spans = [*_spans(), Span(63, 75, Label.ID, Source.RULE, "regex.mrn@1", 0.5,
                             SpanStatus.SUPERSEDED)]
    model.set_spans(spans, TEXT)
    proxy = SpanFilterProxyModel()
    proxy.setSourceModel(model)
    qtmodeltester.check(proxy)
    assert proxy.rowCount() == 4  # the superseded row hidden
    proxy.set_filter(show_superseded=True)
    assert proxy.rowCount() == 5
    proxy.sort(5, Qt.SortOrder.DescendingOrder)  # confidence, as numbers
    conf = [s.confidence for s in proxy.spans()]
    assert conf == sorted(conf, reverse=True)
    proxy.set_filter(label=Label.PHONE)
    assert [s.label for s in proxy.spans()] == [Label.PHONE]
    proxy.set_filter(label=None, status=SpanStatus.REJECTED)
    assert [s.status for s in proxy.spans()] == [SpanStatus.REJECTED]
    proxy.set_filter(status=None, detector="regex.date@1")
    assert [s.label for s in proxy.spans()] == [Label.DATE]
    proxy.set_filter(detector=None, min_confidence=0.9)
    assert {s.label for s in proxy.spans()} == {Label.DATE, Label.PHONE}
    qtmodeltester.check(proxy)
    model.replace_span(spans[0].with_status(SpanStatus.ACCEPTED))
    qtmodeltester.check(model)


def test_label_colours_contrast_and_dark_mode_marker() -> None:
    for label, colour in LABEL_COLOURS.items():
        bg = QColor(colour)
        ink = theme.text_on(bg)
        assert theme.contrast_ratio(ink, bg) >= 4.5, label  # WCAG AA for text
        fmt = theme.span_format(label, SpanStatus.ACCEPTED)
        assert theme.contrast_ratio(fmt.foreground().color(), fmt.background().color()) >= 4.5
        assert ink.name() in LegendWidget().text()
    # Dark palette: the current span's marker is the palette's text colour, which stands
    # out on the dark base (WCAG non-text contrast >= 3:1); the old black one did not.
    dark_base, dark_text = QColor("#1E1E1E"), QColor("#E8E8E8")
    fmt = theme.span_format(Label.DATE, SpanStatus.CANDIDATE, current=True, marker=dark_text)
    assert theme.contrast_ratio(fmt.underlineColor(), dark_base) >= 3.0
    assert theme.contrast_ratio(QColor("#000000"), dark_base) < 1.5
    # The marker's tint behind the current span keeps its text readable (>= 4.5:1).
    for base, ink in ((dark_base, dark_text), (QColor("#FFFFFF"), QColor("#000000"))):
        tint = theme.span_format(Label.DATE, SpanStatus.CANDIDATE, current=True,
                                 marker=ink).background().color()
        a = tint.alphaF()
        shown = QColor.fromRgbF(*(a * t + (1 - a) * b for t, b in (
            (tint.redF(), base.redF()), (tint.greenF(), base.greenF()),
            (tint.blueF(), base.blueF()))))
        assert theme.contrast_ratio(ink, shown) >= 4.5


def _select_text(review: object, start: int, end: int) -> None:
    cursor = review.text.textCursor()  # type: ignore[attr-defined]
    cursor.setPosition(start)
    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    review.text.setTextCursor(cursor)  # type: ignore[attr-defined]


def test_review_ergonomics_in_the_window(qtbot: QtBot, tmp_path: Path, letters: list[Path],
                                         user_settings: UserSettings,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    window = open_window(qtbot, tmp_path, user_settings)
    pal = window.review.text.palette()  # a dark palette for the marker
    pal.setColor(QPalette.ColorRole.Base, QColor("#1E1E1E"))
    pal.setColor(QPalette.ColorRole.Text, QColor("#E8E8E8"))
    window.review.text.setPalette(pal)
    drop_files(window, letters)
    qtbot.waitUntil(lambda: detected_count(window) == 2, timeout=TIMEOUT_MS)
    first_id = window.documents.model.entries()[0].id
    window.documents.select_document(first_id)
    review = window.review
    qtbot.waitUntil(lambda: review.document is not None and review.current_span is not None,
                    timeout=TIMEOUT_MS)
    project = window.controller.project
    assert project is not None
    doc_id = review.document.id
    text = review.document.text

    # A manual span over the phone supersedes it: hidden until "Superseded" is ticked.
    phone = next(s for s in review.spans() if s.label is Label.PHONE)
    _select_text(review, phone.start, phone.end)
    review.label_box.setCurrentIndex(review.label_box.findData(Label.ID))
    assert review.add_selection()
    qtbot.waitUntil(lambda: review._spans[phone.id].status is SpanStatus.SUPERSEDED,
                    timeout=TIMEOUT_MS)
    panel = review.span_panel
    assert panel.proxy.row_of(phone.id) == -1
    panel.superseded.setChecked(True)
    assert panel.proxy.row_of(phone.id) >= 0
    panel.superseded.setChecked(False)

    # Filter by label and status; sort by confidence.
    panel.label_filter.setCurrentIndex(panel.label_filter.findData(Label.DATE))
    assert panel.proxy.rowCount() >= 1
    assert {s.label for s in panel.proxy.spans()} == {Label.DATE}
    panel.label_filter.setCurrentIndex(0)
    panel.status_filter.setCurrentIndex(panel.status_filter.findData(SpanStatus.CANDIDATE))
    assert {s.status for s in panel.proxy.spans()} == {SpanStatus.CANDIDATE}
    panel.status_filter.setCurrentIndex(0)
    panel.table.sortByColumn(5, Qt.SortOrder.DescendingOrder)
    conf = [s.confidence for s in panel.proxy.spans()]
    assert conf == sorted(conf, reverse=True) and len(conf) > 3
    assert f"{len(conf)} of {panel.model.rowCount()}" == panel.shown.text()

    # L: change the label of the current span from a menu; undoable; audited.
    date = next(s for s in review.spans() if s.label is Label.DATE
                and s.status is SpanStatus.CANDIDATE)
    review.select_span(date.id)
    assert panel.table.currentIndex().row() == panel.proxy.row_of(date.id)

    def pick() -> None:
        menu = getattr(review, "label_menu", None)
        if menu is None:
            QTimer.singleShot(50, pick)
            return
        next(a for a in menu.actions() if a.text() == Label.OTHER.value).trigger()
        menu.close()

    QTimer.singleShot(50, pick)
    press(window, "L")
    qtbot.waitUntil(lambda: review._spans[date.id].label is Label.OTHER, timeout=TIMEOUT_MS)
    assert [e.span_id for e in project.audit_log(actions=["span.relabelled"])] == [date.id]
    qtbot.waitUntil(lambda: window.actions_by_name["undo"].isEnabled(), timeout=TIMEOUT_MS)
    window.actions_by_name["undo"].trigger()
    qtbot.waitUntil(lambda: review._spans[date.id].label is Label.DATE, timeout=TIMEOUT_MS)
    # The current-span marker uses the (dark) palette's text colour.
    current = [sel for sel in review.text.extraSelections()
               if sel.cursor.selectionStart() == date.start]
    assert current and current[0].format.underlineColor() == QColor("#E8E8E8")

    # The context menu offers label change and reject-all.
    seen: list[str] = []

    def read_menu() -> None:
        popup = QApplication.activePopupWidget()
        if not isinstance(popup, QMenu):
            QTimer.singleShot(50, read_menu)
            return
        seen.extend(a.text() for a in popup.actions())
        popup.close()

    QTimer.singleShot(50, read_menu)
    review._context_menu(review.text.cursorRect().center())
    assert "Change label (L)" in seen
    assert {"Reject all occurrences in document", "Reject all occurrences in project",
            "Accept all occurrences in project"} <= set(seen)

    # All occurrences: counted, asked above the threshold, the count said after.
    monkeypatch.setattr(review_flow, "ASK_ABOVE", 1)
    start = text.index("John Smith")
    name = next(s for s in review.spans() if s.start <= start < s.end
                and s.status is SpanStatus.CANDIDATE)
    review.select_span(name.id)
    review.decide_all(SpanStatus.ACCEPTED, "document")
    flow = window.review_flow
    qtbot.waitUntil(lambda: flow.ask_box is not None, timeout=TIMEOUT_MS)
    box = flow.ask_box
    assert box is not None and "Accept 2 spans in this document?" in box.text()
    box.button(QMessageBox.StandardButton.Yes).click()
    qtbot.waitUntil(lambda: "2 occurrences accepted in this document"
                    in window.statusBar().currentMessage(), timeout=TIMEOUT_MS)

    # Shift+N: the next document needing review; Ctrl+Return marks it and moves on.
    window.activateWindow()  # the question box had it
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    press(window, "Shift+N")
    qtbot.waitUntil(lambda: review.document is not None and review.document.id != doc_id,
                    timeout=TIMEOUT_MS)
    second = review.document.id
    press(window, "Ctrl+Return")
    qtbot.waitUntil(lambda: review.document is not None and review.document.id == doc_id,
                    timeout=TIMEOUT_MS)
    model = window.documents.model
    qtbot.waitUntil(lambda: model.entry(model.row_of(second)).record.status.value
                    == "reviewed", timeout=TIMEOUT_MS)
    assert window.controller.current_id == doc_id
