"""Review flow across documents and spans: the next document needing review (Shift+N),
mark reviewed and move on, a label change (L), and "all occurrences" actions that count
first, say how many they changed, and ask above a threshold."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMessageBox

from desktop.models.document_list import ID_ROLE
from desktop.records import DocumentEntry
from desktop.views.menus import DIFF_TAB, PAGE_TAB
from engine.api import DocumentStatus
from engine.core.domain import SpanStatus

if TYPE_CHECKING:
    from desktop.views.main_window import MainWindow

ASK_ABOVE = 10  # an "all occurrences" action changing more spans than this asks first
VERBS = {SpanStatus.ACCEPTED: ("Accept", "accepted"), SpanStatus.REJECTED: ("Reject", "rejected")}


def needs_review(entry: DocumentEntry) -> bool:
    st = entry.record.status
    return st is DocumentStatus.DETECTED or (st is DocumentStatus.EXPORTED
                                            and entry.candidates > 0)


class ReviewFlow(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.ask_box: QMessageBox | None = None
        c = window.controller
        window.review.allRequested.connect(self.request_all)
        window.review.labelRequested.connect(c.set_span_label)
        c.occurrencesCounted.connect(self._counted)
        c.occurrencesChanged.connect(self._changed)
        window.diff.statusRequested.connect(c.set_span_status)
        window.review.boxes.removeRequested.connect(c.remove_box)
        window.review.boxes.boxSelected.connect(self.show_box)
        c.spanChanged.connect(self._refresh_diff)
        table = window.review.table_view  # a table's cells and note spans
        table.statusRequested.connect(c.set_span_status)
        table.sheetRequested.connect(c.load_table_sheet)
        c.tableLoaded.connect(table.show_table)

    def show_box(self, box_id: str, page: int) -> None:
        """A box picked in the list: its page in the page view, the box selected."""
        self.window.tabs.setCurrentIndex(PAGE_TAB)
        self.window.page_view.select_box(box_id, page)

    # ------------------------------------------------------------------ decisions

    def decide(self, status: SpanStatus) -> None:
        """A / R: on the diff's selected span when the diff is shown, else on the review
        view's current span."""
        if self.window.tabs.currentIndex() == DIFF_TAB and self.window.diff.decide(status):
            return
        review = self.window.review
        if review.body.currentWidget() is review.table_view:
            review.table_view.note.decide(status)  # the selected note span or cell
            return
        review.decide(status)

    def _refresh_diff(self, document_id: str, _span: object) -> None:
        if self.window.tabs.currentIndex() == DIFF_TAB \
                and self.window.controller.current_id == document_id:
            self.window.controller.request_diff(document_id)

    def _say(self, message: str) -> None:
        self.window.statusBar().showMessage(message, 6000)

    # ------------------------------------------------------------------ documents

    def next_document(self, *, skip: str | None = None) -> str | None:
        """Open the next document (in list order, wrapping) that still needs review."""
        docs = self.window.documents
        ids = [str(docs.proxy.index(r, 0).data(ID_ROLE))
               for r in range(docs.proxy.rowCount())]
        by_id = {e.id: e for e in docs.model.entries()}
        current = self.window.controller.current_id
        start = ids.index(current) + 1 if current in ids else 0
        for doc_id in ids[start:] + ids[:start]:
            if doc_id not in (skip, current) and needs_review(by_id[doc_id]):
                docs.select_document(doc_id)
                return doc_id
        self._say("No other document needs review.")
        return None

    def mark_reviewed(self) -> None:
        """Record this document as reviewed and open the next one that needs review."""
        doc = self.window.review.document
        if doc is None:
            return
        self.window.controller.mark_reviewed(doc.id)
        if self.next_document(skip=doc.id) is not None:
            self._say("Marked reviewed; opened the next document that needs review.")

    # ------------------------------------------------------------------ all occurrences

    def request_all(self, span_id: str, status: SpanStatus, scope: str) -> None:
        self.window.controller.count_all(span_id, status, scope)

    def _counted(self, span_id: str, status: SpanStatus, scope: str, n: int, docs: int
                 ) -> None:
        verb, done = VERBS.get(status, ("Change", "changed"))
        where = "this document" if scope == "document" else \
            f"{docs} document{'s' if docs != 1 else ''}"
        if n == 0:
            self._say(f"Nothing to change: every occurrence is already {done}.")
            return
        if n <= ASK_ABOVE:
            self.window.controller.set_status_all(span_id, status, scope)
            return
        box = QMessageBox(QMessageBox.Icon.Question, f"{verb} all occurrences",
                          f"{verb} {n} spans in {where}? This is one action: "
                          "Undo (Ctrl+Z) brings them all back.",
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                          self.window)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)

        def answered(button: object) -> None:
            if box.standardButton(button) is QMessageBox.StandardButton.Yes:  # type: ignore[arg-type]
                self.window.controller.set_status_all(span_id, status, scope)
            else:
                self._say(f"Nothing {done}.")
            self.ask_box = None

        box.buttonClicked.connect(answered)
        self.ask_box = box
        box.open()

    def _changed(self, status: SpanStatus, scope: str, n: int) -> None:
        _verb, done = VERBS.get(status, ("Change", "changed"))
        where = "this document" if scope == "document" else "the project"
        self._say(f"{n} occurrence{'s' if n != 1 else ''} {done} in {where} "
                  "(one action: Ctrl+Z undoes it).")
