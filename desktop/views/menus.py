"""The main window's menus and shortcuts."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from desktop.views.report_action import add_report_action
from engine.core.domain import SpanStatus

if TYPE_CHECKING:
    from desktop.views.main_window import MainWindow

REVIEW_TAB, PAGE_TAB, DIFF_TAB = 0, 1, 2


def _action(window: MainWindow, name: str, text: str,
            shortcut: str | QKeySequence.StandardKey, tip: str, slot: Callable[[], object],
            menu: QMenu | None = None) -> QAction:
    act = QAction(text, window)
    keys = QKeySequence(shortcut)
    act.setShortcut(keys)
    act.setToolTip(f"{tip} ({keys.toString(QKeySequence.SequenceFormat.NativeText)})")
    act.setStatusTip(tip)
    act.triggered.connect(lambda _checked=False: slot())
    window.addAction(act)  # shortcuts work even when the menu bar is hidden
    if menu is not None:
        menu.addAction(act)
    window.actions_by_name[name] = act
    return act


def build_menus(window: MainWindow) -> None:
    """The menu bar; every action also gets its shortcut on the window itself and is kept
    in ``window.actions_by_name``."""
    mb = window.menuBar()
    f = mb.addMenu("&File")
    a = functools.partial(_action, window)
    a("new", "&New project…", QKeySequence.StandardKey.New, "Create a project file",
      window.new_project, f)
    a("open", "&Open project…", QKeySequence.StandardKey.Open, "Open a project file",
      window.open_project, f)
    f.addSeparator()
    a("import", "&Import files…", "Ctrl+I", "Import documents (or drop them on the window)",
      window.import_files, f)
    a("import_folder", "Import &folder…", "Ctrl+Shift+I", "Import every document in a folder",
      window.import_folder, f)
    a("detect", "&Detect again", "F5", "Run detection again on the selected documents",
      window.detect_selected, f)
    a("cancel", "&Cancel running work", "Esc", "Stop the running import, detection or export",
      window.controller.cancel, f)
    a("export", "&Export…", "Ctrl+E", "Export de-identified documents", window.export, f)
    a("export_review", "Export &review copy…", "Ctrl+Shift+E",
      "The original PDFs and scans with their highlight boxes, for a second reviewer "
      "(contains the original text)", window.export_review_copy, f)
    add_report_action(window, f)
    f.addSeparator()
    a("settings", "&Settings…", QKeySequence.StandardKey.Preferences
      if not QKeySequence(QKeySequence.StandardKey.Preferences).isEmpty() else "Ctrl+,",
      "Policy, replacement, detectors, models, threads", window.open_settings, f)
    a("close_project", "&Close project", "Ctrl+Shift+W", "Close the project",
      window.close_project, f)
    a("quit", "&Quit", "Ctrl+Q", "Quit ClearNote", window.close, f)

    e = mb.addMenu("&Edit")
    a("undo", "&Undo", "Ctrl+Z", "Undo the last review decision", window.controller.undo, e)
    a("redo", "&Redo", "Ctrl+Shift+Z", "Redo the decision you undid", window.controller.redo, e)
    a("find", "&Filter documents", "Ctrl+F", "Filter the document list by name",
      window._focus_filter, e)

    r = mb.addMenu("&Review")
    a("accept", "&Accept span", "A", "Accept: this span will be replaced",
      lambda: window.review_flow.decide(SpanStatus.ACCEPTED), r)
    a("reject", "&Reject span", "R", "Reject: this span stays as written",
      lambda: window.review_flow.decide(SpanStatus.REJECTED), r)
    a("next", "&Next candidate", "N", "Go to the next undecided span",
      window.review.next_candidate, r)
    a("prev", "&Previous candidate", "P", "Go to the previous undecided span",
      window.review.previous_candidate, r)
    a("uncertain", "Next &uncertain", "U",
      "Go to the most doubtful undecided span (low confidence or disagreement)",
      window.review.next_uncertain, r)
    a("add", "Add &span from selection", "S",
      "Mark the selected text as PHI with the chosen label", window.review.add_selection, r)
    a("label", "Change &label…", "L", "Give the current span another label (undoable)",
      window.review.choose_label, r)
    r.addSeparator()
    a("accept_all_doc", "Accept all occurrences in &document", "Shift+A",
      "Accept every occurrence of this text in the document",
      lambda: window.review.decide_all(SpanStatus.ACCEPTED, "document"), r)
    a("accept_all_proj", "Accept all occurrences in pro&ject", "Ctrl+Shift+A",
      "Accept every occurrence of this text in every document",
      lambda: window.review.decide_all(SpanStatus.ACCEPTED, "project"), r)
    a("reject_all_doc", "Reject all occurrences in d&ocument", "Shift+R",
      "Reject every occurrence of this text in the document",
      lambda: window.review.decide_all(SpanStatus.REJECTED, "document"), r)
    a("reject_all_proj", "Reject all occurrences in projec&t", "Ctrl+Shift+R",
      "Reject every occurrence of this text in every document",
      lambda: window.review.decide_all(SpanStatus.REJECTED, "project"), r)
    r.addSeparator()
    a("reviewed", "&Mark document reviewed", "Ctrl+Return",
      "Record that this document is reviewed and open the next one that needs review",
      window.mark_reviewed, r)
    a("next_document", "Next document needing re&view", "Shift+N",
      "Open the next document in the list that still has spans to review",
      lambda: window.review_flow.next_document(), r)

    v = mb.addMenu("&View")
    a("tab_review", "&Review", "Ctrl+1", "Show the review text",
      lambda: window.tabs.setCurrentIndex(REVIEW_TAB), v)
    a("tab_page", "&Page", "Ctrl+2", "Show the page image",
      lambda: window.tabs.setCurrentIndex(PAGE_TAB), v)
    a("tab_diff", "&Diff", "Ctrl+3", "Show original and de-identified side by side",
      lambda: window.tabs.setCurrentIndex(DIFF_TAB), v)
    v.addSeparator()
    a("bigger", "&Larger text / zoom in", "Ctrl+=",
      "Make the text larger (on the page: zoom in)", lambda: window._scale(1), v)
    a("smaller", "&Smaller text / zoom out", "Ctrl+-",
      "Make the text smaller (on the page: zoom out)", lambda: window._scale(-1), v)
    a("import_panel", "&Import panel", "Ctrl+J", "Show or hide the import panel",
      lambda: window.import_dock.setVisible(not window.import_dock.isVisible()), v)
