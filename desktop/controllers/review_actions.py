"""The review half of ProjectController: span decisions, labels, manual spans, box
redactions, undo/redo and "all occurrences" with their count. A mixin so the controller
stays one object for the views (its signals and ``_run`` are the controller's)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from desktop.controllers.table_import import load_table
from engine.core.context import RunContext
from engine.core.domain import Span, SpanStatus
from engine.core.labels import Label

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    from desktop.tasks import Task
    from engine.api import Project


class ReviewActions:
    """Mixed into ProjectController (a QObject with the signals named here)."""

    if TYPE_CHECKING:
        current_id: str | None
        spanChanged: SignalInstance  # noqa: N815
        undoStateChanged: SignalInstance  # noqa: N815
        occurrencesCounted: SignalInstance  # noqa: N815
        occurrencesChanged: SignalInstance  # noqa: N815
        tableLoaded: SignalInstance  # noqa: N815

        def _need(self) -> Project: ...
        def _run(self, name: str, fn: Callable[[RunContext], Any],
                 on_done: Callable[[Any], Any], *, serial: bool = False,
                 long: bool = False, quiet: bool = False) -> Task: ...
        def _refresh_one(self, document_id: str) -> None: ...
        def load_document(self, document_id: str) -> None: ...
        def refresh_documents(self) -> None: ...

    def set_span_status(self, span_id: str, status: SpanStatus) -> None:
        project = self._need()
        doc_id = self.current_id or ""
        self._run("span.status", lambda ctx: project.set_span_status(span_id, status),
                  lambda span: self._span_done(doc_id, span), serial=True)

    def set_status_all(self, span_id: str, status: SpanStatus, scope: str) -> None:
        project = self._need()

        def done(n: int) -> None:
            self.occurrencesChanged.emit(status, scope, n)
            self._after_bulk(scope)

        self._run("span.occurrences",
                  lambda ctx: project.set_status_all_occurrences(span_id, status, scope=scope),
                  done, serial=True)

    def count_all(self, span_id: str, status: SpanStatus, scope: str) -> None:
        """How many spans an "all occurrences" action would change: occurrencesCounted."""
        project = self._need()
        self._run("span.count",
                  lambda ctx: project.count_all_occurrences(span_id, status, scope=scope),
                  lambda r: self.occurrencesCounted.emit(span_id, status, scope, *r),
                  serial=True)

    def set_span_label(self, span_id: str, label: Label) -> None:
        project = self._need()
        doc_id = self.current_id or ""
        self._run("span.label", lambda ctx: project.set_span_label(span_id, label),
                  lambda span: self._span_done(doc_id, span), serial=True)

    def add_span(self, document_id: str, start: int, end: int, label: Label) -> None:
        project = self._need()
        self._run("span.add", lambda ctx: project.add_manual_span(document_id, start, end, label),
                  lambda span: self._added(document_id, span), serial=True)

    def _added(self, document_id: str, span: Span) -> None:
        # The new span superseded what it overlapped: reload so those rows show it.
        self._span_done(document_id, span)
        if self.current_id == document_id:
            self.load_document(document_id)

    def load_table_sheet(self, document_id: str, sheet: int) -> None:
        """Another sheet of the open workbook, with its cells and spans: tableLoaded."""
        project = self._need()

        def work(ctx: RunContext) -> Any:
            return load_table(project, project.load_document(document_id), sheet=sheet)

        self._run("table.sheet", work, lambda data: self.tableLoaded.emit(data)
                  if data is not None and self.current_id == document_id else None,
                  serial=True)

    def mark_reviewed(self, document_id: str) -> None:
        project = self._need()
        self._run("document.reviewed", lambda ctx: project.mark_reviewed(document_id),
                  lambda rec: self._refresh_one(document_id), serial=True)

    def undo(self) -> None:
        project = self._need()
        self._run("undo", lambda ctx: project.undo(), self._after_history, serial=True)

    def redo(self) -> None:
        project = self._need()
        self._run("redo", lambda ctx: project.redo(), self._after_history, serial=True)

    def add_box(self, document_id: str, page: int,
                rect: tuple[float, float, float, float]) -> None:
        """Redact a rectangle drawn on a page (view space); undoable."""
        project = self._need()
        self._run("box.add", lambda ctx: project.add_box_redaction(document_id, page, rect),
                  lambda box: self._box_done(document_id), serial=True)

    def remove_box(self, document_id: str, box_id: str) -> None:
        project = self._need()
        self._run("box.remove", lambda ctx: project.remove_box_redaction(box_id),
                  lambda box: self._box_done(document_id), serial=True)

    def _box_done(self, document_id: str) -> None:
        if self.current_id == document_id:
            self.load_document(document_id)
        self._refresh_undo()

    def _span_done(self, document_id: str, span: Span) -> None:
        self.spanChanged.emit(document_id, span)
        self._refresh_one(document_id)
        self._refresh_undo()

    def _after_bulk(self, scope: str) -> None:
        if self.current_id:
            self.load_document(self.current_id)
        if scope == "project":
            self.refresh_documents()
        elif self.current_id:
            self._refresh_one(self.current_id)
        self._refresh_undo()

    def _after_history(self, change: Any) -> None:
        if change is not None:
            if self.current_id and self.current_id in change.document_ids:
                self.load_document(self.current_id)
            for doc_id in change.document_ids:
                self._refresh_one(doc_id)
        self._refresh_undo()

    def _refresh_undo(self) -> None:
        project = self._need()
        self._run("undo.state", lambda ctx: (project.can_undo, project.can_redo),
                  lambda r: self.undoStateChanged.emit(*r), serial=True, quiet=True)

