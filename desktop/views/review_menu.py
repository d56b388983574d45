"""The review text's context menu and the label chooser (L): decisions on the current
span, its label, and "all occurrences" in the document or the project."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QMenu

from desktop.theme import label_icon
from engine.core.domain import SpanStatus
from engine.core.labels import Label

if TYPE_CHECKING:
    from desktop.views.review_view import ReviewView


def _label_menu(menu: QMenu, view: ReviewView) -> None:
    current = view.current_span
    for label in Label:
        act = menu.addAction(label_icon(label), label.value)
        act.setCheckable(True)
        act.setChecked(current is not None and current.label is label)
        act.triggered.connect(lambda _=False, lb=label: view.change_label(lb))


def _all(view: ReviewView, status: SpanStatus, scope: str, _checked: bool = False) -> None:
    view.decide_all(status, scope)


def review_context_menu(view: ReviewView, at: QPoint) -> None:
    menu = QMenu(view)
    if view.text.textCursor().hasSelection():
        sub = menu.addMenu("Mark selection as")
        for label in Label:
            act = sub.addAction(label_icon(label), label.value)
            act.triggered.connect(lambda _=False, lb=label: view.add_selection(lb))
    if view.current_span is not None:
        menu.addAction("Accept (A)", view.accept)
        menu.addAction("Reject (R)", view.reject)
        _label_menu(menu.addMenu("Change label (L)"), view)
        menu.addSeparator()
        for verb, status in (("Accept", SpanStatus.ACCEPTED), ("Reject", SpanStatus.REJECTED)):
            for scope in ("document", "project"):
                act = menu.addAction(f"{verb} all occurrences in {scope}")
                act.triggered.connect(functools.partial(_all, view, status, scope))
    menu.exec(at)
    menu.deleteLater()


def choose_label(view: ReviewView) -> None:
    """A menu of labels beside the current span in the text."""
    span = view.current_span
    if span is None:
        return
    cursor = view.text.textCursor()
    cursor.setPosition(span.start)
    rect = view.text.cursorRect(cursor)
    menu = QMenu(view)
    menu.setTitle("Change label")
    _label_menu(menu, view)
    view.label_menu = menu  # type: ignore[attr-defined]  # tests find it here
    menu.exec(view.text.viewport().mapToGlobal(rect.bottomLeft()))
    view.label_menu = None  # type: ignore[attr-defined]
    menu.deleteLater()
