"""ProjectController: the GUI-thread object between views and the engine.

Views call its methods; each method submits a Task (worker thread) that calls the
``Project`` service and returns a frozen result, delivered back by signal. Nothing here
touches the database on the GUI thread.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

import engine.api as api
from desktop.controllers.drop_import import DropSummary, detect_in_batches, run_drop
from desktop.controllers.review_actions import ReviewActions
from desktop.controllers.table_import import load_table, preview_drop, table_stub
from desktop.flags import flag_entry
from desktop.records import DiffData, DiffFlag, DocumentEntry, LoadedDocument, entry_for
from desktop.tasks import Task, TaskRunner
from engine.api import (
    DocumentStatus,
    ExportReport,
    ImportReport,
    PipelineConfig,
    ProjectSettings,
    model_file_info,
)
from engine.core.context import RunContext
from engine.core.domain import Document
from engine.core.errors import PassphraseRequiredError, WrongPassphraseError
from engine.core.messages import display_name, reason_in_words

if TYPE_CHECKING:  # api.Project is read when a project is opened: the store and SQLAlchemy
    from engine.api import OpenWork, Project  # are not imported before the window shows

log = logging.getLogger(__name__)

PROJECT_SUFFIX = ".clearnote"


class ProjectController(ReviewActions, QObject):
    projectOpened = Signal(object)  # Path
    projectClosed = Signal()
    documentsChanged = Signal(list)  # list[DocumentEntry]
    documentChanged = Signal(object)  # DocumentEntry (one row refreshed)
    entriesChanged = Signal(object)  # list[DocumentEntry]: rows refreshed or added at once
    documentLoaded = Signal(object)  # LoadedDocument
    spanChanged = Signal(str, object)  # document id, Span (status changed or added)
    previewReady = Signal(str, str)  # span id, surrogate text
    diffReady = Signal(object)  # DiffData
    importStarted = Signal(list)  # list[Path] dropped
    importItem = Signal(str, str, str)  # path, state, detail
    tablesPreviewed = Signal(object)  # DropPreview: roles to confirm before import
    tableLoaded = Signal(object)  # TableData: another sheet of the open table
    dropFinished = Signal(object)  # DropSummary
    detectFinished = Signal(object)  # DetectReport
    exportFinished = Signal(object)  # ExportReport
    settingsChanged = Signal(object)  # ProjectSettings
    progress = Signal(str, int, int, str)  # stage, done, total, message
    error = Signal(str)  # a safe message
    passphraseRejected = Signal(object, bool)  # project path, a passphrase was given
    undoStateChanged = Signal(bool, bool)  # can undo, can redo
    busyChanged = Signal(bool)
    pageImage = Signal(str, int, object)  # document id, page, RenderedPage
    modelInfo = Signal(str)  # "name: size, sha256"
    reviewCopyWritten = Signal(int)  # review PDFs written
    exportPlanned = Signal(object)  # ExportPlan
    detectorsReady = Signal(bool)  # the pipeline is loaded (or failed to load)
    occurrencesCounted = Signal(str, object, str, int, int)  # span, status, scope, n, docs
    occurrencesChanged = Signal(object, str, int)  # status, scope, spans changed or added

    def __init__(self, parent: QObject | None = None, *, threads: int | None = None,
                 project_factory: Callable[..., Project] | None = None) -> None:
        super().__init__(parent)
        self.runner = TaskRunner(self, threads=threads)
        self.runner.busyChanged.connect(self.busyChanged)
        self.project: Project | None = None
        self.current_id: str | None = None
        self._create = project_factory
        self._long: Task | None = None  # the import/detect/export that Cancel stops

    # ------------------------------------------------------------------ lifecycle

    @property
    def is_open(self) -> bool:
        return self.project is not None

    def create_project(self, path: Path, *, policy: str = "strict",
                       pipeline: PipelineConfig | None = None, **kw: Any) -> None:
        path = Path(path)
        if path.suffix != PROJECT_SUFFIX:
            path = path.with_suffix(PROJECT_SUFFIX)
        self._run("project.create",
                  lambda ctx: (self._create or api.Project.create)(path, policy=policy,
                                                                   pipeline=pipeline, **kw),
                  self._opened)

    def open_project(self, path: Path, *, passphrase: str | None = None) -> None:
        """Open ``path``; an encrypted project needs its passphrase: when it is missing or
        wrong, ``passphraseRejected`` asks the view for (another) one."""
        def work(ctx: RunContext) -> Project | None:
            try:
                return api.Project.open(Path(path), passphrase=passphrase)
            except (WrongPassphraseError, PassphraseRequiredError):
                return None

        def done(project: Project | None) -> None:
            if project is None:
                self.passphraseRejected.emit(Path(path), passphrase is not None)
            else:
                self._opened(project)

        self._run("project.open", work, done)

    @staticmethod
    def is_encrypted(path: Path) -> bool:
        return api.Project.is_encrypted(path)

    def _opened(self, project: Project) -> None:
        self.close_project()
        self.project = project
        self.projectOpened.emit(Path(project.path))
        self.settingsChanged.emit(project.settings)
        self.refresh_documents()
        self._refresh_undo()
        self.warm_up()

    def warm_up(self) -> None:
        """Load the detectors now, in a worker, so the first batch does not wait for it
        (model and dictionary loading is the slowest single step), and run them once: the
        lists they read on first use hold the GIL, which stopped the window during a drop."""
        project = self._need()

        def load(ctx: RunContext) -> bool:
            project.session.warm_up()
            return True

        self._run("detectors.load", load, self.detectorsReady.emit, serial=True)

    def close_project(self) -> None:
        if self.project is None:
            return
        self.runner.cancel_all()
        self.runner.shutdown()
        project, self.project, self.current_id = self.project, None, None
        project.close()
        self.projectClosed.emit()

    def shutdown(self) -> None:
        self.close_project()
        self.runner.shutdown()

    # ------------------------------------------------------------------ queries

    def refresh_documents(self) -> None:
        project = self._need()
        self._run("documents", lambda ctx: self._entries(project), self.documentsChanged.emit)

    @staticmethod
    def _entries(project: Project, ids: Sequence[str] | None = None) -> list[DocumentEntry]:
        # The CIRE column counts the flags stored by the last CIRE run: the diff's own.
        flags = project.cire_flag_counts()
        return [entry_for(rec, project.spans(rec.id), sum(flags.get(rec.id, {}).values()))
                for rec in project.documents(ids=ids)]

    def _rows_of(self, project: Project) -> Callable[[list[str]], None]:
        """For a worker: the list rows of these documents, read there, sent in one signal."""
        return lambda ids: self.entriesChanged.emit(self._entries(project, ids))

    def _refresh_one(self, document_id: str) -> None:
        if self.project is None:  # a late result after the project was closed
            return
        project = self.project

        def work(ctx: RunContext) -> DocumentEntry | None:
            entries = self._entries(project, [document_id])
            return entries[0] if entries else None

        def show(entry: DocumentEntry | None) -> None:
            if entry is not None:
                self.documentChanged.emit(entry)

        self._run("document.refresh", work, show, serial=True)

    def load_document(self, document_id: str) -> None:
        project = self._need()
        self.current_id = document_id

        def work(ctx: RunContext) -> LoadedDocument:
            doc = project.load_document(document_id)
            table = load_table(project, doc)  # a table's first rows, their cells and spans
            return LoadedDocument(doc if table is None else table_stub(doc),
                                  tuple(project.spans(document_id)) if table is None else (),
                                  project.document(document_id).status,
                                  tuple(project.box_redactions(document_id)), table)

        self._run("document.load", work, self._loaded, serial=True)

    def _loaded(self, loaded: LoadedDocument) -> None:
        if loaded.document.id == self.current_id:  # ignore a stale load
            self.documentLoaded.emit(loaded)

    def request_preview(self, span_id: str) -> None:
        project = self._need()
        # surrogate_preview registers the surrogate (a write): worker thread, in order.
        self._run("span.preview", lambda ctx: (span_id, project.surrogate_preview(span_id)),
                  lambda r: self.previewReady.emit(*r), serial=True, quiet=True)

    def request_diff(self, document_id: str) -> None:
        project = self._need()

        def work(ctx: RunContext) -> DiffData:
            doc = project.load_document(document_id)
            deid = project.deidentify(document_id)
            flags, retention, notes = _cire(project, doc, deid)
            return DiffData(doc, deid, flags, retention, notes)

        def done(data: DiffData) -> None:
            self.diffReady.emit(data)
            self._refresh_one(document_id)  # the CIRE column shows the flags just stored

        self._run("diff", work, done, serial=True)

    def request_page(self, document_id: str, page: int) -> None:
        project = self._need()

        def work(ctx: RunContext) -> tuple[str, int, Any]:
            from desktop.render import render_page

            return document_id, page, render_page(project.load_document(document_id), page)

        self._run("page.render", work, lambda r: self.pageImage.emit(*r), quiet=True)

    def request_model_info(self, path: str) -> None:
        def work(ctx: RunContext) -> str:
            info = model_file_info(path, check=ctx.check)
            return f"{info.name}: {info.size / 1e6:,.1f} MB · sha256 {info.sha256[:16]}…"

        self._run("model.info", work, self.modelInfo.emit)

    # ------------------------------------------------------------------ long work

    def preview_tables(self, paths: Sequence[Path]) -> Task:
        """The tables of a drop (named, or inside dropped folders) with their inferred
        roles and first rows, for the role dialog: tablesPreviewed(DropPreview)."""
        paths = [Path(p) for p in paths]
        return self._run("table.preview", lambda ctx: preview_drop(paths),
                         self.tablesPreviewed.emit)

    def import_paths(self, paths: Sequence[Path], *, password: str | None = None,
                     detect: bool = True, table_schemas: Mapping[Path, Any] | None = None
                     ) -> Task:
        """Import dropped files/folders one item at a time (so each gets a status row);
        each item's documents join the list at once and are detected a few at a time
        (``drop_import``). Cancel stops between and inside items; dropFinished says what
        was done, counts that add up, and what was imported but not detected.
        ``table_schemas``: the roles confirmed for dropped tables, stored with them."""
        project = self._need()
        paths = [Path(p) for p in paths]
        self.importStarted.emit(paths)

        def work(ctx: RunContext) -> DropSummary:
            return run_drop(project, paths, ctx, password=password, detect=detect,
                            item=self.importItem.emit, entries=self._rows_of(project),
                            item_state=_item_state, table_schemas=table_schemas or {})

        def done(summary: DropSummary) -> None:
            self.dropFinished.emit(summary)
            self.refresh_documents()

        return self._run("import", work, done, long=True)

    def finish_detection(self, document_ids: Sequence[str]) -> Task:
        """Detect documents a cancelled drop imported but did not detect."""
        return self.detect(list(document_ids))

    def detect(self, document_ids: Sequence[str] | None = None) -> Task:
        """Detect the given documents a batch at a time, each batch's rows refreshed as it
        lands (``drop_import.detect_in_batches``); without ids, every imported document in
        one run (a document another process detected meanwhile is left alone)."""
        project = self._need()

        def work(ctx: RunContext) -> Any:
            if document_ids is None:
                return project.detect(None, ctx)
            return detect_in_batches(project, list(document_ids), ctx,
                                     self._rows_of(project))[0]

        def done(report: Any) -> None:
            self.detectFinished.emit(report)
            if self.project is not project:  # closed (or another opened) meanwhile
                return
            self.refresh_documents()
            if self.current_id:
                self.load_document(self.current_id)

        return self._run("detect", work, done, long=True)

    def plan_export(self, document_ids: Sequence[str] | None) -> Task:
        """What an export would write and what is still open in it (``exportPlanned``)."""
        project = self._need()
        return self._run("export.plan", lambda ctx: project.export_plan(document_ids),
                         self.exportPlanned.emit, serial=True)

    def export(self, document_ids: Sequence[str] | None, out_dir: Path,
               formats: Sequence[str], *, confirmed_open: Sequence[OpenWork] = ()) -> Task:
        """Export; ``confirmed_open``: open documents the reviewer chose to export anyway
        (recorded in the audit log first)."""
        project = self._need()

        def done(report: ExportReport) -> None:
            self.exportFinished.emit(report)
            self.refresh_documents()

        def work(ctx: RunContext) -> ExportReport:
            if confirmed_open:
                project.record_export_anyway(confirmed_open)
            return api.export_project_with_tables(project, document_ids, out_dir,
                                                  formats=formats, ctx=ctx)  # tables too

        return self._run("export", work, done, long=True)

    def export_review_copy(self, document_ids: Sequence[str] | None, out_dir: Path) -> Task:
        """``<document id>.review.pdf`` per PDF or scan: the page view's boxes on the
        original pages (``engine.api.export_review``)."""
        project = self._need()

        def work(ctx: RunContext) -> int:
            return len(api.export_review(project, out_dir, fmt="pdf",
                                         document_ids=list(document_ids or []) or None))

        return self._run("review.export", work, self.reviewCopyWritten.emit, long=True)

    def cancel(self) -> None:
        if self._long is not None:
            self._long.cancel()

    def update_settings(self, **changes: Any) -> None:
        project = self._need()
        self._run("settings", lambda ctx: project.update_settings(**changes),
                  self.settingsChanged.emit, serial=True)

    # ------------------------------------------------------------------ plumbing

    def _need(self) -> Project:
        if self.project is None:
            raise RuntimeError("no project is open")
        return self.project

    def _run(self, name: str, fn: Callable[[RunContext], Any], on_done: Callable[[Any], Any],
             *, serial: bool = False, long: bool = False, quiet: bool = False) -> Task:
        def failed(message: str) -> None:
            if not quiet:
                self.error.emit(f"{name}: {message}")

        task = self.runner.submit(name, fn, on_done=on_done, on_error=failed,
                                  on_progress=self.progress.emit if long else None,
                                  on_cancel=(lambda: self.progress.emit(name, 0, 0, "cancelled"))
                                  if long else None,
                                  serial=serial)
        if long:
            self._long = task
        return task


def _item_state(rep: ImportReport, dropped: Path) -> tuple[str, str]:
    if rep.failed:
        first = rep.failed[0]
        state = "encrypted" if first.reason.startswith("EncryptedDocumentError") else "failed"
        # In words, the file named relative to the dropped folder (issue 29, item 5).
        reason = reason_in_words(first.reason)
        if len(rep.failed) > 1 or rep.imported or dropped.is_dir():
            reason = (f"{len(rep.failed)} failed, {len(rep.imported)} imported; first: "
                      f"{display_name(first.path, [dropped])}: {reason}")
        return state, reason
    if rep.needs_review:
        return "needs review", (f"{len(rep.needs_review)} of {len(rep.imported)} document(s) "
                                "decoded with uncertainty: check the text")
    if rep.imported and rep.duplicates:
        return "imported", f"{len(rep.imported)} new, {len(rep.duplicates)} already present"
    if rep.imported:
        return "imported", f"{len(rep.imported)} document(s)"
    if rep.duplicates:
        return "duplicate", "already in the project"
    if rep.cancelled:
        return "cancelled", ""
    return "skipped", "no supported files"


def _cire(project: Project, doc: Document, deid: Any
          ) -> tuple[tuple[DiffFlag, ...], float | None, tuple[str, ...]]:
    """CIRE flags for the diff, computed (and stored in the project) by the engine."""
    report = project.retention(doc.id, deid)
    return tuple(flag_entry(f, doc, deid) for f in report.flags), report.retention_score, ()


__all__ = ["ProjectController", "DocumentStatus", "ProjectSettings"]
